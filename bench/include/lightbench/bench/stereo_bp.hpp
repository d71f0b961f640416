#pragma once
// `lightbench-cli bench stereo`: the belief-propagation stereo CUDA variants
// (kernels/stereo_bp/stereo_bp.cu) and the auto-tuned hybrid.
#include <string>
#include <vector>

#include "lightbench/bench/report.hpp"
#include "lightbench/stereo.hpp"
#include "stereo_bp/stereo_bp.hpp"

namespace lb::bench {

struct StereoBenchCase {
  std::string name;  // "tsukuba", "venus", "synthetic 450x375"
  stereo::StereoPair pair;
  stereo::StereoGroundTruth gt;  // may be empty
  int ndisp = 16;
};
struct StereoBenchOptions {
  stereo::BpParams params;  // ndisp overridden per case
  int warmup = 3;
  int reps = 15;
  int device = 0;
};

// Per case, every variant of cuda::bp_stereo_variants() ("hybrid": the auto-tuner's split):
// median compute time with the pair on the device (median_ms, min_ms) and of upload (pinned)
// + compute + download ("median_ms_total"); "differing_vs_cpu" pixels against the CPU
// reference; Middlebury bad pixels ("bad1_nonocc", "bad1_all", "bad1_disc") where truth
// exists; "tuning": the tuner's choice for the hybrid.
Report bench_stereo(const std::vector<StereoBenchCase>& cases, const StereoBenchOptions& options);

}  // namespace lb::bench
