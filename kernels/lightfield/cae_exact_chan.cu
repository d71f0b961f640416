// CAE cost kernel exact_chan: the exact (occupied-bins) CAE one colour channel at a time, with
// one channel's 8-bit counts per thread in shared memory (256 B instead of exact_smem's 768),
// any window; optionally the raw defocus cost from the same samples. Bit-identical to
// coalesced (lightfield/cae_cuda.hpp) and, for the defocus volume, to lfr::defocus_raw.
//
// Why: exact_smem_table keeps all three channels' counts (768 B a thread), which caps an SM at
// 9 warps; ncu (9 x 9, H100) finds it issue-starved: 2.2 warps per scheduler, 0.57 eligible,
// issue slots 42 % busy, 39 % of the stalls waiting on instruction fetch (its unrolled
// three-channel body). Here the three channels run one after another over the same sheared
// texels (the second and third passes hit L1): 3x the texel loads, the same per-channel
// arithmetic and walk, a third of the code, and 3x the warps per SM to hide the latencies.
// The defocus cue (|mean over the window of the bilinear samples - centre|, lf_refine_math.hpp)
// sums the very float the level is rounded from, in the same view order as the CPU: fused
// here it costs one add per sample instead of a second pass over 81 views (5.4 ms at 9 x 9).
// Each channel's walk goes over its level range (ChannelRange, channel_result_range), as
// exact_stash's.

#include "lightfield/cae_kernels.hpp"
#include "lightfield/cae_chan_sampling.cuh"
#include "lightfield/cae_smem.cuh"
#include "cuda_check.cuh"

namespace lb::cuda::detail {

namespace {

constexpr int kChanWords = 64;  // one channel: 256 bins of 8 bits
constexpr std::size_t kChanBytes = static_cast<std::size_t>(kChanWords) * kSmemThreads * 4;
constexpr int kChanLargeWindowCarveout = 72;  // percent of the most shared memory (launch_chan)

template <int N, bool kDefocus, int kMinBlocks>
__global__ void __launch_bounds__(kSmemThreads, kMinBlocks)
    cae_exact_chan_kernel(CaeArgs a, const unsigned* __restrict__ rgba, const float2* __restrict__ terms) {
  extern __shared__ unsigned s_counts[];  // [64 words][kSmemThreads]
  // The pixel set up inline, not by cae_smem.cuh's smem_pixel as exact_smem: with the struct
  // the kernel took 9.30 ms instead of 9.09 at 9x9 (H100, same run), its registers laid out
  // otherwise.
  const uint3 blk = chan_block();
  const int px = blk.x * blockDim.x + threadIdx.x;
  const int py = blk.y * blockDim.y + threadIdx.y;
  if (px >= a.rw || py >= a.rh) return;  // no block-wide synchronisation below
  const int x = a.rx + px, y = a.ry + py;
  const unsigned W = static_cast<unsigned>(a.W);
  const unsigned plane = W * static_cast<unsigned>(a.H);
  unsigned* const ch = s_counts + threadIdx.y * 32 + threadIdx.x;
#pragma unroll 8
  for (int k = 0; k < kChanWords; ++k) ch[k * kSmemThreads] = 0u;  // the walks leave them zero
  const unsigned cw = __ldg(rgba + static_cast<unsigned>(a.vc * a.nu + a.uc) * plane + static_cast<unsigned>(y) * W +
                            static_cast<unsigned>(x));
  const float n_views = static_cast<float>(N * N);
  const int l0 = blk.z * a.labels_per_thread;
  const int l1 = min(a.A, l0 + a.labels_per_thread);
  for (int label = l0; label < l1; ++label) {
    const float d = cae::label_disparity(a.dmin, a.dmax, a.A, label);
    unsigned xo[N];  // u * plane + x0 per view column
    float fx[N];
    column_taps<N>(a, x, d, plane, xo, fx);
    float h0 = 0.0f, h1 = 0.0f, h2 = 0.0f, e0 = 0.0f, e1 = 0.0f, e2 = 0.0f;
#pragma unroll 1
    for (int c = 0; c < 3; ++c) {
      const unsigned sel = 0x7440u | static_cast<unsigned>(c);
      float acc = 0.0f;  // defocus: the samples' sum, views v outer, u inner (lfr::defocus_raw's order)
      ChannelRange range;
#pragma unroll 1
      for (int v = a.v0; v < a.v0 + N; ++v) {
        if (v == a.vc) {
          // The centre view row is not sheared vertically (fy = 0): its samples are the top
          // rows' lerps, exactly (lerp_value's last step adds 0 * (bot - top)).
          unsigned t00[N], t10[N];
          gather_centre_row<N>(a, rgba, y, plane, W, xo, t00, t10);
#pragma unroll
          for (int uu = 0; uu < N; ++uu) {
            const float val = uu == N / 2 ? centre_value(t00[uu], sel) : top_value(t00[uu], t10[uu], sel, fx[uu]);
            if constexpr (kDefocus) acc = __fadd_rn(acc, val);
            const unsigned b = level_bits(val);
            smem_count(ch, b);
            range.take(b, uu % 2 == 1, uu == N - 1);
          }
          continue;
        }
        unsigned t00[N], t10[N], t01[N], t11[N];
        float fy;
        gather_row<N>(a, rgba, y, v, d, plane, W, xo, fy, t00, t10, t01, t11);
#pragma unroll
        for (int uu = 0; uu < N; ++uu) {
          // The centre view column is not sheared horizontally (fx = 0): the left texels only.
          const float val = uu == N / 2 ? left_value(t00[uu], t01[uu], sel, fy)
                                        : lerp_value(t00[uu], t10[uu], t01[uu], t11[uu], sel, fx[uu], fy);
          if constexpr (kDefocus) acc = __fadd_rn(acc, val);
          const unsigned b = level_bits(val);
          smem_count(ch, b);
          range.take(b, uu % 2 == 1, uu == N - 1);
        }
      }
      float h, e;
      channel_result_range<kDefocus>(ch, static_cast<int>((cw >> (8 * c)) & 0xFFu), terms,
                                     static_cast<int>((range.lo & 0xFFu) >> 2), static_cast<int>((range.hi & 0xFFu) >> 2),
                                     a.normalized, acc, n_views, h, e);
      if (c == 0) h0 = h, e0 = e;
      else if (c == 1) h1 = h, e1 = e;
      else h2 = h, e2 = e;
    }
    store_label<kDefocus>(a, label, py, px, h0, h1, h2, e0, e1, e2);
  }
}

template <int N, bool kDefocus>
void launch_chan(dim3 grid, dim3 block, const CaeArgs& a, const unsigned* rgba, const float2* terms, cudaStream_t s) {
  // Registers for 6 blocks of 96 threads per SM (18 warps; 94 registers at 9 x 9): 9.09 ms at
  // 9 x 9 on an H100, against 9.87 with 9 blocks (72 registers, less L1 beside the counts).
  auto* k = cae_exact_chan_kernel<N, kDefocus, 6>;
  // The L1 / shared split. Up to 7 x 7 the most shared memory (228 KiB on an H100): as many
  // blocks as registers allow. From 9 x 9 on, a block's texels per label outgrow the ~28 KiB
  // of L1 that leaves (81 views x 4 texel rows x 33 texels x 4 B, re-read by the three
  // channel passes), so the split asks for 72 % (164 KiB: 6 blocks of 25.6 KiB, 92 KiB of L1):
  // 9 x 9 8.72 -> 8.39 ms (H100, two A/B runs), 7 x 7 unchanged, 5 x 5 3.16 -> 3.30 (its
  // fewer registers fit 8 blocks with the full split).
  const int carveout = N >= 9 ? kChanLargeWindowCarveout : static_cast<int>(cudaSharedmemCarveoutMaxShared);
  CUDA_CHECK_THROW(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  k<<<grid, block, kChanBytes, s>>>(a, rgba, terms);
}
}  // namespace

void launch_cae_exact_chan(CaeArgs a, const unsigned* rgba, float2* terms, cudaStream_t s) {
  launch_channel_kernel(a, "exact_chan", terms, s, [&](auto n, auto defocus, dim3 grid, dim3 block, const CaeArgs& args) {
    launch_chan<decltype(n)::value, decltype(defocus)::value>(grid, block, args, rgba, terms, s);
  });
}

}  // namespace lb::cuda::detail
