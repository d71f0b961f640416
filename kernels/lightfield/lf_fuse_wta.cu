// The light-field refinement's last steps around the semi-global paths, staged in shared
// memory (issue 23): the confidence fusion straight into the paths' pixel-major input, and the
// winner takes all over the paths' sum. Both read their volumes once, coalesced, and keep each
// pixel's curve on chip; the per-pixel arithmetic is lb::lfr's on the same values as the
// unstaged kernels in lf_refine.cu (lf_fuse_kernel, the weight and transposition passes,
// lf_sgm_sum_kernel, lf_refine_wta_kernel), so the bits are theirs (tests/lightfield/test_lf_refine_gpu.cpp).
#include <cuda_runtime.h>

#include "cuda_check.cuh"
#include "lightfield/lf_refine_launch.hpp"
#include "lightfield/lf_wta.cuh"
#include "lightfield/lf_refine_math.hpp"

namespace lb::cuda::detail {

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kStageBytes = 48 * 1024;  // the default shared memory a block may take

// Of two labels' costs, the smaller, ties to the lower label: with each lane's own strict
// comparisons in label order, the first minimum that lfr::curve_stats's loop finds.
__device__ __forceinline__ void take_lower(float& v, int& i, float ov, int oi) {
  if (ov < v || (ov == v && oi < i)) v = ov, i = oi;
}
__device__ __forceinline__ void take_higher(float& v, int& i, float ov, int oi) {
  if (ov > v || (ov == v && oi < i)) v = ov, i = oi;
}

// lfr::curve_stats of a staged curve by the G consecutive lanes of a group (lane j: labels j,
// j + G, ...), exchanged by shuffles; every lane ends with the whole curve's values, the same
// labels and so the same bits as the sequential loop. First the minimum (first label) and the
// maximum, then the smallest cost more than `gap` labels from the winner (INFINITY if none).
template <int G>
__device__ void group_range(const float* curve, int labels, int j, float& mn, int& best, float& mx) {
  mn = INFINITY, mx = -INFINITY, best = labels;
  int at_mx = labels;
  for (int a = j; a < labels; a += G) {
    const float c = curve[a];
    if (c < mn) mn = c, best = a;
    if (c > mx) mx = c, at_mx = a;
  }
#pragma unroll
  for (int o = G / 2; o > 0; o >>= 1) {
    const float omn = __shfl_xor_sync(kFull, mn, o), omx = __shfl_xor_sync(kFull, mx, o);
    const int ob = __shfl_xor_sync(kFull, best, o), om = __shfl_xor_sync(kFull, at_mx, o);
    take_lower(mn, best, omn, ob);
    take_higher(mx, at_mx, omx, om);
  }
}
template <int G>
__device__ float group_second(const float* curve, int labels, int j, int best, int gap) {
  float s = INFINITY;
  int at = labels;
  for (int a = j; a < labels; a += G)
    if (a < best - gap || a > best + gap) {
      const float c = curve[a];
      if (c < s) s = c, at = a;
    }
#pragma unroll
  for (int o = G / 2; o > 0; o >>= 1) take_lower(s, at, __shfl_xor_sync(kFull, s, o), __shfl_xor_sync(kFull, at, o));
  return s;
}

// The confidence fusion (lf_fuse_kernel's) of a block's P pixels into the semi-global step's
// pixel-major input. Loads: each label's P pixels of both volumes are one coalesced run,
// stored [pixel][label] at an odd stride (the pixels' curves in different banks). Arithmetic:
// G = 256 / P lanes a pixel (so every warp works; one thread a pixel left 3 of 4 idle and the
// kernel issue-bound on the per-pixel loops). Stores: the block's pixels' curves (times
// lfr::sgm_data_weight when weighted, as the transposition's __fmul_rn) are one contiguous run.
// conf: the WTA's confidence of the fused curve.
constexpr int kFuseThreads = 256;
template <int P>
__global__ void __launch_bounds__(kFuseThreads)
    lf_fuse_pixel_major_kernel(const float* __restrict__ cost, const float* __restrict__ defocus, float wdef,
                               long long npx, int labels, int stride, bool weighted, float* __restrict__ out,
                               float* __restrict__ conf) {
  constexpr int G = kFuseThreads / P;
  extern __shared__ float sm[];
  float* tc = sm;
  float* td = tc + P * stride;
  float* wt = td + P * stride;
  const long long p0 = static_cast<long long>(blockIdx.x) * P;
  const int np = static_cast<int>(min(static_cast<long long>(P), npx - p0));
  const int t = static_cast<int>(threadIdx.x);
#pragma unroll 4
  for (int i = t; i < labels * P; i += kFuseThreads) {
    const int a = i / P, q = i % P;
    if (q < np) {
      tc[q * stride + a] = cost[a * npx + p0 + q];
      td[q * stride + a] = defocus[a * npx + p0 + q];
    }
  }
  __syncthreads();
  // Whole warps take part in the shuffles: a group past the last pixel reads the last pixel's
  // defocus curve (never written again: no race with the blend) and writes nothing.
  const bool live = t / G < np;
  const int q = min(t / G, np - 1), j = t % G;
  float* c_ = tc + q * stride;
  const float* d_ = td + q * stride;
  const float* read_c = live ? c_ : d_;
  float cmn, cmx, dmn, dmx;
  int cb, db;
  group_range<G>(read_c, labels, j, cmn, cb, cmx);
  group_range<G>(d_, labels, j, dmn, db, dmx);
  const float cs = group_second<G>(read_c, labels, j, cb, lfr::kFusionGap);
  const float ds = group_second<G>(d_, labels, j, db, lfr::kFusionGap);
  const float wd = lfr::fusion_weight(lfr::fusion_confidence(cmn, cmx, cs), lfr::fusion_confidence(dmn, dmx, ds), wdef);
  if (live)
    for (int a = j; a < labels; a += G)
      c_[a] = lfr::blend(lfr::normalized(c_[a], cmn, cmx), lfr::normalized(d_[a], dmn, dmx), wd);
  __syncwarp();  // a group's lanes are one warp's
  float fmn, fmx;
  int fb;
  group_range<G>(read_c, labels, j, fmn, fb, fmx);
  const float f1 = group_second<G>(read_c, labels, j, fb, 1);
  const float f2 = weighted ? group_second<G>(read_c, labels, j, fb, lfr::kFusionGap) : 0.0f;
  if (j == 0 && live) {
    wt[q] = weighted ? lfr::fusion_confidence(fmn, fmx, f2) : 1.0f;  // lfr::sgm_data_weight
    conf[p0 + q] = lfr::confidence(fmn, f1);
  }
  __syncthreads();
  float* dst = out + p0 * labels;
#pragma unroll 4
  for (int i = t; i < np * labels; i += kFuseThreads) {
    const int k = i / labels, a = i - k * labels;
    const float v = tc[k * stride + a];
    dst[i] = weighted ? __fmul_rn(v, wt[k]) : v;
  }
}

// The winner takes all (lf_refine_wta_kernel's) over pixel-major curves that are the sum of
// LAYERS volumes (the semi-global paths, summed in lf_sgm_sum_kernel's order instead of through a
// volume of their own): a block's np pixels are np * labels consecutive floats of each volume,
// read as one coalesced run, summed and staged [pixel][label] at an odd stride; then one
// thread a pixel.
constexpr int kWtaThreads = 128;
template <int LAYERS>
__global__ void __launch_bounds__(kWtaThreads)
    lf_wta_tile_kernel(const float* __restrict__ paths, const float* __restrict__ conf_cost, long long npx, int labels,
                       int pixels, int stride, float dmin, float dmax, bool subpixel, bool wide,
                       float* __restrict__ label_disp, float* __restrict__ disp, float* __restrict__ conf) {
  extern __shared__ float tile[];
  const long long p0 = static_cast<long long>(blockIdx.x) * pixels;
  const int np = static_cast<int>(min(static_cast<long long>(pixels), npx - p0));
  const long long vol = npx * labels;
  const float* src = paths + p0 * labels;
#pragma unroll 4
  for (int i = static_cast<int>(threadIdx.x); i < np * labels; i += kWtaThreads) {
    float s = src[i];
#pragma unroll
    for (int k = 1; k < LAYERS; ++k) s = __fadd_rn(s, src[k * vol + i]);
    const int q = i / labels;
    tile[q * stride + (i - q * labels)] = s;
  }
  __syncthreads();
  if (static_cast<int>(threadIdx.x) >= np) return;
  const long long p = p0 + threadIdx.x;
  const float* curve = tile + threadIdx.x * stride;
  const auto at = [&](int a) { return curve[a]; };
  wta_pixel(at, conf_cost, npx, p, labels, dmin, dmax, subpixel, wide, label_disp, disp, conf);
}

std::size_t fuse_smem(int pixels, int stride) {
  return (2 * static_cast<std::size_t>(pixels) * stride + pixels) * sizeof(float);
}

}  // namespace

int lf_fuse_pixel_major_pixels(int labels) {
  for (int pixels = 128; pixels >= 32; pixels /= 2)
    if (fuse_smem(pixels, labels | 1) <= kStageBytes) return pixels;
  return 0;
}

void launch_lf_fuse_pixel_major(const float* cost, const float* defocus, float defocus_weight, long long npx,
                                int labels, bool weighted, float* out, float* conf, cudaStream_t s) {
  const int pixels = lf_fuse_pixel_major_pixels(labels);
  LB_REQUIRE(pixels > 0, "fuse: too many labels for the pixel-major fusion");
  if (npx <= 0) return;
  const int stride = labels | 1;
  const unsigned grid = static_cast<unsigned>((npx + pixels - 1) / pixels);
  const std::size_t smem = fuse_smem(pixels, stride);
  switch (pixels) {
    case 128:
      lf_fuse_pixel_major_kernel<128>
          <<<grid, kFuseThreads, smem, s>>>(cost, defocus, defocus_weight, npx, labels, stride, weighted, out, conf);
      break;
    case 64:
      lf_fuse_pixel_major_kernel<64>
          <<<grid, kFuseThreads, smem, s>>>(cost, defocus, defocus_weight, npx, labels, stride, weighted, out, conf);
      break;
    default:
      lf_fuse_pixel_major_kernel<32>
          <<<grid, kFuseThreads, smem, s>>>(cost, defocus, defocus_weight, npx, labels, stride, weighted, out, conf);
      break;
  }
  CUDA_CHECK_LAUNCH();
}

bool launch_lf_wta_staged(const float* cost, int layers, const float* conf_cost, long long npx, int labels, float dmin,
                          float dmax, bool subpixel, bool wide, float* label_disp, float* disp, float* conf,
                          cudaStream_t s) {
  const int stride = labels | 1;
  int pixels = kWtaThreads;
  while (pixels >= 32 && static_cast<std::size_t>(pixels) * stride * sizeof(float) > kStageBytes) pixels /= 2;
  if (pixels < 32 || (layers != 1 && layers != lfr::kSgmPaths)) return false;
  const unsigned grid = static_cast<unsigned>((npx + pixels - 1) / pixels);
  const std::size_t smem = static_cast<std::size_t>(pixels) * stride * sizeof(float);
  if (layers == 1)
    lf_wta_tile_kernel<1><<<grid, kWtaThreads, smem, s>>>(cost, conf_cost, npx, labels, pixels, stride, dmin, dmax,
                                                          subpixel, wide, label_disp, disp, conf);
  else
    lf_wta_tile_kernel<lfr::kSgmPaths><<<grid, kWtaThreads, smem, s>>>(
        cost, conf_cost, npx, labels, pixels, stride, dmin, dmax, subpixel, wide, label_disp, disp, conf);
  CUDA_CHECK_LAUNCH();
  return true;
}

}  // namespace lb::cuda::detail
