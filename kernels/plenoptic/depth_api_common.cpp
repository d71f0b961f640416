// Depth parts of the kernels API that need no CUDA (both builds): the tuning defaults.
#include <string>

#include "lightbench/cuda_api.hpp"
#include "lightbench/error.hpp"

namespace lb::cuda {

DepthTuning resolve(const DepthTuning& t) {
  DepthTuning r = t;
  if (r.original_block <= 0) r.original_block = 128;
  if (r.chunk <= 0) r.chunk = 48;
  if (r.rows <= 0) r.rows = 1;
  LB_REQUIRE(r.original_kernel == 0 || r.original_kernel == 1,
             "depth tuning: original_kernel " + std::to_string(r.original_kernel) +
                 " (0: the neighbour table, 1: per-sample tests)");
  return r;
}

}  // namespace lb::cuda
