// Soak mode: see soak.hpp. The driver changes what the panel, the pane headers, the mouse and
// the window would change (ViewerApp's own state), then lets ViewerApp::run() draw the frame.
#include "soak.hpp"

#include <epoxy/gl.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "param_widgets.hpp"
#include "viewer_app.hpp"

#include "lightbench/gl/device_buffer.hpp"

namespace lb::viewer {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double mib(double bytes) { return bytes / kMiB; }

// Device memory in use (total - free), -1 when it cannot be read or this is a CPU build.
std::int64_t device_used_bytes() { return gl::device_memory_used(); }

const char* gl_error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "GL error";
  }
}

}  // namespace

std::uint64_t host_rss_bytes() {
  std::ifstream f("/proc/self/statm");
  std::uint64_t size = 0, resident = 0;
  if (!(f >> size >> resident)) return 0;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

// Bytes malloc has handed out and not had back (arena chunks in use + mmapped chunks): live
// heap, free of what the allocator or the GL driver keeps mapped. A leak in our code climbs
// here; RSS also swings with allocator retention and driver caches (docs/RELIABILITY.md).
std::uint64_t host_heap_bytes() {
  const struct mallinfo2 mi = mallinfo2();
  return static_cast<std::uint64_t>(mi.uordblks) + static_cast<std::uint64_t>(mi.hblkhd);
}

SoakDriver::SoakDriver(ViewerApp& app, SoakConfig config)
    : app_(app), cfg_(std::move(config)), rng_(cfg_.seed) {
  LB_REQUIRE(cfg_.steps >= 1, "--soak expects at least 1 step, got " + std::to_string(cfg_.steps));
  sample_every_ = std::max(1, cfg_.steps / 100);
  // Warm-up: the first half of the steps. The state space (algorithm x backend x outputs x
  // parameter extremes x window sizes) takes thousands of steps to visit, and an engine keeps
  // the buffers of the largest state it has met (a high-water mark, flat once reached); the
  // memory before that is not a baseline. 20 % was too short once a fifth algorithm came:
  // the 10000-step CUDA run at 693fcc5 first met the light field's largest state at step
  // 2099 (+1.1 GiB on the device, flat to the end, the live heap -2 MiB; docs/RELIABILITY.md).
  // A leak still has the second half (5000 steps of a 10000-step run) to show.
  warmup_ = std::max(static_cast<int>(app_.algorithms_.size()),
                     static_cast<int>(std::ceil(cfg_.steps * 0.50)));
  visited_.assign(app_.algorithms_.size(), false);
  const char* trace = std::getenv("LB_SOAK_TRACE");
  trace_ = trace && std::string(trace) == "1";
  make_bad_inputs();
  while (glGetError() != GL_NO_ERROR) ++gl_errors_;  // errors of the start-up count too
  if (gl_errors_ > 0) failures_.push_back(std::to_string(gl_errors_) + " GL error(s) at start-up");
  t0_ = std::chrono::steady_clock::now();
  sample(0);
}

SoakDriver::~SoakDriver() {
  std::error_code ec;
  if (!bad_dir_.empty()) std::filesystem::remove_all(bad_dir_, ec);
}

void SoakDriver::make_bad_inputs() {
  bad_dir_ = std::filesystem::temp_directory_path() /
             ("lightbench-soak-" + std::to_string(static_cast<long>(getpid())));
  std::filesystem::create_directories(bad_dir_ / "lf_missing_view");
  auto spit = [](const std::filesystem::path& p, const std::string& bytes) {
    std::ofstream f(p, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    LB_REQUIRE(f.good(), "soak: cannot write " + p.string());
  };
  // A PNG signature and IHDR start, then garbage.
  spit(bad_dir_ / "corrupt.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x10\0", 20) +
                                     std::string(64, '\x5a'));
  spit(bad_dir_ / "text.png", "this is a text file, not a PNG\n");
  // A 2x2 view_U_V grid with view_1_0 missing.
  ImageU8 view(8, 8, 3, 128);
  for (const char* name : {"view_0_0.png", "view_0_1.png", "view_1_1.png"})
    save_image((bad_dir_ / "lf_missing_view" / name).string(), view);
  // A good map for the panes' file source (a ramp with an invalid pixel).
  ImageF map(16, 12, 1);
  for (std::size_t i = 0; i < map.data.size(); ++i) map.data[i] = 0.25f * static_cast<float>(i % 40);
  map.data[5] = std::nanf("");
  save_pfm((bad_dir_ / "map.pfm").string(), map);
  // A calibration .xml dropped alone applies to the open raw: a broken one is a bad drop.
  spit(bad_dir_ / "broken.xml", "<RayCalibData><diameter>twelve</diameter>");
  bad_paths_ = {(bad_dir_ / "missing.png").string(), (bad_dir_ / "corrupt.png").string(),
                (bad_dir_ / "text.png").string(), (bad_dir_ / "lf_missing_view").string(),
                (bad_dir_ / "broken.xml").string()};
}

std::uint64_t SoakDriver::pick(std::uint64_t n) { return n == 0 ? 0 : rng_() % n; }

double SoakDriver::uniform(double lo, double hi) {
  const double u = static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0);
  return lo + (hi - lo) * u;
}

bool SoakDriver::device_sampling() { return app_.pool_.cuda_possible(nullptr); }

void SoakDriver::sample(int step) {
  malloc_trim(0);  // freed heap back to the OS: RSS then follows live memory, not the allocator
  Sample s{step, host_rss_bytes(), device_sampling() ? device_used_bytes() : -1, host_heap_bytes()};
  rss_peak_ = std::max(rss_peak_, s.rss);
  heap_peak_ = std::max(heap_peak_, s.heap);
  device_peak_ = std::max(device_peak_, s.device);
  samples_.push_back(s);
}

std::string SoakDriver::step_param() {
  Algorithm& algo = app_.algorithm();
  const std::vector<ParamInfo> params = algo.live_params();
  if (params.empty()) return "param";
  const ParamInfo& p = params[pick(params.size())];
  double v = 0;
  if (p.kind == ParamInfo::Kind::Bool) {
    v = static_cast<double>(pick(2));
  } else {
    switch (pick(4)) {
      case 0: v = p.min; break;
      case 1: v = p.max; break;
      default: v = uniform(p.min, p.max); break;
    }
    if (p.kind == ParamInfo::Kind::Int) v = std::round(v);
  }
  set_param_value(p, v);  // what the panel's slider does
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %s=%g", algo.name().c_str(), p.name.c_str(), param_value(p));
  detail_ = buf;
  return "param";
}

std::string SoakDriver::step_algorithm(int index) {
  app_.algorithm_index_ = index;  // what the panel's algorithm combo does
  detail_ = app_.algorithms_[index]->name();
  return "algorithm";
}

std::string SoakDriver::step_variant() {
  Algorithm& algo = app_.algorithm();
  const auto names = algo.variants();
  if (!names.empty()) {
    const int v = static_cast<int>(pick(names.size()));
    algo.set_variant(v);
    detail_ = algo.name() + " " + names[v];
  }
  return "variant";
}

std::string SoakDriver::step_backend() {
  const bool cuda = app_.pool_.cuda_possible(nullptr);
  ImagePane& pane = app_.panes_[pick(2)];
  const BackendSlot slots[] = {BackendSlot::Selected, BackendSlot::Cpu, BackendSlot::Cuda};
  pane.source.backend = slots[pick(cuda ? 3 : 2)];
  detail_ = std::string("pane ") + (pane.index() == 0 ? "A " : "B ") + to_string(pane.source.backend);
  if (cuda && pick(4) == 0) {
    app_.state_.use_interop = !app_.state_.use_interop;  // the panel's interop switch
    for (auto& p : app_.panes_) p.rendered_key.clear();
  }
  return "backend";
}

std::string SoakDriver::step_pane() {
  Algorithm& algo = app_.algorithm();
  if (pick(4) == 0) {
    app_.state_.diff = !app_.state_.diff;  // the D key / the panel's check box
    detail_ = app_.state_.diff ? "difference on" : "difference off";
    return "pane";
  }
  ImagePane& pane = app_.panes_[pick(2)];
  if (pick(6) == 0) {
    // A file as the pane's source (foreign_map.hpp): a good map, or a bad file that must be
    // reported as a bad drop is; the signed difference switched with it.
    const std::uint64_t k = pick(3);
    pane.source.file = k == 0 ? (bad_dir_ / "map.pfm").string() : bad_paths_[pick(2)];  // missing / corrupt
    pane.foreign.loaded.clear();
    app_.state_.signed_diff = !app_.state_.signed_diff;
    detail_ = std::string("pane ") + (pane.index() == 0 ? "A " : "B ") + "file " + pane.source.file;
    if (k != 0) {
      drop_pending_check_ = true;
      reports_before_ = app_.reports_;
    }
    return "pane";
  }
  pane.source.file.clear();
  const auto outs = algo.outputs();
  if (!outs.empty()) pane.source.output = outs[pick(outs.size())].name;
  const auto variants = algo.variants();
  pane.source.run.variant = static_cast<int>(pick(variants.size() + 1)) - 1;  // -1: the panel's
  detail_ = std::string("pane ") + (pane.index() == 0 ? "A " : "B ") + pane.source.output + " variant " +
            std::to_string(pane.source.run.variant);
  return "pane";
}

std::string SoakDriver::step_view() {
  PaneView& v = app_.views_[pick(2)];
  switch (pick(5)) {
    case 0: v.pending = PaneView::Pending::Fit; break;
    case 1: v.pending = PaneView::Pending::OneToOne; break;
    case 2:
    case 3:
      view_zoom_at(v, uniform(-200, 1200), uniform(-200, 800), static_cast<int>(pick(13)) - 6);
      break;
    default:
      v.t.offset_x += uniform(-500, 500);
      v.t.offset_y += uniform(-500, 500);
      break;
  }
  app_.leader_ = static_cast<int>(pick(2));
  return "view";
}

std::string SoakDriver::step_resize() {
  static const int sizes[][2] = {{1, 1},     {2, 3},     {64, 48},    {300, 200}, {1600, 900},
                                 {2600, 1500}, {120, 900}, {900, 60}, {1, 700}};
  const std::uint64_t k = pick(std::size(sizes) + 1);
  const int w = k == std::size(sizes) ? app_.opt_.width : sizes[k][0];
  const int h = k == std::size(sizes) ? app_.opt_.height : sizes[k][1];
  app_.window_.set_size(w, h);
  detail_ = std::to_string(w) + "x" + std::to_string(h);
  return "resize";
}

std::string SoakDriver::step_drop() {
  drops_.push_back(bad_paths_[pick(bad_paths_.size())]);
  detail_ = drops_.back();
  drop_pending_check_ = true;
  reports_before_ = app_.reports_;
  return "drop";
}

bool SoakDriver::before_frame() {
  // A dropped path loads off the UI thread (data_loader.hpp): no new step until its load
  // finished and its error was checked (a later drop would supersede it unseen).
  if (drop_pending_check_ && app_.loads_pending()) return true;
  if (step_ >= cfg_.steps) return false;
  std::string kind;
  detail_.clear();
  const int n_algo = static_cast<int>(app_.algorithms_.size());
  if (step_ < n_algo) {
    kind = step_algorithm(step_);  // the warm-up visits every algorithm first
  } else if (step_ == cfg_.steps - 1) {
    // The last step restores the start size, so the final sample compares like with like.
    app_.window_.set_size(app_.opt_.width, app_.opt_.height);
    kind = "resize";
    detail_ = std::to_string(app_.opt_.width) + "x" + std::to_string(app_.opt_.height) + " (last step)";
  } else {
    // Weights per step kind (out of 100). Switching algorithms recomputes both panes (the
    // light field's CAE depth takes seconds on the CPU), so it is the rarest change.
    const std::uint64_t r = pick(100);
    if (r < 25) kind = step_param();
    else if (r < 28) kind = step_algorithm(static_cast<int>(pick(n_algo)));
    else if (r < 36) kind = step_variant();
    else if (r < 42) kind = step_backend();
    else if (r < 54) kind = step_pane();
    else if (r < 66) kind = step_view();
    else if (r < 74) kind = step_resize();
    else if (r < 80) kind = step_drop();
    else kind = "render";
  }
  ++counts_[kind];
  step_t0_ = std::chrono::steady_clock::now();
  current_kind_ = kind;
  ++step_;
  if (trace_)  // with the device's use (MiB) as this step starts: where memory jumps
    std::fprintf(stderr, "soak step %d: %s %s [algorithm %s, device %.0f MiB]\n", step_, kind.c_str(),
                 detail_.c_str(), app_.algorithm().name().c_str(),
                 device_sampling() ? static_cast<double>(device_used_bytes()) / 1048576.0 : -1.0);
  return true;
}

std::vector<std::string> SoakDriver::take_drops() {
  std::vector<std::string> out;
  out.swap(drops_);
  return out;
}

void SoakDriver::after_frame() {
  const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - step_t0_).count();
  seconds_[current_kind_] += dt;
  algo_seconds_[app_.algorithm().name()] += dt;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
    ++gl_errors_;
    if (gl_errors_ <= 10) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "step %d (%s %s): %s (0x%04x)", step_, current_kind_.c_str(),
                    detail_.c_str(), gl_error_name(e), static_cast<unsigned>(e));
      failures_.push_back(buf);
      std::fprintf(stderr, "lightbench: soak: %s\n", buf);
    }
  }
  if (drop_pending_check_ && !app_.loads_pending()) {
    drop_pending_check_ = false;
    if (app_.reports_ == reports_before_ || app_.state_.error.empty()) {
      ++drops_unreported_;
      failures_.push_back("step " + std::to_string(step_) + ": the bad drop of " + detail_ +
                          " showed no error");
    }
  }
  const int n_algo = static_cast<int>(app_.algorithms_.size());
  if (app_.algorithm_index_ >= 0 && app_.algorithm_index_ < n_algo) visited_[app_.algorithm_index_] = true;
  if (!have_baseline_ && step_ >= warmup_ &&
      std::all_of(visited_.begin(), visited_.end(), [](bool b) { return b; })) {
    // The baseline is the warm-up's high-water mark (RSS swings with the window size and
    // the shown outputs; a leak keeps climbing past it).
    sample(step_);
    baseline_ = samples_.back();
    for (const Sample& s : samples_) {
      baseline_.rss = std::max(baseline_.rss, s.rss);
      baseline_.heap = std::max(baseline_.heap, s.heap);
      baseline_.device = std::max(baseline_.device, s.device);
    }
    have_baseline_ = true;
  } else if (step_ % sample_every_ == 0 && step_ < cfg_.steps) {
    sample(step_);
  }
  // Progress every 10% (long soaks): step, seconds, latest RSS.
  if (cfg_.steps >= 1000 && step_ % (cfg_.steps / 10) == 0 && step_ < cfg_.steps) {
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    std::fprintf(stderr, "lightbench: soak step %d/%d, %.0f s, rss %.1f MiB (peak %.1f)\n", step_,
                 cfg_.steps, t, mib(samples_.back().rss), mib(rss_peak_));
  }
}

void SoakDriver::frame_threw(const std::string& what) {
  failures_.push_back("step " + std::to_string(step_) + " (" + current_kind_ + " " + detail_ +
                      "): the frame threw: " + what);
}

int SoakDriver::finish() {
  using nlohmann::json;
  errors_shown_ = app_.reports_;
  sample(step_);
  const Sample& end = samples_.back();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  const Sample& start = samples_.front();
  const Sample& base = have_baseline_ ? baseline_ : start;
  const double host_growth = static_cast<double>(end.rss) - static_cast<double>(base.rss);
  // A run shorter than its warm-up has no baseline: memory is reported, not judged.
  // The live heap is the leak detector (bound HOST); RSS gets twice that: it also holds what
  // the allocator and the GL / CUDA drivers keep mapped, which creeps towards a plateau (on
  // the H100, 10000 steps: +3.3 MiB heap, +48.2 MiB RSS; docs/RELIABILITY.md).
  const double rss_bound_mib = 2.0 * cfg_.host_bound_mib;
  if (have_baseline_ && host_growth > rss_bound_mib * kMiB) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "host RSS grew %.1f MiB after the warm-up (bound %.0f MiB)",
                  mib(host_growth), rss_bound_mib);
    failures_.push_back(buf);
  }
  const double heap_growth = static_cast<double>(end.heap) - static_cast<double>(base.heap);
  if (have_baseline_ && heap_growth > cfg_.host_bound_mib * kMiB) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "live heap grew %.1f MiB after the warm-up (bound %.0f MiB)",
                  mib(heap_growth), cfg_.host_bound_mib);
    failures_.push_back(buf);
  }
  double device_growth = 0;
  if (have_baseline_ && end.device >= 0 && base.device >= 0) {
    device_growth = static_cast<double>(end.device - base.device);
    if (device_growth > cfg_.device_bound_mib * kMiB) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "device memory grew %.1f MiB after the warm-up (bound %.0f MiB)",
                    mib(device_growth), cfg_.device_bound_mib);
      failures_.push_back(buf);
    }
  }
  const bool passed = failures_.empty();

  json samples = json::array();
  for (const Sample& s : samples_) samples.push_back({s.step, s.rss, s.device, s.heap});
  json device = nullptr;
  if (end.device >= 0)
    device = {{"start", start.device}, {"baseline", base.device}, {"peak", device_peak_},
              {"end", end.device},     {"growth", device_growth},
              {"bound", static_cast<std::int64_t>(cfg_.device_bound_mib * kMiB)}};
  const json report = {
      {"passed", passed},
      {"steps", step_},
      {"seed", cfg_.seed},
      {"seconds", seconds},
      {"window", app_.window_.description()},
      {"backend", to_string(app_.pool_.selected())},
      {"step_counts", counts_},
      {"step_seconds", seconds_},
      {"algorithm_seconds", algo_seconds_},
      {"warmup_steps", base.step},
      {"memory_checked", have_baseline_},
      {"rss",
       {{"start", start.rss}, {"baseline", base.rss}, {"peak", rss_peak_}, {"end", end.rss},
        {"growth", host_growth}, {"bound", static_cast<std::int64_t>(rss_bound_mib * kMiB)}}},
      {"heap",
       {{"start", start.heap}, {"baseline", base.heap}, {"peak", heap_peak_}, {"end", end.heap},
        {"growth", heap_growth}, {"bound", static_cast<std::int64_t>(cfg_.host_bound_mib * kMiB)}}},
      {"device", device},
      {"gl_errors", gl_errors_},
      {"errors_shown", errors_shown_},
      {"drops", counts_.count("drop") ? counts_.at("drop") : 0},
      {"drops_unreported", drops_unreported_},
      {"failures", failures_},
      {"samples_step_rss_device_heap", samples}};
  int rc = passed ? 0 : 1;
  if (!cfg_.report.empty()) {
    try {
      std::ofstream f(cfg_.report);
      f << report.dump(2) << "\n";
      f.close();
      LB_REQUIRE(f.good(), "cannot write the soak report '" + cfg_.report + "'");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "lightbench: %s\n", safe_line(e.what()).c_str());
      rc = 1;
    }
  }
  char dev[160] = "device n/a";
  if (end.device >= 0)
    std::snprintf(dev, sizeof dev, "device %.1f/%.1f/%.1f MiB (%+.1f)", mib(start.device),
                  mib(device_peak_), mib(end.device), mib(device_growth));
  std::printf(
      "lightbench: soak %s: %d steps in %.1f s (seed %llu): rss start/peak/end %.1f/%.1f/%.1f MiB "
      "(%+.1f after warm-up%s); heap %.1f/%.1f/%.1f MiB (%+.1f); %s; gl errors %d; errors shown %d; "
      "bad drops %d (%d unreported)\n",
      passed ? "PASSED" : "FAILED", step_, seconds, static_cast<unsigned long long>(cfg_.seed),
      mib(start.rss), mib(rss_peak_), mib(end.rss), mib(host_growth),
      have_baseline_ ? "" : ": not checked, the run ended within its warm-up", mib(start.heap),
      mib(heap_peak_), mib(end.heap), mib(heap_growth), dev, gl_errors_,
      errors_shown_, report["drops"].get<int>(), drops_unreported_);
  for (const auto& f : failures_) std::printf("lightbench: soak failure: %s\n", f.c_str());
  std::fflush(stdout);
  return rc;
}

}  // namespace lb::viewer
