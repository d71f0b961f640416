#pragma once
// Internal to lb_kernels: the MAD local-statistics kernels (kernels/mad/mad_stats.cu) as the rows
// of MAD's variant table (mad_variants.cpp), used by the CUDA evaluator (mad.cu), its pipelines
// (mad_r2c.cu, mad_c2c.cu) and the test hook.
#include <cuda_runtime_api.h>

#include <string>

#include "lightbench/variant_table.hpp"

namespace lb::cuda::detail {

// Block statistics of nplanes w x h planes (plane p at offset p * w * h). The input is
// either float samples (`real`) or complex samples (`cplx`, float2) whose magnitude times
// `scale` is the sample (the |EO| of the log-Gabor responses); exactly one is non-null.
// gather / shared / shared_nc need `real`; fused takes either. Output per plane p and block
// b (block_count(h) x block_count(w), row-major): out[(p * nb + b) * 3 + {0,1,2}] =
// {std, skew, kurt}.
using MadStatsLauncher = void (*)(const float* real, const void* cplx, float scale, int w, int h, int nplanes,
                                  float* out, cudaStream_t s);
void launch_mad_stats_gather(const float* real, const void* cplx, float scale, int w, int h, int nplanes, float* out,
                             cudaStream_t s);
void launch_mad_stats_shared(const float* real, const void* cplx, float scale, int w, int h, int nplanes, float* out,
                             cudaStream_t s);
void launch_mad_stats_shared_nc(const float* real, const void* cplx, float scale, int w, int h, int nplanes,
                                float* out, cudaStream_t s);
void launch_mad_stats_fused(const float* real, const void* cplx, float scale, int w, int h, int nplanes, float* out,
                            cudaStream_t s);

// A MAD variant: its statistics kernel's launcher and whether it reads the complex responses
// (|EO| fused into the pass; else the pipeline writes the magnitudes first).
struct MadStatsLaunch {
  MadStatsLauncher launch = nullptr;
  bool complex_input = false;
  explicit operator bool() const { return launch != nullptr; }
};
// MAD's CUDA variants (mad_variants.cpp): "gather", "shared", "shared_nc", "fused".
const VariantTable<MadStatsLaunch>& mad_variant_table();

}  // namespace lb::cuda::detail
