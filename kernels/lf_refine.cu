// Light-field depth refinement on CUDA (issue 12): per-pixel min-max normalisation of the
// CAE cost volume, the guided filter on every label slice (guided_filter.cu), winner takes
// all with the parabola's sub-pixel offset, and a confidence. The per-pixel arithmetic is
// lb::lfr's (lightbench/lf_refine_math.hpp), shared with the CPU reference.
#include <cuda_runtime.h>

#include "cuda_check.cuh"
#include "lf_refine_launch.hpp"
#include "lightbench/lf_refine_math.hpp"

namespace lb::cuda::detail {

namespace {

// One thread per pixel; the volume is [label][pixel], so each label's loads coalesce.
__global__ void normalize_kernel(float* __restrict__ cost, long long npx, int labels) {
  const long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= npx) return;
  float mn = cost[p], mx = cost[p];
  for (int a = 1; a < labels; ++a) {
    const float c = cost[a * npx + p];
    mn = fminf(mn, c);
    mx = fmaxf(mx, c);
  }
  for (int a = 0; a < labels; ++a) cost[a * npx + p] = lfr::normalized(cost[a * npx + p], mn, mx);
}

// The winner's integer-label disparity into label_disp (may be null), with the parabola's
// offset when subpixel into disp, and the confidence (may be null): one pass over the volume.
__global__ void wta_kernel(const float* __restrict__ cost, long long npx, int labels, float dmin, float dmax,
                           bool subpixel, float* __restrict__ label_disp, float* __restrict__ disp,
                           float* __restrict__ conf) {
  const long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= npx) return;
  int best = 0;
  float bc = cost[p];
  for (int a = 1; a < labels; ++a) {
    const float c = cost[a * npx + p];
    if (c < bc) bc = c, best = a;  // the first minimum
  }
  float off = 0.0f;
  if (subpixel && best > 0 && best < labels - 1)
    off = lfr::parabola_offset(cost[(best - 1) * npx + p], bc, cost[(best + 1) * npx + p]);
  if (label_disp) label_disp[p] = lfr::label_to_disparity(dmin, dmax, labels, static_cast<float>(best));
  disp[p] = lfr::label_to_disparity(dmin, dmax, labels, static_cast<float>(best) + off);
  if (conf) {
    float second = INFINITY;
    for (int a = 0; a < labels; ++a)
      if (a < best - 1 || a > best + 1) second = fminf(second, cost[a * npx + p]);
    conf[p] = lfr::confidence(bc, second);
  }
}

// The guide: the centre view's gray in [0, 1] (lfr::guide_gray of RGBA8).
__global__ void guide_kernel(const uchar4* __restrict__ rgba, long long n, float* __restrict__ guide) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uchar4 c = rgba[i];
  guide[i] = lfr::guide_gray(c.x, c.y, c.z);
}

// One pass of the guided, confidence-weighted median (weighted_median_cpu): the smallest
// window value v whose weight of values <= v reaches half the window's weight. O(n^2) per
// pixel over the (2m+1)^2 window; the sums are float here, double on the CPU (a value at a
// tie of the half-weight may differ: the tests bound the share of such pixels).
__global__ void median_kernel(const float* __restrict__ disp, const float* __restrict__ conf,
                              const float* __restrict__ guide, int w, int h, int m, float sigma,
                              float* __restrict__ out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
  if (x >= w) return;
  const int x0 = max(0, x - m), x1 = min(w - 1, x + m), y0 = max(0, y - m), y1 = min(h - 1, y + m);
  const float gi = guide[static_cast<std::size_t>(y) * w + x];
  auto weight = [&](std::size_t j) { return lfr::median_weight(gi, guide[j], sigma) * fmaxf(conf[j], 1e-3f); };
  float total = 0.0f;
  for (int yy = y0; yy <= y1; ++yy)
    for (int xx = x0; xx <= x1; ++xx) total += weight(static_cast<std::size_t>(yy) * w + xx);
  float best = INFINITY;
  for (int yy = y0; yy <= y1; ++yy)
    for (int xx = x0; xx <= x1; ++xx) {
      const float v = disp[static_cast<std::size_t>(yy) * w + xx];
      if (v >= best) continue;  // only a smaller candidate can win
      float below = 0.0f;
      for (int y2 = y0; y2 <= y1; ++y2)
        for (int x2 = x0; x2 <= x1; ++x2) {
          const std::size_t j = static_cast<std::size_t>(y2) * w + x2;
          if (disp[j] <= v) below += weight(j);
        }
      if (below >= 0.5f * total) best = v;
    }
  out[static_cast<std::size_t>(y) * w + x] = best;
}

unsigned blocks(long long n) { return static_cast<unsigned>((n + 255) / 256); }

}  // namespace

void launch_lf_normalize(float* cost, long long npx, int labels, cudaStream_t s) {
  normalize_kernel<<<blocks(npx), 256, 0, s>>>(cost, npx, labels);
  CUDA_CHECK_LAUNCH();
}

void launch_lf_wta(const float* cost, long long npx, int labels, float dmin, float dmax, bool subpixel,
                   float* label_disp, float* disp, float* conf, cudaStream_t s) {
  wta_kernel<<<blocks(npx), 256, 0, s>>>(cost, npx, labels, dmin, dmax, subpixel, label_disp, disp, conf);
  CUDA_CHECK_LAUNCH();
}

void launch_lf_median(const float* disp, const float* conf, const float* guide, int w, int h, int m, float sigma,
                      float* out, cudaStream_t s) {
  median_kernel<<<dim3(static_cast<unsigned>((w + 127) / 128), static_cast<unsigned>(h)), 128, 0, s>>>(
      disp, conf, guide, w, h, m, sigma, out);
  CUDA_CHECK_LAUNCH();
}

void launch_lf_guide(const void* rgba, long long n, float* guide, cudaStream_t s) {
  guide_kernel<<<blocks(n), 256, 0, s>>>(static_cast<const uchar4*>(rgba), n, guide);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
