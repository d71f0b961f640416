#pragma once
// Internal to lb_kernels: what exact_chan (cae_exact_chan.cu) and exact_stash
// (cae_exact_stash.cu) share: lerp_value (cae_common.cuh) without its zero-weight operations
// on the centre view's row and column, the centre row's texel gather, the walk of a channel's
// level range, and the launch.
#include <string>
#include <type_traits>

#include "lightfield/cae_kernels.hpp"
#include "lightfield/cae_smem.cuh"
#include "cuda_check.cuh"

namespace lb::cuda::detail {

// The samples of the centre view's row and column, where the shear is 0 in one axis (the
// window is centred: launch_cae_exact_chan checks), with lerp_value's very operations minus
// those whose weight is exactly 0 (fma(0, x, t) = t): bit-identical, 11 of ~28 instructions a
// sample saved on 2 (N - 1) + 1 of the N^2 samples.
__device__ __forceinline__ float top_value(unsigned p00, unsigned p10, unsigned sel, float fx,
                                           unsigned magic = kMagicBits) {
  const float a = __uint_as_float(__byte_perm(p00, magic, sel));
  const float b = __uint_as_float(__byte_perm(p10, magic, sel));
  return __fmaf_rn(fx, __fsub_rn(b, a), __fsub_rn(a, kMagic));
}
__device__ __forceinline__ float left_value(unsigned p00, unsigned p01, unsigned sel, float fy,
                                            unsigned magic = kMagicBits) {
  const float a = __uint_as_float(__byte_perm(p00, magic, sel));
  const float c = __uint_as_float(__byte_perm(p01, magic, sel));
  // lerp_value with fx = 0: top = a - 2^23, bot = c - 2^23, bot - top = c - a (exact integers).
  return __fmaf_rn(fy, __fsub_rn(c, a), __fsub_rn(a, kMagic));
}
__device__ __forceinline__ float centre_value(unsigned p00, unsigned sel, unsigned magic = kMagicBits) {
  return __fsub_rn(__uint_as_float(__byte_perm(p00, magic, sel)), kMagic);
}
// The block's pixel tile (x: 32 columns, y: kSmemRows rows) and label slice (z): the grid runs
// the label slices of a tile next to each other (launch_channel_kernel says why).
__device__ __forceinline__ uint3 chan_block() { return make_uint3(blockIdx.y, blockIdx.z, blockIdx.x); }
// gather_row's texels of the centre view row (y0 = y, fy = 0): the top pair of each column.
template <int N>
__device__ __forceinline__ void gather_centre_row(const CaeArgs& a, const unsigned* __restrict__ rgba, int y,
                                                  unsigned plane, unsigned W, const unsigned (&xo)[N],
                                                  unsigned (&t00)[N], unsigned (&t10)[N]) {
  const unsigned row0 = opaque(static_cast<unsigned>(a.vc * a.nu) * plane + static_cast<unsigned>(y) * W);
#pragma unroll
  for (int uu = 0; uu < N; ++uu) {
    const unsigned* const p0 = rgba + (row0 + xo[uu]);
    t00[uu] = __ldg(p0);
    t10[uu] = uu == N / 2 ? 0u : __ldg(p0 + 1);
  }
}

// One channel's level range over a label's samples, as the bits of 2^23 + level: two samples
// at a time by the three-operand min / max (Hopper DPX, one VIMNMX3 each; p holds a view
// row's even sample). take(b, odd, last): odd pairs b with p, a row's last sample (N odd)
// goes alone. exact_chan's, one per channel; exact_stash's LevelRange holds one for channel 0
// and pairs channels 1 and 2 the same way.
struct ChannelRange {
  unsigned lo = 0xFFFFFFFFu, hi = 0u, p = 0u;
  __device__ __forceinline__ void take(unsigned b, bool odd, bool last) {
    if (odd) {
      lo = __vimin3_u32(lo, p, b);
      hi = __vimax3_u32(hi, p, b);
    } else if (last) {
      lo = min(lo, b);
      hi = max(hi, b);
    } else {
      p = b;
    }
  }
};

// One channel's entropy by the walk of its level range (which leaves its counts zero) and,
// with the defocus cue, its deviation |mean - centre| of the channel's summed samples
// (lfr::defocus_raw's dev). The walk goes over count words wlo .. whi, in which every
// non-empty word lies (the empty ones read row 0 of the term table: exact zeros), and keeps
// two words' term loads in flight (three register slots in turn, none copied across the
// loop's back edge: a one-word prefetch was copied by moves that waited for the loads, a
// term-table latency (L2: the table is 336 KiB) per word; H100 exact_stash 9x9 7.73 -> 7.43
// ms). The loads ahead past whi are clamped to word 63: empty, or walked and zeroed already.
// At 309c19b the words came from a scan of all 64 for the non-empty ones and a bit search
// per word (scan_words, next_word: WordWalk's): 281 + ~47 instructions a word against ~33 a
// word here (H100 exact_stash 9x9 6.46 -> 5.94 ms with the DPX ranges, docs/perf/history.md).
template <bool kDefocus>
__device__ __forceinline__ void channel_result_range(unsigned* ch, int centre, const float2* __restrict__ terms,
                                                     int wlo, int whi, int normalized, float acc, float n_views,
                                                     float& h, float& e) {
  const float2* const pb0 = terms + (256 - centre);
  float G = 0.0f, S = 0.0f;
  TermSlot A, B, C;
  range_load(ch, wlo, pb0, A);
  range_load(ch, wlo + 1, pb0, B);
  for (int k = wlo; k <= whi; k += 3) {
    range_load(ch, k + 2, pb0, C);
    walk_acc(A, G, S);
    range_load(ch, k + 3, pb0, A);
    walk_acc(B, G, S);
    range_load(ch, k + 4, pb0, B);
    walk_acc(C, G, S);
  }
  h = finish(G, S, normalized);
  e = kDefocus ? fabsf(__fsub_rn(__fdiv_rn(acc, n_views), static_cast<float>(centre))) : 0.0f;
}
// The cost of (label, py, px) from the channels' entropies and, with the cue, its raw defocus
// value from their deviations.
template <bool kDefocus>
__device__ __forceinline__ void store_label(const CaeArgs& a, int label, int py, int px, float h0, float h1, float h2,
                                            float e0, float e1, float e2) {
  const std::size_t o = (static_cast<std::size_t>(label) * a.rh + py) * a.rw + px;
  a.cost[o] = combine(h0, h1, h2);
  if constexpr (kDefocus) a.defocus[o] = __fdiv_rn(__fadd_rn(__fadd_rn(e0, e1), e2), 3.0f);
}

// The launch of a one-channel kernel: a centred window (the row and column above), its term
// table, blocks of 32 x kSmemRows, kSmemLabelsPerThread labels a thread (amortising the one
// zeroing of the counts); launch(n, defocus, grid, block, a) runs the kernel instantiated for
// the window (n: std::integral_constant, with_window) and for whether a.defocus is set
// (defocus: std::bool_constant).
template <class Launch>
void launch_channel_kernel(CaeArgs a, const char* name, float2* terms, cudaStream_t s, Launch&& launch) {
  LB_REQUIRE(a.u0 + a.n / 2 == a.uc && a.v0 + a.n / 2 == a.vc,
             std::string(name) + ": the view window must be centred");
  launch_signed_term_table(a, terms, s);
  a.labels_per_thread = kSmemLabelsPerThread;
  const dim3 block(32, kSmemRows);
  // Label slices fastest (chan_block): the blocks in flight share their tiles' texels in L2,
  // where with tiles fastest every slice streamed all the views (85 MB at antinous 9 x 9,
  // more than the H100's 50 MB L2) once more. H100 9x9: exact_stash 6.53 -> 6.41 ms,
  // exact_chan 8.12 -> 7.79 (two A/B pairs, same process).
  const dim3 grid(static_cast<unsigned>((a.A + a.labels_per_thread - 1) / a.labels_per_thread), (a.rw + 31) / 32,
                  (a.rh + kSmemRows - 1) / kSmemRows);
  with_window(a.n, name, [&](auto n) {
    if (a.defocus)
      launch(n, std::true_type{}, grid, block, a);
    else
      launch(n, std::false_type{}, grid, block, a);
  });
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
