#pragma once
// Internal to lb_kernels: the device code every CAE kernel family shares (cae_*.cu): the
// shear, bilinear sampling, histogram entropy terms and their combination with explicit
// roundings (identical bits in every variant), and the conversion-free sampling of the
// exact kernels and binned_fast.
#include <cuda_runtime.h>

#include "lightfield/cae_kernels.hpp"
#include "lightfield/cae_math.hpp"

namespace lb::cuda::detail {

// ---- math shared by every kernel (explicit roundings: identical bits in every variant) ---
__device__ __forceinline__ float shear_pos(int x, int du, float d) {
  return __fmaf_rn(static_cast<float>(cae::kShearSign * du), d, static_cast<float>(x));
}
struct Tap {
  int i00, i10, i01, i11;  // pixel indices
  float fx, fy;
};
__device__ __forceinline__ Tap bilinear_tap(float px, float py, int W, int H) {
  px = fminf(fmaxf(px, 0.0f), static_cast<float>(W - 1));
  py = fminf(fmaxf(py, 0.0f), static_cast<float>(H - 1));
  const int x0 = static_cast<int>(px), y0 = static_cast<int>(py);
  const int x1 = min(x0 + 1, W - 1), y1 = min(y0 + 1, H - 1);
  Tap t;
  t.fx = __fsub_rn(px, static_cast<float>(x0));
  t.fy = __fsub_rn(py, static_cast<float>(y0));
  t.i00 = y0 * W + x0;
  t.i10 = y0 * W + x1;
  t.i01 = y1 * W + x0;
  t.i11 = y1 * W + x1;
  return t;
}
__device__ __forceinline__ int lerp_round(float a, float b, float c, float d, float fx, float fy) {
  const float top = __fmaf_rn(fx, __fsub_rn(b, a), a);
  const float bot = __fmaf_rn(fx, __fsub_rn(d, c), c);
  const float v = __fmaf_rn(fy, __fsub_rn(bot, top), top);
  return __float2int_rd(__fadd_rn(v, 0.5f));
}
__device__ __forceinline__ void add_term(float w, int cnt, float inv_n, float& G, float& S) {
  const float g = __fmul_rn(w, __fmul_rn(static_cast<float>(cnt), inv_n));
  G = __fadd_rn(G, g);
  S = __fmaf_rn(g, logf(g), S);
}
__device__ __forceinline__ float finish(float G, float S, int normalized) {
  const float h = -__fdiv_rn(S, G);
  return normalized ? __fadd_rn(h, logf(G)) : h;
}
__device__ __forceinline__ float combine(float hr, float hg, float hb) {
  return __fdiv_rn(__fadd_rn(__fadd_rn(hr, hg), hb), 3.0f);
}
// 256-bin scan of one channel's 8-bit counts (ascending bins).
__device__ __forceinline__ float entropy256(const unsigned char* h, int c, const CaeArgs& a) {
  float G = 0.0f, S = 0.0f;
  const unsigned* h32 = reinterpret_cast<const unsigned*>(h);
  for (int q = 0; q < 64; ++q) {
    const unsigned packed = h32[q];
    if (packed == 0u) continue;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int cnt = (packed >> (8 * j)) & 0xff;
      if (cnt) add_term(__ldg(a.w256 + abs(4 * q + j - c)), cnt, a.inv_n, G, S);
    }
  }
  return finish(G, S, a.normalized);
}
__device__ __forceinline__ void zero_hist(unsigned char* h, int bytes) {
  uint4* p = reinterpret_cast<uint4*>(h);
  for (int i = 0; i < bytes / 16; ++i) p[i] = make_uint4(0, 0, 0, 0);
}
__device__ __forceinline__ void centre_rgb(const uchar4* rgba, const CaeArgs& a, int x, int y, int c[3]) {
  const uchar4 cv = rgba[(static_cast<size_t>(a.vc) * a.nu + a.uc) * a.W * a.H + static_cast<size_t>(y) * a.W + x];
  c[0] = cv.x;
  c[1] = cv.y;
  c[2] = cv.z;
}
// Manual bilinear of an RGBA8 view (float per channel, same ops as the scalar path).
__device__ __forceinline__ void sample_rgba(const uchar4* view, const Tap& t, int out[3]) {
  const uchar4 p00 = __ldg(view + t.i00), p10 = __ldg(view + t.i10);
  const uchar4 p01 = __ldg(view + t.i01), p11 = __ldg(view + t.i11);
  out[0] = lerp_round(p00.x, p10.x, p01.x, p11.x, t.fx, t.fy);
  out[1] = lerp_round(p00.y, p10.y, p01.y, p11.y, t.fx, t.fy);
  out[2] = lerp_round(p00.z, p10.z, p01.z, p11.z, t.fx, t.fy);
}

// ---- conversion-free sampling (exact, binned_fast) ---------------------------------------
// The seed kernels convert every byte to float (I2F) and every rounded sample back (F2I):
// 15 conversions per sample, and conversions run at 16 / clock / SM on sm_90 (1/8 of the
// FP32 rate), which makes them the largest single cost of every histogram kernel. Here a
// byte b becomes the float 2^23 + b by a byte permute (exact), differences of two such
// floats are the exact integer differences, and floor(x) for 0 <= x < 2^23 is read from
// the bits of x + 2^23 rounded down. Same float operations on the same values as
// lerp_round/bilinear_tap: bit-identical samples.
constexpr float kMagic = 8388608.0f;  // 2^23
constexpr unsigned kMagicBits = 0x4B000000u;
// Clamp to [0, n-1], integer part i0 and i1 = min(i0 + 1, n - 1), fraction f.
__device__ __forceinline__ void axis_tap(float p, int n, int& i0, int& i1, float& f) {
  p = fminf(fmaxf(p, 0.0f), static_cast<float>(n - 1));
  const float m = __fadd_rd(p, kMagic);  // 2^23 + floor(p), exact
  i0 = static_cast<int>(__float_as_uint(m) - kMagicBits);
  f = __fsub_rn(p, __fsub_rn(m, kMagic));
  i1 = min(i0 + 1, n - 1);
}
// Bilinear value of the channel that byte selector sel picks (0x7440 | channel: the byte over
// the bits of 2^23) from four RGBA8 texels, before the rounding (exact_chan sums it: the
// defocus cue).
// magic: kMagicBits, or the same bits in a register ptxas cannot fold (exact_stash says why).
__device__ __forceinline__ float lerp_value(unsigned p00, unsigned p10, unsigned p01, unsigned p11, unsigned sel,
                                            float fx, float fy, unsigned magic = kMagicBits) {
  const float a = __uint_as_float(__byte_perm(p00, magic, sel));
  const float b = __uint_as_float(__byte_perm(p10, magic, sel));
  const float c = __uint_as_float(__byte_perm(p01, magic, sel));
  const float d = __uint_as_float(__byte_perm(p11, magic, sel));
  const float top = __fmaf_rn(fx, __fsub_rn(b, a), __fsub_rn(a, kMagic));
  const float bot = __fmaf_rn(fx, __fsub_rn(d, c), __fsub_rn(c, kMagic));
  return __fmaf_rn(fy, __fsub_rn(bot, top), top);
}
// The level of a value: the bits of 2^23 + floor(v + 0.5).
__device__ __forceinline__ unsigned level_bits(float v) { return __float_as_uint(__fadd_rd(__fadd_rn(v, 0.5f), kMagic)); }
// Channel ch of four RGBA8 texels, bilinear, rounded: returns the bits of 2^23 + level.
template <int ch>
__device__ __forceinline__ unsigned lerp_level_bits(unsigned p00, unsigned p10, unsigned p01, unsigned p11,
                                                    float fx, float fy) {
  return level_bits(lerp_value(p00, p10, p01, p11, 0x7440u | ch, fx, fy));
}
struct Levels {
  unsigned r, g, b;  // 2^23 + level, as float bits
};
__device__ __forceinline__ Levels sample_fast(const unsigned* __restrict__ view, int W, int x0, int x1, float fx,
                                              int y0, int y1, float fy) {
  const unsigned p00 = __ldg(view + y0 * W + x0), p10 = __ldg(view + y0 * W + x1);
  const unsigned p01 = __ldg(view + y1 * W + x0), p11 = __ldg(view + y1 * W + x1);
  return {lerp_level_bits<0>(p00, p10, p01, p11, fx, fy), lerp_level_bits<1>(p00, p10, p01, p11, fx, fy),
          lerp_level_bits<2>(p00, p10, p01, p11, fx, fy)};
}

}  // namespace lb::cuda::detail
