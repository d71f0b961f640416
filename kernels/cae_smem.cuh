#pragma once
// Internal to lb_kernels: what exact_smem (cae_exact_smem.cu) and exact_terms
// (cae_exact_terms.cu) share: per-thread 8-bit level counters in shared memory (thread t's
// count word k of a channel, bins 4k .. 4k+3, at [k * kSmemThreads + t]: bank t % 32
// whatever k, so every data-dependent increment is one conflict-free atomicAdd; why:
// cae_exact_smem.cu), the block shape, and the sheared sampling with 32-bit texel offsets.
#include <cstddef>

#include "cae_common.cuh"

namespace lb::cuda::detail {

constexpr int kSmemRows = 3;                   // block 32 x 3
constexpr int kSmemThreads = 32 * kSmemRows;   // B
constexpr int kSmemLabelsPerThread = 5;        // amortises the one zeroing; 75 labels: 15 slices
constexpr int kSmemWords = 3 * 64;             // count words per thread
// Counts (72 KiB) + the weight table w(|i - c|) (1 KiB: a shared load per bin instead of a
// global one, bank conflicts only between distances 32 apart, never evicted by the texel
// stream from the ~28 KiB of L1 this carveout leaves).
constexpr std::size_t kSmemBytes = (static_cast<std::size_t>(kSmemWords) * kSmemThreads + cae::kBins) * 4;
// 3 blocks (222 KiB with the 1 KiB per block the driver reserves) per 228 KiB SM: 9 warps.

__device__ __forceinline__ void axis_tap0(float p, int n, int& i0, float& f) {
  p = fminf(fmaxf(p, 0.0f), static_cast<float>(n - 1));
  const float m = __fadd_rd(p, kMagic);  // 2^23 + floor(p), exact
  i0 = static_cast<int>(__float_as_uint(m) - kMagicBits);
  f = __fsub_rn(p, __fsub_rn(m, kMagic));
}

// One sample's level (bits of 2^23 + level: the level is the low 8 bits) into a channel's
// counts (its word 0 of this thread at ch).
__device__ __forceinline__ void smem_count(unsigned* ch, unsigned bits) {
  atomicAdd(ch + ((bits >> 2) & 63u) * kSmemThreads, 1u << ((bits & 3u) << 3));
}


// A value the compiler must take as is: keeps it from redistributing index sums into
// per-use 64-bit arithmetic (one 32-bit add and one wide multiply-add per load instead).
__device__ __forceinline__ int opaque(int v) {
  asm("" : "+r"(v));
  return v;
}
__device__ __forceinline__ unsigned opaque(unsigned v) {
  asm("" : "+r"(v));
  return v;
}

// tap and its weight fx.
template <int N>
__device__ __forceinline__ void column_taps(const CaeArgs& a, int x, float d, unsigned plane, unsigned (&xo)[N],
                                            float (&fx)[N]) {
#pragma unroll
  for (int uu = 0; uu < N; ++uu) {
    const int u = a.u0 + uu;
    int x0;
    axis_tap0(shear_pos(x, u - a.uc, d), a.W, x0, fx[uu]);
    xo[uu] = opaque(static_cast<unsigned>(u) * plane + static_cast<unsigned>(x0));
  }
}

// View row v: its weight fy and the four bilinear texels of every view column (loaded
// together so that they are in flight at once). Texels are read without the x1 / y1 clamp:
// their weight is exactly 0 there and the views are padded.
template <int N>
__device__ __forceinline__ void gather_row(const CaeArgs& a, const unsigned* __restrict__ rgba, int y, int v, float d,
                                           unsigned plane, unsigned W, const unsigned (&xo)[N], float& fy,
                                           unsigned (&t00)[N], unsigned (&t10)[N], unsigned (&t01)[N],
                                           unsigned (&t11)[N]) {
  int y0;
  axis_tap0(shear_pos(y, v - a.vc, d), a.H, y0, fy);
  const unsigned row0 = opaque(static_cast<unsigned>(v * a.nu) * plane + static_cast<unsigned>(y0) * W);
  const unsigned row1 = opaque(row0 + W);
#pragma unroll
  for (int uu = 0; uu < N; ++uu) {
    const unsigned* const p0 = rgba + (row0 + xo[uu]);
    const unsigned* const p1 = rgba + (row1 + xo[uu]);
    t00[uu] = __ldg(p0);
    t10[uu] = __ldg(p0 + 1);
    t01[uu] = __ldg(p1);
    t11[uu] = __ldg(p1 + 1);
  }
}


}  // namespace lb::cuda::detail
