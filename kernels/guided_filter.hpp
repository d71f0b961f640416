#pragma once
// Internal to lb_kernels: the guided filter on every slice of a volume (guided_filter.cu).
#include <cuda_runtime_api.h>

#include <cstddef>

namespace lb::cuda::detail {

// Device scratch the filter needs for `slices` planes of w x h.
std::size_t guided_filter_scratch_bytes(int w, int h, int slices);
// out[s] = guided filter of in[s] (slices x h x w floats, dense) with guide (h x w), radius
// r (clipped windows), eps; scratch: guided_filter_scratch_bytes. in and out may not alias.
void launch_guided_filter(const float* guide, int w, int h, const float* in, int slices, int r, float eps, float* out,
                          float* scratch, cudaStream_t s);

}  // namespace lb::cuda::detail
