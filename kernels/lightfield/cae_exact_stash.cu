// CAE cost kernel exact_stash: exact_chan (cae_exact_chan.cu: one channel's 8-bit counts per
// thread in shared memory, the word walk, optionally the raw defocus cost) with the texels
// loaded once per label instead of once per channel. Bit-identical to exact_chan and coalesced
// (costs and defocus values).
//
// Why: exact_chan's three channel passes each load the same four RGBA8 texels a sample and
// recompute their addresses (~31 instructions a channel sample at 9 x 9 by cuobjdump; 67 % of
// the issue slots and 64 % of L1 busy). Here one pass loads them once and lerps all three
// channels: it counts the first channel's level at once and stashes the other two levels as
// bytes in shared memory (two samples' pairs a word, [word][thread]: conflict-free, as the
// counts); after the first channel's walk, the second and the third are counted from the
// stash (a load per two samples, a shift and the count) and walked. For 180 more bytes of
// shared memory a thread (5 blocks of 96 threads per SM instead of 6-7), a third of the texel
// loads. H100, 9 x 9, antinous, 75 labels (ncu source counters, one launch):
//   8dc9f80: 7.75 ms, 109 instructions a sample (three channels): 67 in the loading pass, of
//     which ~10 moved a byte-permute selector into a register (see mg below); the walk 15 but
//     31 % of the stall samples (its prefetch was copied into registers by moves that waited
//     for the term loads), the stash counts 13 (a shared-memory latency a word, see
//     count_stash), the scans 12;
//   309c19b: 6.46 ms, 96 instructions a sample (loading pass 56), issue 72 %: mg, the piped
//     walk, the scan's PTX min (scan_half, cae_smem.cuh)
//     and count_stash's batched loads, bit-identical (docs/perf/history.md has each step);
//     the three 64-word scans were 11 % of the instructions, to find ~7 non-empty words of a
//     channel (the walk's bit search and branches ~47 instructions a word);
//   now: 5.94-5.96 ms, bit-identical: no scans. The first pass keeps each channel's level
//     range (LevelRange: 4 DPX instructions per two samples) and the walks go over the range's
//     words, ~11 a channel (channel_result_range: ~33 instructions a word, no bit search, no
//     branch; empty words read exact zeros). Worst case, a range of all 64 words costs about
//     what the scan and a walk of ~40 non-empty words did.
// (Per-channel "lerp planes" cut the instructions more but tripled the texel bytes: L2-bound.)

#include <algorithm>

#include "lightfield/cae_chan_sampling.cuh"
#include "lightfield/cae_kernels.hpp"
#include "lightfield/cae_smem.cuh"
#include "cuda_check.cuh"

namespace lb::cuda::detail {

namespace {

constexpr int kChanWords = 64;  // one channel: 256 bins of 8 bits
// Stash words per view row: two samples (each a [level 1, level 2] byte pair) a word.
template <int N>
constexpr int kRowWords = (N + 1) / 2;
template <int N>
constexpr std::size_t stash_bytes() {
  return static_cast<std::size_t>(kChanWords + N * kRowWords<N>) * kSmemThreads * 4;
}

// The level range of a label's samples, per channel: channel 0 as exact_chan keeps it
// (ChannelRange: the bits of 2^23 + level), channels 1 and 2 as the 16-bit lanes of
// level 1 | level 2 << 16, paired the same way (their even sample waits in the stash's
// `pending`). The walks go over the count words of that range instead of scanning all 64 for
// the non-empty ones (channel_result_range). Two samples at a time by the three-operand
// min / max (Hopper DPX: one VIMNMX3 each).
struct LevelRange {
  ChannelRange c0;
  unsigned lo12 = 0xFFFFFFFFu, hi12 = 0u;
};

// One sample of the first pass: channel 0 counted, channels 1 and 2 stashed (pending: an even
// sample's L1 | L2 << 16, waiting for its odd neighbour; a stash word holds the pair's levels
// as bytes L1, L2, L1', L2'), the level range widened.
template <int N, bool kDefocus, int uu>
__device__ __forceinline__ void take_sample(float v0, float v1, float v2, unsigned* ch, unsigned* srow,
                                            unsigned& pending, float& acc0, float& acc1, float& acc2,
                                            LevelRange& rg) {
  if constexpr (kDefocus) {
    acc0 = __fadd_rn(acc0, v0);
    acc1 = __fadd_rn(acc1, v1);
    acc2 = __fadd_rn(acc2, v2);
  }
  const unsigned b0 = level_bits(v0);
  smem_count(ch, b0);
  const unsigned p16 = __byte_perm(level_bits(v1), level_bits(v2), 0x5410u);  // L1 | L2 << 16
  if constexpr (uu % 2 == 0) {
    if constexpr (uu == N - 1) {  // the row's last sample (N odd): alone in its stash word
      srow[(uu / 2) * kSmemThreads] = __byte_perm(p16, 0u, 0x0020u);
      rg.c0.take(b0, false, true);
      rg.lo12 = __vminu2(rg.lo12, p16);
      rg.hi12 = __vmaxu2(rg.hi12, p16);
    } else {
      pending = p16;
      rg.c0.take(b0, false, false);
    }
  } else {
    srow[(uu / 2) * kSmemThreads] = __byte_perm(pending, p16, 0x6420u);
    rg.c0.take(b0, true, false);
    rg.lo12 = __vimin3_u16x2(rg.lo12, pending, p16);
    rg.hi12 = __vimax3_u16x2(rg.hi12, pending, p16);
  }
}

template <int N, bool kDefocus, int uu = 0>
__device__ __forceinline__ void centre_row_samples(const unsigned (&t00)[N], const unsigned (&t10)[N],
                                                   const float (&fx)[N], unsigned* ch, unsigned* srow,
                                                   unsigned& pending, float& acc0, float& acc1, float& acc2,
                                                   unsigned mg, LevelRange& rg) {
  if constexpr (uu < N) {
    float v0, v1, v2;
    if constexpr (uu == N / 2) {
      v0 = centre_value(t00[uu], 0x7440u, mg);
      v1 = centre_value(t00[uu], 0x7441u, mg);
      v2 = centre_value(t00[uu], 0x7442u, mg);
    } else {
      v0 = top_value(t00[uu], t10[uu], 0x7440u, fx[uu], mg);
      v1 = top_value(t00[uu], t10[uu], 0x7441u, fx[uu], mg);
      v2 = top_value(t00[uu], t10[uu], 0x7442u, fx[uu], mg);
    }
    take_sample<N, kDefocus, uu>(v0, v1, v2, ch, srow, pending, acc0, acc1, acc2, rg);
    centre_row_samples<N, kDefocus, uu + 1>(t00, t10, fx, ch, srow, pending, acc0, acc1, acc2, mg, rg);
  }
}

template <int N, bool kDefocus, int uu = 0>
__device__ __forceinline__ void row_samples(const unsigned (&t00)[N], const unsigned (&t10)[N],
                                            const unsigned (&t01)[N], const unsigned (&t11)[N],
                                            const float (&fx)[N], float fy, unsigned* ch, unsigned* srow,
                                            unsigned& pending, float& acc0, float& acc1, float& acc2, unsigned mg,
                                            LevelRange& rg) {
  if constexpr (uu < N) {
    float v0, v1, v2;
    if constexpr (uu == N / 2) {  // the centre view column: not sheared horizontally
      v0 = left_value(t00[uu], t01[uu], 0x7440u, fy, mg);
      v1 = left_value(t00[uu], t01[uu], 0x7441u, fy, mg);
      v2 = left_value(t00[uu], t01[uu], 0x7442u, fy, mg);
    } else {
      v0 = lerp_value(t00[uu], t10[uu], t01[uu], t11[uu], 0x7440u, fx[uu], fy, mg);
      v1 = lerp_value(t00[uu], t10[uu], t01[uu], t11[uu], 0x7441u, fx[uu], fy, mg);
      v2 = lerp_value(t00[uu], t10[uu], t01[uu], t11[uu], 0x7442u, fx[uu], fy, mg);
    }
    take_sample<N, kDefocus, uu>(v0, v1, v2, ch, srow, pending, acc0, acc1, acc2, rg);
    row_samples<N, kDefocus, uu + 1>(t00, t10, t01, t11, fx, fy, ch, srow, pending, acc0, acc1, acc2, mg, rg);
  }
}

// Counts the stashed levels of channel 1 (shift 0) or 2 (shift 8): smem_count reads the
// level from the low byte (its word offset from bits 2..7, its increment's shift from bits
// 0..1 modulo 32), so a shift brings each sample's byte down. The words are loaded in batches
// of whole view rows (all 45 at 9 x 9; at most 48 words, in registers) before their counts:
// the atomics go to the same shared array, so the compiler keeps a load after the atomics
// before it, a shared-memory latency a word (H100 9x9: 6.98 -> 6.56 ms).
template <int N>
__device__ __forceinline__ void count_stash(unsigned* ch, const unsigned* stash, int shift) {
  constexpr int kBatchRows = std::max(1, 48 / kRowWords<N>);
#pragma unroll
  for (int r0 = 0; r0 < N; r0 += kBatchRows) {
    unsigned w[kBatchRows * kRowWords<N>];
#pragma unroll
    for (int i = 0; i < kBatchRows * kRowWords<N>; ++i)
      if (r0 * kRowWords<N> + i < N * kRowWords<N>) w[i] = stash[(r0 * kRowWords<N> + i) * kSmemThreads];
#pragma unroll
    for (int i = 0; i < kBatchRows * kRowWords<N>; ++i) {
      if (r0 * kRowWords<N> + i >= N * kRowWords<N>) break;
      const unsigned v = w[i] >> shift;
      smem_count(ch, v);
      if (2 * (i % kRowWords<N>) + 1 < N) smem_count(ch, v >> 16);  // the row's last word: one sample when N is odd
    }
  }
}

template <int N, bool kDefocus, int kMinBlocks>
__global__ void __launch_bounds__(kSmemThreads, kMinBlocks)
    cae_exact_stash_kernel(CaeArgs a, const unsigned* __restrict__ rgba, const float2* __restrict__ terms) {
  extern __shared__ unsigned s_counts[];  // [64 count words + N rows x kRowWords stash words][kSmemThreads]
  const uint3 blk = chan_block();
  const int px = blk.x * blockDim.x + threadIdx.x;
  const int py = blk.y * blockDim.y + threadIdx.y;
  if (px >= a.rw || py >= a.rh) return;  // no block-wide synchronisation below
  const int x = a.rx + px, y = a.ry + py;
  const unsigned W = static_cast<unsigned>(a.W);
  const unsigned plane = W * static_cast<unsigned>(a.H);
  unsigned* const ch = s_counts + threadIdx.y * 32 + threadIdx.x;
  unsigned* const stash = ch + kChanWords * kSmemThreads;
#pragma unroll 8
  for (int k = 0; k < kChanWords; ++k) ch[k * kSmemThreads] = 0u;  // the walks leave them zero
  const unsigned cw = __ldg(rgba + static_cast<unsigned>(a.vc * a.nu + a.uc) * plane + static_cast<unsigned>(y) * W +
                            static_cast<unsigned>(x));
  const float n_views = static_cast<float>(N * N);
  // 2^23's bits for the byte permutes, as a value ptxas cannot fold (W > 0: its sign bit is 0).
  // With the constant a permute has two constant operands and SASS PRMT takes one immediate:
  // ptxas made it 2^23 and kept the three channel selectors in uniform registers, copying one
  // into a register before each permute (~90 moves in a view row's ~600 instructions). With
  // 2^23 in a register the selectors are the immediates (H100 9x9: 6.79 -> 6.56 ms; opaque()
  // alone does not do it: it hides the value from nvcc's optimiser, not from ptxas).
  const unsigned mg = opaque(kMagicBits | (static_cast<unsigned>(a.W) >> 31));
  const int l0 = blk.z * a.labels_per_thread;
  const int l1 = min(a.A, l0 + a.labels_per_thread);
  for (int label = l0; label < l1; ++label) {
    const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
    unsigned xo[N];  // u * plane + x0 per view column
    float fx[N];
    column_taps<N>(a, x, d, plane, xo, fx);
    // Defocus: each channel's samples summed in lfr::defocus_raw's order (views v outer, u inner).
    float acc0 = 0.0f, acc1 = 0.0f, acc2 = 0.0f;
    unsigned pending = 0u;
    LevelRange rg;
#pragma unroll 1
    for (int v = a.v0; v < a.v0 + N; ++v) {
      unsigned* const srow = stash + (v - a.v0) * kRowWords<N> * kSmemThreads;
      if (v == a.vc) {  // the centre view row: fy = 0 (exact_chan says why)
        unsigned t00[N], t10[N];
        gather_centre_row<N>(a, rgba, y, plane, W, xo, t00, t10);
        centre_row_samples<N, kDefocus>(t00, t10, fx, ch, srow, pending, acc0, acc1, acc2, mg, rg);
        continue;
      }
      unsigned t00[N], t10[N], t01[N], t11[N];
      float fy;
      gather_row<N>(a, rgba, y, v, d, plane, W, xo, fy, t00, t10, t01, t11);
      row_samples<N, kDefocus>(t00, t10, t01, t11, fx, fy, ch, srow, pending, acc0, acc1, acc2, mg, rg);
    }
    float h[3], e[3];
#pragma unroll 1
    for (int c = 0; c < 3; ++c) {
      if (c > 0) count_stash<N>(ch, stash, 8 * (c - 1));
      const float acc = c == 0 ? acc0 : c == 1 ? acc1 : acc2;
      float hc, ec;
      const unsigned lo = c == 0 ? rg.c0.lo & 0xFFu : c == 1 ? rg.lo12 & 0xFFu : rg.lo12 >> 16;
      const unsigned hi = c == 0 ? rg.c0.hi & 0xFFu : c == 1 ? rg.hi12 & 0xFFu : rg.hi12 >> 16;
      channel_result_range<kDefocus>(ch, static_cast<int>((cw >> (8 * c)) & 0xFFu), terms, static_cast<int>(lo >> 2),
                                     static_cast<int>(hi >> 2), a.normalized, acc, n_views, hc, ec);
      if (c == 0) h[0] = hc, e[0] = ec;
      else if (c == 1) h[1] = hc, e[1] = ec;
      else h[2] = hc, e[2] = ec;
    }
    store_label<kDefocus>(a, label, py, px, h[0], h[1], h[2], e[0], e[1], e[2]);
  }
}

template <int N, bool kDefocus>
void launch_stash(dim3 grid, dim3 block, const CaeArgs& a, const unsigned* rgba, const float2* terms, cudaStream_t s) {
  constexpr std::size_t bytes = stash_bytes<N>();
  // Blocks per SM by the shared memory (228 KiB, 1 KiB reserved per block), at most exact_chan's 6: 5 at 9 x 9.
  constexpr int kBlocks = std::clamp(static_cast<int>((228u * 1024u) / (bytes + 1024u)), 1, 6);
  auto* k = cae_exact_stash_kernel<N, kDefocus, kBlocks>;
  CUDA_CHECK_THROW(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        static_cast<int>(cudaSharedmemCarveoutMaxShared)));
  if (bytes > 48u * 1024u)
    CUDA_CHECK_THROW(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  k<<<grid, block, bytes, s>>>(a, rgba, terms);
}
}  // namespace

void launch_cae_exact_stash(CaeArgs a, const unsigned* rgba, float2* terms, cudaStream_t s) {
  launch_channel_kernel(a, "exact_stash", terms, s, [&](auto n, auto defocus, dim3 grid, dim3 block, const CaeArgs& args) {
    launch_stash<decltype(n)::value, decltype(defocus)::value>(grid, block, args, rgba, terms, s);
  });
}

}  // namespace lb::cuda::detail
