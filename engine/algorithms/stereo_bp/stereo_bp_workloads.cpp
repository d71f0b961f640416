// The BP module's benchmark workloads (`bench stereo-bp`): synthetic two-plane pairs.
#include "lightbench/stereo_method.hpp"

namespace lb {

std::vector<Workload> stereo_bp_workloads() {
  // cudaBeliefProp's settings (../shared/anchors/bp-cudabeliefprop.md): 5 levels, 7 iterations,
  // lambda 0.1, tau_data 15, tau_disc ndisp / 7.5, no smoothing.
  const ParamValues like_reference{{"levels", 5.0},   {"iterations", 7.0}, {"lambda", 0.1},  {"tau_data", 15.0},
                                   {"tau_disc", 256.0 / 7.5}, {"sigma", 0.0}, {"ndisp", 256.0}};
  return {{"small", "160x120, 16 disparities (a CPU-sized run)", [] { return synthetic_stereo_workload(160, 120, 16); },
           {{"ndisp", 16.0}}, "disparity"},
          {"450x375x64", "Tsukuba-like 450x375, 64 disparities, the spec's defaults",
           [] { return synthetic_stereo_workload(450, 375, 64); }, {{"ndisp", 64.0}}, "disparity"},
          {"like-reference", "900x750, 256 disparities at cudaBeliefProp's settings (its largest like-for-like size)",
           [] { return synthetic_stereo_workload(900, 750, 256); }, like_reference, "disparity"}};
}

}  // namespace lb
