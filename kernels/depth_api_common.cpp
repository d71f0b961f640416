// Depth parts of the kernels API that need no CUDA (both builds): the tuning defaults.
#include "lightbench/cuda_api.hpp"

namespace lb::cuda {

DepthTuning resolve(const DepthTuning& t) {
  DepthTuning r = t;
  if (r.original_block <= 0) r.original_block = 128;
  if (r.chunk <= 0) r.chunk = 48;
  if (r.rows <= 0) r.rows = 1;
  return r;
}

}  // namespace lb::cuda
