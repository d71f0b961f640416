// mad's CUDA runner: its runner over its CUDA engine on `device` (listed in the
// registry by the generated kernels/builtin_cuda_runners.cpp).
#include "lightbench/algorithm.hpp"
#include "lightbench/engines/cuda.hpp"
#include "mad/mad_cuda.hpp"
#include "mad/mad_engine.hpp"

namespace lb::cuda {

std::unique_ptr<Runner> make_mad_cuda_runner(int device) {
  return make_mad_runner(make_mad_engine_cuda(device));
}

}  // namespace lb::cuda
