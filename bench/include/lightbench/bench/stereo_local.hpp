#pragma once
// `lightbench-cli bench local`: the center-biased local stereo variants
// (kernels/stereo_local_*.cu).
#include <string>
#include <vector>

#include "lightbench/bench/report.hpp"
#include "lightbench/image.hpp"
#include "stereo_local/stereo_local.hpp"

namespace lb::bench {

struct LocalBenchWorkload {
  std::string name;     // "tsukuba", "venus", "synthetic 450x375"
  stereo::StereoPair pair;
  int ndisp = 16;
  ImageF truth;         // disparity in pixels, 0 = unknown (may be empty)
  ImageU8 mask_nonocc;  // 255 = non-occluded (may be empty: all known pixels)
};

struct LocalBenchOptions {
  std::vector<std::string> variants;  // empty: all (stereo::local_variants())
  int warmup = 10;
  int reps = 100;             // timed runs per variant (fewer past max_seconds, >= 5)
  double max_seconds = 10.0;  // timed budget per variant and workload
  bool check_cpu = true;      // compare every map with the CPU reference (exact)
  int device = 0;
};

// Per workload, every variant: CUDA events after warm-up, median of many runs with the pair
// resident (median_ms, min_ms) and with the upload of the pair and the download of the map
// ("median_total_ms"); "mde_per_s" (million disparity estimations per second, w h ndisp /
// median), "fps", "fps_total"; bytes a pass must move and "gbps" against a copy kernel of
// the same process ("copy_gbps"); exactness against the CPU reference; "bad1_nonocc" /
// "bad1_all" (% of known pixels with |d - truth| > 1) where truth exists. all_exact: every
// checked map identical to the CPU's.
Report bench_local_stereo(const std::vector<LocalBenchWorkload>& workloads, const stereo::LocalParams& params,
                          const LocalBenchOptions& options);

}  // namespace lb::bench
