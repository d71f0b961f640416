// lightbench-cli bench <algorithm> [--workload NAME] [--variant V|all] [--reps N] [--json F]:
// every registered algorithm's variants on the workloads its module declares
// (AlgorithmSpec::workloads), run through the Runner as the compute commands run it and timed by
// the runner's timing registry (CUDA events on the GPU, wall clock on the CPU): after --warmup
// runs, --reps runs of the workload's output, each computed afresh (forget_results); the median
// of every timing row, of their sum (compute) and of the wall time (run + synchronize, the map
// read back to the host). --cold-l2 evicts the device's L2 before every run (CUDA: the hook
// CudaHooks::flush_l2), so a workload smaller than the L2 is timed from DRAM as it is met once;
// --floor asks the runner for its memory-traffic floor (Runner::time_floor: the plenoptic
// render's touched raw quads with 16-byte loads, a copy of the raw), timed --reps times the
// same way, which scripts/budget-table sets the render against.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include "cli_common.hpp"
#include "command_defs.hpp"
#include "commands.hpp"
#include "driver.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/error.hpp"
#include "lightbench/surface.hpp"
#include "option_checks.hpp"

namespace lb::cli {

namespace {

struct BenchOptions {
  const AlgorithmSpec* spec = nullptr;
  std::string workload, variant, backend = "auto", json;
  int reps = 20, warmup = 2, device = 0;
  bool cold_l2 = false, floor = false;
};

// One `bench <algorithm>` subcommand and its action.
struct BenchSub {
  CLI::App* app = nullptr;
  Action run;
};

struct VariantTiming {
  std::string variant, ran, device;
  bool bit_identical = true;
  int width = 0, height = 0;
  std::vector<double> wall_ms, compute_ms;
  std::map<std::string, TimingStats> rows;
};

const Workload& find_workload(const AlgorithmSpec& spec, const std::string& name) {
  if (spec.workloads.empty()) throw Error("bench " + spec.id + ": the algorithm declares no workload");
  if (name.empty()) return spec.workloads.front();
  std::string known;
  for (const Workload& w : spec.workloads) {
    if (w.name == name) return w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  throw Error("bench " + spec.id + ": no workload '" + name + "' (known: " + known + ")");
}

// The variants to time: one (the request, by the contract's rule for the backend), or "all":
// every row on CUDA; on the CPU the reference and the CPU variants.
std::vector<std::string> variants_to_time(const AlgorithmSpec& spec, BackendKind kind, const std::string& requested) {
  if (requested != "all") return {spec.variant_for(kind, requested, !requested.empty())};
  std::vector<std::string> v;
  if (kind == BackendKind::Cpu) v.push_back("");
  for (const VariantInfo& row : spec.variants)
    if (kind == BackendKind::Cuda || (row.cpu && row.name != "reference")) v.push_back(row.name);
  return v;
}

VariantTiming time_variant(const AlgorithmRegistry& reg, const BenchOptions& o, BackendKind kind,
                           const std::shared_ptr<const AlgorithmData>& data, const ParamValues& values,
                           const std::string& output, const std::string& variant) {
  const AlgorithmSpec& spec = *o.spec;
  std::unique_ptr<Runner> runner = reg.make_runner(spec.id, kind, o.device);
  runner->set_data(data);
  HostSurface out(spec.output(output)->format);
  VariantTiming t;
  t.variant = variant.empty() ? "reference" : variant;
  auto once = [&] {
    runner->forget_results();  // each run computes (runners cache by parameters)
    if (o.cold_l2) reg.cuda_hooks().flush_l2(o.device);
    const double recorded0 = runner->timings().total_recorded_ms();
    const auto t0 = std::chrono::steady_clock::now();
    runner->run(values, variant, output, out);
    runner->synchronize();  // CUDA events are collected here
    t.wall_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    t.compute_ms.push_back(runner->timings().total_recorded_ms() - recorded0);
  };
  for (int k = 0; k < o.warmup; ++k) once();
  runner->timings().clear();
  t.wall_ms.clear();
  t.compute_ms.clear();
  for (int k = 0; k < o.reps; ++k) {
    progress("bench " + spec.id + ": " + t.variant + " " + std::to_string(k + 1) + "/" + std::to_string(o.reps));
    once();
  }
  progress_done();
  t.ran = runner->last_variant().empty() ? "reference" : runner->last_variant();
  t.device = runner->device_name();
  if (const VariantInfo* info = spec.variant(variant)) t.bit_identical = info->bit_identical;
  t.width = out.width();
  t.height = out.height();
  for (const std::string& row : runner->timings().kernels()) t.rows[row] = runner->timings().stats(row);
  return t;
}

// The runner's memory-traffic floor for the workload (--floor), --reps times after --warmup:
// its "floor/..." rows; throws when the runner has none for this output.
std::map<std::string, TimingStats> time_floor(const AlgorithmRegistry& reg, const BenchOptions& o, BackendKind kind,
                                              const std::shared_ptr<const AlgorithmData>& data,
                                              const ParamValues& values, const std::string& output) {
  std::unique_ptr<Runner> runner = reg.make_runner(o.spec->id, kind, o.device);
  runner->set_data(data);
  auto once = [&] {
    if (o.cold_l2) reg.cuda_hooks().flush_l2(o.device);
    if (!runner->time_floor(values, output))
      throw Error("bench " + o.spec->id + " --floor: the " + to_string(kind) + " runner has no floor for output '" +
                  output + "'");
    runner->synchronize();
  };
  for (int k = 0; k < o.warmup; ++k) once();
  runner->timings().clear();
  for (int k = 0; k < o.reps; ++k) once();
  std::map<std::string, TimingStats> rows;
  for (const std::string& row : runner->timings().kernels()) rows[row] = runner->timings().stats(row);
  return rows;
}

nlohmann::json timing_rows_json(const std::map<std::string, TimingStats>& rows) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [row, s] : rows)
    j[row] = {{"median_ms", s.median_ms}, {"min_ms", s.min_ms},
              {"max_ms", s.max_ms},       {"count", s.count},
              {"median_gbps", s.median_gbps}};
  return j;
}

void run_bench(const AlgorithmRegistry& reg, const BenchOptions& o) {
  const AlgorithmSpec& spec = *o.spec;
  if (!o.json.empty()) check_output_path(o.json, "--json");
  const Workload& w = find_workload(spec, o.workload);
  std::string reason;
  const BackendKind kind = choose_backend(reg, spec, o.backend, &reason);
  if (o.cold_l2 && kind != BackendKind::Cuda)
    throw Error("bench " + spec.id + " --cold-l2: the L2 is a CUDA device's; this run is on the " + to_string(kind));
  const std::vector<std::string> variants = variants_to_time(spec, kind, o.variant);
  const std::shared_ptr<const AlgorithmData> data = w.data();
  LB_REQUIRE(data && data->kind() == spec.data, "bench " + spec.id + ": workload '" + w.name + "' makes other data");
  const ParamValues values = complete_params(spec, *data, w.params);
  if (spec.validate) spec.validate(values, *data);
  const std::string output = w.output.empty() ? first_computed_output(spec) : w.output;
  LB_REQUIRE(spec.output(output) != nullptr, "bench " + spec.id + ": workload '" + w.name + "' times no output '" +
                                                 output + "'");

  // The floor first: a runner without one is refused before any variant is timed.
  std::map<std::string, TimingStats> floor;
  if (o.floor) floor = time_floor(reg, o, kind, data, values, output);
  std::vector<VariantTiming> results;
  for (const std::string& v : variants) results.push_back(time_variant(reg, o, kind, data, values, output, v));

  const std::string device = results.empty() ? "" : results.front().device;
  std::printf("bench %s, workload %s (%s): output %s, %s, %s; %d runs after %d warm-up%s, medians in ms\n",
              spec.id.c_str(), w.name.c_str(), w.help.c_str(), output.c_str(), to_string(kind), device.c_str(),
              o.reps, o.warmup, o.cold_l2 ? ", L2 evicted before each" : "");
  std::printf("%-22s %-26s %10s %10s\n", "variant", "ran", "compute", "wall");
  for (const VariantTiming& t : results) {
    std::printf("%-22s %-26s %10.4f %10.4f\n", t.variant.c_str(), t.ran.c_str(), median(t.compute_ms),
                median(t.wall_ms));
    for (const auto& [row, s] : t.rows)
      std::printf("    %-40s %10.4f ms (x%zu a run)\n", row.c_str(), s.median_ms,
                  o.reps > 0 ? s.count / static_cast<std::size_t>(o.reps) : s.count);
  }
  for (const auto& [row, s] : floor)
    std::printf("%-48s %10.4f ms, %.1f GB/s\n", row.c_str(), s.median_ms, s.median_gbps);
  if (o.json.empty()) return;
  Report report("bench " + spec.id);
  nlohmann::json entries = nlohmann::json::array();
  for (const VariantTiming& t : results)
    entries.push_back({{"variant", t.variant},
                       {"ran", t.ran},
                       {"bit_identical", t.bit_identical},
                       {"output_size", {t.width, t.height}},
                       {"compute_median_ms", median(t.compute_ms)},
                       {"wall_median_ms", median(t.wall_ms)},
                       {"timings", timing_rows_json(t.rows)}});
  report.root()["bench"] = {{"algorithm", spec.id},     {"workload", w.name}, {"workload_help", w.help},
                            {"output", output},          {"backend", to_string(kind)},
                            {"backend_reason", reason},  {"device", device},
                            {"reps", o.reps},            {"warmup", o.warmup},
                            {"cold_l2", o.cold_l2},      {"parameters", values},
                            {"entries", entries}};
  if (o.floor) report.root()["bench"]["floor"] = timing_rows_json(floor);
  report.write(o.json);
}

}  // namespace

Action add_bench(CLI::App& app, const AlgorithmRegistry& registry) {
  app.require_subcommand(1);
  std::vector<BenchSub> subs;
  for (const AlgorithmSpec& spec : registry.all()) {
    auto o = std::make_shared<BenchOptions>();
    o->spec = &spec;
    std::string names;
    for (const Workload& w : spec.workloads) names += (names.empty() ? "" : " | ") + w.name + " (" + w.help + ")";
    BenchSub s;
    s.app = app.add_subcommand(spec.id, "time " + spec.id + "'s variants on its workloads, through its runner");
    s.app->add_option("--workload", o->workload, "the workload: " + (names.empty() ? "none declared" : names))
        ->default_str(spec.workloads.empty() ? "" : spec.workloads.front().name);
    std::string variants;
    for (const VariantInfo& v : spec.variants) variants += (variants.empty() ? "" : " | ") + v.name;
    s.app->add_option("--variant", o->variant, "the variant to time, or all: " + variants)
        ->default_str(spec.default_variant);
    // The last of a repeated --reps / --warmup counts (scripts/gpu-check's LB_BENCH_ARGS overrides its own).
    s.app->add_option("--reps", o->reps, "timed runs per variant (medians)")
        ->capture_default_str()
        ->check(int_in(1, 10000))
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    s.app->add_option("--warmup", o->warmup, "untimed runs first")
        ->capture_default_str()
        ->check(int_in(0, 1000))
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    s.app->add_option("--backend", o->backend, "auto | cpu | cuda (auto: CUDA when usable)")->capture_default_str();
    s.app->add_option("--device", o->device, "the CUDA device")->capture_default_str()->check(int_in(0, 1023));
    s.app->add_option("--json", o->json, "write a JSON report (every variant: medians of each timing row)");
    s.app->add_flag("--cold-l2", o->cold_l2, "CUDA: evict the device's L2 before every timed run (timed from DRAM)");
    s.app->add_flag("--floor", o->floor,
                    "also time the runner's memory-traffic floor for the workload (rows floor/...; plenoptic: the "
                    "render's touched raw quads with 16-byte loads, a copy of the raw)");
    s.run = [&registry, o] { run_bench(registry, *o); };
    subs.push_back(std::move(s));
  }
  return [subs] {
    for (const BenchSub& s : subs)
      if (s.app->parsed()) return s.run();
  };
}

}  // namespace lb::cli
