#pragma once
// Internal to lb_kernels: the argument block of the CAE cost kernels and the launcher of
// each kernel family, one .cu file per family; launch_cae_cost (cae_launch.cpp) picks the
// family for a variant and window. CUDA runtime types only, no device code.
#include <cuda_runtime_api.h>

#include "lightfield/cae_launch.hpp"

namespace lb::cuda::detail {

// What every cost kernel reads (passed by value): view grid and window, region, labels,
// the weight tables and the cost volume [label][rh][rw].
struct CaeArgs {
  int W, H, nu;
  int uc, vc, u0, v0, n;
  int rx, ry, rw, rh;
  int A;
  float dmin, dmax, inv_n;
  int normalized;
  int labels_per_thread;
  float terms_k2, terms_floor2, terms_ln_n;  // exact_terms: -log2(e) / (2 sigma^2), log2(floor), ln(n*n)
  const float* w256;
  const float* wbin;
  float* cost;
  float* defocus;  // exact_chan / exact_stash only: the raw defocus volume [label][rh][rw], or null
};

// cae_scan.cu, the seed's 256-bin steps: baseline, vec, tex (one thread per (pixel,
// label)) and coalesced (2D pixel blocks).
void launch_cae_scan(CaeKernel k, CaeArgs a, const CaeDeviceLightField& lf, cudaStream_t s);
// cae_binned.cu: binned and binned_fast (64 bins) on the RGBA8 views.
void launch_cae_binned(CaeKernel k, CaeArgs a, const uchar4* rgba, cudaStream_t s);
// cae_exact_sort.cu: exact_sort for n = 3, 5, 7, 9 (else lb::Error): its term table into
// `terms`, then the sorting-network kernel.
void launch_cae_exact_sort(CaeArgs a, const unsigned* rgba, float2* terms, cudaStream_t s);
// cae_exact_smem.cu: exact_smem (table_walk false) or exact_smem_table (its signed term
// table into `terms` first), any window up to cae::kMaxWindow.
void launch_cae_exact_smem(bool table_walk, CaeArgs a, const unsigned* rgba, float2* terms, cudaStream_t s);
// cae_exact_smem.cu: exact_smem_table's signed term table into `terms` ((n*n + 1) x 512
// (g, logf g), cae_smem.cuh's WordWalk reads it).
void launch_signed_term_table(const CaeArgs& a, float2* terms, cudaStream_t s);
// cae_exact_chan.cu: exact_chan (the term table first), any window up to cae::kMaxWindow;
// with a.defocus set it also writes the raw defocus cost (lfr::defocus_raw) of every pixel
// and label from the same samples.
void launch_cae_exact_chan(CaeArgs a, const unsigned* rgba, float2* terms, cudaStream_t s);
// cae_exact_stash.cu: exact_chan with the texels loaded once per label (two channels' levels
// stashed in shared memory); the same outputs, the same bits.
void launch_cae_exact_stash(CaeArgs a, const unsigned* rgba, float2* terms, cudaStream_t s);
// cae_exact_terms.cu: exact_terms, any window up to cae::kMaxWindow.
void launch_cae_exact_terms(CaeArgs a, const unsigned* rgba, cudaStream_t s);

}  // namespace lb::cuda::detail
