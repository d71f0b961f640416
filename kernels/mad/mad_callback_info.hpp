#pragma once
// Internal to lb_kernels: what the cuFFT JIT (LTO) callbacks of the MAD r2c pipeline read
// (kernels/mad/mad_callbacks.cu, compiled to LTO-IR only; kernels/mad/mad_r2c.cu fills them). Plain
// structs in device memory, handed to cuFFT as caller info when the plan is made.
#include <vector_types.h>

namespace lb::cuda::detail {

// Load: input element (plane q = 2 r + image, pixel i) of the batch-40 inverse = the image's
// spectrum at i (from the R2C half spectrum, the other half by Hermitian symmetry) times
// log-Gabor filter r at i: the 40 products are never written.
struct MadGaborLoadInfo {
  const float2* half;  // 2 half spectra (raw ref, raw dst), h x (w/2 + 1) each
  const float* gabor;  // 20 filters, h x w each
  unsigned n;          // w h
  int w, h;
};

// Store: |EO| * scale as float (the statistics read 4 bytes per sample instead of 8).
struct MadMagStoreInfo {
  float* mag;  // 40 planes, h x w each
  float scale;
};

}  // namespace lb::cuda::detail
