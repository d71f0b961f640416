#pragma once
// Internal to lb_kernels: the local MSE of MAD's detection stage (lmse: the 16x16 box mean of
// (ref - dst)^2 at offsets -7..+8, symmetric border), shared by both pipelines' kernels
// (mad_c2c.cu's mad_hi_kernel, mad_r2c.cu's mad_detect_kernel). A block stages the squared errors of
// its TX x TY tile's (TX + 15) x (TY + 15) footprint in shared memory, sums 16 along rows, then
// 16 along columns: 32 adds per pixel, not 256, in one fixed order (the same bits in both).
#include <cuda_runtime.h>

#include <cstddef>

namespace lb::cuda::detail {

__device__ __forceinline__ int reflect(int i, int n) { return i < 0 ? -i - 1 : (i >= n ? 2 * n - i - 1 : i); }

template <int TX, int TY>
struct LocalMseTile {
  float e2[TY + 15][TX + 15 + 1];  // squared errors of the footprint (+1: bank spread)
  float rs[TY + 15][TX + 1];       // their 16-wide row sums
};

// The footprint from (x0, y0) = the tile's origin - 7: img holds ref then dst (n = w * h
// apart). kThreads threads from thread index tid; the caller synchronises before the sums.
template <int TX, int TY, int kThreads>
__device__ __forceinline__ void stage_squared_errors(LocalMseTile<TX, TY>& t, const float* __restrict__ img, int w,
                                                     int h, int x0, int y0, int tid) {
  const std::size_t n = static_cast<std::size_t>(w) * h;
  for (int i = tid; i < (TY + 15) * (TX + 15); i += kThreads) {
    const int ty = i / (TX + 15), tx = i % (TX + 15);
    const std::size_t p = static_cast<std::size_t>(reflect(y0 + ty, h)) * w + reflect(x0 + tx, w);
    const float e = img[p] - img[n + p];
    t.e2[ty][tx] = e * e;
  }
}

// Row sums of 16; the caller synchronises before local_mse.
template <int TX, int TY, int kThreads>
__device__ __forceinline__ void sum_rows16(LocalMseTile<TX, TY>& t, int tid) {
  for (int i = tid; i < (TY + 15) * TX; i += kThreads) {
    const int ty = i / TX, tx = i % TX;
    float s = 0.f;
#pragma unroll
    for (int d = 0; d < 16; ++d) s += t.e2[ty][tx + d];
    t.rs[ty][tx] = s;
  }
}

// The local MSE of tile pixel (lx, ly).
template <int TX, int TY>
__device__ __forceinline__ float local_mse(const LocalMseTile<TX, TY>& t, int lx, int ly) {
  float s = 0.f;
#pragma unroll
  for (int d = 0; d < 16; ++d) s += t.rs[ly + d][lx];
  return s / 256.f;
}

}  // namespace lb::cuda::detail
