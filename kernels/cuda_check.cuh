#pragma once
// Error checking for every CUDA runtime call (tiny-cuda-nn style). The result is evaluated
// once; a failure throws lb::Error("file:line: call: cudaErrorName: description").
// Usable from .cu and from plain C++ files that include the runtime API.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>

#include "lightbench/error.hpp"

namespace lb::cuda::detail {
inline std::string cuda_error_text(const char* call, cudaError_t e) {
  return std::string(call) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
}
}  // namespace lb::cuda::detail

#define CUDA_CHECK_THROW(x)                                                              \
  do {                                                                                   \
    const cudaError_t lb_cuda_result_ = (x);                                             \
    if (lb_cuda_result_ != cudaSuccess)                                                  \
      ::lb::throw_at(__FILE__, __LINE__,                                                 \
                     ::lb::cuda::detail::cuda_error_text(#x, lb_cuda_result_));          \
  } while (0)

// After every kernel launch: launch-configuration errors surface here, not later.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK_THROW(cudaGetLastError())

// For destructors and other places that must not throw: report on stderr and go on.
#define CUDA_CHECK_PRINT(x)                                                              \
  do {                                                                                   \
    const cudaError_t lb_cuda_result_ = (x);                                             \
    if (lb_cuda_result_ != cudaSuccess)                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                            \
                   ::lb::cuda::detail::cuda_error_text(#x, lb_cuda_result_).c_str());    \
  } while (0)
