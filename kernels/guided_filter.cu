// Guided filter (He, Sun & Tang) on every slice of a volume, guided by one gray plane, on
// CUDA (issue 12's cost-volume filtering). Box means over clipped windows (N = the pixels of
// the window inside the image), each O(1) per pixel whatever the radius:
//   vertical   one thread per column and slice walks down the rows with a running sum
//              (coalesced across the columns);
//   horizontal one block per row and slice: an inclusive scan of the row in shared memory,
//              then each pixel's window is the difference of two prefix sums.
// Steps per slice p (guide I, its box means mean_I and var_I computed once):
//   mean_p, mean_Ip -> a = (mean_Ip - mean_I mean_p) / (var_I + eps), b = mean_p - a mean_I
//   mean_a, mean_b  -> q = mean_a I + mean_b
// Float throughout; the CPU reference (lf_refine_cpu.cpp) computes in double, the tests
// bound the difference.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "guided_filter.hpp"

namespace lb::cuda::detail {

namespace {

constexpr int kRowThreads = 256;

// Vertical window sums of `planes` inputs (each slices x h x w, slice stride w * h), written
// to `out` (same layout, one output per input). Thread (x, slice).
template <int NIN>
__global__ void col_sum_kernel(const float* __restrict__ in0, const float* __restrict__ in1,
                               const float* __restrict__ guide, int w, int h, int r, float* __restrict__ out0,
                               float* __restrict__ out1) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (x >= w) return;
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const std::size_t so = static_cast<std::size_t>(blockIdx.y) * plane;
  // NIN == 2 with guide: the second input is in0 * guide (the I * p product of the filter).
  auto v0 = [&](int y) { return in0[so + static_cast<std::size_t>(y) * w + x]; };
  auto v1 = [&](int y) {
    const std::size_t i = static_cast<std::size_t>(y) * w + x;
    return guide ? in0[so + i] * guide[i] : in1[so + i];
  };
  float s0 = 0.0f, s1 = 0.0f;
  for (int y = 0; y <= r && y < h; ++y) {
    s0 += v0(y);
    if (NIN == 2) s1 += v1(y);
  }
  for (int y = 0; y < h; ++y) {
    out0[so + static_cast<std::size_t>(y) * w + x] = s0;
    if (NIN == 2) out1[so + static_cast<std::size_t>(y) * w + x] = s1;
    if (y + r + 1 < h) {
      s0 += v0(y + r + 1);
      if (NIN == 2) s1 += v1(y + r + 1);
    }
    if (y - r >= 0) {
      s0 -= v0(y - r);
      if (NIN == 2) s1 -= v1(y - r);
    }
  }
}

// Block-wide inclusive scan of one value per thread (kRowThreads threads).
__device__ float block_scan(float v, float* warp_tot) {
  const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const float t = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += t;
  }
  if (lane == 31) warp_tot[wid] = v;
  __syncthreads();
  if (wid == 0) {
    float t = lane < kRowThreads / 32 ? warp_tot[lane] : 0.0f;
#pragma unroll
    for (int o = 1; o < kRowThreads / 32; o <<= 1) {
      const float u = __shfl_up_sync(0xffffffffu, t, o);
      if (lane >= o) t += u;
    }
    if (lane < kRowThreads / 32) warp_tot[lane] = t;
  }
  __syncthreads();
  if (wid > 0) v += warp_tot[wid - 1];
  __syncthreads();  // warp_tot is reused by the next chunk
  return v;
}

// The inclusive prefix sums of row y of slice blockIdx.y of `in` into pre[0 .. w-1] (shared).
__device__ void row_prefix(const float* __restrict__ in, int w, float* pre, float* warp_tot) {
  float carry = 0.0f;
  for (int x0 = 0; x0 < w; x0 += kRowThreads) {
    const int x = x0 + static_cast<int>(threadIdx.x);
    const float v = x < w ? in[x] : 0.0f;
    const float s = block_scan(v, warp_tot) + carry;
    if (x < w) pre[x] = s;
    __shared__ float last;  // the chunk's total (with the carry): the next chunk's carry
    if (threadIdx.x == kRowThreads - 1) last = s;
    __syncthreads();
    carry = last;
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

// Step 1 per row: the means of p and I p from their column sums, then a and b.
__global__ void __launch_bounds__(kRowThreads) coef_kernel(const float* __restrict__ col_p,
                                                           const float* __restrict__ col_ip,
                                                           const float* __restrict__ mean_i,
                                                           const float* __restrict__ var_i, int w, int h, int r,
                                                           float eps, float* __restrict__ a, float* __restrict__ b) {
  extern __shared__ float sm[];
  __shared__ float warp_tot[kRowThreads / 32];
  float* pp = sm;
  float* pip = sm + w;
  const int y = static_cast<int>(blockIdx.x);
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const std::size_t ro = static_cast<std::size_t>(blockIdx.y) * plane + static_cast<std::size_t>(y) * w;
  row_prefix(col_p + ro, w, pp, warp_tot);
  row_prefix(col_ip + ro, w, pip, warp_tot);
  __syncthreads();
  for (int x = static_cast<int>(threadIdx.x); x < w; x += kRowThreads) {
    const float n = count(x, y, w, h, r);
    const float mp = window(pp, x, w, r) / n, mip = window(pip, x, w, r) / n;
    const std::size_t gi = static_cast<std::size_t>(y) * w + x;
    const float mi = mean_i[gi];
    const float av = (mip - mi * mp) / (var_i[gi] + eps);
    a[ro + x] = av;
    b[ro + x] = mp - av * mi;
  }
}

// Step 2 per row: q = mean_a I + mean_b from the column sums of a and b.
__global__ void __launch_bounds__(kRowThreads) output_kernel(const float* __restrict__ col_a,
                                                             const float* __restrict__ col_b,
                                                             const float* __restrict__ guide, int w, int h, int r,
                                                             float* __restrict__ q) {
  extern __shared__ float sm[];
  __shared__ float warp_tot[kRowThreads / 32];
  float* pa = sm;
  float* pb = sm + w;
  const int y = static_cast<int>(blockIdx.x);
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const std::size_t ro = static_cast<std::size_t>(blockIdx.y) * plane + static_cast<std::size_t>(y) * w;
  row_prefix(col_a + ro, w, pa, warp_tot);
  row_prefix(col_b + ro, w, pb, warp_tot);
  __syncthreads();
  for (int x = static_cast<int>(threadIdx.x); x < w; x += kRowThreads) {
    const float n = count(x, y, w, h, r);
    q[ro + x] = window(pa, x, w, r) / n * guide[static_cast<std::size_t>(y) * w + x] + window(pb, x, w, r) / n;
  }
}

// The guide's statistics: mean_I and var_I = mean_II - mean_I^2 (one slice).
__global__ void __launch_bounds__(kRowThreads) guide_stats_kernel(const float* __restrict__ col_i,
                                                                  const float* __restrict__ col_ii, int w, int h,
                                                                  int r, float* __restrict__ mean_i,
                                                                  float* __restrict__ var_i) {
  extern __shared__ float sm[];
  __shared__ float warp_tot[kRowThreads / 32];
  float* pi = sm;
  float* pii = sm + w;
  const int y = static_cast<int>(blockIdx.x);
  const std::size_t ro = static_cast<std::size_t>(y) * w;
  row_prefix(col_i + ro, w, pi, warp_tot);
  row_prefix(col_ii + ro, w, pii, warp_tot);
  __syncthreads();
  for (int x = static_cast<int>(threadIdx.x); x < w; x += kRowThreads) {
    const float n = count(x, y, w, h, r);
    const float m = window(pi, x, w, r) / n;
    mean_i[ro + x] = m;
    var_i[ro + x] = window(pii, x, w, r) / n - m * m;
  }
}

unsigned cols(int w) { return static_cast<unsigned>((w + 127) / 128); }

}  // namespace

std::size_t guided_filter_scratch_bytes(int w, int h, int slices) {
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  return (4 * plane * static_cast<std::size_t>(slices) + 2 * plane) * sizeof(float);
}

void launch_guided_filter(const float* guide, int w, int h, const float* in, int slices, int r, float eps, float* out,
                          float* scratch, cudaStream_t s) {
  LB_REQUIRE(w > 0 && h > 0 && slices > 0 && r >= 0, "guided filter: empty volume or negative radius");
  LB_REQUIRE(h <= 2147483647 && slices <= 65535, "guided filter: too many slices");
  const std::size_t plane = static_cast<std::size_t>(w) * h, vol = plane * static_cast<std::size_t>(slices);
  const std::size_t smem = 2 * static_cast<std::size_t>(w) * sizeof(float);
  LB_REQUIRE(smem <= 96 * 1024, "guided filter: rows wider than 12288 pixels are not supported");
  float* c0 = scratch;          // column sums (p / a), vol
  float* c1 = c0 + vol;         // column sums (I p / b), vol
  float* a = c1 + vol;          // a, vol
  float* b = a + vol;           // b, vol
  float* mean_i = b + vol;      // plane
  float* var_i = mean_i + plane;  // plane
  for (auto* k : {reinterpret_cast<const void*>(coef_kernel), reinterpret_cast<const void*>(output_kernel),
                  reinterpret_cast<const void*>(guide_stats_kernel)})
    CUDA_CHECK_THROW(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  // Guide statistics (c0 / c1 of slice 0 as scratch).
  col_sum_kernel<2><<<dim3(cols(w), 1), 128, 0, s>>>(guide, nullptr, guide, w, h, r, c0, c1);
  CUDA_CHECK_LAUNCH();
  guide_stats_kernel<<<dim3(static_cast<unsigned>(h), 1), kRowThreads, smem, s>>>(c0, c1, w, h, r, mean_i, var_i);
  CUDA_CHECK_LAUNCH();
  const dim3 cg(cols(w), static_cast<unsigned>(slices)), rg(static_cast<unsigned>(h), static_cast<unsigned>(slices));
  col_sum_kernel<2><<<cg, 128, 0, s>>>(in, nullptr, guide, w, h, r, c0, c1);
  CUDA_CHECK_LAUNCH();
  coef_kernel<<<rg, kRowThreads, smem, s>>>(c0, c1, mean_i, var_i, w, h, r, eps, a, b);
  CUDA_CHECK_LAUNCH();
  col_sum_kernel<2><<<cg, 128, 0, s>>>(a, b, nullptr, w, h, r, c0, c1);
  CUDA_CHECK_LAUNCH();
  output_kernel<<<rg, kRowThreads, smem, s>>>(c0, c1, guide, w, h, r, out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
