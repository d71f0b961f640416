#pragma once
// Internal to guided_filter.cu: the separable box-window passes of the guided filter over the
// slices of a volume. Box means over clipped windows (N = the pixels of the window inside the
// image), each O(1) per pixel whatever the radius, for K planes at once:
//   vertical   one thread per column and slice walks down the rows with K running sums
//              (coalesced across the columns); a term is a plane, optionally times a guide
//              plane on the fly (I p, I_i I_j are never stored);
//   horizontal one block per row and slice: inclusive scans of the K rows side by side in
//              shared memory, then each pixel's K window sums are differences of two prefix
//              sums (windows up to kRowDirectRadius: summed directly, no scan).
// The filter's two steps are (column sums -> row means -> a, b) then (box means of a, b ->
// output). guided_row_coef_kernel runs step 1's row pass and step 2's row pass in one kernel (a and b
// stay in shared memory), and guided_col_out_kernel step 2's column pass with the output: the
// filter moves 18 volumes a call instead of 26.
#include <cuda_runtime.h>

#include <cstddef>

namespace lb::cuda::detail::box {

constexpr int kRowThreads = 256;
constexpr int kRowWarps = kRowThreads / 32;
constexpr int kRowDirectRadius = 4;  // windows up to 9 wide: summed directly

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

__device__ __forceinline__ float count(int x, int y, int w, int h, int r) {
  return static_cast<float>((min(x + r, w - 1) - max(x - r, 0) + 1) * (min(y + r, h - 1) - max(y - r, 0) + 1));
}

// Thread (x, slice, segment) walks `seg` rows from row blockIdx.z * seg with K running sums of
// the values row(y, v) gives (v[k], term k at row y), starting from the window of its first
// row summed afresh, and hands each row's sums to sink(y, sums). One thread per whole column
// left the GPU nearly idle (512 columns x 75 slices = 38k threads, 14 % occupancy; the guide
// statistics, one slice, 6 %: ncu, docs/perf/h100/ncu-refine-8cb87ed.txt); segments of at
// least 3 windows (guided_filter.cu's col_segment) keep the fresh sums' extra reads to a third.
template <int K, class Row, class Sink>
__device__ __forceinline__ void column_walk(int h, int r, int seg, const Row& row, const Sink& sink) {
  const int y_begin = static_cast<int>(blockIdx.z) * seg;
  const int y_end = min(h, y_begin + seg);
  float sum[K], v[K];
#pragma unroll
  for (int k = 0; k < K; ++k) sum[k] = 0.0f;
  for (int y = max(0, y_begin - r); y <= y_begin + r && y < h; ++y) {
    row(y, v);
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] += v[k];
  }
  for (int y = y_begin; y < y_end; ++y) {
    sink(y, sum);
    if (y + r + 1 < h) {
      row(y + r + 1, v);
#pragma unroll
      for (int k = 0; k < K; ++k) sum[k] += v[k];
    }
    if (y - r >= 0) {
      row(y - r, v);
#pragma unroll
      for (int k = 0; k < K; ++k) sum[k] -= v[k];
    }
  }
}

// Vertical window sums of the K terms, written to out.p[k] (same layout as a volume). Which
// terms are products is a compile-time mask (kGuided), not a run-time test of mul[k].
template <int K, unsigned kGuided>
__global__ void guided_col_sum_kernel(ColTerms<K> t, int w, int h, int r, int seg, Planes<K> out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= w || static_cast<int>(blockIdx.z) * seg >= h) return;
  const std::size_t so = static_cast<std::size_t>(blockIdx.y) * static_cast<std::size_t>(w) * h;
  auto row = [&](int y, float (&v)[K]) {
    const std::size_t i = static_cast<std::size_t>(y) * w + x;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const float s = t.src[k][static_cast<std::size_t>(blockIdx.y) * t.slice_stride[k] + i];
      v[k] = (kGuided >> k) & 1u ? s * t.mul[k][i] : s;
    }
  };
  column_walk<K>(h, r, seg, row, [&](int y, const float (&sum)[K]) {
#pragma unroll
    for (int k = 0; k < K; ++k) out.p[k][so + static_cast<std::size_t>(y) * w + x] = sum[k];
  });
}

// Step 1's column pass over the slices of p: the K terms p, p I_1, .., p I_{K-1} (guide planes
// g[0 .. K-2]), p loaded once a pixel; with range planes (lo, hi) p is min-max normalised on
// the fly (lfr::normalized's formula with a fast division, within 2 ulp of it: each value is
// normalised twice, entering and leaving the window, and the IEEE division made the pass 1.5x
// slower than reading a normalised volume; H100, ncu), so the normalised volume is never
// written and read back.
template <int K>
struct SliceTerms {
  const float* p;
  const float* lo;  // may be null: p as it is
  const float* hi;
  const float* g[K - 1];
};
template <int K>
__global__ void guided_col_slice_kernel(SliceTerms<K> t, int w, int h, int r, int seg, Planes<K> out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= w || static_cast<int>(blockIdx.z) * seg >= h) return;
  const std::size_t so = static_cast<std::size_t>(blockIdx.y) * static_cast<std::size_t>(w) * h;
  auto row = [&](int y, float (&v)[K]) {
    const std::size_t i = static_cast<std::size_t>(y) * w + x;
    float s = t.p[so + i];
    if (t.lo) {
      const float mn = t.lo[i], mx = t.hi[i];
      s = mx > mn ? __fdividef(s - mn, mx - mn) : 0.0f;
    }
    v[0] = s;
#pragma unroll
    for (int k = 1; k < K; ++k) v[k] = s * t.g[k - 1][i];
  };
  column_walk<K>(h, r, seg, row, [&](int y, const float (&sum)[K]) {
#pragma unroll
    for (int k = 0; k < K; ++k) out.p[k][so + static_cast<std::size_t>(y) * w + x] = sum[k];
  });
}

// Step 2's column pass: the vertical window sums of the K row sums (guided_row_coef_kernel's out)
// complete each pixel's 2D window; their means go to op(m, v, g) (v the pixel's index in the
// volume, g in a guide plane), which writes the output.
template <int K, class Op>
__global__ void guided_col_out_kernel(Planes<K> rows, int w, int h, int r, int seg, Op op) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= w || static_cast<int>(blockIdx.z) * seg >= h) return;
  const std::size_t so = static_cast<std::size_t>(blockIdx.y) * static_cast<std::size_t>(w) * h;
  auto row = [&](int y, float (&v)[K]) {
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = rows.p[k][so + static_cast<std::size_t>(y) * w + x];
  };
  column_walk<K>(h, r, seg, row, [&](int y, const float (&sum)[K]) {
    const float inv = 1.0f / count(x, y, w, h, r);
    float m[K];
#pragma unroll
    for (int k = 0; k < K; ++k) m[k] = sum[k] * inv;
    op(m, so + static_cast<std::size_t>(y) * w + x, static_cast<std::size_t>(y) * w + x);
  });
}

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

// The inclusive prefix sums of the K rows src(k, x) (x < w) into pre[k * w .. k * w + w - 1]
// (shared; pre may be where src reads: each thread reads its values before it writes them).
// Each thread adds kRowItems consecutive values itself, then the block scans the threads'
// totals: one block scan per kRowThreads * kRowItems values (the row kernels were
// compute-bound on the scans' shuffles and barriers: SM 66-70 %, DRAM 56 %, ncu on H100). A
// thread's values add to the previous thread's inclusive total (its exclusive prefix, from a
// shuffle, not a subtraction). warp_tot: K * kRowWarps floats, last: K floats (shared).
constexpr int kRowItems = 2;
template <int K, class Src>
__device__ void row_prefix(const Src& src, int w, float* pre, float* warp_tot, float* last) {
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
        const float c = xb + i < w ? src(k, xb + i) : 0.0f;
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

// Row y's K horizontal window sums at x: from the rows themselves (RD >= 0, the radius as a
// template argument: the 2 RD + 1 taps in order, unrolled, clipped ones skipped; no
// cancellation of large prefixes) or from their prefix sums (RD < 0: any radius r).
template <int K, int RD>
__device__ __forceinline__ void row_windows(const float* rows, int x, int w, int r, float (&s)[K]) {
  if constexpr (RD >= 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const float* row = rows + static_cast<std::size_t>(k) * w;
      float v = 0.0f;
#pragma unroll
      for (int d = -RD; d <= RD; ++d)
        if (x + d >= 0 && x + d < w) v += row[x + d];
      s[k] = v;
    }
  } else {
#pragma unroll
    for (int k = 0; k < K; ++k) s[k] = window(rows + static_cast<std::size_t>(k) * w, x, w, r);
  }
}

// Row y's K rows of a volume (col.p[k] + ro) into shared memory as they are (RD >= 0) or as
// prefix sums: what row_windows<K, RD> reads.
template <int K, int RD>
__device__ __forceinline__ void stage_row(const Planes<K>& col, std::size_t ro, int w, float* sm, float* warp_tot,
                                          float* last) {
  if constexpr (RD >= 0) {
    for (int x = static_cast<int>(threadIdx.x); x < w; x += kRowThreads)
#pragma unroll
      for (int k = 0; k < K; ++k) sm[static_cast<std::size_t>(k) * w + x] = col.p[k][ro + x];
    __syncthreads();
  } else {
    row_prefix<K>([&](int k, int x) { return col.p[k][ro + x]; }, w, sm, warp_tot, last);
  }
}

// The row kernels' radius argument: r itself up to kRowDirectRadius (windows summed directly),
// else -1 (prefix sums).
inline int row_radius_arg(int r) { return r <= kRowDirectRadius ? r : -1; }

// Per row and slice: the K window means of the pixels of row y from the K column sums, each
// pixel's means handed to op(m, v, g): v its index in the volume, g in a guide plane. The K
// rows take K * w floats of dynamic shared memory. Means: sums times the reciprocal of the
// window's pixel count (one division a pixel, not K).
template <int K, int RD, class Op>
__global__ void __launch_bounds__(kRowThreads) guided_row_kernel(Planes<K> col, int w, int h, int r, Op op) {
  extern __shared__ float sm[];
  __shared__ float warp_tot[K * kRowWarps];
  __shared__ float last[K];
  const int y = static_cast<int>(blockIdx.x);
  const std::size_t ro = static_cast<std::size_t>(blockIdx.y) * w * h + static_cast<std::size_t>(y) * w;
  stage_row<K, RD>(col, ro, w, sm, warp_tot, last);
  for (int x = static_cast<int>(threadIdx.x); x < w; x += kRowThreads) {
    const float inv = 1.0f / count(x, y, w, h, r);
    float m[K];
    row_windows<K, RD>(sm, x, w, r, m);
#pragma unroll
    for (int k = 0; k < K; ++k) m[k] *= inv;
    op(m, ro + x, static_cast<std::size_t>(y) * w + x);
  }
}

// Step 1's row pass and step 2's in one block per row and slice: the K window means of row y
// from the column sums -> op(m, g, c), the pixel's K coefficients (a, b), kept in shared memory
// -> their horizontal window sums, written to out (unnormalised: guided_col_out_kernel's vertical
// sums finish the box and divide by its count). The coefficients never go through memory
// before their row pass. 2 K w floats of dynamic shared memory.
template <int K, int RD, class CoefOp>
__global__ void __launch_bounds__(kRowThreads)
    guided_row_coef_kernel(Planes<K> col, int w, int h, int r, CoefOp op, Planes<K> out) {
  extern __shared__ float sm[];
  __shared__ float warp_tot[K * kRowWarps];
  __shared__ float last[K];
  float* coef = sm + static_cast<std::size_t>(K) * w;
  const int y = static_cast<int>(blockIdx.x);
  const std::size_t ro = static_cast<std::size_t>(blockIdx.y) * w * h + static_cast<std::size_t>(y) * w;
  stage_row<K, RD>(col, ro, w, sm, warp_tot, last);
  for (int x = static_cast<int>(threadIdx.x); x < w; x += kRowThreads) {
    const float inv = 1.0f / count(x, y, w, h, r);
    float m[K], c[K];
    row_windows<K, RD>(sm, x, w, r, m);
#pragma unroll
    for (int k = 0; k < K; ++k) m[k] *= inv;
    op(m, static_cast<std::size_t>(y) * w + x, c);
#pragma unroll
    for (int k = 0; k < K; ++k) coef[static_cast<std::size_t>(k) * w + x] = c[k];
  }
  __syncthreads();
  if constexpr (RD < 0)  // in place: each thread reads its values before writing them
    row_prefix<K>([&](int k, int x) { return coef[static_cast<std::size_t>(k) * w + x]; }, w, coef, warp_tot, last);
  for (int x = static_cast<int>(threadIdx.x); x < w; x += kRowThreads) {
    float s[K];
    row_windows<K, RD>(coef, x, w, r, s);
#pragma unroll
    for (int k = 0; k < K; ++k) out.p[k][ro + x] = s[k];
  }
}

}  // namespace lb::cuda::detail::box
