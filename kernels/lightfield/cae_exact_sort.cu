// CAE cost kernel exact_sort: the exact (occupied-bins) CAE by a sorting network over the
// n*n samples of three channels at once, no histogram (n = 3, 5, 7, 9). Bit-identical to
// coalesced (lightfield/cae_cuda.hpp).
#include <cstddef>
#include <string>
#include <utility>

#include "lightfield/cae_common.cuh"
#include "lightfield/cae_kernels.hpp"
#include "cuda_check.cuh"

namespace lb::cuda::detail {

namespace {

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
__global__ void cae_term_table_kernel(const float* __restrict__ w256, float inv_n, int rows, float2* table) {
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
    cae_exact_sort_kernel(CaeArgs a, const unsigned* __restrict__ rgba, const float2* __restrict__ terms) {
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

}  // namespace

void launch_cae_exact_sort(CaeArgs a, const unsigned* rgba, float2* terms, cudaStream_t s) {
  // The term table first ((n*n + 1) x 256 (g, logf g), a few microseconds, timed with the pass).
  const int rows = a.n * a.n + 1;
  cae_term_table_kernel<<<(rows * 256 + 255) / 256, 256, 0, s>>>(a.w256, a.inv_n, rows, terms);
  CUDA_CHECK_LAUNCH();
  const dim3 block(32, 4);
  const dim3 grid((a.rw + 31) / 32, (a.rh + 3) / 4, static_cast<unsigned>(a.A));  // one label per thread
  switch (a.n) {
    case 3: cae_exact_sort_kernel<3><<<grid, block, 0, s>>>(a, rgba, terms); break;
    case 5: cae_exact_sort_kernel<5><<<grid, block, 0, s>>>(a, rgba, terms); break;
    case 7: cae_exact_sort_kernel<7><<<grid, block, 0, s>>>(a, rgba, terms); break;
    case 9: cae_exact_sort_kernel<9><<<grid, block, 0, s>>>(a, rgba, terms); break;
    default:
      throw Error("exact_sort: no kernel for a " + std::to_string(a.n) + "x" + std::to_string(a.n) + " window");
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
