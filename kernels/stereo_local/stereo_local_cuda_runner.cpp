// stereo_local's CUDA runner: its runner over its CUDA engine on `device` (listed in the
// registry by the generated kernels/builtin_cuda_runners.cpp).
#include "lightbench/algorithm.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightbench/engines/stereo.hpp"
#include "stereo_local/stereo_local_cuda.hpp"

namespace lb::cuda {

std::unique_ptr<Runner> make_stereo_local_cuda_runner(int device) {
  return make_stereo_local_runner(make_stereo_local_engine_cuda(device));
}

}  // namespace lb::cuda
