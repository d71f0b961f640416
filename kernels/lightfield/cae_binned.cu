// CAE cost kernels of the binned CAE (Ivan et al.): 64-bin histograms, weights at the bin
// centre; binned_fast with the conversion-free sampling of the exact kernels
// (bit-identical samples, the fair baseline for exact's speed). The kernel: cae_pixels.cuh.
#include "lightfield/cae_kernels.hpp"
#include "lightfield/cae_pixels.cuh"
#include "cuda_check.cuh"

namespace lb::cuda::detail {

void launch_cae_binned(CaeKernel k, CaeArgs a, const uchar4* rgba, cudaStream_t s) {
  if (k == CaeKernel::Binned) cae_pixels_kernel<CaeKernel::Binned><<<pixels_grid(a), pixels_block(), 0, s>>>(a, rgba);
  else if (k == CaeKernel::BinnedFast)
    cae_pixels_kernel<CaeKernel::BinnedFast><<<pixels_grid(a), pixels_block(), 0, s>>>(a, rgba);
  else
    throw Error(std::string("CAE binned kernels: no ") + cae_kernel_name(k));
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
