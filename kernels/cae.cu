// CAE depth for 4D light fields on CUDA: the seed's kernel variants (baseline, vec, tex,
// coalesced, binned) and the exact occupied-bins CAE; winner takes all; the CUDA estimator.
// See lightbench/cae_cuda.hpp for what each variant does and its tolerance.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

#include "cae_launch.hpp"
#include "disparity_score.hpp"
#include "lightfield_refocus.hpp"
#include "surface_write.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/cae_cuda.hpp"
#include "lightbench/cae_math.hpp"

namespace lb::cuda {

namespace detail {

namespace {

struct KArgs {
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
};

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
__device__ __forceinline__ float entropy256(const unsigned char* h, int c, const KArgs& a) {
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
__device__ __forceinline__ void centre_rgb(const uchar4* rgba, const KArgs& a, int x, int y, int c[3]) {
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

// ---- baseline: thread per (pixel, label), label fastest; scalar per channel, RGB8 -------
__global__ void k_baseline(KArgs a, const unsigned char* __restrict__ rgb) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long total = static_cast<long long>(a.rw) * a.rh * a.A;
  if (t >= total) return;
  const int label = static_cast<int>(t % a.A);
  const int pix = static_cast<int>(t / a.A);
  const int px = pix % a.rw, py = pix / a.rw, x = a.rx + px, y = a.ry + py;
  const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
  const size_t plane = static_cast<size_t>(a.W) * a.H;
  const unsigned char* cview = rgb + (static_cast<size_t>(a.vc) * a.nu + a.uc) * plane * 3;
  __align__(16) unsigned char hist[256];
  float hs[3];
  for (int ch = 0; ch < 3; ++ch) {
    const int c = cview[(static_cast<size_t>(y) * a.W + x) * 3 + ch];
    zero_hist(hist, 256);
    for (int v = a.v0; v < a.v0 + a.n; ++v)
      for (int u = a.u0; u < a.u0 + a.n; ++u) {
        const Tap tp = bilinear_tap(shear_pos(x, u - a.uc, d), shear_pos(y, v - a.vc, d), a.W, a.H);
        const unsigned char* view = rgb + (static_cast<size_t>(v) * a.nu + u) * plane * 3;
        const int i = lerp_round(view[tp.i00 * 3 + ch], view[tp.i10 * 3 + ch], view[tp.i01 * 3 + ch],
                                 view[tp.i11 * 3 + ch], tp.fx, tp.fy);
        ++hist[i];
      }
    hs[ch] = entropy256(hist, c, a);
  }
  a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(hs[0], hs[1], hs[2]);
}

// ---- vec / tex: thread per (pixel, label), label fastest; RGB at once -------------------
template <bool kTex>
__global__ void k_vec(KArgs a, const uchar4* __restrict__ rgba, cudaTextureObject_t tex) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long total = static_cast<long long>(a.rw) * a.rh * a.A;
  if (t >= total) return;
  const int label = static_cast<int>(t % a.A);
  const int pix = static_cast<int>(t / a.A);
  const int px = pix % a.rw, py = pix / a.rw, x = a.rx + px, y = a.ry + py;
  const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
  const size_t plane = static_cast<size_t>(a.W) * a.H;
  int c[3];
  centre_rgb(rgba, a, x, y, c);
  __align__(16) unsigned char hist[3][256];
  zero_hist(&hist[0][0], 768);
  for (int v = a.v0; v < a.v0 + a.n; ++v)
    for (int u = a.u0; u < a.u0 + a.n; ++u) {
      const float sx = shear_pos(x, u - a.uc, d), sy = shear_pos(y, v - a.vc, d);
      int s[3];
      if constexpr (kTex) {
        const float4 f = tex2DLayered<float4>(tex, sx + 0.5f, sy + 0.5f, v * a.nu + u);
        s[0] = __float2int_rd(__fmaf_rn(f.x, 255.0f, 0.5f));
        s[1] = __float2int_rd(__fmaf_rn(f.y, 255.0f, 0.5f));
        s[2] = __float2int_rd(__fmaf_rn(f.z, 255.0f, 0.5f));
      } else {
        sample_rgba(rgba + (static_cast<size_t>(v) * a.nu + u) * plane, bilinear_tap(sx, sy, a.W, a.H), s);
      }
      ++hist[0][s[0]];
      ++hist[1][s[1]];
      ++hist[2][s[2]];
    }
  const float h0 = entropy256(hist[0], c[0], a), h1 = entropy256(hist[1], c[1], a),
              h2 = entropy256(hist[2], c[2], a);
  a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(h0, h1, h2);
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
// Channel ch of four RGBA8 texels, bilinear, rounded: returns the bits of 2^23 + level.
template <int ch>
__device__ __forceinline__ unsigned lerp_level_bits(unsigned p00, unsigned p10, unsigned p01, unsigned p11,
                                                    float fx, float fy) {
  constexpr unsigned sel = 0x7440u | ch;  // [byte ch, 0, 0, 0x4B] = 2^23 + byte
  const float a = __uint_as_float(__byte_perm(p00, kMagicBits, sel));
  const float b = __uint_as_float(__byte_perm(p10, kMagicBits, sel));
  const float c = __uint_as_float(__byte_perm(p01, kMagicBits, sel));
  const float d = __uint_as_float(__byte_perm(p11, kMagicBits, sel));
  const float top = __fmaf_rn(fx, __fsub_rn(b, a), __fsub_rn(a, kMagic));
  const float bot = __fmaf_rn(fx, __fsub_rn(d, c), __fsub_rn(c, kMagic));
  const float v = __fmaf_rn(fy, __fsub_rn(bot, top), top);
  return __float_as_uint(__fadd_rd(__fadd_rn(v, 0.5f), kMagic));
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

// ---- coalesced / binned / exact_mask: 2D pixel blocks (x fastest), labels per grid z ---------
struct Mask256 {
  unsigned long long w[4] = {0, 0, 0, 0};
  __device__ __forceinline__ void set(int i) {
    const unsigned long long bit = 1ull << (i & 63);
    const int q = i >> 6;
#pragma unroll
    for (int k = 0; k < 4; ++k) w[k] |= (q == k) ? bit : 0ull;
  }
};

template <CaeKernel kK>
__global__ void k_pixels(KArgs a, const uchar4* __restrict__ rgba) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= a.rw || py >= a.rh) return;
  const int x = a.rx + px, y = a.ry + py;
  const size_t plane = static_cast<size_t>(a.W) * a.H;
  int c[3];
  centre_rgb(rgba, a, x, y, c);
  const int l0 = blockIdx.z * a.labels_per_thread;
  const int l1 = min(a.A, l0 + a.labels_per_thread);
  constexpr bool kBin = kK == CaeKernel::Binned || kK == CaeKernel::BinnedFast;
  constexpr bool kMask = kK == CaeKernel::ExactMask;
  constexpr int kHistBins = kBin ? 64 : 256;
  __align__(16) unsigned char hist[3][kHistBins];
  if constexpr (kMask) zero_hist(&hist[0][0], 3 * kHistBins);  // kept zero
  for (int label = l0; label < l1; ++label) {
    const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
    if constexpr (!kMask) zero_hist(&hist[0][0], 3 * kHistBins);
    Mask256 m[3];
    // Column-wise angular walk: for each view column u, the views down the column.
    for (int u = a.u0; u < a.u0 + a.n; ++u) {
      const float sx = shear_pos(x, u - a.uc, d);
      int x0 = 0, x1 = 0;
      float fx = 0.0f;
      if constexpr (kK == CaeKernel::BinnedFast) axis_tap(sx, a.W, x0, x1, fx);
      for (int v = a.v0; v < a.v0 + a.n; ++v) {
        int s[3];
        if constexpr (kK == CaeKernel::BinnedFast) {
          int y0, y1;
          float fy;
          axis_tap(shear_pos(y, v - a.vc, d), a.H, y0, y1, fy);
          const Levels l = sample_fast(reinterpret_cast<const unsigned*>(rgba) + (static_cast<size_t>(v) * a.nu + u) * plane,
                                       a.W, x0, x1, fx, y0, y1, fy);
          s[0] = static_cast<int>(l.r - kMagicBits);
          s[1] = static_cast<int>(l.g - kMagicBits);
          s[2] = static_cast<int>(l.b - kMagicBits);
        } else {
          sample_rgba(rgba + (static_cast<size_t>(v) * a.nu + u) * plane,
                      bilinear_tap(sx, shear_pos(y, v - a.vc, d), a.W, a.H), s);
        }
        if constexpr (kBin) {
          ++hist[0][s[0] >> 2];
          ++hist[1][s[1] >> 2];
          ++hist[2][s[2] >> 2];
        } else {
          ++hist[0][s[0]];
          ++hist[1][s[1]];
          ++hist[2][s[2]];
        }
        if constexpr (kMask) {
          m[0].set(s[0]);
          m[1].set(s[1]);
          m[2].set(s[2]);
        }
      }
    }
    float hs[3];
#pragma unroll
    for (int ch = 0; ch < 3; ++ch) {
      if constexpr (kK == CaeKernel::Coalesced) {
        hs[ch] = entropy256(hist[ch], c[ch], a);
      } else if constexpr (kBin) {
        float G = 0.0f, S = 0.0f;
        const unsigned* h32 = reinterpret_cast<const unsigned*>(hist[ch]);
        for (int q = 0; q < 16; ++q) {
          const unsigned packed = h32[q];
          if (packed == 0u) continue;
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            const int cnt = (packed >> (8 * j)) & 0xff;
            if (cnt) add_term(__ldg(a.wbin + cae::binned_weight_index(4 * q + j, c[ch])), cnt, a.inv_n, G, S);
          }
        }
        hs[ch] = finish(G, S, a.normalized);
      } else {  // Exact: occupied bins in ascending order, counts reset behind us
        float G = 0.0f, S = 0.0f;
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          unsigned long long bits = m[ch].w[q];
          while (bits) {
            const int i = 64 * q + __ffsll(static_cast<long long>(bits)) - 1;
            bits &= bits - 1;
            const int cnt = hist[ch][i];
            hist[ch][i] = 0;
            add_term(__ldg(a.w256 + abs(i - c[ch])), cnt, a.inv_n, G, S);
          }
        }
        hs[ch] = finish(G, S, a.normalized);
      }
    }
    a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(hs[0], hs[1], hs[2]);
  }
}

// ---- exact, register variant (n = 3, 5, 7): the n*n samples stay in registers, each
// channel's keys are sorted by a bitonic network (padded to a power of two with 256), and
// the runs of equal keys are the occupied bins in ascending order: the same terms in the
// same order as the 256-bin scan, with no histogram memory at all.
template <int P>
__device__ __forceinline__ void bitonic_sort(int (&k)[P]) {
#pragma unroll
  for (int size = 2; size <= P; size <<= 1)
#pragma unroll
    for (int stride = size / 2; stride > 0; stride >>= 1)
#pragma unroll
      for (int i = 0; i < P; ++i) {
        const int j = i ^ stride;
        if (j > i) {
          const int lo = min(k[i], k[j]), hi = max(k[i], k[j]);
          const bool up = (i & size) == 0;
          k[i] = up ? lo : hi;
          k[j] = up ? hi : lo;
        }
      }
}

template <int N>
__global__ void __launch_bounds__(128) k_exact_reg(KArgs a, const uchar4* __restrict__ rgba) {
  constexpr int NN = N * N;
  constexpr int P = NN <= 16 ? 16 : NN <= 32 ? 32 : 64;
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= a.rw || py >= a.rh) return;
  const int x = a.rx + px, y = a.ry + py;
  const size_t plane = static_cast<size_t>(a.W) * a.H;
  int c[3];
  centre_rgb(rgba, a, x, y, c);
  const int l0 = blockIdx.z * a.labels_per_thread;
  const int l1 = min(a.A, l0 + a.labels_per_thread);
  for (int label = l0; label < l1; ++label) {
    const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
    unsigned packed[NN];
#pragma unroll
    for (int uu = 0; uu < N; ++uu) {
      const int u = a.u0 + uu;
      const float sx = shear_pos(x, u - a.uc, d);
#pragma unroll
      for (int vv = 0; vv < N; ++vv) {
        const int v = a.v0 + vv;
        int s[3];
        sample_rgba(rgba + (static_cast<size_t>(v) * a.nu + u) * plane,
                    bilinear_tap(sx, shear_pos(y, v - a.vc, d), a.W, a.H), s);
        packed[uu * N + vv] = static_cast<unsigned>(s[0]) | (static_cast<unsigned>(s[1]) << 8) |
                              (static_cast<unsigned>(s[2]) << 16);
      }
    }
    float hs[3];
#pragma unroll
    for (int ch = 0; ch < 3; ++ch) {
      int k[P];
#pragma unroll
      for (int j = 0; j < P; ++j) k[j] = j < NN ? static_cast<int>((packed[j < NN ? j : 0] >> (8 * ch)) & 0xff) : 256;
      bitonic_sort<P>(k);
      float G = 0.0f, S = 0.0f;
      int run = 1;
#pragma unroll
      for (int j = 0; j < NN; ++j) {
        if (j + 1 < NN && k[j + 1] == k[j]) {
          ++run;
        } else {
          add_term(__ldg(a.w256 + abs(k[j] - c[ch])), run, a.inv_n, G, S);
          run = 1;
        }
      }
      hs[ch] = finish(G, S, a.normalized);
    }
    a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(hs[0], hs[1], hs[2]);
  }
}

// ---- exact (n = 3, 5, 7, 9): sorting network on three channels at once, no histogram -----
// A sample's three levels are packed into one 32-bit word in 10-bit fields (R bits 0-7,
// G 10-17, B 20-27) with a guard bit (8, 18, 28) set. A SWAR compare-exchange sorts the
// three fields independently (6 integer ops for three channels); after Batcher's odd-even
// merge sort (pruned to n*n keys: 28 / 140 / 394 / 864 comparators for n = 3 / 5 / 7 / 9)
// word j holds the j-th smallest R, G and B. Runs of equal values are the occupied bins in
// ascending order; their (count, |level - centre|) index a table of the exact add_term
// values (g, logf(g)) computed on the device by the same expressions, and positions that
// end no run read the (0, 0) entry: G + 0 and fma(0, 0, S) leave G and S unchanged, so the
// per-channel sums are the same float operations, in the same order, as the 256-bin scan.
constexpr unsigned kF1 = 0x00100401u;  // 1 in each field
constexpr unsigned kGuard = kF1 << 8;  // bits 8, 18, 28
constexpr unsigned kVal = kF1 * 0xFFu; // value bits of the three fields
static_assert(kTermTableFloats >= (cae::kMaxWindow * cae::kMaxWindow + 1) * 512 * 2, "term table rows");

template <int M>
struct NetPairs {
  int lo[M > 0 ? M : 1], hi[M > 0 ? M : 1];
};
// Batcher's odd-even merge sort on the next power of two; comparators that touch a padding
// position (>= nn, implicitly +inf) are no-ops and dropped.
template <int NN>
constexpr int batcher_count() {
  int n = 1;
  while (n < NN) n *= 2;
  int c = 0;
  for (int p = 1; p < n; p *= 2)
    for (int k = p; k >= 1; k /= 2)
      for (int j = k % p; j + k < n; j += 2 * k)
        for (int i = 0; i < k && i < n - j - k; ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < NN) ++c;
  return c;
}
template <int NN>
constexpr NetPairs<batcher_count<NN>()> batcher_net() {
  NetPairs<batcher_count<NN>()> r{};
  int n = 1;
  while (n < NN) n *= 2;
  int c = 0;
  for (int p = 1; p < n; p *= 2)
    for (int k = p; k >= 1; k /= 2)
      for (int j = k % p; j + k < n; j += 2 * k)
        for (int i = 0; i < k && i < n - j - k; ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < NN) {
            r.lo[c] = i + j;
            r.hi[c] = i + j + k;
            ++c;
          }
  return r;
}
template <int NN>
inline constexpr auto kBatcher = batcher_net<NN>();
static_assert(batcher_count<25>() == 140 && batcher_count<81>() == 864, "pruned Batcher network sizes");

// Field-wise compare-exchange of two guarded words: lo gets the smaller of each field.
__device__ __forceinline__ void swar_cmpx(unsigned& lo, unsigned& hi) {
  const unsigned ge = (lo - hi + kGuard) & kGuard;  // guard set where lo >= hi (no borrows)
  const unsigned m = ge - (ge >> 8);                // 0xFF in those fields
  const unsigned a = lo;
  lo = (hi & m) | (a & ~m);
  hi = (a & m) | (hi & ~m);
}
template <int L, int H, int NN>
__device__ __forceinline__ void cmpx_at(unsigned (&k)[NN]) {
  swar_cmpx(k[L], k[H]);
}
template <int NN, std::size_t... I>
__device__ __forceinline__ void sort_net(unsigned (&k)[NN], std::index_sequence<I...>) {
  (cmpx_at<kBatcher<NN>.lo[I], kBatcher<NN>.hi[I]>(k), ...);
}

// Term table [count 0..81][|level - centre| 0..255] of (g, logf(g)), g exactly as add_term
// computes it; row 0 is (0, 0).
__global__ void k_term_table(const float* __restrict__ w256, float inv_n, int rows, float2* table) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * 256) return;
  const int cnt = i >> 8, dist = i & 255;
  if (cnt == 0) {
    table[i] = make_float2(0.0f, 0.0f);
    return;
  }
  const float g = __fmul_rn(w256[dist], __fmul_rn(static_cast<float>(cnt), inv_n));
  table[i] = make_float2(g, logf(g));
}

// Blocks of 128 per SM the register budget is set for (ptxas -v, sm_90, no spills): n = 3:
// 64 registers, 5: 80, 7: 96, 9: 128 (the 81 keys alone take 81). Without the bound ptxas
// hoists the table loads and takes 168 (5 x 5) to 255 (9 x 9, 8 warps per SM).
constexpr int sort_min_blocks(int n) { return n <= 3 ? 8 : n <= 5 ? 6 : n <= 7 ? 5 : 4; }
template <int N>
__global__ void __launch_bounds__(128, sort_min_blocks(N))
    k_exact_sort(KArgs a, const unsigned* __restrict__ rgba, const float2* __restrict__ terms) {
  constexpr int NN = N * N;
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= a.rw || py >= a.rh) return;
  const int x = a.rx + px, y = a.ry + py;
  const size_t plane = static_cast<size_t>(a.W) * a.H;
  const unsigned cw = __ldg(rgba + (static_cast<size_t>(a.vc) * a.nu + a.uc) * plane + static_cast<size_t>(y) * a.W + x);
  // Centre levels in the field layout (no guard bits).
  const unsigned centre = (cw & 0xFFu) | (((cw >> 8) & 0xFFu) << 10) | (((cw >> 16) & 0xFFu) << 20);
  // One label per thread (grid z): a label loop would invite the compiler to keep the
  // n*n view addresses live across labels, and registers are what this kernel spends.
  const int label = blockIdx.z;
  {
    const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
    // The column loop is not unrolled (the keys shift down by one column per iteration,
    // static register indices throughout): unrolled, the compiler hoists all n*n*4 loads
    // to the top and needs ~240 registers at 5 x 5.
    unsigned k[NN];
#pragma unroll
    for (int i = 0; i < NN; ++i) k[i] = kGuard;
#pragma unroll 1
    for (int uu = 0; uu < N; ++uu) {
      const int u = a.u0 + uu;
      int x0, x1;
      float fx;
      axis_tap(shear_pos(x, u - a.uc, d), a.W, x0, x1, fx);
      unsigned col[N];
#pragma unroll
      for (int vv = 0; vv < N; ++vv) {
        const int v = a.v0 + vv;
        int y0, y1;
        float fy;
        axis_tap(shear_pos(y, v - a.vc, d), a.H, y0, y1, fy);
        const Levels s = sample_fast(rgba + (static_cast<size_t>(v) * a.nu + u) * plane, a.W, x0, x1, fx, y0, y1, fy);
        // Shifting the float bits drops the 2^23 exponent bits out of the word.
        col[vv] = ((s.r & 0xFFu) | kGuard) + (s.g << 10) + (s.b << 20);
      }
#pragma unroll
      for (int i = 0; i < NN - N; ++i) k[i] = k[i + N];
#pragma unroll
      for (int vv = 0; vv < N; ++vv) k[NN - N + vv] = col[vv];
    }
    sort_net<NN>(k, std::make_index_sequence<static_cast<std::size_t>(batcher_count<NN>())>{});
    float G0 = 0.0f, S0 = 0.0f, G1 = 0.0f, S1 = 0.0f, G2 = 0.0f, S2 = 0.0f;
    unsigned start = 0;  // per field: index where the current run began
#pragma unroll
    for (int j = 0; j < NN; ++j) {
      unsigned end;  // 0xFF in the fields whose run ends at j
      if (j + 1 < NN) {
        const unsigned t = ((k[j] ^ k[j + 1]) + kVal) & kGuard;
        end = t - (t >> 8);
      } else {
        end = kVal;
      }
      const unsigned J = static_cast<unsigned>(j + 1) * kF1;
      const unsigned cnt = (J - start) & end;
      start = (J & end) | (start & ~end);
      // |level - centre| per field: 256 + l - c and 256 + c - l, pick by the guard bit.
      const unsigned pos = k[j] - centre;
      const unsigned neg = (centre | kGuard) - (k[j] & kVal);
      const unsigned ge = pos & kGuard;
      const unsigned gm = ge - (ge >> 8);
      const unsigned dist = ((pos & gm) | (neg & ~gm)) & end;
      const float2 t0 = __ldg(terms + (((cnt & 0xFFu) << 8) | (dist & 0xFFu)));
      const float2 t1 = __ldg(terms + (((cnt >> 2) & 0xFF00u) | ((dist >> 10) & 0xFFu)));
      const float2 t2 = __ldg(terms + (((cnt >> 12) & 0xFF00u) | ((dist >> 20) & 0xFFu)));
      G0 = __fadd_rn(G0, t0.x);
      S0 = __fmaf_rn(t0.x, t0.y, S0);
      G1 = __fadd_rn(G1, t1.x);
      S1 = __fmaf_rn(t1.x, t1.y, S1);
      G2 = __fadd_rn(G2, t2.x);
      S2 = __fmaf_rn(t2.x, t2.y, S2);
    }
    a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] =
        combine(finish(G0, S0, a.normalized), finish(G1, S1, a.normalized), finish(G2, S2, a.normalized));
  }
}

// ---- exact_smem (any n): 8-bit counts in shared memory, occupied bins walked in order ----
// Why: the 256-bin kernels keep their counts in local memory, where the lanes' data-dependent
// bytes fall in up to 32 cache lines per access; the sorting network grows as n log^2 n
// (864 comparators at 9 x 9). Here thread t's count word k of a channel (bins 4k .. 4k+3)
// is at smem[k * B + t] (B = block threads, a multiple of 32): its bank is t % 32 whatever
// k is, so every data-dependent increment is one conflict-free shared access: an atomicAdd
// whose result is unused (no load-add-store latency chain per sample; only the thread's own
// words, counts <= 225 never carry into the next byte). Per (pixel, label): the n*n
// samples' counts are added; each channel's 64 words are scanned into a 64-bit mask of the
// non-empty words; a loop over the thread's occupied bins (ascending: non-empty words by the
// mask, non-zero bytes by their lowest set bit; see SmemWalk) reads each word once, writes
// it back 0 (counts stay zero across the thread's labels: zeroed once at the start), and
// adds each bin's term with add_term's arithmetic: the same float values added in the same
// order as coalesced's 256-bin scan. Iterations per warp: the largest per-thread count (not
// the union over the warp, as a walk of all 64 words with a branch per word would cost).
// Sampling (conversion-free, as exact): x taps per view column and the y tap per view row
// once per label; the four texels at p, p + 1, p + W, p + W + 1 without the edge clamp of
// x1 / y1: at the last column / row the fraction is exactly 0, so the extra texel (next
// row, next view, or the padding after the last view, see CaeDeviceLightField::upload)
// enters as fma(0, finite, a) = a: bit-identical levels.
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

// Term table of exact_smem: [count 0..n*n][level - centre + 256] of (g, logf(g)), g exactly
// as add_term computes it (the same values as k_term_table's, indexed by the signed offset:
// no |.| per bin); row 0 is (0, 0), an exact zero term.
constexpr int kSignedCols = 512;
__global__ void k_term_table_signed(const float* __restrict__ w256, float inv_n, int rows, float2* table) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * kSignedCols) return;
  const int cnt = i / kSignedCols, dist = min(abs(i % kSignedCols - 256), 255);
  if (cnt == 0) {
    table[i] = make_float2(0.0f, 0.0f);
    return;
  }
  const float g = __fmul_rn(w256[dist], __fmul_rn(static_cast<float>(cnt), inv_n));
  table[i] = make_float2(g, logf(g));
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

__device__ __forceinline__ void accumulate(float2 t, float& G, float& S) {
  G = __fadd_rn(G, t.x);
  S = __fmaf_rn(t.x, t.y, S);
}

// How exact_smem walks the occupied bins (the non-empty words of a channel come from one
// scan into a 64-bit mask; the three channels' walks are interleaved in one loop: three
// independent shared-load -> term chains per iteration; a channel whose walk has ended in
// every lane of the warp costs one uniform branch):
//   Bins        (exact_smem): one step per occupied bin (lowest non-zero byte of the current
//               word), its term computed as add_term does: w(|bin - c|) from the 1 KiB
//               weight table, logf in registers;
//   WordsTable  (exact_smem_table): one step per non-empty word, its four bins' (g, logf g)
//               read from a (count, level - centre) table (empty bytes read row 0: exact
//               zeros), consumed in the next step while the next word's loads fly.
// Why both: the table saves ~20 instructions of logf per bin, but its loads are scattered
// over ~226 KiB (each lane its own (count, level) entry: up to 32 L1 wavefronts per warp
// load, the likely limit of exact_sort, which reads the same kind of table), while the
// weight table's 1 KiB spans 8 cache lines.
enum class SmemWalk { Bins, WordsTable };

// The next non-empty word of a channel by its mask; false when there is none.
__device__ __forceinline__ bool next_word(unsigned& lo, unsigned& hi, int& q) {
  if ((lo | hi) == 0u) return false;
  if (lo) {
    q = __ffs(static_cast<int>(lo)) - 1;
    lo &= lo - 1u;
  } else {
    q = 31 + __ffs(static_cast<int>(hi));
    hi &= hi - 1u;
  }
  return true;
}
// Non-empty words of a channel: min + shift-add, two operations a word.
__device__ __forceinline__ void scan_words(const unsigned* ch, unsigned& lo, unsigned& hi) {
  lo = 0u;
  hi = 0u;
#pragma unroll
  for (int q = 0; q < 32; ++q) lo += min(ch[q * kSmemThreads], 1u) << q;
#pragma unroll
  for (int q = 0; q < 32; ++q) hi += min(ch[(32 + q) * kSmemThreads], 1u) << q;
}

// logf(a) for a positive normal float a, bit-identical to CUDA's logf there: the sequence
// nvcc 13 emits for logf (libdevice: exponent split at 2/3, a degree-8 polynomial in
// m - 1, k ln 2 added last) without its denormal scaling, its inf / NaN / zero branches and
// the int-to-float conversion of the exponent (made exact by the 1.5 * 2^23 trick; the
// conversion pipe runs at 1/8 of the FMA rate). Every term g of exact_smem is normal:
// g >= weight floor (1e-30) / 225 > FLT_MIN. Checked on the host over every float in
// [FLT_MIN, 2] against a transcription of the full sequence, and on the device against
// logf itself by cae_log_mismatches() (tests/gpu/test_cae_gpu.cpp).
__device__ __forceinline__ float logf_pos_normal(float a) {
  const int ia = __float_as_int(a);
  const int e = (ia - 0x3F2AAAAB) & static_cast<int>(0xFF800000u);  // exponent, mantissa in [2/3, 4/3)
  const float m = __int_as_float(ia - e);
  const float k = __fsub_rn(__int_as_float(0x4B400000 + (e >> 23)), 12582912.0f);  // float(e >> 23)
  const float f = __fadd_rn(m, -1.0f);
  float p = __fmaf_rn(__int_as_float(0xBE055027), f, __int_as_float(0x3E1039F6));
  p = __fmaf_rn(p, f, __int_as_float(0xBDF8CDCC));
  p = __fmaf_rn(p, f, __int_as_float(0x3E0F2955));
  p = __fmaf_rn(p, f, __int_as_float(0xBE2AD8B9));
  p = __fmaf_rn(p, f, __int_as_float(0x3E4CED0B));
  p = __fmaf_rn(p, f, __int_as_float(0xBE7FFF22));
  p = __fmaf_rn(p, f, __int_as_float(0x3EAAAA78));
  p = __fmaf_rn(p, f, __int_as_float(0xBF000000));
  const float r = __fmaf_rn(__fmul_rn(f, p), f, f);
  return __fmaf_rn(k, __int_as_float(0x3F317218), r);
}

// Self-check of logf_pos_normal: counts the floats in [FLT_MIN, 2] where it differs from
// logf (bitwise).
__global__ void k_check_log(unsigned first, unsigned last, unsigned long long* mismatches) {
  const unsigned stride = gridDim.x * blockDim.x;
  unsigned long long bad = 0;
  for (unsigned u = first + blockIdx.x * blockDim.x + threadIdx.x; u <= last; u += stride) {
    const float x = __uint_as_float(u);
    bad += __float_as_uint(logf_pos_normal(x)) != __float_as_uint(logf(x));
    if (u > last - stride) break;  // no wrap-around
  }
  if (bad) atomicAdd(mismatches, bad);
}

// The sheared sampling of exact_smem and exact_terms (conversion-free bilinear taps, 32-bit
// texel offsets), written once. Per view column u: the texel offset u * plane + x0 of the left
// tap and its weight fx.
template <int N>
__device__ __forceinline__ void column_taps(const KArgs& a, int x, float d, unsigned plane, unsigned (&xo)[N],
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
__device__ __forceinline__ void gather_row(const KArgs& a, const unsigned* __restrict__ rgba, int y, int v, float d,
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

// One channel's bin walk (exact_smem): add_term's arithmetic on each occupied bin.
struct BinWalk {
  unsigned lo, hi;
  unsigned w;  // current word, its processed bytes cleared
  int base;    // 4 q - centre of the current word
  int c;
  float G, S;
  __device__ __forceinline__ void init(const unsigned* ch, int centre) {
    scan_words(ch, lo, hi);
    w = 0u;
    base = 0;
    c = centre;
    G = 0.0f;
    S = 0.0f;
  }
  __device__ __forceinline__ bool step(unsigned* ch, const float* w256, float inv_n) {
    if (w == 0u) {
      int q;
      if (!next_word(lo, hi, q)) return false;
      unsigned* const pw = ch + q * kSmemThreads;
      w = *pw;
      *pw = 0u;
      base = 4 * q - c;
    }
    const unsigned sh = static_cast<unsigned>(__ffs(static_cast<int>(w)) - 1) & ~7u;  // lowest non-zero byte
    const unsigned cnt = (w >> sh) & 0xFFu;
    w &= ~(0xFFu << sh);
    const float wt = w256[abs(base + static_cast<int>(sh >> 3))];
    // add_term(wt, cnt, ...) with float(cnt) made by the 2^23 trick (exact, no conversion).
    const float fc = __fsub_rn(__uint_as_float(kMagicBits | cnt), kMagic);
    const float g = __fmul_rn(wt, __fmul_rn(fc, inv_n));
    G = __fadd_rn(G, g);
    S = __fmaf_rn(g, logf_pos_normal(g), S);
    return true;
  }
  __device__ __forceinline__ float entropy(int normalized) const { return finish(G, S, normalized); }
};

// One channel's word walk with the term table (exact_smem_table).
struct WordWalk {
  unsigned lo, hi;
  int c0;  // table column of level 0: 256 - centre
  float G, S;
  float2 p0, p1, p2, p3;  // the previous word's terms (first: exact zeros)
  __device__ __forceinline__ void init(const unsigned* ch, int c) {
    scan_words(ch, lo, hi);
    c0 = 256 - c;
    G = 0.0f;
    S = 0.0f;
    p0 = p1 = p2 = p3 = make_float2(0.0f, 0.0f);
  }
  __device__ __forceinline__ bool step(unsigned* ch, const float2* __restrict__ terms) {
    int q;
    if (!next_word(lo, hi, q)) return false;
    unsigned* const pw = ch + q * kSmemThreads;
    const unsigned w = *pw;
    *pw = 0u;
    const int col = opaque(c0 + 4 * q);  // bins 4q .. 4q+3 (32-bit index math, see opaque)
    const float2 t0 = __ldg(terms + (static_cast<int>(__byte_perm(w, 0u, 0x4440)) * kSignedCols + col));
    const float2 t1 = __ldg(terms + (static_cast<int>(__byte_perm(w, 0u, 0x4441)) * kSignedCols + col) + 1);
    const float2 t2 = __ldg(terms + (static_cast<int>(__byte_perm(w, 0u, 0x4442)) * kSignedCols + col) + 2);
    const float2 t3 = __ldg(terms + (static_cast<int>(__byte_perm(w, 0u, 0x4443)) * kSignedCols + col) + 3);
    accumulate(p0, G, S);
    accumulate(p1, G, S);
    accumulate(p2, G, S);
    accumulate(p3, G, S);
    p0 = t0;
    p1 = t1;
    p2 = t2;
    p3 = t3;
    return true;
  }
  __device__ __forceinline__ float entropy(int normalized) {
    accumulate(p0, G, S);
    accumulate(p1, G, S);
    accumulate(p2, G, S);
    accumulate(p3, G, S);
    return finish(G, S, normalized);
  }
};

template <int N, SmemWalk kWalk>
__global__ void __launch_bounds__(kSmemThreads, 3)
    k_exact_smem(KArgs a, const unsigned* __restrict__ rgba, const float2* __restrict__ terms) {
  extern __shared__ unsigned s_counts[];  // [3 channels][64 words][kSmemThreads]
  constexpr int RB = N == 3 ? 3 : 1;                    // rows per step: 12 .. 60 texels
  // Steps unrolled: all up to 7 x 7, in threes where n divides (ptxas then overlaps the
  // next rows' loads with this row's arithmetic, within the 224 registers of 3 blocks/SM).
  constexpr int kStepUnroll = N / RB <= 7 ? N / RB : N % 3 == 0 ? 3 : 1;
  float* const s_w256 = reinterpret_cast<float*>(s_counts + kSmemWords * kSmemThreads);
  if constexpr (kWalk == SmemWalk::Bins) {
    for (int i = threadIdx.y * 32 + threadIdx.x; i < cae::kBins; i += kSmemThreads) s_w256[i] = __ldg(a.w256 + i);
    __syncthreads();
  }
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= a.rw || py >= a.rh) return;  // no block-wide synchronisation below
  const int x = a.rx + px, y = a.ry + py;
  // 32-bit texel offsets (launch_cae_cost checks that the views and the padding fit).
  const unsigned W = static_cast<unsigned>(a.W);
  const unsigned plane = W * static_cast<unsigned>(a.H);
  unsigned* const cr = s_counts + threadIdx.y * 32 + threadIdx.x;
  unsigned* const cg = cr + 64 * kSmemThreads;
  unsigned* const cb = cg + 64 * kSmemThreads;
#pragma unroll 8
  for (int k = 0; k < kSmemWords; ++k) cr[k * kSmemThreads] = 0u;
  const unsigned cw = __ldg(rgba + static_cast<unsigned>(a.vc * a.nu + a.uc) * plane + static_cast<unsigned>(y) * W +
                            static_cast<unsigned>(x));
  const int c0 = static_cast<int>(cw & 0xFFu), c1 = static_cast<int>((cw >> 8) & 0xFFu),
            c2 = static_cast<int>((cw >> 16) & 0xFFu);
  const int l0 = blockIdx.z * a.labels_per_thread;
  const int l1 = min(a.A, l0 + a.labels_per_thread);
  for (int label = l0; label < l1; ++label) {
    const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
    unsigned xo[N];  // u * plane + x0 per view column
    float fx[N];
    column_taps<N>(a, x, d, plane, xo, fx);
    // RB view rows per step: their 4 * N * RB texels loaded first (all in flight at once:
    // registers are free here, shared memory limits the SM to 9 warps; the loads are not
    // left to be hoisted across the shared atomics), then the levels counted.
#pragma unroll kStepUnroll
    for (int v0 = a.v0; v0 < a.v0 + N; v0 += RB) {
      unsigned t00[RB][N], t10[RB][N], t01[RB][N], t11[RB][N];
      float fy[RB];
#pragma unroll
      for (int r = 0; r < RB; ++r) gather_row<N>(a, rgba, y, v0 + r, d, plane, W, xo, fy[r], t00[r], t10[r], t01[r], t11[r]);
#pragma unroll
      for (int r = 0; r < RB; ++r)
#pragma unroll
        for (int uu = 0; uu < N; ++uu) {
          const unsigned p00 = t00[r][uu], p10 = t10[r][uu], p01 = t01[r][uu], p11 = t11[r][uu];
          smem_count(cr, lerp_level_bits<0>(p00, p10, p01, p11, fx[uu], fy[r]));
          smem_count(cg, lerp_level_bits<1>(p00, p10, p01, p11, fx[uu], fy[r]));
          smem_count(cb, lerp_level_bits<2>(p00, p10, p01, p11, fx[uu], fy[r]));
        }
    }
    float h0, h1, h2;
    if constexpr (kWalk == SmemWalk::Bins) {
      BinWalk wr, wg, wb;
      wr.init(cr, c0);
      wg.init(cg, c1);
      wb.init(cb, c2);
      for (;;) {
        const bool more_r = wr.step(cr, s_w256, a.inv_n);
        const bool more_g = wg.step(cg, s_w256, a.inv_n);
        const bool more_b = wb.step(cb, s_w256, a.inv_n);
        if (!(more_r || more_g || more_b)) break;
      }
      h0 = wr.entropy(a.normalized);
      h1 = wg.entropy(a.normalized);
      h2 = wb.entropy(a.normalized);
    } else {
      WordWalk wr, wg, wb;
      wr.init(cr, c0);
      wg.init(cg, c1);
      wb.init(cb, c2);
      for (;;) {
        const bool more_r = wr.step(cr, terms);
        const bool more_g = wg.step(cg, terms);
        const bool more_b = wb.step(cb, terms);
        if (!(more_r || more_g || more_b)) break;
      }
      h0 = wr.entropy(a.normalized);
      h1 = wg.entropy(a.normalized);
      h2 = wb.entropy(a.normalized);
    }
    a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(h0, h1, h2);
  }
}

// ---- exact_terms (any n): the exact CAE summed over samples instead of bins -------------
// With N = n*n samples, sample s at level L_s, count c_s of its level and weight w_s:
//   sum_bins g log g = sum_s (w_s / N) (log w_s + log c_s - log N),  |g| = G / N,
//   G = sum_s w_s,  S = sum_s w_s (log w_s + log c_s),
//   spec (log g):           H = -sum (g/|g|) log g       = log N - S / G,
//   normalized (log g/|g|): H = (log N - S / G) + log |g| = log G - S / G.
// Same function as the 256-bin CAE in exact arithmetic, but a different float summation
// (per sample, any order): NOT bit-identical to coalesced; within the CPU tolerances.
// Pass 1 counts the levels (exact_smem's conflict-free 8-bit shared counters) and keeps the
// samples' levels (registers up to 7 x 7, shared memory beyond, see terms_in_regs); pass 2
// reads each sample's count back (one conflict-free shared load per sample and channel)
// and accumulates, in base 2, G = sum w, w = 2^e, and S2 = sum w (e + log2 c) with
// e = max(-(L - c)^2 log2(e) / (2 sigma^2), log2(kWeightFloor)) (no log of w; ex2 / lg2.approx:
// two MUFU operations per sample and channel, no bin walk, no divergence); pass 3 zeroes
// the counters (the sample's words, or all 192 when 3 n^2 > 192).
__device__ __forceinline__ float ex2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float lg2_approx(float x) {
  float y;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
// Levels kept in registers up to 7 x 7, four samples' levels of one channel per word
// (3 x 13 words at 7 x 7), else in shared memory (one r | g << 8 | b << 16 word per sample;
// 9 x 9: 102 KiB a block, 2 blocks = 6 warps per SM). 9 x 9 in registers spilled 4 to 24
// bytes at the 224-register cap of 3 blocks per SM whatever the packing (ptxas hoists the
// texel loads and shared loads to fill the registers).
constexpr bool terms_in_regs(int n) { return n <= 7; }
constexpr std::size_t terms_smem_bytes(int n) {
  return (static_cast<std::size_t>(kSmemWords) + (terms_in_regs(n) ? 0 : static_cast<std::size_t>(n) * n)) *
         kSmemThreads * 4;
}
// Byte k of w replaced by byte 0 of b (k static after unrolling).
__device__ __forceinline__ unsigned put_byte(unsigned w, unsigned b, int k) {
  return k == 0 ? (b & 0xFFu) : __byte_perm(w, b, k == 1 ? 0x3240u : k == 2 ? 0x3410u : 0x4210u);
}

// One sample's channel: level (low 8 bits of lv), its count from the counters, the term.
__device__ __forceinline__ void sample_term(const unsigned* ch, unsigned lv, float cf, float k2, float e_floor,
                                            float& G, float& S2) {
  const unsigned L = lv & 0xFFu;
  const unsigned word = ch[(L >> 2) * kSmemThreads];
  const unsigned cnt = (word >> ((L & 3u) << 3)) & 0xFFu;
  const float fc = __fsub_rn(__uint_as_float(kMagicBits | cnt), kMagic);  // float(cnt), exact
  const float dl = __fsub_rn(__uint_as_float(kMagicBits | L), cf);        // L - c, exact
  const float e = fmaxf(__fmul_rn(__fmul_rn(dl, dl), k2), e_floor);      // log2 w
  const float w = ex2_approx(e);
  G = __fadd_rn(G, w);
  S2 = __fmaf_rn(w, __fadd_rn(e, lg2_approx(fc)), S2);
}

// H of one channel from G = sum w and S2 = sum w (log2 w + log2 c) (see above).
__device__ __forceinline__ float terms_entropy(float G, float S2, const KArgs& a) {
  const float base = a.normalized ? logf(G) : a.terms_ln_n;
  return __fmaf_rn(-0.693147180559945309f, __fdiv_rn(S2, G), base);
}

// 3 blocks of 96 threads per SM (shared memory: 3 x 72 KiB) allow 224 registers a thread,
// but __launch_bounds__(96, 3) lets ptxas take only 168 (7 x 7 and 9 x 9 with the levels in
// registers spilled): the cap is given directly.
constexpr int kTermsMaxRegs = 224;
template <int N>
__global__ void __maxnreg__(kTermsMaxRegs) k_exact_terms(KArgs a, const unsigned* __restrict__ rgba) {
  extern __shared__ unsigned s_counts[];  // [3 channels][64 words][B], then [n*n][B] levels
  constexpr int NN = N * N;
  constexpr bool kRegs = terms_in_regs(N);
  constexpr int RB = N == 3 ? 3 : 1;
  // Registers: every loop fully unrolled (static indices into lv); else as exact_smem.
  constexpr int kStepUnroll = kRegs ? N / RB : N % 3 == 0 ? 3 : 1;
  constexpr int kRowUnroll = kRegs ? N : 1;
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= a.rw || py >= a.rh) return;  // no block-wide synchronisation below
  const int x = a.rx + px, y = a.ry + py;
  const unsigned W = static_cast<unsigned>(a.W);
  const unsigned plane = W * static_cast<unsigned>(a.H);
  unsigned* const cr = s_counts + threadIdx.y * 32 + threadIdx.x;
  unsigned* const cg = cr + 64 * kSmemThreads;
  unsigned* const cb = cg + 64 * kSmemThreads;
  unsigned* const slv = cr + kSmemWords * kSmemThreads;  // levels (shared-memory storage)
#pragma unroll 8
  for (int k = 0; k < kSmemWords; ++k) cr[k * kSmemThreads] = 0u;
  const unsigned cw = __ldg(rgba + static_cast<unsigned>(a.vc * a.nu + a.uc) * plane + static_cast<unsigned>(y) * W +
                            static_cast<unsigned>(x));
  const float cf0 = __uint_as_float(kMagicBits | (cw & 0xFFu));
  const float cf1 = __uint_as_float(kMagicBits | ((cw >> 8) & 0xFFu));
  const float cf2 = __uint_as_float(kMagicBits | ((cw >> 16) & 0xFFu));
  const float k2 = a.terms_k2, e_floor = a.terms_floor2;
  const int l0 = blockIdx.z * a.labels_per_thread;
  const int l1 = min(a.A, l0 + a.labels_per_thread);
  for (int label = l0; label < l1; ++label) {
    const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
    constexpr int kLvWords = kRegs ? (NN + 3) / 4 : 1;
    unsigned lv[3][kLvWords];  // registers: channel ch, samples 4i .. 4i+3 in word i
#pragma unroll
    for (int i = 0; i < kLvWords; ++i) lv[0][i] = lv[1][i] = lv[2][i] = 0u;
    // Level of sample j in channel ch: the low 8 bits (the higher bits hold other samples' levels
    // of the channel in registers, other channels' levels in shared memory).
    auto level = [&](int ch, int j) -> unsigned {
      if constexpr (kRegs)
        return lv[ch][kRegs ? j >> 2 : 0] >> (8 * (j & 3));
      else
        return slv[j * kSmemThreads] >> (8 * ch);
    };
    unsigned xo[N];  // u * plane + x0 per view column
    float fx[N];
    column_taps<N>(a, x, d, plane, xo, fx);
    // Pass 1: sample, count, keep the packed levels.
#pragma unroll kStepUnroll
    for (int vv0 = 0; vv0 < N; vv0 += RB) {
      unsigned t00[RB][N], t10[RB][N], t01[RB][N], t11[RB][N];
      float fy[RB];
#pragma unroll
      for (int r = 0; r < RB; ++r)
        gather_row<N>(a, rgba, y, a.v0 + vv0 + r, d, plane, W, xo, fy[r], t00[r], t10[r], t01[r], t11[r]);
#pragma unroll
      for (int r = 0; r < RB; ++r)
#pragma unroll
        for (int uu = 0; uu < N; ++uu) {
          const unsigned p00 = t00[r][uu], p10 = t10[r][uu], p01 = t01[r][uu], p11 = t11[r][uu];
          const unsigned br = lerp_level_bits<0>(p00, p10, p01, p11, fx[uu], fy[r]);
          const unsigned bg = lerp_level_bits<1>(p00, p10, p01, p11, fx[uu], fy[r]);
          const unsigned bb = lerp_level_bits<2>(p00, p10, p01, p11, fx[uu], fy[r]);
          smem_count(cr, br);
          smem_count(cg, bg);
          smem_count(cb, bb);
          const int j = (vv0 + r) * N + uu;
          if constexpr (kRegs) {
            lv[0][j >> 2] = put_byte(lv[0][j >> 2], br, j & 3);
            lv[1][j >> 2] = put_byte(lv[1][j >> 2], bg, j & 3);
            lv[2][j >> 2] = put_byte(lv[2][j >> 2], bb, j & 3);
          } else {
            slv[j * kSmemThreads] = __byte_perm(__byte_perm(br, bg, 0x1140), bb, 0x2410);  // r | g << 8 | b << 16
          }
        }
    }
    // Pass 2: every sample's term (its level's count read back), one channel after the other
    // (2 + 2 accumulators live: 9 x 9 keeps its 81 levels in registers without spills);
    // summed per view row first (n partial sums of n terms: when all weights are floored,
    // H ~ 70 and one chain of n^2 float additions is off by up to ~1.5e-4, row sums ~2e-5).
    float h[3];
#pragma unroll
    for (int ch = 0; ch < 3; ++ch) {
      const unsigned* const cc = cr + ch * 64 * kSmemThreads;
      const float cf = ch == 0 ? cf0 : ch == 1 ? cf1 : cf2;
      float G = 0.0f, S2 = 0.0f;
#pragma unroll kRowUnroll
      for (int vv = 0; vv < N; ++vv) {
        float gr = 0.0f, sr = 0.0f;
#pragma unroll
        for (int uu = 0; uu < N; ++uu) {
          const int j = vv * N + uu;
          sample_term(cc, level(ch, j), cf, k2, e_floor, gr, sr);
        }
        G = __fadd_rn(G, gr);
        S2 = __fadd_rn(S2, sr);
      }
      h[ch] = terms_entropy(G, S2, a);
    }
    // Pass 3: counters back to zero for the next label.
    if constexpr (3 * NN > kSmemWords) {
#pragma unroll 8
      for (int k = 0; k < kSmemWords; ++k) cr[k * kSmemThreads] = 0u;
    } else {
#pragma unroll
      for (int j = 0; j < NN; ++j) {
        cr[((level(0, j) >> 2) & 63u) * kSmemThreads] = 0u;
        cg[((level(1, j) >> 2) & 63u) * kSmemThreads] = 0u;
        cb[((level(2, j) >> 2) & 63u) * kSmemThreads] = 0u;
      }
    }
    a.cost[(static_cast<size_t>(label) * a.rh + py) * a.rw + px] = combine(h[0], h[1], h[2]);
  }
}

__global__ void k_wta(int rw, int rh, int A, float dmin, float dmax, const float* __restrict__ cost,
                      float* disparity, int* label, float* confidence) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= rw || py >= rh) return;
  const size_t plane = static_cast<size_t>(rw) * rh, i = static_cast<size_t>(py) * rw + px;
  float best = INFINITY, sum = 0.0f;
  int best_a = 0;
  for (int a = 0; a < A; ++a) {
    const float c = cost[a * plane + i];
    sum += c;
    if (c < best) {
      best = c;
      best_a = a;
    }
  }
  disparity[i] = cae::label_disparity(dmin, dmax, A, best_a);
  label[i] = best_a;
  confidence[i] = sum / static_cast<float>(A) - best;
}

// exact_smem for any window (n = 1 .. kMaxWindow), with the 72 KiB of dynamic shared memory
// it needs (beyond the 48 KiB default) and the carveout for 3 blocks per SM.
template <int N, SmemWalk kWalk>
void launch_smem(dim3 grid, dim3 block, const KArgs& a, const unsigned* rgba, const float2* terms, cudaStream_t s) {
  CUDA_CHECK_THROW(cudaFuncSetAttribute(k_exact_smem<N, kWalk>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(kSmemBytes)));
  CUDA_CHECK_THROW(cudaFuncSetAttribute(k_exact_smem<N, kWalk>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        static_cast<int>(cudaSharedmemCarveoutMaxShared)));
  k_exact_smem<N, kWalk><<<grid, block, kSmemBytes, s>>>(a, rgba, terms);
}
template <SmemWalk kWalk>
void launch_exact_smem(int n, dim3 grid, dim3 block, const KArgs& a, const unsigned* rgba, const float2* terms,
                       cudaStream_t s) {
  static_assert(cae::kMaxWindow == 15, "instantiate k_exact_smem for every odd window");
  switch (n) {
    case 1: launch_smem<1, kWalk>(grid, block, a, rgba, terms, s); break;
    case 3: launch_smem<3, kWalk>(grid, block, a, rgba, terms, s); break;
    case 5: launch_smem<5, kWalk>(grid, block, a, rgba, terms, s); break;
    case 7: launch_smem<7, kWalk>(grid, block, a, rgba, terms, s); break;
    case 9: launch_smem<9, kWalk>(grid, block, a, rgba, terms, s); break;
    case 11: launch_smem<11, kWalk>(grid, block, a, rgba, terms, s); break;
    case 13: launch_smem<13, kWalk>(grid, block, a, rgba, terms, s); break;
    case 15: launch_smem<15, kWalk>(grid, block, a, rgba, terms, s); break;
    default: throw Error("exact_smem: no kernel for a " + std::to_string(n) + "x" + std::to_string(n) + " window");
  }
}

// exact_terms for any window, with its dynamic shared memory (counters, and the levels
// beyond 7 x 7) and the carveout for 3 blocks per SM (up to 7 x 7; 2 at 9 x 9).
template <int N>
void launch_terms(dim3 grid, dim3 block, const KArgs& a, const unsigned* rgba, cudaStream_t s) {
  constexpr std::size_t bytes = terms_smem_bytes(N);
  CUDA_CHECK_THROW(cudaFuncSetAttribute(k_exact_terms<N>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(bytes)));
  CUDA_CHECK_THROW(cudaFuncSetAttribute(k_exact_terms<N>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        static_cast<int>(cudaSharedmemCarveoutMaxShared)));
  k_exact_terms<N><<<grid, block, bytes, s>>>(a, rgba);
}
void launch_exact_terms(int n, dim3 grid, dim3 block, const KArgs& a, const unsigned* rgba, cudaStream_t s) {
  static_assert(cae::kMaxWindow == 15, "instantiate k_exact_terms for every odd window");
  switch (n) {
    case 1: launch_terms<1>(grid, block, a, rgba, s); break;
    case 3: launch_terms<3>(grid, block, a, rgba, s); break;
    case 5: launch_terms<5>(grid, block, a, rgba, s); break;
    case 7: launch_terms<7>(grid, block, a, rgba, s); break;
    case 9: launch_terms<9>(grid, block, a, rgba, s); break;
    case 11: launch_terms<11>(grid, block, a, rgba, s); break;
    case 13: launch_terms<13>(grid, block, a, rgba, s); break;
    case 15: launch_terms<15>(grid, block, a, rgba, s); break;
    default: throw Error("exact_terms: no kernel for a " + std::to_string(n) + "x" + std::to_string(n) + " window");
  }
}

// The exact kernel that runs for a named variant and window n: exact picks the fastest
// bit-identical one (below). Windows a kernel does not cover run exact_mask: exact_sort
// beyond 9 x 9, exact_bitonic beyond 7 x 7, exact_smem* when the views and padding exceed
// their 32-bit texel offsets (4 G texels).
// Measured on an H200 (antinous, 75 labels, docs/PERFORMANCE.md): exact_sort is the fastest
// exact kernel up to 7 x 7 (1.24 / 3.54 / 9.30 ms), exact_smem_table beyond (13.2 ms at 9 x 9
// against exact_smem 16.6, exact_terms 15.3, exact_sort 21.1).
constexpr int kExactSortUpTo = 7;
CaeKernel exact_kernel_for(CaeKernel k, int n, const CaeDeviceLightField& lf) {
  const bool smem_fits = static_cast<std::uint64_t>(lf.nu) * lf.nv * lf.width * lf.height + lf.width + 1 <
                         (std::uint64_t{1} << 32);
  const bool sort_fits = n == 3 || n == 5 || n == 7 || n == 9;
  switch (k) {
    case CaeKernel::Exact:
      if (sort_fits && n <= kExactSortUpTo) return CaeKernel::ExactSort;
      return smem_fits ? CaeKernel::ExactSmemTable : CaeKernel::ExactMask;
    case CaeKernel::ExactSmem:
    case CaeKernel::ExactSmemTable:
    case CaeKernel::ExactTerms: return smem_fits ? k : CaeKernel::ExactMask;
    case CaeKernel::ExactSort: return sort_fits ? k : CaeKernel::ExactMask;
    case CaeKernel::ExactBitonic: return n == 3 || n == 5 || n == 7 ? k : CaeKernel::ExactMask;
    default: return k;
  }
}

KArgs make_args(const CaeDeviceLightField& lf, const CaeParams& p, const CaeRoi& roi, const float* tables,
                float* cost) {
  KArgs a{};
  a.W = lf.width;
  a.H = lf.height;
  a.nu = lf.nu;
  a.uc = lf.nu / 2;
  a.vc = lf.nv / 2;
  a.n = p.views;
  a.u0 = a.uc - p.views / 2;
  a.v0 = a.vc - p.views / 2;
  a.rx = roi.x;
  a.ry = roi.y;
  a.rw = roi.w;
  a.rh = roi.h;
  a.A = p.labels;
  a.dmin = p.dmin;
  a.dmax = p.dmax;
  a.inv_n = 1.0f / static_cast<float>(p.views * p.views);
  a.normalized = p.normalized_log ? 1 : 0;
  a.labels_per_thread = 1;
  a.terms_k2 = static_cast<float>(-1.0 / (2.0 * std::log(2.0) * static_cast<double>(p.sigma) * p.sigma));
  a.terms_floor2 = static_cast<float>(std::log2(cae::kWeightFloor));
  a.terms_ln_n = static_cast<float>(std::log(static_cast<double>(p.views) * p.views));
  a.w256 = tables;
  a.wbin = tables + cae::kBins;
  a.cost = cost;
  return a;
}

}  // namespace

std::vector<CaeKernel> all_cae_kernels() {
  return {CaeKernel::Baseline,  CaeKernel::Vec,       CaeKernel::Tex,       CaeKernel::Coalesced,
          CaeKernel::Binned,    CaeKernel::BinnedFast, CaeKernel::Exact,     CaeKernel::ExactSmem,
          CaeKernel::ExactSmemTable, CaeKernel::ExactTerms, CaeKernel::ExactSort, CaeKernel::ExactMask,
          CaeKernel::ExactBitonic};
}

std::string cae_variant_list() {
  return "use baseline, vec, tex, coalesced, binned, binned_fast, exact, exact_smem, exact_smem_table, exact_terms, "
         "exact_sort, exact_mask or exact_bitonic";
}

CaeKernel parse_cae_kernel(const std::string& name) {
  for (CaeKernel k : all_cae_kernels())
    if (name == cae_kernel_name(k)) return k;
  throw Error("--variant '" + name + "': " + cae_variant_list());
}

const char* cae_kernel_name(CaeKernel k) {
  switch (k) {
    case CaeKernel::Baseline: return "baseline";
    case CaeKernel::Vec: return "vec";
    case CaeKernel::Tex: return "tex";
    case CaeKernel::Coalesced: return "coalesced";
    case CaeKernel::Binned: return "binned";
    case CaeKernel::BinnedFast: return "binned_fast";
    case CaeKernel::Exact: return "exact";
    case CaeKernel::ExactSmem: return "exact_smem";
    case CaeKernel::ExactSmemTable: return "exact_smem_table";
    case CaeKernel::ExactTerms: return "exact_terms";
    case CaeKernel::ExactSort: return "exact_sort";
    case CaeKernel::ExactMask: return "exact_mask";
    case CaeKernel::ExactBitonic: return "exact_bitonic";
  }
  return "?";
}

std::string exact_dispatch_note() {
  std::string sort;
  for (int n = 3; n <= kExactSortUpTo; n += 2)
    sort += (sort.empty() ? "" : ", ") + std::to_string(n) + "x" + std::to_string(n);
  return "exact_sort at " + sort + ", exact_smem_table at the other windows";
}

CaeMethod cae_kernel_method(CaeKernel k) {
  switch (k) {
    case CaeKernel::Binned:
    case CaeKernel::BinnedFast: return CaeMethod::Binned;
    case CaeKernel::Exact:
    case CaeKernel::ExactSmem:
    case CaeKernel::ExactSmemTable:
    case CaeKernel::ExactTerms:
    case CaeKernel::ExactSort:
    case CaeKernel::ExactMask:
    case CaeKernel::ExactBitonic: return CaeMethod::Exact;
    default: return CaeMethod::Cae;
  }
}

CaeDeviceLightField::~CaeDeviceLightField() { release(); }

void CaeDeviceLightField::release() {
  if (tex) CUDA_CHECK_PRINT(cudaDestroyTextureObject(static_cast<cudaTextureObject_t>(tex)));
  tex = 0;
  if (array) CUDA_CHECK_PRINT(cudaFreeArray(array));
  array = nullptr;
  nu = nv = width = height = 0;
}

void CaeDeviceLightField::upload(const LightField4D& lf, cudaStream_t s) {
  validate(lf);
  release();
  const std::size_t plane = static_cast<std::size_t>(lf.width) * lf.height;
  const std::size_t nviews = lf.views.size();
  // RGBA8 with (width + 1) zero texels after the last view: exact_smem reads the texels at
  // p + 1, p + W, p + W + 1 without clamping (their weight is 0 at the last column / row).
  std::vector<unsigned char> h_rgb(plane * 3 * nviews), h_rgba((plane * nviews + lf.width + 1) * 4, 0);
  for (std::size_t k = 0; k < nviews; ++k) {
    const ImageU8& v = lf.views[k];
    std::memcpy(h_rgb.data() + k * plane * 3, v.data.data(), plane * 3);
    unsigned char* o = h_rgba.data() + k * plane * 4;
    for (std::size_t i = 0; i < plane; ++i) {
      o[4 * i] = v.data[3 * i];
      o[4 * i + 1] = v.data[3 * i + 1];
      o[4 * i + 2] = v.data[3 * i + 2];
      o[4 * i + 3] = 255;
    }
  }
  rgb.reserve(h_rgb.size());
  rgba.reserve(h_rgba.size());
  CUDA_CHECK_THROW(cudaMemcpyAsync(rgb.get(), h_rgb.data(), h_rgb.size(), cudaMemcpyHostToDevice, s));
  CUDA_CHECK_THROW(cudaMemcpyAsync(rgba.get(), h_rgba.data(), h_rgba.size(), cudaMemcpyHostToDevice, s));
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  CUDA_CHECK_THROW(cudaMalloc3DArray(&array, &desc,
                                     make_cudaExtent(static_cast<std::size_t>(lf.width),
                                                     static_cast<std::size_t>(lf.height), nviews),
                                     cudaArrayLayered));
  cudaMemcpy3DParms cp{};
  cp.srcPtr = make_cudaPitchedPtr(h_rgba.data(), static_cast<std::size_t>(lf.width) * 4,
                                  static_cast<std::size_t>(lf.width), static_cast<std::size_t>(lf.height));
  cp.dstArray = array;
  cp.extent = make_cudaExtent(static_cast<std::size_t>(lf.width), static_cast<std::size_t>(lf.height), nviews);
  cp.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK_THROW(cudaMemcpy3DAsync(&cp, s));
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = array;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  td.normalizedCoords = 0;
  cudaTextureObject_t t = 0;
  CUDA_CHECK_THROW(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  tex = static_cast<unsigned long long>(t);
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // host staging buffers go away
  nu = lf.nu;
  nv = lf.nv;
  width = lf.width;
  height = lf.height;
}

std::vector<float> cae_weight_tables(float sigma) {
  // The term table of the sorting kernel (kTermTableFloats) is filled on the device.
  std::vector<float> t(cae::kBins + cae::kBinnedWeights + kTermTableFloats, 0.0f);
  const double k = 1.0 / (2.0 * static_cast<double>(sigma) * sigma);
  for (int d = 0; d < cae::kBins; ++d) t[static_cast<std::size_t>(d)] = static_cast<float>(std::max(cae::kWeightFloor, std::exp(-double(d) * d * k)));
  for (int i = 0; i < cae::kBinnedWeights; ++i) {
    const double d = 0.5 * i;
    t[static_cast<std::size_t>(cae::kBins + i)] = static_cast<float>(std::max(cae::kWeightFloor, std::exp(-d * d * k)));
  }
  return t;
}

void launch_cae_cost(const CaeDeviceLightField& lf, const CaeParams& p, const CaeRoi& roi, CaeKernel k,
                     float* tables, float* cost, cudaStream_t s) {
  KArgs a = make_args(lf, p, roi, tables, cost);
  if (k == CaeKernel::Baseline || k == CaeKernel::Vec || k == CaeKernel::Tex) {
    const long long total = static_cast<long long>(roi.w) * roi.h * p.labels;
    const int block = 128;
    const unsigned grid = static_cast<unsigned>((total + block - 1) / block);
    if (k == CaeKernel::Baseline)
      k_baseline<<<grid, block, 0, s>>>(a, lf.rgb.as<unsigned char>());
    else if (k == CaeKernel::Vec)
      k_vec<false><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>(), 0);
    else
      k_vec<true><<<grid, block, 0, s>>>(a, lf.rgba.as<uchar4>(), static_cast<cudaTextureObject_t>(lf.tex));
  } else {
    // Which exact kernel runs (see lightbench/cae_cuda.hpp): exact picks by window, the
    // others name one; windows a kernel does not cover fall back to exact_mask.
    k = exact_kernel_for(k, p.views, lf);
    // The mask kernel keeps its counts zero across labels: several labels per thread
    // amortise the one zeroing (so does exact_smem); the 256-bin kernels zero per label.
    const bool smem = k == CaeKernel::ExactSmem || k == CaeKernel::ExactSmemTable || k == CaeKernel::ExactTerms;
    a.labels_per_thread = k == CaeKernel::ExactMask ? 8 : smem ? kSmemLabelsPerThread : 1;
    const uchar4* rgba = lf.rgba.as<uchar4>();
    const unsigned* rgba32 = lf.rgba.as<unsigned>();
    float2* terms = reinterpret_cast<float2*>(tables + cae::kBins + cae::kBinnedWeights);
    // Their term table first ((n*n + 1) x 256 or x 512 (g, logf g), a few microseconds,
    // timed with the pass; the two layouts share the room).
    const int rows = p.views * p.views + 1;
    if (k == CaeKernel::ExactSort) {
      k_term_table<<<(rows * 256 + 255) / 256, 256, 0, s>>>(tables, a.inv_n, rows, terms);
      CUDA_CHECK_LAUNCH();
    } else if (k == CaeKernel::ExactSmemTable) {
      k_term_table_signed<<<(rows * kSignedCols + 255) / 256, 256, 0, s>>>(tables, a.inv_n, rows, terms);
      CUDA_CHECK_LAUNCH();
    }
    if (smem) {
      const dim3 block(32, kSmemRows);
      const dim3 grid((roi.w + 31) / 32, (roi.h + kSmemRows - 1) / kSmemRows,
                      static_cast<unsigned>((p.labels + a.labels_per_thread - 1) / a.labels_per_thread));
      if (k == CaeKernel::ExactTerms)
        launch_exact_terms(p.views, grid, block, a, rgba32, s);
      else if (k == CaeKernel::ExactSmem)
        launch_exact_smem<SmemWalk::Bins>(p.views, grid, block, a, rgba32, terms, s);
      else
        launch_exact_smem<SmemWalk::WordsTable>(p.views, grid, block, a, rgba32, terms, s);
    } else {
      const dim3 block(32, 4);
      const dim3 grid((roi.w + 31) / 32, (roi.h + 3) / 4,
                      static_cast<unsigned>((p.labels + a.labels_per_thread - 1) / a.labels_per_thread));
      const bool reg = k == CaeKernel::ExactBitonic;
      if (k == CaeKernel::Coalesced)
        k_pixels<CaeKernel::Coalesced><<<grid, block, 0, s>>>(a, rgba);
      else if (k == CaeKernel::Binned)
        k_pixels<CaeKernel::Binned><<<grid, block, 0, s>>>(a, rgba);
      else if (k == CaeKernel::BinnedFast)
        k_pixels<CaeKernel::BinnedFast><<<grid, block, 0, s>>>(a, rgba);
      else if (k == CaeKernel::ExactSort && p.views == 3)
        k_exact_sort<3><<<grid, block, 0, s>>>(a, rgba32, terms);
      else if (k == CaeKernel::ExactSort && p.views == 5)
        k_exact_sort<5><<<grid, block, 0, s>>>(a, rgba32, terms);
      else if (k == CaeKernel::ExactSort && p.views == 7)
        k_exact_sort<7><<<grid, block, 0, s>>>(a, rgba32, terms);
      else if (k == CaeKernel::ExactSort && p.views == 9)
        k_exact_sort<9><<<grid, block, 0, s>>>(a, rgba32, terms);
      else if (reg && p.views == 3)
        k_exact_reg<3><<<grid, block, 0, s>>>(a, rgba);
      else if (reg && p.views == 5)
        k_exact_reg<5><<<grid, block, 0, s>>>(a, rgba);
      else if (reg && p.views == 7)
        k_exact_reg<7><<<grid, block, 0, s>>>(a, rgba);
      else
        k_pixels<CaeKernel::ExactMask><<<grid, block, 0, s>>>(a, rgba);
    }
  }
  CUDA_CHECK_LAUNCH();
}

void launch_cae_wta(const CaeParams& p, const CaeRoi& roi, const float* cost, float* disparity, int* label,
                    float* confidence, cudaStream_t s) {
  const dim3 block(32, 8), grid((roi.w + 31) / 32, (roi.h + 7) / 8);
  k_wta<<<grid, block, 0, s>>>(roi.w, roi.h, p.labels, p.dmin, p.dmax, cost, disparity, label, confidence);
  CUDA_CHECK_LAUNCH();
}

std::uint64_t cae_cost_bytes(const CaeParams& p, const CaeRoi& roi, int width, int height, CaeKernel k) {
  const std::uint64_t bpp = k == CaeKernel::Baseline ? 3 : 4;
  return static_cast<std::uint64_t>(p.views) * p.views * width * height * bpp +
         static_cast<std::uint64_t>(roi.w) * roi.h * p.labels * 4;
}
std::uint64_t cae_wta_bytes(const CaeParams& p, const CaeRoi& roi) {
  return static_cast<std::uint64_t>(roi.w) * roi.h * (static_cast<std::uint64_t>(p.labels) * 4 + 12);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------
std::vector<std::string> cae_variants() {
  std::vector<std::string> v;
  for (detail::CaeKernel k : detail::all_cae_kernels()) v.emplace_back(detail::cae_kernel_name(k));
  return v;
}

CaeMethod cae_variant_method(const std::string& variant) {
  return detail::cae_kernel_method(detail::parse_cae_kernel(variant));
}

std::uint64_t cae_log_mismatches(int device) {
  std::string why;
  if (!cuda_available(&why)) throw Error("cae_log_mismatches: " + why);
  CUDA_CHECK_THROW(cudaSetDevice(device));
  detail::DeviceBuffer count(sizeof(unsigned long long));
  CUDA_CHECK_THROW(cudaMemset(count.get(), 0, sizeof(unsigned long long)));
  detail::k_check_log<<<4096, 256>>>(0x00800000u, 0x40000000u, count.as<unsigned long long>());
  CUDA_CHECK_LAUNCH();
  unsigned long long n = 0;
  CUDA_CHECK_THROW(cudaMemcpy(&n, count.get(), sizeof n, cudaMemcpyDeviceToHost));
  return n;
}

namespace {

using namespace detail;

class CudaLfDepth final : public LightFieldDepthEstimator {
 public:
  explicit CudaLfDepth(int device) : device_(device) {
    std::string why;
    if (!cuda_available(&why)) throw Error("CUDA light-field depth: " + why);
    CUDA_CHECK_THROW(cudaSetDevice(device));
    info_ = device_info(device);
    stream_ = std::make_unique<Stream>();
    e0_ = std::make_unique<Event>();
    e1_ = std::make_unique<Event>();
    e2_ = std::make_unique<Event>();
  }
  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string device_name() const override { return info_.name; }
  void set_lightfield(const LightField4D& lf) override {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    has_last_dev_ = false;
    lf_.upload(lf, stream_->get());
    has_gt_ = lf.has_gt();
    if (has_gt_) gt_.upload(lf.gt, stream_->get());
  }
  bool has_lightfield() const override { return !lf_.empty(); }
  std::vector<std::string> variants() const override { return cae_variants(); }
  std::string default_variant(CaeMethod m) const override {
    return m == CaeMethod::Binned ? "binned" : m == CaeMethod::Exact ? "exact" : "coalesced";
  }
  LfDepthResult run(const CaeParams& p, const std::string& variant_in, const CaeRunOptions& o) override {
    LfDepthResult r = run_device(p, variant_in, o);
    const cudaStream_t s = stream_->get();
    const std::size_t npx = static_cast<std::size_t>(r.roi.w) * r.roi.h;
    const float* d_disp = maps_.as<float>();
    const int* d_label = reinterpret_cast<const int*>(d_disp + npx);
    const float* d_conf = d_disp + 2 * npx;
    r.disparity = ImageF(r.roi.w, r.roi.h, 1);
    r.confidence = ImageF(r.roi.w, r.roi.h, 1);
    r.labels.resize(npx);
    CUDA_CHECK_THROW(cudaMemcpyAsync(r.disparity.data.data(), d_disp, npx * 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaMemcpyAsync(r.labels.data(), d_label, npx * 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaMemcpyAsync(r.confidence.data.data(), d_conf, npx * 4, cudaMemcpyDeviceToHost, s));
    if (o.keep_cost) {
      r.cost.resize(npx * p.labels);
      CUDA_CHECK_THROW(cudaMemcpyAsync(r.cost.data(), cost_.get(), r.cost.size() * 4, cudaMemcpyDeviceToHost, s));
    }
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    return r;
  }

  // The disparity stays on the device and goes straight into the surface (a registered GL
  // texture: CUDA-GL interop); kept for the error map and the score.
  void run_to_surface(const CaeParams& p, const std::string& variant, Surface& out, const CaeRunOptions& o) override {
    const LfDepthResult r = run_device(p, variant, o);
    last_roi_ = r.roi;
    has_last_dev_ = true;
    write_surface_r32f(out, disparity_plane(), stream_->get(), &staging_);
  }
  void last_error_to_surface(Surface& out) override {
    LB_REQUIRE(has_last_dev_, "light-field error: no depth computed yet");
    LB_REQUIRE(has_gt_, "this light field has no ground truth");
    hci_error_map_to_surface(disparity_plane(), gt_, last_roi_.x, last_roi_.y, out, stream_->get(), &staging_);
  }
  HciScore score_last(int border) override {
    LB_REQUIRE(has_last_dev_, "light-field score: no depth computed yet");
    LB_REQUIRE(has_gt_, "this light field has no ground truth");
    return hci_score_region_device(disparity_plane(), gt_, last_roi_.x, last_roi_.y, border, stream_->get());
  }
  void view_to_surface(int u, int v, Surface& out) override {
    LB_REQUIRE(has_lightfield(), "no light field loaded");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    detail::view_to_surface(views(), u, v, out, stream_->get(), &staging_);
  }
  void refocus_to_surface(float disparity, int aperture_radius, Surface& out) override {
    LB_REQUIRE(has_lightfield(), "no light field loaded");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const cudaStream_t s = stream_->get();
    CUDA_CHECK_THROW(cudaEventRecord(e0_->get(), s));
    detail::refocus_to_surface(views(), disparity, aperture_radius, out, s, &staging_);
    CUDA_CHECK_THROW(cudaEventRecord(e1_->get(), s));
    CUDA_CHECK_THROW(cudaEventSynchronize(e1_->get()));
    float ms = 0;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, e0_->get(), e1_->get()));
    const int r = aperture_radius;
    const std::uint64_t nviews = static_cast<std::uint64_t>(std::min(lf_.nu, 2 * r + 1)) * std::min(lf_.nv, 2 * r + 1);
    timings_.record("refocus/cuda", ms, (nviews + 1) * lf_.bytes_per_view_rgba());
  }

 private:
  LightFieldViews views() const {
    LightFieldViews v;
    v.data = lf_.rgba.as<uchar4>();
    v.nu = lf_.nu;
    v.nv = lf_.nv;
    v.width = lf_.width;
    v.height = lf_.height;
    return v;
  }
  DeviceFloatPlane disparity_plane() const {
    DeviceFloatPlane d;
    d.ptr = maps_.as<float>();
    d.pitch = static_cast<std::size_t>(last_roi_.w) * 4;
    d.width = last_roi_.w;
    d.height = last_roi_.h;
    return d;
  }
  // The depth pass with the disparity, labels and confidence left on the device (maps_).
  LfDepthResult run_device(const CaeParams& p, const std::string& variant_in, const CaeRunOptions& o) {
    LB_REQUIRE(has_lightfield(), "lfdepth: no light field loaded");
    validate(p);
    LB_REQUIRE(p.views <= lf_.nu && p.views <= lf_.nv && (p.views / 2) <= lf_.nu / 2 &&
                   lf_.nu / 2 + p.views / 2 < lf_.nu && lf_.nv / 2 + p.views / 2 < lf_.nv,
               "views: a " + std::to_string(p.views) + "x" + std::to_string(p.views) +
                   " window does not fit the " + std::to_string(lf_.nu) + "x" + std::to_string(lf_.nv) +
                   " light field");
    const std::string variant = variant_in.empty() ? default_variant(p.method) : variant_in;
    const CaeKernel k = parse_cae_kernel(variant);
    LB_REQUIRE(cae_kernel_method(k) == p.method,
               "--variant " + variant + " computes the " + to_string(cae_kernel_method(k)) +
                   " cost, not --method " + to_string(p.method));
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    LfDepthResult r;
    r.roi = resolve_roi(o.roi, lf_.width, lf_.height);
    r.variant = variant;
    const cudaStream_t s = stream_->get();
    if (tables_sigma_ != p.sigma) {
      const std::vector<float> t = cae_weight_tables(p.sigma);
      tables_.reserve(t.size() * 4);
      CUDA_CHECK_THROW(cudaMemcpyAsync(tables_.get(), t.data(), t.size() * 4, cudaMemcpyHostToDevice, s));
      tables_sigma_ = p.sigma;
    }
    const std::size_t npx = static_cast<std::size_t>(r.roi.w) * r.roi.h;
    if (npx * p.labels * 4 > cost_.size() || npx * 12 > maps_.size()) {
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued work may read the old buffers
      has_last_dev_ = false;
    }
    cost_.reserve(npx * p.labels * 4);
    maps_.reserve(npx * 12);
    float* d_disp = maps_.as<float>();
    int* d_label = reinterpret_cast<int*>(d_disp + npx);
    float* d_conf = d_disp + 2 * npx;
    CUDA_CHECK_THROW(cudaEventRecord(e0_->get(), s));
    launch_cae_cost(lf_, p, r.roi, k, tables_.as<float>(), cost_.as<float>(), s);
    CUDA_CHECK_THROW(cudaEventRecord(e1_->get(), s));
    launch_cae_wta(p, r.roi, cost_.as<float>(), d_disp, d_label, d_conf, s);
    CUDA_CHECK_THROW(cudaEventRecord(e2_->get(), s));
    CUDA_CHECK_THROW(cudaEventSynchronize(e2_->get()));
    float t_cost = 0, t_wta = 0;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t_cost, e0_->get(), e1_->get()));
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t_wta, e1_->get(), e2_->get()));
    timings_.record("lfdepth/" + variant, t_cost, cae_cost_bytes(p, r.roi, lf_.width, lf_.height, k));
    timings_.record("lfdepth/wta", t_wta, cae_wta_bytes(p, r.roi));
    r.ms = static_cast<double>(t_cost) + t_wta;
    return r;
  }

  int device_;
  DeviceInfo info_;
  std::unique_ptr<Stream> stream_;
  CaeDeviceLightField lf_;
  DeviceBuffer tables_, cost_, maps_;
  float tables_sigma_ = -1.0f;
  std::unique_ptr<Event> e0_, e1_, e2_;
  DeviceHciTruth gt_;      // the light field's ground truth (error map, score) when has_gt_
  bool has_gt_ = false;
  PitchedBuffer staging_;  // surfaces that take host images only
  CaeRoi last_roi_;        // of the disparity in maps_ (run_to_surface)
  bool has_last_dev_ = false;
};

}  // namespace

std::unique_ptr<LightFieldDepthEstimator> make_lf_depth_cuda(int device) {
  return std::make_unique<CudaLfDepth>(device);
}

}  // namespace lb::cuda
