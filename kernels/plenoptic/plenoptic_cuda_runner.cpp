// plenoptic's CUDA runner: its runner over its CUDA engine on `device` (listed in the
// registry by the generated kernels/builtin_cuda_runners.cpp).
#include "lightbench/algorithm.hpp"
#include "lightbench/engines/cuda.hpp"
#include "plenoptic/plenoptic_engine.hpp"

namespace lb::cuda {

std::unique_ptr<Runner> make_plenoptic_cuda_runner(int device) {
  return make_plenoptic_runner(make_plenoptic_engine_cuda(device));
}

}  // namespace lb::cuda
