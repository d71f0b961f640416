// CAE cost kernels exact_smem and exact_smem_table: the exact (occupied-bins) CAE with the
// level counts in shared memory (cae_smem.cuh), any window; and the self-check of the
// logf they use. Bit-identical to coalesced (lightfield/cae_cuda.hpp).
#include <string>

#include "lightfield/cae_kernels.hpp"
#include "lightfield/cae_smem.cuh"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/backend.hpp"
#include "lightfield/cae_cuda.hpp"

namespace lb::cuda {

namespace detail {

namespace {

// Term table of exact_smem: [count 0..n*n][level - centre + 256] of (g, logf(g)), g exactly
// as add_term computes it (the same values as cae_term_table_kernel's, indexed by the signed offset:
// no |.| per bin); row 0 is (0, 0), an exact zero term.
__global__ void cae_signed_term_table_kernel(const float* __restrict__ w256, float inv_n, int rows, float2* table) {
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

// logf(a) for a positive normal float a, bit-identical to CUDA's logf there: the sequence
// nvcc 13 emits for logf (libdevice: exponent split at 2/3, a degree-8 polynomial in
// m - 1, k ln 2 added last) without its denormal scaling, its inf / NaN / zero branches and
// the int-to-float conversion of the exponent (made exact by the 1.5 * 2^23 trick; the
// conversion pipe runs at 1/8 of the FMA rate). Every term g of exact_smem is normal:
// g >= weight floor (1e-30) / 225 > FLT_MIN. Checked on the host over every float in
// [FLT_MIN, 2] against a transcription of the full sequence, and on the device against
// logf itself by cae_log_mismatches() (tests/lightfield/test_cae_gpu.cpp).
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
__global__ void cae_check_log_kernel(unsigned first, unsigned last, unsigned long long* mismatches) {
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

template <int N, SmemWalk kWalk>
__global__ void __launch_bounds__(kSmemThreads, 3)
    cae_exact_smem_kernel(CaeArgs a, const unsigned* __restrict__ rgba, const float2* __restrict__ terms) {
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
  SmemPixel t;
  if (!smem_pixel(a, rgba, s_counts, t)) return;  // no block-wide synchronisation below
  const int x = t.x, y = t.y, px = t.px, py = t.py;
  const unsigned W = t.W, plane = t.plane, cw = t.centre;
  unsigned* const cr = t.counts;
  unsigned* const cg = cr + 64 * kSmemThreads;
  unsigned* const cb = cg + 64 * kSmemThreads;
#pragma unroll 8
  for (int k = 0; k < kSmemWords; ++k) cr[k * kSmemThreads] = 0u;
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

// exact_smem for any window (n = 1 .. kMaxWindow), with the 72 KiB of dynamic shared memory
// it needs (beyond the 48 KiB default) and the carveout for 3 blocks per SM.
template <int N, SmemWalk kWalk>
void launch_smem(dim3 grid, dim3 block, const CaeArgs& a, const unsigned* rgba, const float2* terms, cudaStream_t s) {
  CUDA_CHECK_THROW(cudaFuncSetAttribute(cae_exact_smem_kernel<N, kWalk>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(kSmemBytes)));
  CUDA_CHECK_THROW(cudaFuncSetAttribute(cae_exact_smem_kernel<N, kWalk>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        static_cast<int>(cudaSharedmemCarveoutMaxShared)));
  cae_exact_smem_kernel<N, kWalk><<<grid, block, kSmemBytes, s>>>(a, rgba, terms);
}
template <SmemWalk kWalk>
void launch_exact_smem(int n, dim3 grid, dim3 block, const CaeArgs& a, const unsigned* rgba, const float2* terms,
                       cudaStream_t s) {
  with_window(n, "exact_smem", [&](auto w) { launch_smem<decltype(w)::value, kWalk>(grid, block, a, rgba, terms, s); });
}

}  // namespace

void launch_signed_term_table(const CaeArgs& a, float2* terms, cudaStream_t s) {
  // (n*n + 1) x 512 (g, logf g), a few microseconds, timed with the pass.
  const int rows = a.n * a.n + 1;
  cae_signed_term_table_kernel<<<(rows * kSignedCols + 255) / 256, 256, 0, s>>>(a.w256, a.inv_n, rows, terms);
  CUDA_CHECK_LAUNCH();
}

void launch_cae_exact_smem(bool table_walk, CaeArgs a, const unsigned* rgba, float2* terms, cudaStream_t s) {
  // Several labels per thread amortise the one zeroing of the counts.
  a.labels_per_thread = kSmemLabelsPerThread;
  if (table_walk) launch_signed_term_table(a, terms, s);
  const dim3 block(32, kSmemRows);
  const dim3 grid((a.rw + 31) / 32, (a.rh + kSmemRows - 1) / kSmemRows,
                  static_cast<unsigned>((a.A + a.labels_per_thread - 1) / a.labels_per_thread));
  if (table_walk)
    launch_exact_smem<SmemWalk::WordsTable>(a.n, grid, block, a, rgba, terms, s);
  else
    launch_exact_smem<SmemWalk::Bins>(a.n, grid, block, a, rgba, terms, s);
  CUDA_CHECK_LAUNCH();
}

}  // namespace detail

std::uint64_t cae_log_mismatches(int device) {
  std::string why;
  if (!device_available(&why)) throw Error("cae_log_mismatches: " + why);
  CUDA_CHECK_THROW(cudaSetDevice(device));
  detail::DeviceBuffer count(sizeof(unsigned long long));
  CUDA_CHECK_THROW(cudaMemset(count.get(), 0, sizeof(unsigned long long)));
  detail::cae_check_log_kernel<<<4096, 256>>>(0x00800000u, 0x40000000u, count.as<unsigned long long>());
  CUDA_CHECK_LAUNCH();
  unsigned long long n = 0;
  CUDA_CHECK_THROW(cudaMemcpy(&n, count.get(), sizeof n, cudaMemcpyDeviceToHost));
  return n;
}

}  // namespace lb::cuda
