#pragma once
// `lightbench-cli bench depth`: the plenoptic depth variants (kernels/plenoptic/depth.cu).
#include <string>
#include <vector>

#include "lightbench/bench/report.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/image.hpp"
#include "plenoptic/plenoptic_depth.hpp"

namespace lb::bench {

struct DepthBenchVariant {
  std::string label;  // e.g. "original", "nosync rows=2"
  RenderVariant variant = RenderVariant::Original;
  cuda::DepthTuning tuning;
};
// Original, Sync, NoSync at the default shapes, then a few other shapes.
std::vector<DepthBenchVariant> default_depth_variants();

struct DepthBenchOptions {
  int warmup = 20;        // untimed launches per variant (at least 1)
  int reps = 100;         // timed launches per variant (at least 50)
  bool flush_l2 = true;   // evict the L2 before every timed launch
  bool check_cpu = true;  // compare the Original's map with lb::depth_cpu
  int device = 0;
};

// Times every variant with CUDA events after warm-up (median of reps), raw resident on the
// device; checks every map against the Original's (and the Original against lb::depth_cpu)
// outside the timing. truth (may be null): ground truth at params.patch, for the score
// (fields "exact_pct" and "mae"). Rows carry "speedup" (the default Original's median /
// this median). all_exact: every map identical to the Original's, and it to the CPU's.
Report bench_depth(const ImageU8& raw, const PlenopticGrid& grid, const DepthParams& params,
                   const std::vector<DepthBenchVariant>& variants, const DepthBenchOptions& options,
                   const ImageF* truth = nullptr);

}  // namespace lb::bench
