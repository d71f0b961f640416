// Depth entry points of a build without CUDA: they throw, naming why.
#include "lightbench/cuda_api.hpp"

namespace lb::cuda {

void set_depth_tuning(ComputeBackend&, const DepthTuning&) {
  throw Error("set_depth_tuning: this build has no CUDA support");
}

ImageU8 render_all_in_focus_cuda(const ImageU8&, const PlenopticGrid&, const RenderParams&, const DepthParams&,
                                 const ImageF&, int) {
  throw Error("all-in-focus: this build has no CUDA support");
}

}  // namespace lb::cuda
