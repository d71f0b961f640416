// The defocus cue's box mean on CUDA (issue 12's refinement, lf_refine.cu's first step after
// the raw volume), and with it, for the confidence fusion, both cues' per-pixel ranges: the
// normalisation then happens as the guided filter reads its input (guided_filter.hpp's
// in_lo / in_hi), so the normalised volumes are never written (issue 23: 0.2 ms of the
// refinement's 12).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "cuda_check.cuh"
#include "lightfield/lf_refine_launch.hpp"

namespace lb::cuda::detail {

namespace {

// One pass of a clipped box window along x (horizontal) or y, O(r) per pixel; the vertical
// pass divides by the window's pixel count (the mean). [slice][y][x], thread (x, y, slice).
__global__ void lf_box_pass_kernel(const float* __restrict__ in, int w, int h, int r, bool horizontal,
                                   float* __restrict__ out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y);
  if (x >= w) return;
  const std::size_t base = static_cast<std::size_t>(blockIdx.z) * w * h;
  float s = 0.0f;
  if (horizontal) {
    for (int xx = max(0, x - r); xx <= min(w - 1, x + r); ++xx) s += in[base + static_cast<std::size_t>(y) * w + xx];
  } else {
    const int y0 = max(0, y - r), y1 = min(h - 1, y + r);
    for (int yy = y0; yy <= y1; ++yy) s += in[base + static_cast<std::size_t>(yy) * w + x];
    s /= static_cast<float>((min(w - 1, x + r) - max(0, x - r) + 1) * (y1 - y0 + 1));
  }
  out[base + static_cast<std::size_t>(y) * w + x] = s;
}

// Both box passes in one (small radii): the same sums in the same order as lf_box_pass_kernel's
// horizontal then vertical pass (each row's window summed left to right, the rows top to
// bottom, then the division), so the same bits, without the intermediate volume.
constexpr int kBox2dMaxRadius = 2;  // (2r + 1)^2 <= 25 cached reads a pixel
__global__ void lf_box_2d_kernel(const float* __restrict__ in, int w, int h, int r, float* __restrict__ out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y);
  if (x >= w) return;
  const std::size_t base = static_cast<std::size_t>(blockIdx.z) * w * h;
  const int x0 = max(0, x - r), x1 = min(w - 1, x + r), y0 = max(0, y - r), y1 = min(h - 1, y + r);
  float s = 0.0f;
  for (int yy = y0; yy <= y1; ++yy) {
    float row = 0.0f;
    for (int xx = x0; xx <= x1; ++xx) row += __ldg(in + base + static_cast<std::size_t>(yy) * w + xx);
    s += row;
  }
  out[base + static_cast<std::size_t>(y) * w + x] = s / static_cast<float>((x1 - x0 + 1) * (y1 - y0 + 1));
}

// lf_box_2d_kernel's mean at every label of one pixel, and the ranges (lfr::curve_range's loop) of
// the boxed curve and of the CAE cost's curve: thread (x, y) walks the labels. The radius is a
// template argument, so a label's (2R + 1)^2 cached reads are unrolled and several labels' are
// in flight; the window's clipped taps are skipped, so the sums are lf_box_2d_kernel's (each row
// left to right from 0, the rows top to bottom, then the division): the same bits.
template <int R>
__global__ void lf_box_range_kernel(const float* __restrict__ raw, const float* __restrict__ cost, int w, int h,
                                    int labels, float* __restrict__ out, float* __restrict__ cost_lo,
                                    float* __restrict__ cost_hi, float* __restrict__ def_lo,
                                    float* __restrict__ def_hi) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y);
  if (x >= w) return;
  const std::size_t npx = static_cast<std::size_t>(w) * h, p = static_cast<std::size_t>(y) * w + x;
  const int x0 = max(0, x - R), x1 = min(w - 1, x + R), y0 = max(0, y - R), y1 = min(h - 1, y + R);
  const float n = static_cast<float>((x1 - x0 + 1) * (y1 - y0 + 1));
  float dn = 0.0f, dx = 0.0f, cn = 0.0f, cx = 0.0f;
#pragma unroll 4
  for (int a = 0; a < labels; ++a) {
    const float* in = raw + a * npx;
    float s = 0.0f;
#pragma unroll
    for (int dy = -R; dy <= R; ++dy) {
      const int yy = y + dy;
      if (yy < 0 || yy >= h) continue;
      float row = 0.0f;
#pragma unroll
      for (int ddx = -R; ddx <= R; ++ddx) {
        const int xx = x + ddx;
        if (xx >= 0 && xx < w) row += __ldg(in + static_cast<std::size_t>(yy) * w + xx);
      }
      s += row;
    }
    const float d = s / n, c = __ldg(cost + a * npx + p);
    out[a * npx + p] = d;
    if (a == 0) {
      dn = dx = d;
      cn = cx = c;
    } else {
      dn = d < dn ? d : dn;
      dx = d > dx ? d : dx;
      cn = c < cn ? c : cn;
      cx = c > cx ? c : cx;
    }
  }
  cost_lo[p] = cn, cost_hi[p] = cx, def_lo[p] = dn, def_hi[p] = dx;
}

}  // namespace

float* lf_defocus_raw_target(int radius, float* out, float* tmp) {
  return radius > 0 && radius <= kBox2dMaxRadius ? tmp : out;
}

int lf_defocus_box_volumes(int radius) { return radius == 0 ? 0 : radius <= kBox2dMaxRadius ? 2 : 4; }

void launch_lf_defocus_box(int w, int h, int labels, int radius, float* out, float* tmp, cudaStream_t s) {
  if (radius == 0) return;  // the raw term itself (as the CPU)
  LB_REQUIRE(labels <= 65535 && h <= 65535, "defocus cost: more than 65535 labels or rows");
  const dim3 bg(static_cast<unsigned>((w + 127) / 128), static_cast<unsigned>(h), static_cast<unsigned>(labels));
  if (radius <= kBox2dMaxRadius) {  // the raw volume is in tmp (lf_defocus_raw_target)
    lf_box_2d_kernel<<<bg, 128, 0, s>>>(tmp, w, h, radius, out);
    CUDA_CHECK_LAUNCH();
    return;
  }
  lf_box_pass_kernel<<<bg, 128, 0, s>>>(out, w, h, radius, true, tmp);
  CUDA_CHECK_LAUNCH();
  lf_box_pass_kernel<<<bg, 128, 0, s>>>(tmp, w, h, radius, false, out);
  CUDA_CHECK_LAUNCH();
}

bool lf_box_ranges_apply(int radius) { return radius > 0 && radius <= kBox2dMaxRadius; }

void launch_lf_box_ranges(const float* raw, const float* cost, int w, int h, int labels, int radius, float* out,
                          float* ranges, cudaStream_t s) {
  LB_REQUIRE(lf_box_ranges_apply(radius), "defocus box: the ranges pass takes radii 1 and 2");
  LB_REQUIRE(h <= 65535, "defocus cost: more than 65535 rows");
  const std::size_t npx = static_cast<std::size_t>(w) * h;
  const dim3 grid(static_cast<unsigned>((w + 127) / 128), static_cast<unsigned>(h));
  if (radius == 1)
    lf_box_range_kernel<1>
        <<<grid, 128, 0, s>>>(raw, cost, w, h, labels, out, ranges, ranges + npx, ranges + 2 * npx, ranges + 3 * npx);
  else
    lf_box_range_kernel<2>
        <<<grid, 128, 0, s>>>(raw, cost, w, h, labels, out, ranges, ranges + npx, ranges + 2 * npx, ranges + 3 * npx);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
