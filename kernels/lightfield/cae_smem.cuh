#pragma once
// Internal to lb_kernels: what exact_smem (cae_exact_smem.cu) and exact_terms
// (cae_exact_terms.cu) share: per-thread 8-bit level counters in shared memory (thread t's
// count word k of a channel, bins 4k .. 4k+3, at [k * kSmemThreads + t]: bank t % 32
// whatever k, so every data-dependent increment is one conflict-free atomicAdd; why:
// cae_exact_smem.cu), the block shape, and the sheared sampling with 32-bit texel offsets.
#include <cstddef>
#include <string>
#include <type_traits>

#include "lightfield/cae_common.cuh"
#include "lightbench/error.hpp"

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
// counts (its word 0 of this thread at ch). Four instructions and the atomic instead of six:
// the word offset (level >> 2) * kSmemThreads is (bits & 0xFC) * (kSmemThreads / 4) (one mask,
// one multiply-add), and the increment 1 << 8 (level & 3) a funnel shift of 1 by bits << 3,
// whose shift count wraps modulo 32 (the upper bits of bits drop out by themselves).
static_assert(kSmemThreads % 4 == 0, "smem_count: word offsets from the masked level");
__device__ __forceinline__ void smem_count(unsigned* ch, unsigned bits) {
  atomicAdd(ch + (bits & 0xFCu) * (kSmemThreads / 4), __funnelshift_l(0u, 1u, bits << 3));
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

// Per view column u of the window: the texel offset u * plane + x0 of its left bilinear tap
// and its weight fx.
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


// Columns of exact_smem_table's term table: [count 0..n*n][level - centre + 256] of (g, logf g)
// (launch_signed_term_table, cae_kernels.hpp).
constexpr int kSignedCols = 512;

__device__ __forceinline__ void accumulate(float2 t, float& G, float& S) {
  G = __fadd_rn(G, t.x);
  S = __fmaf_rn(t.x, t.y, S);
}

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
// Non-empty words 32 h .. 32 h + 31 of a channel (bit q: word 32 h + q): min + shift-add, two
// operations a word. The min is PTX because written in C++ nvcc turns min(w, 1) << q into a
// compare, an add and a predicated move (three; H100 exact_stash 9x9: the scan 317 -> 281
// instructions a channel).
__device__ __forceinline__ unsigned scan_half(const unsigned* ch, int h) {
  unsigned bits = 0u;
#pragma unroll
  for (int q = 0; q < 32; ++q) {
    unsigned m;
    asm("min.u32 %0, %1, 1;" : "=r"(m) : "r"(ch[(32 * h + q) * kSmemThreads]));
    bits += m << q;
  }
  return bits;
}
__device__ __forceinline__ void scan_words(const unsigned* ch, unsigned& lo, unsigned& hi) {
  lo = scan_half(ch, 0);
  hi = scan_half(ch, 1);
}

// The four bins' (g, logf g) of one count word, from the term table. TermSlot and walk_acc
// serve both walks: the word walk here (WordWalk) and the range walk (channel_result_range,
// cae_chan_sampling.cuh).
struct TermSlot {
  float2 t0, t1, t2, t3;
};
// p + i * kBytes as one PTX mad.wide.u32 (ptxas: a LEA pair for a power of two). Written
// in C++, nvcc turns the term addresses into 64-bit index sums: IADD3 / IADD3.X / LEA /
// LEA.HI.X, ~5 instructions a term load (H100 exact_stash 9x9: 6.36 against 6.08 ms).
template <unsigned kBytes>
__device__ __forceinline__ const float2* wide_offset(const float2* p, unsigned i) {
  const float2* r;
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r) : "r"(i), "n"(kBytes), "l"(p));
  return r;
}
// Word k (clamped to 63) of a walk: its four bins' (g, logf g) from the term table
// (pb0: the centre's column for level 0 in row 0), the word zeroed.
__device__ __forceinline__ void range_load(unsigned* ch, int k, const float2* __restrict__ pb0, TermSlot& s) {
  const unsigned kk = min(static_cast<unsigned>(k), 63u);
  unsigned* const pw = ch + kk * kSmemThreads;
  const unsigned w = *pw;
  *pw = 0u;
  const float2* const pb = wide_offset<32>(pb0, kk);  // bin 4 kk's column in row 0
  constexpr unsigned kRow = kSignedCols * sizeof(float2);
  s.t0 = __ldg(wide_offset<kRow>(pb, __byte_perm(w, 0u, 0x4440)));
  s.t1 = __ldg(wide_offset<kRow>(pb, __byte_perm(w, 0u, 0x4441)) + 1);
  s.t2 = __ldg(wide_offset<kRow>(pb, __byte_perm(w, 0u, 0x4442)) + 2);
  s.t3 = __ldg(wide_offset<kRow>(pb, __byte_perm(w, 0u, 0x4443)) + 3);
}
// A word walk's step: the next non-empty word's terms (range_load), the word zeroed. Its one
// caller, WordWalk, stops before the last word is passed.
__device__ __forceinline__ void walk_load(unsigned* ch, unsigned& lo, unsigned& hi, const float2* __restrict__ pb0,
                                          TermSlot& s) {
  int q = 0;
  next_word(lo, hi, q);
  range_load(ch, q, pb0, s);
}
__device__ __forceinline__ void walk_acc(const TermSlot& s, float& G, float& S) {
  accumulate(s.t0, G, S);
  accumulate(s.t1, G, S);
  accumulate(s.t2, G, S);
  accumulate(s.t3, G, S);
}

// One channel's word walk with the term table (exact_smem_table's three interleaved walks;
// the one-channel kernels walk level ranges instead: channel_result_range): the non-empty
// words by one scan, each word's four bins' (g, logf g) from the term table (empty bytes read
// row 0: exact zeros), consumed in the next step while the next word's loads fly.
struct WordWalk {
  unsigned lo, hi;
  int c0;  // table column of level 0: 256 - centre
  float G, S;
  TermSlot p;  // the previous word's terms (first: exact zeros)
  __device__ __forceinline__ void init(const unsigned* ch, int c) {
    scan_words(ch, lo, hi);
    c0 = 256 - c;
    G = 0.0f;
    S = 0.0f;
    p.t0 = p.t1 = p.t2 = p.t3 = make_float2(0.0f, 0.0f);
  }
  __device__ __forceinline__ bool step(unsigned* ch, const float2* __restrict__ terms) {
    if ((lo | hi) == 0u) return false;
    TermSlot t;
    walk_load(ch, lo, hi, terms + c0, t);
    walk_acc(p, G, S);
    p = t;
    return true;
  }
  __device__ __forceinline__ float entropy(int normalized) {
    walk_acc(p, G, S);
    return finish(G, S, normalized);
  }
};



// Calls f(std::integral_constant<int, N>{}) for the odd window n = N (1 .. cae::kMaxWindow):
// the one place the shared-memory kernels are instantiated for every window; another n throws
// one line naming the kernel.
template <class F>
void with_window(int n, const char* kernel, F&& f) {
  static_assert(cae::kMaxWindow == 15, "instantiate the kernels for every odd window");
  switch (n) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    case 5: f(std::integral_constant<int, 5>{}); break;
    case 7: f(std::integral_constant<int, 7>{}); break;
    case 9: f(std::integral_constant<int, 9>{}); break;
    case 11: f(std::integral_constant<int, 11>{}); break;
    case 13: f(std::integral_constant<int, 13>{}); break;
    case 15: f(std::integral_constant<int, 15>{}); break;
    default:
      throw Error(std::string(kernel) + ": no kernel for a " + std::to_string(n) + "x" + std::to_string(n) + " window");
  }
}

// A thread's pixel in a block of 32 x kSmemRows: its roi and image coordinates, the 32-bit
// texel geometry, its count words (word 0 of its first channel) and its centre texel.
struct SmemPixel {
  int px, py, x, y;
  unsigned W, plane;
  unsigned* counts;
  unsigned centre;  // RGBA8 of the centre view at (x, y)
};
// False for a thread past the roi (it returns at once: no block-wide synchronisation follows).
__device__ __forceinline__ bool smem_pixel(const CaeArgs& a, const unsigned* __restrict__ rgba, unsigned* s_counts,
                                           SmemPixel& t) {
  t.px = blockIdx.x * blockDim.x + threadIdx.x;
  t.py = blockIdx.y * blockDim.y + threadIdx.y;
  if (t.px >= a.rw || t.py >= a.rh) return false;
  t.x = a.rx + t.px;
  t.y = a.ry + t.py;
  // 32-bit texel offsets (launch_cae_cost checks that the views and the padding fit).
  t.W = static_cast<unsigned>(a.W);
  t.plane = t.W * static_cast<unsigned>(a.H);
  t.counts = s_counts + threadIdx.y * 32 + threadIdx.x;
  t.centre = __ldg(rgba + static_cast<unsigned>(a.vc * a.nu + a.uc) * t.plane + static_cast<unsigned>(t.y) * t.W +
                   static_cast<unsigned>(t.x));
  return true;
}

}  // namespace lb::cuda::detail
