// Guided filter (He, Sun & Tang) on every slice of a volume, guided by one gray plane or by a
// colour guide of 3 planes, on CUDA (issue 12's cost-volume filtering). Box means over clipped
// windows (N = the pixels of the window inside the image), each O(1) per pixel whatever the
// radius, for K planes at once:
//   vertical   one thread per column and slice walks down the rows with K running sums
//              (coalesced across the columns); a term is a plane, optionally times a guide
//              plane on the fly (I p, I_i I_j are never stored);
//   horizontal one block per row and slice: inclusive scans of the K rows side by side in
//              shared memory, then each pixel's K window means are differences of two prefix
//              sums (windows up to kRowDirectRadius: summed directly, no scan), handed to a
//              per-pixel step (a functor).
// Gray steps per slice p (guide I, its box means mean_I and var_I computed once):
//   mean_p, mean_Ip -> a = (mean_Ip - mean_I mean_p) / (var_I + eps), b = mean_p - a mean_I
//   mean_a, mean_b  -> q = mean_a I + mean_b
// Colour (Eq. 14-16; the algebra in lightbench/guided_filter_math.hpp, shared with the CPU):
//   once       mean_I (3), mean(I_i I_j) (6) -> mean_I and (Sigma + eps U)^-1 (6 entries)
//   per slice  mean_p, mean(I_c p) (3)       -> a (3), b
//              mean_a (3), mean_b            -> q = mean_a . I + mean_b
// Float throughout; the CPU references (lf_refine_cpu.cpp, guided_filter_cpu.cpp) compute in
// double, the tests bound the difference.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <string>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "guided_filter.hpp"
#include "lightbench/guided_filter_math.hpp"

namespace lb::cuda::detail {

namespace {

constexpr int kRowThreads = 256;

// The K terms of a column pass: term k at pixel i of slice s is
//   src[k][s * slice_stride[k] + i], times mul[k][i] when bit k of the pass's kGuided is set
// (slice_stride: the plane size for a volume, 0 for a guide plane; mul: a guide plane, or
// nullptr where the bit is clear). Passed by value: the pointers live in the kernel's
// parameter space.
template <int K>
struct ColTerms {
  const float* src[K];
  const float* mul[K];
  std::size_t slice_stride[K];
};

// K planes of a volume (slices x h x w each, slice stride w * h).
template <int K>
struct Planes {
  float* p[K];
};

// Vertical window sums of the K terms, written to out.p[k] (same layout as a volume). Thread
// (x, slice, segment): each thread walks `seg` rows from row blockIdx.z * seg with K running
// sums, starting from the window of its first row summed afresh. One thread per whole column
// left the GPU nearly idle (512 columns x 75 slices = 38k threads, 14 % occupancy; the guide
// statistics, one slice, 6 %: ncu, docs/perf/h100/ncu-refine-8cb87ed.txt); segments of at
// least 2 windows keep the fresh sums' extra reads under half. Which terms are products is a
// compile-time mask (kGuided), not a run-time test of mul[k].
template <int K, unsigned kGuided>
__global__ void col_sum_kernel(ColTerms<K> t, int w, int h, int r, int seg, Planes<K> out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y_begin = static_cast<int>(blockIdx.z) * seg;
  if (x >= w || y_begin >= h) return;
  const int y_end = min(h, y_begin + seg);
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const std::size_t so = static_cast<std::size_t>(blockIdx.y) * plane;
  auto v = [&](int k, int y) {
    const std::size_t i = static_cast<std::size_t>(y) * w + x;
    const float s = t.src[k][static_cast<std::size_t>(blockIdx.y) * t.slice_stride[k] + i];
    return (kGuided >> k) & 1u ? s * t.mul[k][i] : s;
  };
  float sum[K];
#pragma unroll
  for (int k = 0; k < K; ++k) sum[k] = 0.0f;
  for (int y = max(0, y_begin - r); y <= y_begin + r && y < h; ++y) {
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] += v(k, y);
  }
  for (int y = y_begin; y < y_end; ++y) {
#pragma unroll
    for (int k = 0; k < K; ++k) out.p[k][so + static_cast<std::size_t>(y) * w + x] = sum[k];
    if (y + r + 1 < h) {
#pragma unroll
      for (int k = 0; k < K; ++k) sum[k] += v(k, y + r + 1);
    }
    if (y - r >= 0) {
#pragma unroll
      for (int k = 0; k < K; ++k) sum[k] -= v(k, y - r);
    }
  }
}

constexpr int kRowWarps = kRowThreads / 32;

// Block-wide inclusive scans of K values per thread (kRowThreads threads), the K scans side by
// side: one set of barriers for all of them, and K independent shuffle chains in flight.
// Each value sees the additions of a one-value scan in the same order. warp_tot: K *
// kRowWarps floats (shared).
template <int K>
__device__ void block_scan(float (&v)[K], float* warp_tot) {
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const float t = __shfl_up_sync(0xffffffffu, v[k], o);
      if (lane >= o) v[k] += t;
    }
  }
  if (lane == 31) {
#pragma unroll
    for (int k = 0; k < K; ++k) warp_tot[k * kRowWarps + wid] = v[k];
  }
  __syncthreads();
  if (wid == 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      float t = lane < kRowWarps ? warp_tot[k * kRowWarps + lane] : 0.0f;
#pragma unroll
      for (int o = 1; o < kRowWarps; o <<= 1) {
        const float u = __shfl_up_sync(0xffffffffu, t, o);
        if (lane >= o) t += u;
      }
      if (lane < kRowWarps) warp_tot[k * kRowWarps + lane] = t;
    }
  }
  __syncthreads();
  if (wid > 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] += warp_tot[k * kRowWarps + wid - 1];
  }
  __syncthreads();  // warp_tot is reused by the next chunk
}

// The inclusive prefix sums of the K rows starting at col.p[k] + ro (w floats each) into
// pre[k * w .. k * w + w - 1] (shared). Each thread adds kRowItems consecutive values itself,
// then the block scans the threads' totals: one block scan per kRowThreads * kRowItems values
// (the row kernels were compute-bound on the scans' shuffles and barriers: SM 66-70 %, DRAM
// 56 %, ncu on H100). A thread's values add to the previous thread's inclusive total (its
// exclusive prefix, from a shuffle, not a subtraction). warp_tot: K * kRowWarps floats,
// last: K floats (shared).
constexpr int kRowItems = 2;
template <int K>
__device__ void row_prefix(const Planes<K>& col, std::size_t ro, int w, float* pre, float* warp_tot, float* last) {
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  float carry[K];
#pragma unroll
  for (int k = 0; k < K; ++k) carry[k] = 0.0f;
  for (int x0 = 0; x0 < w; x0 += kRowThreads * kRowItems) {
    const int xb = x0 + static_cast<int>(threadIdx.x) * kRowItems;
    float v[K][kRowItems], tot[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
#pragma unroll
      for (int i = 0; i < kRowItems; ++i) {
        const float c = xb + i < w ? col.p[k][ro + xb + i] : 0.0f;
        v[k][i] = i == 0 ? c : v[k][i - 1] + c;
      }
      tot[k] = v[k][kRowItems - 1];
    }
    block_scan<K>(tot, warp_tot);  // inclusive over the threads' totals
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const float up = __shfl_up_sync(0xffffffffu, tot[k], 1);
      const float before = (lane > 0 ? up : wid > 0 ? warp_tot[k * kRowWarps + wid - 1] : 0.0f) + carry[k];
#pragma unroll
      for (int i = 0; i < kRowItems; ++i)
        if (xb + i < w) pre[static_cast<std::size_t>(k) * w + xb + i] = before + v[k][i];
      tot[k] += carry[k];
    }
    // The chunk's totals (with the carry): the next chunk's carries.
    if (threadIdx.x == kRowThreads - 1) {
#pragma unroll
      for (int k = 0; k < K; ++k) last[k] = tot[k];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < K; ++k) carry[k] = last[k];
    __syncthreads();
  }
}

__device__ __forceinline__ float window(const float* pre, int x, int w, int r) {
  const int hi = min(x + r, w - 1), lo = x - r - 1;
  return pre[hi] - (lo >= 0 ? pre[lo] : 0.0f);
}
__device__ __forceinline__ float count(int x, int y, int w, int h, int r) {
  return static_cast<float>((min(x + r, w - 1) - max(x - r, 0) + 1) * (min(y + r, h - 1) - max(y - r, 0) + 1));
}

// Per row and slice: the K window means of the pixels of row y from the K column sums, each
// pixel's means handed to op(m, v, g): v its index in the volume, g in a guide plane. The K
// prefix rows take K * w floats of dynamic shared memory (row_kernel_smem).
constexpr int kRowDirectRadius = 4;  // windows up to 9 wide: summed directly
template <int K, class Op>
__global__ void __launch_bounds__(kRowThreads) row_kernel(Planes<K> col, int w, int h, int r, Op op) {
  extern __shared__ float sm[];
  __shared__ float warp_tot[K * kRowWarps];
  __shared__ float last[K];
  const int y = static_cast<int>(blockIdx.x);
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const std::size_t ro = static_cast<std::size_t>(blockIdx.y) * plane + static_cast<std::size_t>(y) * w;
  if (r <= kRowDirectRadius) {
    // Small windows: the K rows as they are, each window summed directly (2r + 1 values in
    // order) instead of two prefix sums subtracted: no block scans (the row kernels were
    // compute-bound on them: SM 66-70 %, ncu, H100), and no cancellation of large prefixes.
    for (int x = static_cast<int>(threadIdx.x); x < w; x += kRowThreads)
#pragma unroll
      for (int k = 0; k < K; ++k) sm[static_cast<std::size_t>(k) * w + x] = col.p[k][ro + x];
    __syncthreads();
    for (int x = static_cast<int>(threadIdx.x); x < w; x += kRowThreads) {
      const float n = count(x, y, w, h, r);
      const int x0 = max(x - r, 0), x1 = min(x + r, w - 1);
      float m[K];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const float* row = sm + static_cast<std::size_t>(k) * w;
        float v = row[x0];
        for (int xx = x0 + 1; xx <= x1; ++xx) v += row[xx];
        m[k] = v / n;
      }
      op(m, ro + x, static_cast<std::size_t>(y) * w + x);
    }
    return;
  }
  row_prefix<K>(col, ro, w, sm, warp_tot, last);
  for (int x = static_cast<int>(threadIdx.x); x < w; x += kRowThreads) {
    const float n = count(x, y, w, h, r);
    float m[K];
#pragma unroll
    for (int k = 0; k < K; ++k) m[k] = window(sm + static_cast<std::size_t>(k) * w, x, w, r) / n;
    op(m, ro + x, static_cast<std::size_t>(y) * w + x);
  }
}

// ---- Gray guide: the per-pixel steps.

// The guide's statistics (one slice) from mean(I), mean(I I): mean_I and var_I.
struct GrayStats {
  float* mean_i;
  float* var_i;
  __device__ __forceinline__ void operator()(const float (&m)[2], std::size_t, std::size_t g) const {
    mean_i[g] = m[0];
    var_i[g] = m[1] - m[0] * m[0];
  }
};

// Step 1 from mean(p), mean(I p): a and b.
struct GrayCoefficients {
  const float* mean_i;
  const float* var_i;
  float eps;
  float* a;
  float* b;
  __device__ __forceinline__ void operator()(const float (&m)[2], std::size_t v, std::size_t g) const {
    const float mi = mean_i[g];
    const float av = (m[1] - mi * m[0]) / (var_i[g] + eps);
    a[v] = av;
    b[v] = m[0] - av * mi;
  }
};

// Step 2 from mean(a), mean(b): q = mean_a I + mean_b.
struct GrayOutput {
  const float* guide;
  float* q;
  __device__ __forceinline__ void operator()(const float (&m)[2], std::size_t v, std::size_t g) const {
    // Rounded product, then rounded sum (no FMA): the arithmetic of the gray filter before
    // the row kernels became one template, where control flow kept the two apart.
    q[v] = __fadd_rn(__fmul_rn(m[0], guide[g]), m[1]);
  }
};

// ---- Colour guide (3 planes): the per-pixel steps, the algebra from guided_filter_math.hpp.

constexpr int kRgbStatsTerms = gf::kChannels + gf::kProducts;  // mean_I (3), mean(I_i I_j) (6)
constexpr int kRgbSliceTerms = gf::kChannels + 1;              // p, I_c p (3) / a (3), b
constexpr unsigned kRgbStatsGuided = ((1u << gf::kProducts) - 1) << gf::kChannels;  // the I_i I_j terms
constexpr unsigned kRgbSliceGuided = ((1u << gf::kChannels) - 1) << 1;               // the I_c p terms

// The guide's statistics (one slice) from mean(I_c), mean(I_i I_j): mean_I (3 planes) and
// (Sigma + eps U)^-1 (6 planes, gf's entry order); eps is fixed for the call, so the inverse
// is computed once, not per slice.
struct RgbStats {
  Planes<gf::kChannels> mean_i;
  Planes<gf::kProducts> inverse;
  float eps;
  __device__ __forceinline__ void operator()(const float (&m)[kRgbStatsTerms], std::size_t, std::size_t g) const {
    float mi[gf::kChannels], mii[gf::kProducts];
#pragma unroll
    for (int c = 0; c < gf::kChannels; ++c) mi[c] = m[c];
#pragma unroll
    for (int k = 0; k < gf::kProducts; ++k) mii[k] = m[gf::kChannels + k];
    const gf::Sym3<float> inv = gf::regularized_inverse(gf::covariance(mi, mii), eps);
#pragma unroll
    for (int c = 0; c < gf::kChannels; ++c) mean_i.p[c][g] = mi[c];
#pragma unroll
    for (int k = 0; k < gf::kProducts; ++k) inverse.p[k][g] = inv.m[k];
  }
};

// Step 1 from mean(p), mean(I_c p): a (3 planes) and b.
struct RgbCoefficients {
  const float* mean_i[gf::kChannels];
  const float* inverse[gf::kProducts];
  float* a[gf::kChannels];
  float* b;
  __device__ __forceinline__ void operator()(const float (&m)[kRgbSliceTerms], std::size_t v, std::size_t g) const {
    float mi[gf::kChannels], mip[gf::kChannels];
    gf::Sym3<float> inv;
#pragma unroll
    for (int c = 0; c < gf::kChannels; ++c) mi[c] = mean_i[c][g], mip[c] = m[1 + c];
#pragma unroll
    for (int k = 0; k < gf::kProducts; ++k) inv.m[k] = inverse[k][g];
    const gf::Coefficients<float> ab = gf::coefficients(inv, mi, m[0], mip);
#pragma unroll
    for (int c = 0; c < gf::kChannels; ++c) a[c][v] = ab.a[c];
    b[v] = ab.b;
  }
};

// Step 2 from mean(a_c), mean(b): q = mean_a . I + mean_b.
struct RgbOutput {
  const float* guide[gf::kChannels];
  float* q;
  __device__ __forceinline__ void operator()(const float (&m)[kRgbSliceTerms], std::size_t v, std::size_t g) const {
    float ma[gf::kChannels], gi[gf::kChannels];
#pragma unroll
    for (int c = 0; c < gf::kChannels; ++c) ma[c] = m[c], gi[c] = guide[c][g];
    q[v] = gf::output(ma, m[gf::kChannels], gi);
  }
};

unsigned cols(int w) { return static_cast<unsigned>((w + 127) / 128); }

template <int K, unsigned kGuided>
void launch_cols(const ColTerms<K>& t, int w, int h, int slices, int r, const Planes<K>& out, cudaStream_t s) {
  for (int k = 0; k < K; ++k)
    if (((kGuided >> k) & 1u) != (t.mul[k] != nullptr))
      LB_THROW("guided filter: column term mask and guide planes disagree");
  const int seg = std::max(64, 4 * r + 2);  // rows per thread: at least two windows
  const unsigned segs = static_cast<unsigned>((h + seg - 1) / seg);
  LB_REQUIRE(segs <= 65535u, "guided filter: too many rows");
  col_sum_kernel<K, kGuided><<<dim3(cols(w), static_cast<unsigned>(slices), segs), 128, 0, s>>>(t, w, h, r, seg, out);
  CUDA_CHECK_LAUNCH();
}

// The shared memory a block of row_kernel<K, Op> needs for rows of w pixels (K prefix rows),
// allowed on the current device; rows too wide for the device's opt-in limit per block throw
// one line naming the limit (`what` names the filter).
template <int K, class Op>
std::size_t row_kernel_smem(int w, const char* what) {
  const void* kernel = reinterpret_cast<const void*>(row_kernel<K, Op>);
  const std::size_t dynamic = static_cast<std::size_t>(K) * static_cast<std::size_t>(w) * sizeof(float);
  cudaFuncAttributes attr{};
  CUDA_CHECK_THROW(cudaFuncGetAttributes(&attr, kernel));
  int device = 0, limit = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&device));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t need = dynamic + attr.sharedSizeBytes;
  LB_REQUIRE(need <= static_cast<std::size_t>(limit),
             std::string(what) + ": a row of " + std::to_string(w) + " pixels needs " + std::to_string(need) +
                 " bytes of shared memory per block, above this device's limit of " + std::to_string(limit) +
                 " (cudaDevAttrMaxSharedMemoryPerBlockOptin)");
  CUDA_CHECK_THROW(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamic)));
  return dynamic;
}

template <int K, class Op>
void launch_rows(const Planes<K>& col, int w, int h, int slices, int r, const Op& op, cudaStream_t s,
                 const char* what) {
  const std::size_t smem = row_kernel_smem<K, Op>(w, what);
  row_kernel<K, Op><<<dim3(static_cast<unsigned>(h), static_cast<unsigned>(slices)), kRowThreads, smem, s>>>(
      col, w, h, r, op);
  CUDA_CHECK_LAUNCH();
}

void require_volume(int w, int h, int slices, int r, const char* what) {
  LB_REQUIRE(w > 0 && h > 0 && slices > 0 && r >= 0, std::string(what) + ": empty volume or negative radius");
  LB_REQUIRE(slices <= 65535, std::string(what) + ": more than 65535 slices");
}

// ---- Colour filter: its scratch and its three phases.

constexpr const char* kRgbWhat = "guided filter rgb";
using RgbGuidePlanes = std::array<const float*, gf::kChannels>;

// The planes of the colour filter's scratch (layout: guided_filter_rgb_scratch_bytes).
struct RgbScratch {
  Planes<kRgbStatsTerms> guide_cols;  // the guide's column sums: the first 9 planes of the
                                      // per-slice space, read before the slices' passes write it
  Planes<kRgbSliceTerms> cols;        // per slice: column sums of p, I_c p; then of a_c, b
  Planes<kRgbSliceTerms> coef;        // per slice: a_c (3), b
  Planes<gf::kChannels> mean_i;       // once
  Planes<gf::kProducts> inverse;      // once: (Sigma + eps U)^-1
};

// The per-slice space in planes: 8 per slice (4 column sums, a (3), b), at least the guide's 9
// column sums.
std::size_t rgb_work_planes(int slices) {
  return std::max<std::size_t>(8 * static_cast<std::size_t>(slices), kRgbStatsTerms);
}

RgbScratch rgb_scratch(float* scratch, int w, int h, int slices) {
  const std::size_t plane = static_cast<std::size_t>(w) * h, vol = plane * static_cast<std::size_t>(slices);
  float* stats = scratch + rgb_work_planes(slices) * plane;
  RgbScratch sc{};
  for (int k = 0; k < kRgbStatsTerms; ++k) sc.guide_cols.p[k] = scratch + k * plane;
  for (int k = 0; k < kRgbSliceTerms; ++k)
    sc.cols.p[k] = scratch + k * vol, sc.coef.p[k] = scratch + (kRgbSliceTerms + k) * vol;
  for (int c = 0; c < gf::kChannels; ++c) sc.mean_i.p[c] = stats + c * plane;
  for (int k = 0; k < gf::kProducts; ++k) sc.inverse.p[k] = stats + (gf::kChannels + k) * plane;
  return sc;
}

// Once per call: column sums of I_c and I_i I_j, then mean_I and (Sigma + eps U)^-1.
void queue_rgb_guide_stats(const RgbGuidePlanes& g, int w, int h, int r, float eps, const RgbScratch& sc,
                           cudaStream_t s) {
  ColTerms<kRgbStatsTerms> terms{};
  for (int k = 0; k < kRgbStatsTerms; ++k) {
    int i = k, j = -1;  // k < kChannels: channel k alone
    if (k >= gf::kChannels) gf::product_channels(k - gf::kChannels, i, j);
    terms.src[k] = g[i];
    terms.mul[k] = j >= 0 ? g[j] : nullptr;
    terms.slice_stride[k] = 0;
  }
  launch_cols<kRgbStatsTerms, kRgbStatsGuided>(terms, w, h, 1, r, sc.guide_cols, s);
  launch_rows(sc.guide_cols, w, h, 1, r, RgbStats{sc.mean_i, sc.inverse, eps}, s, kRgbWhat);
}

// Per slice: column sums of p and I_c p, then a and b.
void queue_rgb_coefficients(const RgbGuidePlanes& g, int w, int h, const float* in, int slices, int r,
                            const RgbScratch& sc, cudaStream_t s) {
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  ColTerms<kRgbSliceTerms> terms{};
  for (int k = 0; k < kRgbSliceTerms; ++k)
    terms.src[k] = in, terms.mul[k] = k == 0 ? nullptr : g[k - 1], terms.slice_stride[k] = plane;
  RgbCoefficients op{};
  for (int c = 0; c < gf::kChannels; ++c) op.mean_i[c] = sc.mean_i.p[c], op.a[c] = sc.coef.p[c];
  for (int k = 0; k < gf::kProducts; ++k) op.inverse[k] = sc.inverse.p[k];
  op.b = sc.coef.p[gf::kChannels];
  launch_cols<kRgbSliceTerms, kRgbSliceGuided>(terms, w, h, slices, r, sc.cols, s);
  launch_rows(sc.cols, w, h, slices, r, op, s, kRgbWhat);
}

// Per slice: column sums of a_c and b, then q = mean_a . I + mean_b.
void queue_rgb_output(const RgbGuidePlanes& g, int w, int h, int slices, int r, const RgbScratch& sc, float* out,
                      cudaStream_t s) {
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  ColTerms<kRgbSliceTerms> terms{};
  for (int k = 0; k < kRgbSliceTerms; ++k)
    terms.src[k] = sc.coef.p[k], terms.mul[k] = nullptr, terms.slice_stride[k] = plane;
  RgbOutput op{};
  for (int c = 0; c < gf::kChannels; ++c) op.guide[c] = g[c];
  op.q = out;
  launch_cols<kRgbSliceTerms, 0u>(terms, w, h, slices, r, sc.cols, s);
  launch_rows(sc.cols, w, h, slices, r, op, s, kRgbWhat);
}

}  // namespace

std::size_t guided_filter_scratch_bytes(int w, int h, int slices) {
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  return (4 * plane * static_cast<std::size_t>(slices) + 2 * plane) * sizeof(float);
}

void launch_guided_filter(const float* guide, int w, int h, const float* in, int slices, int r, float eps, float* out,
                          float* scratch, cudaStream_t s) {
  constexpr const char* what = "guided filter";
  require_volume(w, h, slices, r, what);
  const std::size_t plane = static_cast<std::size_t>(w) * h, vol = plane * static_cast<std::size_t>(slices);
  float* c0 = scratch;            // column sums (p / a), vol
  float* c1 = c0 + vol;           // column sums (I p / b), vol
  float* a = c1 + vol;            // a, vol
  float* b = a + vol;             // b, vol
  float* mean_i = b + vol;        // plane
  float* var_i = mean_i + plane;  // plane
  row_kernel_smem<2, GrayStats>(w, what);  // a row too wide throws before anything is queued
  const Planes<2> col{{c0, c1}};
  // Guide statistics (c0 / c1 of slice 0 as scratch): column sums of I and I I.
  launch_cols<2, 0b10u>({{guide, guide}, {nullptr, guide}, {0, 0}}, w, h, 1, r, col, s);
  launch_rows(col, w, h, 1, r, GrayStats{mean_i, var_i}, s, what);
  // Per slice: p and I p, then a and b.
  launch_cols<2, 0b10u>({{in, in}, {nullptr, guide}, {plane, plane}}, w, h, slices, r, col, s);
  launch_rows(col, w, h, slices, r, GrayCoefficients{mean_i, var_i, eps, a, b}, s, what);
  launch_cols<2, 0u>({{a, b}, {nullptr, nullptr}, {plane, plane}}, w, h, slices, r, col, s);
  launch_rows(col, w, h, slices, r, GrayOutput{guide, out}, s, what);
}

// Scratch of the colour filter, in planes of w x h floats:
//   work   max(8 * slices, 9): per slice 4 column sums (p, I_c p; later a_c, b) and the
//          coefficients a (3) and b; before that, the guide's 9 column sums (its first 9
//          planes, consumed before the slices' passes overwrite them: the stream orders them);
//   stats  9: mean_I (3) and (Sigma + eps U)^-1 (6), once per call.
std::size_t guided_filter_rgb_scratch_bytes(int w, int h, int slices) {
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  return (rgb_work_planes(slices) + kRgbStatsTerms) * plane * sizeof(float);
}

void launch_guided_filter_rgb(const float* guide, int w, int h, const float* in, int slices, int r, float eps,
                              float* out, float* scratch, cudaStream_t s) {
  require_volume(w, h, slices, r, kRgbWhat);
  LB_REQUIRE(eps > 0.0f, "guided filter rgb: eps must be > 0");
  // The widest row kernel (9 prefix rows): a row too wide throws before anything is queued.
  row_kernel_smem<kRgbStatsTerms, RgbStats>(w, kRgbWhat);
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const RgbGuidePlanes g = {guide, guide + plane, guide + 2 * plane};
  const RgbScratch sc = rgb_scratch(scratch, w, h, slices);
  queue_rgb_guide_stats(g, w, h, r, eps, sc, s);
  queue_rgb_coefficients(g, w, h, in, slices, r, sc, s);
  queue_rgb_output(g, w, h, slices, r, sc, out, s);
}

}  // namespace lb::cuda::detail
