// The local-window module's benchmark workloads (`bench stereo-local`): synthetic two-plane
// pairs, up to Middlebury 2014's full size.
#include "lightbench/stereo_method.hpp"

namespace lb {

std::vector<Workload> stereo_local_workloads() {
  return {{"small", "160x120, 16 disparities (a CPU-sized run)", [] { return synthetic_stereo_workload(160, 120, 16); },
           {{"ndisp", 16.0}}, "disparity"},
          {"450x375x64", "Tsukuba-like 450x375, 64 disparities", [] { return synthetic_stereo_workload(450, 375, 64); },
           {{"ndisp", 64.0}}, "disparity"},
          {"2964x1988x800", "Middlebury 2014 full size, 800 disparities",
           [] { return synthetic_stereo_workload(2964, 1988, 800); }, {{"ndisp", 800.0}}, "disparity"}};
}

}  // namespace lb
