// Depth parts of the kernels API that need no CUDA (both builds): tuning defaults, the
// benchmark's variant list and its text / JSON reports.
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "lightbench/cuda_api.hpp"

namespace lb::cuda {

DepthTuning resolve(const DepthTuning& t) {
  DepthTuning r = t;
  if (r.original_block <= 0) r.original_block = 128;
  if (r.chunk <= 0) r.chunk = 48;
  if (r.rows <= 0) r.rows = 1;
  return r;
}

std::vector<DepthBenchVariant> default_depth_bench_variants() {
  using V = RenderVariant;
  return {
      {"original", V::Original, {}},
      {"sync", V::Sync, {}},
      {"nosync", V::NoSync, {}},
      {"original block=256", V::Original, {256, 0, 0}},
      {"sync rows=2", V::Sync, {0, 0, 2}},
      {"nosync rows=2", V::NoSync, {0, 0, 2}},
      {"nosync chunk=24", V::NoSync, {0, 24, 0}},
      {"nosync chunk=96", V::NoSync, {0, 96, 0}},
  };
}

bool DepthBenchReport::all_exact() const {
  for (const auto& e : entries)
    if (!e.exact) return false;
  return !cpu_checked || cpu_exact;
}

std::string format_depth_bench_report(const DepthBenchReport& r) {
  std::ostringstream o;
  char line[256];
  o << "device: " << r.device.describe() << "\n";
  o << "workload: " << r.workload << "\n";
  o << "timing: CUDA events, " << r.options.warmup << " warm-up + " << r.options.reps
    << " timed launches per variant, median" << (r.options.flush_l2 ? ", L2 flushed before each" : "")
    << "\n";
  std::snprintf(line, sizeof line, "%-22s %-16s %10s %10s %10s %9s %8s %s\n", "variant", "kernel",
                "median ms", "min ms", "max ms", "GB/s", "speedup", "exact vs original");
  o << line;
  for (const auto& e : r.entries) {
    std::snprintf(line, sizeof line, "%-22s %-16s %10.4f %10.4f %10.4f %9.1f %7.2fx %s\n",
                  e.label.c_str(), e.kernel.c_str(), e.median_ms, e.min_ms, e.max_ms, e.median_gbps,
                  e.speedup, e.exact ? "yes" : ("NO (" + std::to_string(e.mismatches) + " px)").c_str());
    o << line;
  }
  if (r.cpu_checked)
    o << "original vs CPU reference (lb::depth_cpu, full map): "
      << (r.cpu_exact ? "identical" : "DIFFERENT (" + std::to_string(r.cpu_mismatches) + " px)") << "\n";
  if (r.scored) {
    std::snprintf(line, sizeof line, "ground truth: %.2f %% exact, MAE %.4f patch sizes\n", r.exact_pct, r.mae);
    o << line;
  }
  o << (r.all_exact() ? "all variants identical" : "MISMATCH") << "\n";
  return o.str();
}

std::string depth_bench_report_json(const DepthBenchReport& r) {
  nlohmann::json j;
  j["device"] = r.device.describe();
  j["workload"] = r.workload;
  j["warmup"] = r.options.warmup;
  j["reps"] = r.options.reps;
  j["flush_l2"] = r.options.flush_l2;
  j["cpu_checked"] = r.cpu_checked;
  j["cpu_exact"] = r.cpu_exact;
  if (r.scored) {
    j["exact_pct"] = r.exact_pct;
    j["mae"] = r.mae;
  }
  j["all_exact"] = r.all_exact();
  for (const auto& e : r.entries)
    j["entries"].push_back({{"label", e.label}, {"kernel", e.kernel}, {"reps", e.reps},
                            {"median_ms", e.median_ms}, {"min_ms", e.min_ms}, {"max_ms", e.max_ms},
                            {"bytes", e.bytes}, {"median_gbps", e.median_gbps},
                            {"speedup", e.speedup}, {"exact", e.exact},
                            {"mismatches", e.mismatches}});
  return j.dump(2);
}

}  // namespace lb::cuda
