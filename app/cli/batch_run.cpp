// `batch ALGO`: the algorithm over every scene of a data set. Worker threads (one per
// --devices entry, else one) take scenes from a shared queue; each opens its next scene on a
// second thread while it computes the current one (I/O overlapped with compute), writes the
// map, scores it with eval::evaluate and appends its rows to the CSV (one write each). The
// CSV then is rewritten sorted and the JSON report built from it.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "batch.hpp"
#include "cli_common.hpp"
#include "driver.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "score_rows.hpp"

namespace lb::cli {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// Written now, not staged with the run's outputs: the CSV that rows are appended to.
void write_now(const std::string& path, const std::string& text) {
  OutputTransaction now;  // the innermost transaction of this thread: committed right here
  write_file_atomic(path, text);
  now.commit();
}

// The run's signature: the given parameters by name (their parsed values), sorted.
std::string params_signature(const GivenParams& given) {
  std::string s;
  for (const auto& [name, g] : given)
    s += (s.empty() ? "" : ";") + name + "=" + (g.none ? g.text : number_text(g.value));
  return s;
}

struct Opened {
  dataset::OpenedScene scene;
  std::string error;
  double open_ms = 0;
};

struct Progress {
  std::mutex mu;
  std::size_t done = 0, total = 0, failed = 0;
  Clock::time_point t0 = Clock::now();
  bool tty = isatty(fileno(stderr)) != 0;
  void scene_done(const std::string& name, const std::string& what) {
    std::lock_guard<std::mutex> lock(mu);
    ++done;
    const double s = ms_since(t0) / 1000.0;
    const double eta = done ? s / static_cast<double>(done) * static_cast<double>(total - done) : 0.0;
    if (!tty) {
      std::fprintf(stderr, "batch: %zu/%zu %s: %s\n", done, total, name.c_str(), what.c_str());
      return;
    }
    const int width = 30, fill = total ? static_cast<int>(width * done / total) : width;
    std::fprintf(stderr, "\r\033[K[%s%s] %zu/%zu  %.1f scenes/s  ETA %d:%02d  %s", std::string(fill, '#').c_str(),
                 std::string(width - fill, '.').c_str(), done, total, s > 0 ? done / s : 0.0,
                 static_cast<int>(eta) / 60, static_cast<int>(eta) % 60, name.c_str());
    if (done == total) std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
};

struct Shared {
  const BatchOptions* o = nullptr;
  const AlgorithmRegistry* reg = nullptr;
  const dataset::Dataset* ds = nullptr;
  BackendKind kind = BackendKind::Cpu;
  std::string variant, signature_params, primary_default;
  std::vector<std::string> header, metric_cols;
  std::vector<const dataset::SceneRef*> todo;
  std::atomic<std::size_t> next{0};
  std::mutex rows_mu;
  CsvAppender* appender = nullptr;
  std::vector<std::vector<std::string>> new_rows;
  double sum_ms[4] = {0, 0, 0, 0};  // open, compute, score, write of the computed scenes
  std::set<std::string> devices_used;
  Progress progress;
  bool iqa = false;
};

std::vector<std::string> blank_row(const Shared& sh, const dataset::SceneRef& ref) {
  std::vector<std::string> r(sh.header.size());
  r[0] = ref.name;
  r[1] = sh.o->spec->id;
  r[2] = sh.o->variant;
  r[3] = sh.signature_params;
  return r;
}

void emit(Shared& sh, std::vector<std::vector<std::string>> rows, const double ms[4], const std::string& name,
          const std::string& what, bool failed) {
  {
    std::lock_guard<std::mutex> lock(sh.rows_mu);
    if (sh.appender) sh.appender->append(rows);
    for (auto& r : rows) sh.new_rows.push_back(std::move(r));
    for (int i = 0; i < 4; ++i) sh.sum_ms[i] += ms[i];
  }
  if (failed) {
    std::lock_guard<std::mutex> lock(sh.progress.mu);
    ++sh.progress.failed;
  }
  sh.progress.scene_done(name, what);
}

// A computed scene on its way to the CSV: its map (or IQA score) and what scoring needs.
struct Computed {
  const dataset::SceneRef* ref = nullptr;
  Opened in;
  std::unique_ptr<HostSurface> out;
  double score = NAN;  // IQA: the runner's score
  double ms[4] = {0, 0, 0, 0};
};

void fail_scene(Shared& sh, const dataset::SceneRef& ref, const double ms[4], const std::string& msg) {
  std::vector<std::string> r = blank_row(sh, ref);
  r[sh.header.size() - 5] = msg;
  emit(sh, {r}, ms, ref.name, "error: " + msg, true);
}

// Stage 2 (the worker's thread): the primary output on this worker's runner. Returns false
// when the scene failed (its error row is written).
bool compute_scene(Shared& sh, Runner& runner, const dataset::SceneRef& ref, Computed& c) {
  const BatchOptions& o = *sh.o;
  const AlgorithmSpec& spec = *o.spec;
  c.ms[0] = c.in.open_ms;
  if (!c.in.error.empty()) return fail_scene(sh, ref, c.ms, c.in.error), false;
  try {
    const AlgorithmData& data = *c.in.scene.data;
    ParamValues values = complete_params(spec, data, checked_values(*o.given, spec, data));
    if (spec.validate) spec.validate(values, data);
    const std::string primary = primary_output(o.def, *o.given);
    const OutputInfo* info = spec.output(primary);
    LB_REQUIRE(info != nullptr, spec.id + ": no output '" + primary + "'");
    LB_REQUIRE(sh.iqa || info->format == SurfaceFormat::R32F, spec.id + ": its output '" + primary + "' is not a map");
    // HCI: scored with the run's border, as the compute commands' metrics and the runner's
    // own scores (15, less for a field under 60 px).
    if (c.in.scene.truth.protocol == eval::Protocol::Hci && values.count("border"))
      c.in.scene.truth.border = static_cast<int>(values.at("border"));
    const auto t0 = Clock::now();
    runner.set_data(c.in.scene.data);
    runner.forget_results();
    c.out = std::make_unique<HostSurface>(info->format);
    runner.run(values, sh.variant, primary, *c.out);
    runner.synchronize();
    c.ms[1] = ms_since(t0);
    if (sh.iqa) {
      const nlohmann::json sc = runner.scores();
      if (sc.contains(spec.id) && sc[spec.id].is_number()) c.score = sc[spec.id].get<double>();
      else
        for (const auto& [k, v] : sc.items())
          if (v.is_number()) {
            c.score = v.get<double>();
            break;
          }
      LB_REQUIRE(std::isfinite(c.score), spec.id + " gave no score");
    }
    return true;
  } catch (const std::exception& e) {
    fail_scene(sh, ref, c.ms, e.what());
    return false;
  }
}

// Stage 3 (a thread of its own, while the worker computes the next scene): the map files,
// eval::evaluate, the rows.
void finish_scene(Shared& sh, Computed& c) {
  const BatchOptions& o = *sh.o;
  const dataset::SceneRef& ref = *c.ref;
  const std::size_t map_col = sh.header.size() - 6;
  try {
    std::vector<std::vector<std::string>> rows;
    std::string what;
    if (sh.iqa) {
      std::vector<std::string> r = blank_row(sh, ref);
      r[5] = number_text(c.score);
      r[6] = number_text(ref.mos);
      rows.push_back(r);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s %.4f", o.spec->id.c_str(), c.score);
      what = buf;
    } else {
      const ImageF& map = c.out->scalar();
      std::string file;
      if (!o.out.empty()) {
        const auto t0 = Clock::now();
        file = ref.name + ".pfm";
        save_pfm((fs::path(o.out) / file).string(), map);
        if (ref.layout == dataset::Layout::Kitti)
          dataset::save_kitti_disparity((fs::path(o.out) / (ref.name + ".png")).string(), map);
        c.ms[3] = ms_since(t0);
      }
      nlohmann::json metrics = nlohmann::json::object();
      if (c.in.scene.has_truth) {
        const auto t0 = Clock::now();
        metrics = eval::evaluate(map, c.in.scene.truth);
        c.ms[2] = ms_since(t0);
      }
      for (const std::string& mask : masks_of(metrics)) {
        std::vector<std::string> r = blank_row(sh, ref);
        r[4] = mask;
        for (std::size_t k = 0; k < sh.metric_cols.size(); ++k)
          if (const auto& g = metrics[mask]; g.contains(sh.metric_cols[k])) r[5 + k] = metric_cell(g[sh.metric_cols[k]]);
        r[map_col] = file;
        rows.push_back(r);
        if (what.empty() && !r[5].empty()) what = mask + " " + sh.metric_cols[0] + " " + r[5];
      }
      if (rows.empty()) {  // no truth: the map alone
        std::vector<std::string> r = blank_row(sh, ref);
        r[map_col] = file;
        rows.push_back(r);
        what = "no truth";
      }
    }
    for (auto& r : rows)
      for (std::size_t i = 0; i < 4; ++i) r[sh.header.size() - 4 + i] = number_text(std::round(c.ms[i] * 1000) / 1000);
    char t[64];
    std::snprintf(t, sizeof t, " (%.1f ms)", c.ms[1]);
    emit(sh, std::move(rows), c.ms, ref.name, (what.empty() ? std::string("ok") : what) + t, false);
  } catch (const std::exception& e) {
    fail_scene(sh, ref, c.ms, e.what());
  }
}

Opened open_one(const dataset::SceneRef* ref, double gt_scale) {
  Opened r;
  const auto t0 = Clock::now();
  try {
    r.scene = dataset::open_scene(*ref, gt_scale);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  r.open_ms = ms_since(t0);
  return r;
}

// A worker: its own runner; the next scene is opened while this one computes.
void worker(Shared& sh, Runner* runner, int device) {
  {
    std::lock_guard<std::mutex> lock(sh.rows_mu);
    // CUDA: the device's ordinal with its name (two devices of one model stay apart).
    sh.devices_used.insert(sh.kind == BackendKind::Cuda ? std::to_string(device) + ": " + runner->device_name()
                                                        : runner->device_name());
  }
  auto take = [&]() -> const dataset::SceneRef* {
    const std::size_t i = sh.next++;
    return i < sh.todo.size() ? sh.todo[i] : nullptr;
  };
  const double scale = sh.o->gt_scale;
  // Three stages per worker: the next scenes open (stage 1, up to kAhead at once) and the
  // ones computed before are scored and written (stage 3, up to kFinishing at once) while
  // this one computes (stage 2): BP at 450x375 computes in ~2 ms on an H100/H200, less than
  // a PNG pair's decoding or the Middlebury v3 scoring take on one core.
  constexpr std::size_t kAhead = 3, kFinishing = 4;
  std::deque<std::pair<const dataset::SceneRef*, std::future<Opened>>> opening;
  std::deque<std::pair<std::unique_ptr<Computed>, std::future<void>>> finishing;
  auto fill = [&] {
    while (opening.size() < kAhead)
      if (const dataset::SceneRef* ref = take()) opening.emplace_back(ref, std::async(std::launch::async, open_one, ref, scale));
      else break;
  };
  fill();
  while (!opening.empty()) {
    auto c = std::make_unique<Computed>();
    c->ref = opening.front().first;
    c->in = opening.front().second.get();
    opening.pop_front();
    fill();
    const bool ok = compute_scene(sh, *runner, *c->ref, *c);
    c->in.scene.data.reset();  // the images are not needed past the runner
    if (finishing.size() == kFinishing) {
      finishing.front().second.get();
      finishing.pop_front();
    }
    if (ok) {
      Computed* job = c.get();
      finishing.emplace_back(std::move(c), std::async(std::launch::async, [&sh, job] { finish_scene(sh, *job); }));
    }
  }
  for (auto& f : finishing) f.second.get();
}

}  // namespace

void run_batch(const BatchOptions& o, const AlgorithmRegistry& reg) {
  const AlgorithmSpec& spec = *o.spec;
  // Every check that needs no data first.
  std::pair<int, int> shard{0, 1};
  if (!o.shard.empty()) shard = parse_shard(o.shard);
  if (!o.device.empty() && !o.devices.empty()) throw Error("--device and --devices exclude each other");
  const std::string dev_opt = !o.devices.empty() ? "--devices" : "--device";
  const std::vector<int> devices = !o.devices.empty() ? parse_devices(o.devices, "--devices")
                                   : !o.device.empty() ? parse_devices(o.device, "--device")
                                                       : std::vector<int>{};
  if (!o.device.empty() && devices.size() != 1) throw Error("--device '" + o.device + "': one device (several: --devices)");
  std::string reason;
  BackendKind kind = BackendKind::Cpu;
  if (!devices.empty()) {
    const BackendRequest req = parse_backend_request(o.backend);
    if (req == BackendRequest::Cpu) throw Error(dev_opt + " needs the CUDA backend (--backend cpu given)");
    std::string why;
    if (!reg.cuda_available(&why)) throw Error(dev_opt + " needs the CUDA backend: " + why);
    if (!spec.cuda) throw Error(dev_opt + " needs the CUDA backend: " + spec.id + " has no CUDA runner");
    const int count = reg.cuda_device_count();
    for (int d : devices)
      if (d >= count)
        throw Error(dev_opt + " " + std::to_string(d) + ": this machine has " + std::to_string(count) + " CUDA device" +
                    (count == 1 ? "" : "s"));
    kind = BackendKind::Cuda;
    reason = "CUDA: " + dev_opt + " " + (o.devices.empty() ? o.device : o.devices);
  } else {
    kind = choose_backend(reg, spec, o.backend, &reason);
  }
  std::string variant;
  try {
    variant = spec.variant_for(kind, o.variant, o.backend == "cpu");
  } catch (const Error& e) {
    throw Error(std::string("--variant: ") + e.what());
  }
  for (const auto* p : {&o.csv, &o.json})
    if (!p->empty()) check_output_path(*p, p == &o.csv ? "--csv" : "--json");
  if (!o.csv.empty() && !o.json.empty() && fs::absolute(o.csv).lexically_normal() == fs::absolute(o.json).lexically_normal())
    throw Error("--csv '" + o.csv + "': the same file as --json (each output needs its own path)");

  progress("batch: opening " + o.dataset + " ...");
  const dataset::Dataset ds = dataset::open_dataset(o.dataset, o.layout);
  progress_done();
  const DataKind dk = dataset::data_kind(ds.layout);
  if (dk != spec.data)
    throw Error("batch " + spec.id + ": '" + o.dataset + "' is a " + dataset::to_string(ds.layout) + " data set (" +
                to_string(dk) + "); " + spec.id + " runs on " + to_string(spec.data));
  Shared sh;
  sh.o = &o;
  sh.reg = &reg;
  sh.ds = &ds;
  sh.kind = kind;
  sh.variant = variant;
  sh.signature_params = params_signature(*o.given);
  sh.iqa = dk == DataKind::ImagePair;
  if (sh.iqa) {
    sh.metric_cols = {"score", "mos"};
  } else {
    std::vector<std::string> keys;
    for (const auto& s : ds.scenes) {
      eval::Protocol p;
      if (protocol_of(s.layout, &p))
        for (const auto& k : metric_keys(p)) keys.push_back(k);
    }
    sh.metric_cols = ordered_keys(keys);
    if (o.out.empty()) throw Error("batch " + spec.id + ": give --out DIR for the maps");
    std::error_code ec;
    if (fs::exists(o.out, ec) && !fs::is_directory(o.out, ec)) throw Error("--out '" + o.out + "': exists and is not a folder");
    fs::create_directories(o.out, ec);
    if (ec) throw Error("--out '" + o.out + "': cannot create the folder (" + ec.message() + ")");
    check_output_path((fs::path(o.out) / ".lightbench-probe").string(), "--out");
  }
  sh.header = batch_header(sh.metric_cols);

  // Resume: the rows already in the CSV of this signature are done (error rows are retried).
  CsvTable kept;
  kept.header = sh.header;
  std::set<std::string> done;
  std::error_code ec;
  if (!o.csv.empty() && !o.no_resume && fs::exists(o.csv, ec)) {
    CsvTable old = read_csv(o.csv, "--csv", true);
    if (old.header != sh.header)
      throw Error("--csv '" + o.csv + "': its columns are not this batch's (another data set or algorithm?); give another "
                  "file or --no-resume");
    // A scene of this signature is done when its rows are whole: one row without a mask (no
    // truth), or a row for each mask of its protocol. Error rows and scenes cut short by a
    // kill are run again.
    const std::size_t err_col = sh.header.size() - 5;
    std::map<std::string, std::vector<std::vector<std::string>>> mine;
    for (auto& r : old.rows) {
      if (r[1] == spec.id && r[2] == o.variant && r[3] == sh.signature_params) mine[r[0]].push_back(std::move(r));
      else kept.rows.push_back(std::move(r));
    }
    std::map<std::string, const dataset::SceneRef*> by_name;
    for (const auto& s : ds.scenes) by_name[s.name] = &s;
    for (auto& [scene, rows] : mine) {
      bool whole = true;
      std::set<std::string> masks;
      for (const auto& r : rows) {
        whole = whole && r[err_col].empty();
        masks.insert(r[4]);
      }
      const auto it = by_name.find(scene);
      eval::Protocol p;
      if (whole && it != by_name.end() && !(rows.size() == 1 && rows[0][4].empty())) {
        const std::vector<std::string> want = protocol_of(it->second->layout, &p) ? protocol_masks(p)
                                                                                  : std::vector<std::string>{};
        whole = masks == std::set<std::string>(want.begin(), want.end()) && rows.size() == want.size();
      }
      if (!whole) continue;
      done.insert(scene);
      for (auto& r : rows) kept.rows.push_back(std::move(r));
    }
  }
  if (!o.csv.empty()) write_now(o.csv, csv_text(kept));
  std::size_t resumed = 0, in_shard = 0;
  for (std::size_t i = 0; i < ds.scenes.size(); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(shard.second)) != shard.first) continue;
    ++in_shard;
    if (done.count(ds.scenes[i].name)) ++resumed;
    else sh.todo.push_back(&ds.scenes[i]);
  }
  std::unique_ptr<CsvAppender> app;
  if (!o.csv.empty()) app = std::make_unique<CsvAppender>(o.csv);
  sh.appender = app.get();
  sh.progress.total = sh.todo.size();
  std::printf("batch: %s on %s (%s, %zu scenes%s): %zu to run, %zu already in %s; %s\n", spec.id.c_str(),
              ds.root.c_str(), dataset::to_string(ds.layout), ds.scenes.size(),
              o.shard.empty() ? "" : (", shard " + o.shard + ": " + std::to_string(in_shard)).c_str(), sh.todo.size(),
              resumed, o.csv.empty() ? "(no --csv)" : o.csv.c_str(), reason.c_str());
  std::fflush(stdout);

  // The runners (a CUDA context per device) before the clock starts: the throughput is the
  // scenes'.
  std::vector<std::exception_ptr> errors(devices.empty() ? 1 : devices.size());
  std::vector<std::unique_ptr<Runner>> runners;
  for (std::size_t w = 0; w < errors.size(); ++w)
    runners.push_back(reg.make_runner(spec.id, kind, devices.empty() ? 0 : devices[w]));
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (std::size_t w = 0; w < errors.size(); ++w)
    threads.emplace_back([&, w] {
      try {
        worker(sh, runners[w].get(), devices.empty() ? 0 : devices[w]);
      } catch (...) {
        errors[w] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  const double wall_s = ms_since(t0) / 1000.0;
  if (app) app->close();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);

  CsvTable all = kept;
  for (auto& r : sh.new_rows) all.rows.push_back(r);
  sort_batch_rows(all);
  if (!o.csv.empty()) write_file_atomic(o.csv, csv_text(all));  // staged: renamed at the end with --json

  nlohmann::json j = batch_json(all, spec.id, o.variant, sh.signature_params);
  const std::size_t computed = sh.todo.size();
  const double sum = sh.sum_ms[0] + sh.sum_ms[1] + sh.sum_ms[2] + sh.sum_ms[3];
  auto share = [&](double x) { return sum > 0 ? x / sum : 0.0; };
  nlohmann::json run = {{"dataset", ds.root},
                        {"layout", dataset::to_string(ds.layout)},
                        {"backend", to_string(kind)},
                        {"backend_reason", reason},
                        {"devices", std::vector<std::string>(sh.devices_used.begin(), sh.devices_used.end())},
                        {"workers", errors.size()},
                        {"shard", o.shard.empty() ? "0/1" : o.shard},
                        {"out", o.out},
                        {"scenes", in_shard},
                        {"computed", computed},
                        {"resumed", resumed},
                        {"failed_now", sh.progress.failed},
                        {"wall_s", wall_s},
                        {"scenes_per_s", wall_s > 0 ? computed / wall_s : 0.0},
                        {"open_ms", sh.sum_ms[0]},
                        {"compute_ms", sh.sum_ms[1]},
                        {"score_ms", sh.sum_ms[2]},
                        {"write_ms", sh.sum_ms[3]},
                        {"io_share", share(sh.sum_ms[0] + sh.sum_ms[3])},
                        {"compute_share", share(sh.sum_ms[1])},
                        {"score_share", share(sh.sum_ms[2])},
                        // The share of the wall time the workers spent computing: near 1 the
                        // batch is compute-bound (I/O and scoring hidden behind it).
                        {"compute_busy", wall_s > 0 ? sh.sum_ms[1] / (wall_s * 1000.0 * static_cast<double>(errors.size())) : 0.0}};
  j["run"] = run;
  if (!sh.iqa) {
    const RowLayout l = row_layout(all, sh.metric_cols);
    CsvTable mine;
    mine.header = all.header;
    for (const auto& r : all.rows)
      if (r[1] == spec.id && r[2] == o.variant && r[3] == sh.signature_params) mine.rows.push_back(r);
    print_table(mine, l, j["summary"]);
  } else if (j.contains("correlation")) {
    std::printf("%s vs %s: srocc %.4f  krocc %.4f  plcc %.4f  (%d images)\n", spec.id.c_str(),
                ds.is_dmos ? "DMOS" : "MOS", j["correlation"]["srocc"].get<double>(),
                j["correlation"]["krocc"].get<double>(), j["correlation"]["plcc"].get<double>(),
                j["correlation"].value("n", 0));
  } else {
    std::printf("correlation: %s\n", j.value("correlation_error", std::string()).c_str());
  }
  std::printf("batch: %zu computed in %.2f s (%.2f scenes/s), %zu resumed, %d failed; time in I/O %.0f %%, compute "
              "%.0f %%, scoring %.0f %%; workers computing %.0f %% of the wall time\n",
              computed, wall_s, wall_s > 0 ? computed / wall_s : 0.0, resumed, j["failed"].get<int>(),
              100 * share(sh.sum_ms[0] + sh.sum_ms[3]), 100 * share(sh.sum_ms[1]), 100 * share(sh.sum_ms[2]),
              100 * run["compute_busy"].get<double>());
  if (!o.json.empty()) {
    try {
      write_file_atomic(o.json, j.dump(2) + "\n");
    } catch (const Error& e) {
      throw Error(std::string("--json ") + e.what());
    }
  }
  if (j["failed"].get<int>() > 0) set_exit_status(1);
}

}  // namespace lb::cli
