// Light-field depth refinement on CUDA (issue 12): the defocus cost volume, per-pixel min-max
// normalisation of the CAE cost volume (blended with the defocus cost, or fused with it after
// the filter by the curves' confidence), the guided filter on every label slice
// (guided_filter.cu), winner takes all with a sub-pixel
// offset, a confidence and the weighted median. The per-pixel arithmetic is
// lb::lfr's (lightfield/lf_refine_math.hpp), shared with the CPU reference.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda_check.cuh"
#include "lightfield/lf_refine_launch.hpp"
#include "lightfield/lf_wta.cuh"
#include "lightfield/cae_math.hpp"
#include "lightfield/lf_refine_math.hpp"
#include "lightfield/view_fetch.cuh"

namespace lb::cuda::detail {

namespace {

// Raw defocus cost (lfr::defocus_raw) of roi pixel (x, y) at label blockIdx.y: the same
// once-rounded float steps as the CPU, so the same bits. Thread (x, y) of a 32 x 8 tile:
// neighbouring threads read neighbouring texels of each view.
// Rows: ViewRows (the bytes) or ViewRowsF (the views in float): the same values, so the
// same bits; the centre pixel comes from the bytes either way.
template <class Rows>
__global__ void lf_defocus_raw_kernel(ViewRows bytes, Rows views, int lw, int lh, refocus::Aperture ap, float dmin,
                                      float dmax, int labels, int rx, int ry, int w, int h, float* __restrict__ out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.z * blockDim.y + threadIdx.y);
  if (x >= w || y >= h) return;
  const int a = static_cast<int>(blockIdx.y);
  const float d = cae::label_disparity(dmin, dmax, labels, a);
  const refocus::Rgb8 c = bytes.row(ap.uc, ap.vc, y + ry)[x + rx];
  out[(static_cast<std::size_t>(a) * h + y) * w + x] = lfr::defocus_raw(views, lw, lh, ap, d, x + rx, y + ry, c);
}

// View k of the aperture (row-major over u0..u1 x v0..v1) in float.
__global__ void lf_views_to_float_kernel(ViewRows bytes, refocus::Aperture ap, int h, float4* __restrict__ out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
  if (x >= bytes.width) return;
  const int k = static_cast<int>(blockIdx.z), nu_ap = ap.u1 - ap.u0 + 1;
  const uchar4 q = __ldg(bytes.row(ap.u0 + k % nu_ap, ap.v0 + k / nu_ap, y).p + x);
  out[(static_cast<std::size_t>(k) * h + y) * bytes.width + x] = make_float4(q.x, q.y, q.z, q.w);
}

// One thread per pixel; the volume is [label][pixel], so each label's loads coalesce. With
// a defocus volume and separate (confidence fusion) both are normalised in place, else
// with a defocus volume the normalised costs are blended (lfr::blend).
__global__ void lf_normalize_kernel(float* __restrict__ cost, float* __restrict__ defocus, float wdef, bool separate,
                                    long long npx, int labels) {
  const long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= npx) return;
  float mn, mx, dn, dx;
  lfr::curve_range([&](int a) { return cost[a * npx + p]; }, labels, mn, mx);
  if (!defocus || separate) {
    for (int a = 0; a < labels; ++a) cost[a * npx + p] = lfr::normalized(cost[a * npx + p], mn, mx);
    if (!defocus) return;
  }
  lfr::curve_range([&](int a) { return defocus[a * npx + p]; }, labels, dn, dx);
  if (separate) {
    for (int a = 0; a < labels; ++a) defocus[a * npx + p] = lfr::normalized(defocus[a * npx + p], dn, dx);
    return;
  }
  for (int a = 0; a < labels; ++a)
    cost[a * npx + p] =
        lfr::blend(lfr::normalized(cost[a * npx + p], mn, mx), lfr::normalized(defocus[a * npx + p], dn, dx), wdef);
}

// Confidence fusion (lf_refine.hpp's fuse step), one thread per pixel: the two filtered
// curves' statistics (lfr::curve_stats), the defocus share (lfr::fusion_weight) and the
// blend of the renormalised curves into cost.
__global__ void lf_fuse_kernel(float* __restrict__ cost, const float* __restrict__ defocus, float wdef, long long npx,
                               int labels) {
  const long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= npx) return;
  const lfr::CurveStats c = lfr::curve_stats([&](int a) { return cost[a * npx + p]; }, labels, lfr::kFusionGap);
  const lfr::CurveStats d = lfr::curve_stats([&](int a) { return defocus[a * npx + p]; }, labels, lfr::kFusionGap);
  const float wd = lfr::fusion_weight(lfr::fusion_confidence(c.min, c.max, c.second),
                                      lfr::fusion_confidence(d.min, d.max, d.second), wdef);
  for (int a = 0; a < labels; ++a)
    cost[a * npx + p] = lfr::blend(lfr::normalized(cost[a * npx + p], c.min, c.max),
                                   lfr::normalized(defocus[a * npx + p], d.min, d.max), wd);
}

// The winner's integer-label disparity into label_disp (may be null), with the sub-pixel
// offset (lfr::subpixel_offset: 5-point fit when wide, else the parabola) when subpixel
// into disp, and the confidence (may be null): one pass over the volume.
__global__ void lf_refine_wta_kernel(const float* __restrict__ cost, bool pixel_major, int layers,
                                     const float* __restrict__ conf_cost,
                           long long npx, int labels, float dmin, float dmax, bool subpixel, bool wide,
                           float* __restrict__ label_disp, float* __restrict__ disp, float* __restrict__ conf) {
  const long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= npx) return;
  const long long stride = pixel_major ? 1 : npx, base = pixel_major ? p * labels : p, vol = npx * labels;
  const auto at = [&](int a) {
    float s = cost[base + a * stride];
    for (int k = 1; k < layers; ++k) s = __fadd_rn(s, cost[k * vol + base + a * stride]);
    return s;
  };
  wta_pixel(at, conf_cost, npx, p, labels, dmin, dmax, subpixel, wide, label_disp, disp, conf);
}

// One pass of the guided, confidence-weighted median (weighted_median_cpu): the smallest
// window value v whose weight of values <= v reaches half the window's weight. O(n^2) per
// pixel over the (2m+1)^2 window; the sums are float here, double on the CPU (a value at a
// tie of the half-weight may differ: the tests bound the share of such pixels).
// guide: gc planes [c][y][x].
__global__ void lf_median_kernel(const float* __restrict__ disp, const float* __restrict__ conf,
                                 const float* __restrict__ guide, int gc, int w, int h, int m, float sigma,
                                 float* __restrict__ out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
  if (x >= w) return;
  const int x0 = max(0, x - m), x1 = min(w - 1, x + m), y0 = max(0, y - m), y1 = min(h - 1, y + m);
  const std::size_t plane = static_cast<std::size_t>(w) * h, i = static_cast<std::size_t>(y) * w + x;
  auto weight = [&](std::size_t j) {
    float d2 = 0.0f;
    for (int c = 0; c < gc; ++c) {
      const float d = __fsub_rn(guide[c * plane + i], guide[c * plane + j]);
      d2 = __fadd_rn(d2, __fmul_rn(d, d));  // the CPU's order and roundings (no FMA)
    }
    return lfr::median_weight(d2, sigma) * fmaxf(conf[j], 1e-3f);
  };
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

// Semi-global aggregation (lfr::sgm_step), one block per scanline of one path (blockIdx.y:
// 0 left to right, 1 right to left, 2 top to bottom, 3 bottom to top), each thread holding
// labels tid, tid + blockDim.x, ... (at most kSgmPerThread); the previous pixel's costs and
// minimum live in shared memory. The volumes here are pixel-major ([pixel][label]): a step
// reads and writes one pixel's curve, contiguous (label-major, each label of the step was a
// separate 32-byte sector). Each path writes its own volume (paths[k]), summed afterwards
// in the CPU's order, so the sum has the CPU's bits. Up to 128 labels lf_sgm_warp_path_kernel
// (below) runs instead; this one takes the larger counts.
constexpr int kSgmPerThread = 4;
template <int PER>  // labels per thread (1: labels <= blockDim.x)
__global__ void lf_sgm_path_kernel(const float* __restrict__ cost, const float* __restrict__ edge_x,
                                   const float* __restrict__ edge_y, int w, int h, int labels, float p1,
                                   float* __restrict__ paths) {
  extern __shared__ float sh[];  // prev[labels], then one minimum per warp
  float* prev = sh;
  float* warp_min = sh + labels;
  const int k = static_cast<int>(blockIdx.y), line = static_cast<int>(blockIdx.x);
  const bool along_x = k < 2, forward = k % 2 == 0;
  const int lines = along_x ? h : w, steps = along_x ? w : h;
  if (line >= lines) return;
  const std::size_t npx = static_cast<std::size_t>(w) * h;
  float* out = paths + static_cast<std::size_t>(k) * npx * labels;
  const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x), nwarps = (nt + 31) / 32;
  // Pixel of step s: first + s * stride (one multiply-add, not the path's case analysis).
  const long long stride = along_x ? (forward ? 1 : -1) : (forward ? w : -static_cast<long long>(w));
  const long long first = along_x ? static_cast<long long>(line) * w + (forward ? 0 : steps - 1)
                                  : static_cast<long long>(forward ? 0 : steps - 1) * w + line;
  auto pixel = [&](int s) { return static_cast<std::size_t>(first + s * stride); };
  // The next step's costs are loaded a step ahead: each step is a chain of block-wide minima
  // and barriers, and a load's latency would add to it.
  float c_next[PER];
  auto load = [&](std::size_t i) {
#pragma unroll
    for (int j = 0; j < PER; ++j) {
      const int a = tid + j * nt;
      c_next[j] = a < labels ? __ldg(cost + i * labels + a) : 0.0f;
    }
  };
  // The jump prices of the steps, per edge (lf_sgm_jump_kernel): the one between pixels s and
  // s + 1 of this line. Loaded a step ahead.
  const float* jumps = along_x ? edge_x : edge_y;
  auto edge_price = [&](int s) {  // the edge between steps s and s + 1 (s + 1 < steps)
    const int t = forward ? s : steps - 2 - s;  // the edge's first pixel along the line
    return __ldg(jumps + (along_x ? static_cast<std::size_t>(line) * w + t : static_cast<std::size_t>(t) * w + line));
  };
  float m = 0.0f;
  std::size_t i = pixel(0);
  load(i);
  float jump_next = steps > 1 ? edge_price(0) : 0.0f;
  float jump = 0.0f;  // the price of a jump into the current step (from the previous pixel)
  for (int s = 0; s < steps; ++s) {
    float cur[PER];
#pragma unroll
    for (int j = 0; j < PER; ++j) cur[j] = c_next[j];
    const std::size_t i_next = s + 1 < steps ? pixel(s + 1) : i;
    const float jump_after = jump_next;
    if (s + 1 < steps) {
      load(i_next);
      if (s + 2 < steps) jump_next = edge_price(s + 1);
    }
    float mn = INFINITY;
#pragma unroll
    for (int j = 0; j < PER; ++j) {
      const int a = tid + j * nt;
      if (a >= labels) break;
      if (s > 0)
        cur[j] = lfr::sgm_step(cur[j], prev[a], a > 0 ? prev[a - 1] : INFINITY, a + 1 < labels ? prev[a + 1] : INFINITY,
                               m, p1, jump);
      out[i * labels + a] = cur[j];
      mn = fminf(mn, cur[j]);
    }
    __syncthreads();  // every thread has read prev
#pragma unroll
    for (int j = 0; j < PER; ++j) {
      const int a = tid + j * nt;
      if (a >= labels) break;
      prev[a] = cur[j];
    }
    for (int o = 16; o > 0; o >>= 1) mn = fminf(mn, __shfl_xor_sync(0xffffffffu, mn, o));
    if ((tid & 31) == 0) warp_min[tid >> 5] = mn;
    __syncthreads();  // prev and the warps' minima written
    m = warp_min[0];
    for (int wi = 1; wi < nwarps; ++wi) m = fminf(m, warp_min[wi]);
    i = i_next;
    jump = jump_after;
  }
}

// The same path with one warp per scanline (labels <= 32 K): lane l holds labels l K .. l K +
// K - 1 in registers, the neighbours across lanes and the previous pixel's minimum come by
// shuffles, so a step has no barrier (the block kernel's steps were chains of two barriers and
// a block-wide minimum: issue-bound, ncu). lfr::sgm_step on the same values: the same bits.
// Blocks of kSgmWarpLines warps, one line each.
constexpr int kSgmWarpLines = 4;
template <int K>
__global__ void __launch_bounds__(32 * kSgmWarpLines)
    lf_sgm_warp_path_kernel(const float* __restrict__ cost, const float* __restrict__ edge_x,
                            const float* __restrict__ edge_y, int w, int h, int labels, float p1,
                            float* __restrict__ paths) {
  const int k = static_cast<int>(blockIdx.y);
  const int line = static_cast<int>(blockIdx.x) * kSgmWarpLines + static_cast<int>(threadIdx.x >> 5);
  const int lane = static_cast<int>(threadIdx.x & 31);
  const bool along_x = k < 2, forward = k % 2 == 0;
  const int lines = along_x ? h : w, steps = along_x ? w : h;
  if (line >= lines) return;  // whole warps: the shuffles below see full warps
  const std::size_t npx = static_cast<std::size_t>(w) * h;
  float* out = paths + static_cast<std::size_t>(k) * npx * labels;
  const long long stride = along_x ? (forward ? 1 : -1) : (forward ? w : -static_cast<long long>(w));
  const long long first = along_x ? static_cast<long long>(line) * w + (forward ? 0 : steps - 1)
                                  : static_cast<long long>(forward ? 0 : steps - 1) * w + line;
  auto pixel = [&](int s) { return static_cast<std::size_t>(first + s * stride); };
  const int a0 = lane * K;
  float c_next[K];
  auto load = [&](std::size_t i) {
#pragma unroll
    for (int j = 0; j < K; ++j) c_next[j] = a0 + j < labels ? __ldg(cost + i * labels + a0 + j) : INFINITY;
  };
  const float* jumps = along_x ? edge_x : edge_y;
  auto edge_price = [&](int s) {
    const int t = forward ? s : steps - 2 - s;
    return __ldg(jumps + (along_x ? static_cast<std::size_t>(line) * w + t : static_cast<std::size_t>(t) * w + line));
  };
  float prev[K];
  float m = 0.0f;
  std::size_t i = pixel(0);
  load(i);
  float jump_next = steps > 1 ? edge_price(0) : 0.0f;
  float jump = 0.0f;
  for (int s = 0; s < steps; ++s) {
    float cur[K];
#pragma unroll
    for (int j = 0; j < K; ++j) cur[j] = c_next[j];
    const std::size_t i_next = s + 1 < steps ? pixel(s + 1) : i;
    const float jump_after = jump_next;
    if (s + 1 < steps) {
      load(i_next);
      if (s + 2 < steps) jump_next = edge_price(s + 1);
    }
    if (s > 0) {
      // The neighbours across the lane's ends; labels past the last are INFINITY, as the
      // block kernel's bounds give.
      const float lo_in = __shfl_up_sync(0xffffffffu, prev[K - 1], 1);
      const float hi_in = __shfl_down_sync(0xffffffffu, prev[0], 1);
#pragma unroll
      for (int j = 0; j < K; ++j) {
        const int a = a0 + j;
        if (a >= labels) break;
        const float lo = j > 0 ? prev[j - 1] : (lane > 0 ? lo_in : INFINITY);
        const float hi = a + 1 < labels ? (j + 1 < K ? prev[j + 1] : hi_in) : INFINITY;
        cur[j] = lfr::sgm_step(cur[j], prev[j], lo, hi, m, p1, jump);
      }
    }
    float mn = INFINITY;
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const int a = a0 + j;
      if (a < labels) {
        out[i * labels + a] = cur[j];
        mn = fminf(mn, cur[j]);
      }
      prev[j] = a < labels ? cur[j] : INFINITY;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) mn = fminf(mn, __shfl_xor_sync(0xffffffffu, mn, o));
    m = mn;
    i = i_next;
    jump = jump_after;
  }
}

// The jump price of every edge (lfr::sgm_jump_penalty of the guides' difference, which is
// symmetric): x[p] between p and its right neighbour, y[p] between p and the pixel below; the
// path kernels read one per step instead of two pixels' guides and two divisions.
template <int GC>
__global__ void lf_sgm_jump_kernel(const float* __restrict__ guide, int w, int h, float p2, float edge,
                                   float* __restrict__ x_out, float* __restrict__ y_out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x), y = static_cast<int>(blockIdx.y);
  if (x >= w) return;
  const std::size_t npx = static_cast<std::size_t>(w) * h, p = static_cast<std::size_t>(y) * w + x;
  auto g = [&](std::size_t q) { return [=](int c) { return __ldg(guide + c * npx + q); }; };
  if (x + 1 < w) x_out[p] = lfr::sgm_jump_penalty(p2, lfr::sgm_guide_diff(g(p + 1), g(p), GC), edge);
  if (y + 1 < h) y_out[p] = lfr::sgm_jump_penalty(p2, lfr::sgm_guide_diff(g(p + w), g(p), GC), edge);
}

// The weighted data term's per-pixel weight (lfr::sgm_data_weight), one thread per pixel.
__global__ void lf_sgm_weight_kernel(const float* __restrict__ cost, long long npx, int labels,
                                     float* __restrict__ weight) {
  const long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= npx) return;
  weight[p] = lfr::sgm_data_weight([&](int a) { return cost[a * npx + p]; }, labels);
}

// [label][pixel] -> [pixel][label] through a 32 x 32 shared tile (both sides coalesced),
// times the pixel's weight when given (once rounded, as the CPU).
__global__ void lf_label_major_to_pixel_major_kernel(const float* __restrict__ in, const float* __restrict__ weight,
                                                     long long npx, int labels, float* __restrict__ out) {
  __shared__ float tile[32][33];
  const long long p0 = static_cast<long long>(blockIdx.x) * 32;
  const int a0 = static_cast<int>(blockIdx.y) * 32, tx = static_cast<int>(threadIdx.x);
  for (int r = static_cast<int>(threadIdx.y); r < 32; r += static_cast<int>(blockDim.y)) {
    const int a = a0 + r;
    const long long p = p0 + tx;
    if (a < labels && p < npx) tile[r][tx] = in[static_cast<long long>(a) * npx + p];
  }
  __syncthreads();
  for (int r = static_cast<int>(threadIdx.y); r < 32; r += static_cast<int>(blockDim.y)) {
    const long long p = p0 + r;
    const int a = a0 + tx;
    if (a < labels && p < npx) out[p * labels + a] = weight ? __fmul_rn(tile[tx][r], weight[p]) : tile[tx][r];
  }
}

// The paths' sum in the CPU's order: ((L0 + L1) + L2) + L3.
__global__ void lf_sgm_sum_kernel(const float* __restrict__ paths, long long n, float* __restrict__ out) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = paths[i];
  for (int k = 1; k < lfr::kSgmPaths; ++k) s = __fadd_rn(s, paths[k * n + i]);
  out[i] = s;
}

unsigned blocks(long long n) { return static_cast<unsigned>((n + 255) / 256); }

}  // namespace

std::size_t lf_views_float_bytes(const LightFieldViews& lf, int views) {
  const refocus::Aperture ap = refocus::aperture(lf.nu, lf.nv, views / 2);
  return lf.view_pixels() * static_cast<std::size_t>(ap.n) * sizeof(float4);
}

void launch_lf_views_to_float(const LightFieldViews& lf, int views, float4* out, cudaStream_t s) {
  LB_REQUIRE(lf.height <= 65535, "defocus cost: more than 65535 rows");
  const refocus::Aperture ap = refocus::aperture(lf.nu, lf.nv, views / 2);
  const ViewRows rows{lf.data, lf.nu, lf.width, lf.view_pixels()};
  lf_views_to_float_kernel<<<dim3(static_cast<unsigned>((lf.width + 127) / 128), static_cast<unsigned>(lf.height),
                                  static_cast<unsigned>(ap.n)),
                             128, 0, s>>>(rows, ap, lf.height, out);
  CUDA_CHECK_LAUNCH();
}

void launch_lf_defocus(const LightFieldViews& lf, const float4* views_f, int views, float dmin, float dmax, int labels,
                       int rx, int ry, int w, int h, int radius, float* out, float* tmp, cudaStream_t s) {
  LB_REQUIRE(labels <= 65535 && h <= 65535, "defocus cost: more than 65535 labels or rows");
  const ViewRows rows{lf.data, lf.nu, lf.width, lf.view_pixels()};
  const refocus::Aperture ap = refocus::aperture(lf.nu, lf.nv, views / 2);
  const dim3 block(32, 8), grid(static_cast<unsigned>((w + 31) / 32), static_cast<unsigned>(labels),
                                static_cast<unsigned>((h + 7) / 8));
  float* const raw = lf_defocus_raw_target(radius, out, tmp);
  if (views_f)
    lf_defocus_raw_kernel<<<grid, block, 0, s>>>(
        rows, ViewRowsF{views_f, ap.u0, ap.v0, ap.u1 - ap.u0 + 1, lf.width, lf.view_pixels()}, lf.width, lf.height, ap,
        dmin, dmax, labels, rx, ry, w, h, raw);
  else
    lf_defocus_raw_kernel<<<grid, block, 0, s>>>(rows, rows, lf.width, lf.height, ap, dmin, dmax, labels, rx, ry, w, h,
                                                 raw);
  CUDA_CHECK_LAUNCH();
  launch_lf_defocus_box(w, h, labels, radius, out, tmp, s);
}

void launch_lf_normalize(float* cost, float* defocus, float defocus_weight, bool separate, long long npx, int labels,
                         cudaStream_t s) {
  lf_normalize_kernel<<<blocks(npx), 256, 0, s>>>(cost, defocus, defocus_weight, separate, npx, labels);
  CUDA_CHECK_LAUNCH();
}

void launch_lf_fuse(float* cost, const float* defocus, float defocus_weight, long long npx, int labels,
                    cudaStream_t s) {
  lf_fuse_kernel<<<blocks(npx), 256, 0, s>>>(cost, defocus, defocus_weight, npx, labels);
  CUDA_CHECK_LAUNCH();
}

void launch_lf_wta(const float* cost, bool pixel_major, int layers, const float* conf_cost, long long npx, int labels,
                   float dmin, float dmax, bool subpixel, bool wide, float* label_disp, float* disp, float* conf,
                   cudaStream_t s) {
  LB_REQUIRE(layers >= 1 && (layers == 1 || pixel_major), "wta: summed volumes must be pixel-major");
  if (pixel_major && launch_lf_wta_staged(cost, layers, conf_cost, npx, labels, dmin, dmax, subpixel, wide, label_disp,
                                          disp, conf, s))
    return;
  lf_refine_wta_kernel<<<blocks(npx), 256, 0, s>>>(cost, pixel_major, layers, conf_cost, npx, labels, dmin, dmax,
                                                   subpixel, wide, label_disp, disp, conf);
  CUDA_CHECK_LAUNCH();
}

// What both semi-global entry points take, checked before anything is queued.
static void require_sgm(int w, int h, int labels, int guide_channels) {
  LB_REQUIRE(labels >= 1 && labels <= 256 * kSgmPerThread, "semi-global: more than 1024 labels");
  LB_REQUIRE((static_cast<long long>(w) * h + 31) / 32 <= 0x7fffffffLL, "semi-global: region too large");
  LB_REQUIRE(guide_channels == 1 || guide_channels == 3, "semi-global: the guide must have 1 or 3 channels");
}

void launch_lf_sgm_paths(const float* in, const float* guide, int guide_channels, int w, int h, int labels,
                         float p1, float p2, float edge, float* paths, cudaStream_t s) {
  require_sgm(w, h, labels, guide_channels);
  const long long npx = static_cast<long long>(w) * h;
  const int threads = std::min(256, (labels + 31) / 32 * 32);
  const std::size_t shared = (static_cast<std::size_t>(labels) + threads / 32) * sizeof(float);
  const dim3 grid(static_cast<unsigned>(std::max(w, h)), lfr::kSgmPaths);
  // The edges' jump prices: after the 4 path volumes.
  float* edge_x = paths + static_cast<std::size_t>(lfr::kSgmPaths) * npx * labels;
  float* edge_y = edge_x + npx;
  const dim3 eg(static_cast<unsigned>((w + 127) / 128), static_cast<unsigned>(h));
  if (guide_channels == 3) lf_sgm_jump_kernel<3><<<eg, 128, 0, s>>>(guide, w, h, p2, edge, edge_x, edge_y);
  else lf_sgm_jump_kernel<1><<<eg, 128, 0, s>>>(guide, w, h, p2, edge, edge_x, edge_y);
  CUDA_CHECK_LAUNCH();
  const int K = (labels + 31) / 32;
  const dim3 wgrid(static_cast<unsigned>((std::max(w, h) + kSgmWarpLines - 1) / kSgmWarpLines), lfr::kSgmPaths);
  if (K <= 4) {  // the warp kernel: 0.91 -> 0.69 ms for the semi-global step at antinous 75 labels (H100)
    switch (K) {
      case 1:
        lf_sgm_warp_path_kernel<1><<<wgrid, 32 * kSgmWarpLines, 0, s>>>(in, edge_x, edge_y, w, h, labels, p1, paths);
        break;
      case 2:
        lf_sgm_warp_path_kernel<2><<<wgrid, 32 * kSgmWarpLines, 0, s>>>(in, edge_x, edge_y, w, h, labels, p1, paths);
        break;
      case 3:
        lf_sgm_warp_path_kernel<3><<<wgrid, 32 * kSgmWarpLines, 0, s>>>(in, edge_x, edge_y, w, h, labels, p1, paths);
        break;
      default:
        lf_sgm_warp_path_kernel<4><<<wgrid, 32 * kSgmWarpLines, 0, s>>>(in, edge_x, edge_y, w, h, labels, p1, paths);
        break;
    }
  } else if (labels <= threads)
    lf_sgm_path_kernel<1><<<grid, threads, shared, s>>>(in, edge_x, edge_y, w, h, labels, p1, paths);
  else lf_sgm_path_kernel<kSgmPerThread><<<grid, threads, shared, s>>>(in, edge_x, edge_y, w, h, labels, p1, paths);
  CUDA_CHECK_LAUNCH();
}

void launch_lf_semi_global(const float* cost, const float* guide, int guide_channels, int w, int h, int labels,
                           float p1, float p2, float edge, bool weighted, float* weight, float* paths, float* out,
                           bool sum, cudaStream_t s) {
  require_sgm(w, h, labels, guide_channels);
  const long long npx = static_cast<long long>(w) * h;
  if (weighted) {
    lf_sgm_weight_kernel<<<blocks(npx), 256, 0, s>>>(cost, npx, labels, weight);
    CUDA_CHECK_LAUNCH();
  }
  // out holds the pixel-major (weighted) copy of the input until the paths are done, then their sum.
  const dim3 tiles(static_cast<unsigned>((npx + 31) / 32), static_cast<unsigned>((labels + 31) / 32));
  lf_label_major_to_pixel_major_kernel<<<tiles, dim3(32, 8), 0, s>>>(cost, weighted ? weight : nullptr, npx, labels,
                                                                     out);
  CUDA_CHECK_LAUNCH();
  launch_lf_sgm_paths(out, guide, guide_channels, w, h, labels, p1, p2, edge, paths, s);
  if (!sum) return;  // the caller's WTA sums the paths (launch_lf_wta, layers kSgmPaths)
  const long long n = npx * labels;
  lf_sgm_sum_kernel<<<blocks(n), 256, 0, s>>>(paths, n, out);
  CUDA_CHECK_LAUNCH();
}

void launch_lf_median(const float* disp, const float* conf, const float* guide, int guide_channels, int w, int h,
                      int m, float sigma, float* out, cudaStream_t s) {
  lf_median_kernel<<<dim3(static_cast<unsigned>((w + 127) / 128), static_cast<unsigned>(h)), 128, 0, s>>>(
      disp, conf, guide, guide_channels, w, h, m, sigma, out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
