// lightfield's CUDA runner: its runner over its CUDA engine on `device` (listed in the
// registry by the generated kernels/builtin_cuda_runners.cpp).
#include "lightbench/algorithm.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightfield/cae_cuda.hpp"
#include "lightfield/lightfield_engine.hpp"

namespace lb::cuda {

std::unique_ptr<Runner> make_lightfield_cuda_runner(int device) {
  return make_lightfield_runner(make_lightfield_engine_cuda(device));
}

}  // namespace lb::cuda
