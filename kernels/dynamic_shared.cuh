#pragma once
// Internal to lb_kernels: the opt-in of a kernel to more than the default 48 KiB of dynamic
// shared memory per block, for every launcher that may need it (plenoptic render and depth,
// stereo BP's message kernel, local stereo's fused kernels). Up to 48 KiB needs no attribute;
// beyond, cudaFuncAttributeMaxDynamicSharedMemorySize is set to the bytes of this launch (the
// caller checks them against the device's cudaDevAttrMaxSharedMemoryPerBlockOptin).
#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.cuh"

namespace lb::cuda::detail {

constexpr std::size_t kDefaultDynamicShared = 48u * 1024u;

template <class K>
void allow_dynamic_shared(K kernel, std::size_t bytes) {
  if (bytes > kDefaultDynamicShared)
    CUDA_CHECK_THROW(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
}

}  // namespace lb::cuda::detail
