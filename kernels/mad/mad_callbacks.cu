// cuFFT JIT (LTO) callbacks of the MAD r2c pipeline with callbacks (kernels/mad/mad_pipeline.hpp).
// Not part of lb_kernels: kernels/CMakeLists.txt compiles this file to LTO-IR (-dlto, a fatbin
// embedded as a byte array) and cuFFT links it into the inverse transform's kernels when the
// plan is made (cufftXtSetJITCallback). extern "C": cuFFT finds them by these names.
#include <cufftXt.h>

#include "mad/mad_callback_info.hpp"

using lb::cuda::detail::MadGaborLoadInfo;
using lb::cuda::detail::MadMagStoreInfo;

extern "C" __device__ cufftComplex lb_mad_gabor_load(void*, unsigned long long offset, void* info, void*) {
  const MadGaborLoadInfo* p = static_cast<const MadGaborLoadInfo*>(info);
  const unsigned o = static_cast<unsigned>(offset);  // < 40 w h < 2^32 (the engine checks)
  const unsigned q = o / p->n, i = o - q * p->n;
  const int w = p->w, h = p->h, wh = w / 2 + 1;
  const int y = static_cast<int>(i / static_cast<unsigned>(w)), x = static_cast<int>(i) - y * w;
  const float2* spec = p->half + (q & 1u) * static_cast<size_t>(h) * wh;
  float2 a;
  if (x < wh) {
    a = spec[static_cast<size_t>(y) * wh + x];
  } else {
    a = spec[static_cast<size_t>((h - y) % h) * wh + (w - x)];
    a.y = -a.y;
  }
  const float g = p->gabor[static_cast<size_t>(q >> 1) * p->n + i];
  return make_float2(a.x * g, a.y * g);
}

extern "C" __device__ void lb_mad_mag_store(void*, unsigned long long offset, cufftComplex v, void* info, void*) {
  const MadMagStoreInfo* p = static_cast<const MadMagStoreInfo*>(info);
  p->mag[offset] = sqrtf(v.x * v.x + v.y * v.y) * p->scale;
}
