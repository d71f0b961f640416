// lb::cuda::device_memory: free / total memory of the current device (cudaMemGetInfo).
#include <cuda_runtime.h>

#include "cuda_util.hpp"
#include "lightbench/cuda_api.hpp"

namespace lb::cuda {

bool device_memory(std::uint64_t* free_bytes, std::uint64_t* total_bytes, std::string* why) {
  std::size_t free_b = 0, total_b = 0;
  const cudaError_t e = cudaMemGetInfo(&free_b, &total_b);
  if (e != cudaSuccess) {
    cudaGetLastError();  // not sticky: clear it so later calls do not see it
    if (why) *why = std::string("cudaMemGetInfo: ") + cudaGetErrorString(e);
    return false;
  }
  if (free_bytes) *free_bytes = free_b;
  if (total_bytes) *total_bytes = total_b;
  return true;
}

std::uint64_t device_bytes_counted() { return detail::device_bytes_in_use().load(); }

}  // namespace lb::cuda
