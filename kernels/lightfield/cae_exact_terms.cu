// CAE cost kernel exact_terms: the exact CAE summed over the samples instead of the bins
// (any window; counts in shared memory, cae_smem.cuh). Not bit-identical to coalesced:
// another float summation, within the CPU tolerances (lightfield/cae_cuda.hpp).
#include <string>

#include "lightfield/cae_kernels.hpp"
#include "lightfield/cae_smem.cuh"
#include "cuda_check.cuh"

namespace lb::cuda::detail {

namespace {

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
__device__ __forceinline__ float terms_entropy(float G, float S2, const CaeArgs& a) {
  const float base = a.normalized ? logf(G) : a.terms_ln_n;
  return __fmaf_rn(-0.693147180559945309f, __fdiv_rn(S2, G), base);
}

// 3 blocks of 96 threads per SM (shared memory: 3 x 72 KiB) allow 224 registers a thread,
// but __launch_bounds__(96, 3) lets ptxas take only 168 (7 x 7 and 9 x 9 with the levels in
// registers spilled): the cap is given directly.
constexpr int kTermsMaxRegs = 224;
template <int N>
__global__ void __maxnreg__(kTermsMaxRegs) cae_exact_terms_kernel(CaeArgs a, const unsigned* __restrict__ rgba) {
  extern __shared__ unsigned s_counts[];  // [3 channels][64 words][B], then [n*n][B] levels
  constexpr int NN = N * N;
  constexpr bool kRegs = terms_in_regs(N);
  constexpr int RB = N == 3 ? 3 : 1;
  // Registers: every loop fully unrolled (static indices into lv); else as exact_smem.
  constexpr int kStepUnroll = kRegs ? N / RB : N % 3 == 0 ? 3 : 1;
  constexpr int kRowUnroll = kRegs ? N : 1;
  SmemPixel t;
  if (!smem_pixel(a, rgba, s_counts, t)) return;  // no block-wide synchronisation below
  const int x = t.x, y = t.y, px = t.px, py = t.py;
  const unsigned W = t.W, plane = t.plane, cw = t.centre;
  unsigned* const cr = t.counts;
  unsigned* const cg = cr + 64 * kSmemThreads;
  unsigned* const cb = cg + 64 * kSmemThreads;
  unsigned* const slv = cr + kSmemWords * kSmemThreads;  // levels (shared-memory storage)
#pragma unroll 8
  for (int k = 0; k < kSmemWords; ++k) cr[k * kSmemThreads] = 0u;
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

// exact_terms for any window, with its dynamic shared memory (counters, and the levels
// beyond 7 x 7) and the carveout for 3 blocks per SM (up to 7 x 7; 2 at 9 x 9).
template <int N>
void launch_terms(dim3 grid, dim3 block, const CaeArgs& a, const unsigned* rgba, cudaStream_t s) {
  constexpr std::size_t bytes = terms_smem_bytes(N);
  CUDA_CHECK_THROW(cudaFuncSetAttribute(cae_exact_terms_kernel<N>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(bytes)));
  CUDA_CHECK_THROW(cudaFuncSetAttribute(cae_exact_terms_kernel<N>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        static_cast<int>(cudaSharedmemCarveoutMaxShared)));
  cae_exact_terms_kernel<N><<<grid, block, bytes, s>>>(a, rgba);
}
void launch_exact_terms(int n, dim3 grid, dim3 block, const CaeArgs& a, const unsigned* rgba, cudaStream_t s) {
  with_window(n, "exact_terms", [&](auto w) { launch_terms<decltype(w)::value>(grid, block, a, rgba, s); });
}

}  // namespace

void launch_cae_exact_terms(CaeArgs a, const unsigned* rgba, cudaStream_t s) {
  a.labels_per_thread = kSmemLabelsPerThread;
  const dim3 block(32, kSmemRows);
  const dim3 grid((a.rw + 31) / 32, (a.rh + kSmemRows - 1) / kSmemRows,
                  static_cast<unsigned>((a.A + a.labels_per_thread - 1) / a.labels_per_thread));
  launch_exact_terms(a.n, grid, block, a, rgba, s);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
