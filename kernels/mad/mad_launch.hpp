#pragma once
// Internal to lb_kernels: launchers of the MAD local-statistics kernels (kernels/mad/mad_stats.cu),
// used by the CUDA evaluator (mad.cu), the benchmark (bench/src/mad.cpp) and the test hook.
#include <cuda_runtime_api.h>

#include <string>

namespace lb::cuda::detail {

enum class MadStatsKernel { Gather, Shared, SharedNc, Fused };
MadStatsKernel parse_mad_stats_kernel(const std::string& name);  // throws lb::Error
const char* mad_stats_kernel_name(MadStatsKernel k);

// Block statistics of nplanes w x h planes (plane p at offset p * w * h). The input is
// either float samples (`real`) or complex samples (`cplx`, float2) whose magnitude times
// `scale` is the sample (the |EO| of the log-Gabor responses); exactly one is non-null.
// gather / shared / shared_nc need `real`; fused takes either. Output per plane p and block
// b (block_count(h) x block_count(w), row-major): out[(p * nb + b) * 3 + {0,1,2}] =
// {std, skew, kurt}.
void launch_mad_block_stats(MadStatsKernel k, const float* real, const void* cplx, float scale, int w, int h,
                            int nplanes, float* out, cudaStream_t s);

}  // namespace lb::cuda::detail
