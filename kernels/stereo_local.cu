// Center-biased local stereo on CUDA: the seed's kernel-fusion phases and a fused tiled
// kernel, all with the integer arithmetic of lightbench/stereo_local_math.hpp, so every
// variant's map is identical to the CPU reference (see lightbench/stereo_local_cuda.hpp).
//
// Phase pipelines: disparities in groups of four, one uint4 per pixel and group ("four
// disparities packed per 4-vector"), planes [group][y][x] in global memory:
//   phase2  cost -> horizontal (L, R) -> vertical (UL, DL, UR, DR, one kernel) -> WTA
//   phase3  cost -> horizontal -> vertical on L (UL, DL) and on R (UR, DR) -> WTA
//   phase4  cost -> horizontal re-packed A = (L0 L1 R0 R1), B = (L2 L3 R2 R3) ->
//           vertical A -> WTA A (d = 4g, 4g+1) -> vertical B -> WTA B (4g+2, 4g+3; merges A)
//   phase5  cost -> horizontal re-packed -> vertical+WTA A -> vertical+WTA B: each thread
//           runs over all groups keeping a running min / argmin; UL..DR never stored
//   fused   one kernel: per 32x32 tile and batch of disparities, cost (tile + halo), both
//           passes and the WTA in shared memory / registers; batches merge by atomicMin
//           on the packed (key, d) values, which is order-independent. Radii 8, 12, 16,
//           20, 24 run an unrolled instance (weights as constants, 4 rows per thread in
//           the vertical pass), other radii the generic kernel.
//   fused2  (default) fused with two disparities per step packed in 16-bit lanes (cost plane,
//           horizontal pass, L / R planes), 32 x 64 tiles, 8 rows per thread; runs the
//           fused kernels where the lanes could overflow (see fused_packed_kernel).
// Ties: the packed value (key << 10 | d) orders by key then d, so every order of min()
// picks the smaller disparity, as the CPU does.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

#include "cuda_check.cuh"
#include "lightbench/cuda_api.hpp"
#include "lightbench/stereo_local_cuda.hpp"
#include "stereo_local_launch.hpp"
#include "stereo_device_outputs.hpp"

namespace lb::cuda {

namespace detail {

using stereo::local::KernelParams;
using u64 = unsigned long long;
namespace sl = stereo::local;

namespace {

constexpr int kBX = 32, kBY = 8;  // block of the per-pixel kernels

__device__ __forceinline__ uint4 mad4(unsigned w, uint4 v, uint4 acc) {
  acc.x += w * v.x;
  acc.y += w * v.y;
  acc.z += w * v.z;
  acc.w += w * v.w;
  return acc;
}

// Loads the weights into shared memory (every kernel indexes them by a loop counter).
__device__ __forceinline__ void load_weights(const KernelParams& k, unsigned* sw) {
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid <= k.radius) sw[tid] = k.w[tid];
  __syncthreads();
}

__device__ __forceinline__ std::size_t plane_index(int g, int y, int x, int W, int H) {
  return (static_cast<std::size_t>(g) * H + y) * W + x;
}

// cost[g][y][x] = costs of d = 4g .. 4g+3 (beyond ndisp: computed, never selected).
__global__ void cost_kernel(const uchar4* __restrict__ ref, const uchar4* __restrict__ oth, int W, int H, int dir,
                            unsigned trunc3, uint4* __restrict__ cost) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, g = blockIdx.z;
  if (x >= W || y >= H) return;
  const uchar4 a = ref[static_cast<std::size_t>(y) * W + x];
  unsigned c[4];
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    const uchar4 b = oth[static_cast<std::size_t>(y) * W + sl::match_x(x, 4 * g + j, dir, W)];
    c[j] = sl::pixel_cost(a.x, a.y, a.z, b.x, b.y, b.z, trunc3);
  }
  cost[plane_index(g, y, x, W, H)] = make_uint4(c[0], c[1], c[2], c[3]);
}

// Horizontal streams. REPACK: A = (L0 L1 R0 R1) into outa, B = (L2 L3 R2 R3) into outb;
// otherwise L into outa, R into outb.
template <bool REPACK>
__global__ void horizontal_kernel(const uint4* __restrict__ cost, int W, int H, KernelParams k,
                                  uint4* __restrict__ outa, uint4* __restrict__ outb) {
  __shared__ unsigned sw[sl::kMaxRadius + 1];
  load_weights(k, sw);
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, g = blockIdx.z;
  if (x >= W || y >= H) return;
  const uint4* row = cost + plane_index(g, y, 0, W, H);
  uint4 l = make_uint4(0, 0, 0, 0), r = l;
  for (int t = 0; t <= k.radius; ++t) {
    l = mad4(sw[t], row[max(x - t, 0)], l);
    r = mad4(sw[t], row[min(x + t, W - 1)], r);
  }
  const std::size_t i = plane_index(g, y, x, W, H);
  if (REPACK) {
    outa[i] = make_uint4(l.x, l.y, r.x, r.y);
    outb[i] = make_uint4(l.z, l.w, r.z, r.w);
  } else {
    outa[i] = l;
    outb[i] = r;
  }
}

// Up and down sums of one input plane set (phase 3, phase 4: on L, R, A or B).
__global__ void vertical_kernel(const uint4* __restrict__ in, int W, int H, KernelParams k, uint4* __restrict__ up,
                                uint4* __restrict__ down) {
  __shared__ unsigned sw[sl::kMaxRadius + 1];
  load_weights(k, sw);
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, g = blockIdx.z;
  if (x >= W || y >= H) return;
  const uint4* col = in + plane_index(g, 0, x, W, H);
  uint4 u = make_uint4(0, 0, 0, 0), d = u;
  for (int t = 0; t <= k.radius; ++t) {
    u = mad4(sw[t], col[static_cast<std::size_t>(max(y - t, 0)) * W], u);
    d = mad4(sw[t], col[static_cast<std::size_t>(min(y + t, H - 1)) * W], d);
  }
  const std::size_t i = plane_index(g, y, x, W, H);
  up[i] = u;
  down[i] = d;
}

// Phase 2: both vertical pairs in one kernel (reads L and R).
__global__ void vertical_both_kernel(const uint4* __restrict__ L, const uint4* __restrict__ R, int W, int H,
                                     KernelParams k, uint4* __restrict__ ul, uint4* __restrict__ dl,
                                     uint4* __restrict__ ur, uint4* __restrict__ dr) {
  __shared__ unsigned sw[sl::kMaxRadius + 1];
  load_weights(k, sw);
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, g = blockIdx.z;
  if (x >= W || y >= H) return;
  const uint4* cl = L + plane_index(g, 0, x, W, H);
  const uint4* cr = R + plane_index(g, 0, x, W, H);
  uint4 a = make_uint4(0, 0, 0, 0), b = a, c = a, d = a;
  for (int t = 0; t <= k.radius; ++t) {
    const std::size_t up = static_cast<std::size_t>(max(y - t, 0)) * W;
    const std::size_t dn = static_cast<std::size_t>(min(y + t, H - 1)) * W;
    a = mad4(sw[t], cl[up], a);
    b = mad4(sw[t], cl[dn], b);
    c = mad4(sw[t], cr[up], c);
    d = mad4(sw[t], cr[dn], d);
  }
  const std::size_t i = plane_index(g, y, x, W, H);
  ul[i] = a;
  dl[i] = b;
  ur[i] = c;
  dr[i] = d;
}

__device__ __forceinline__ unsigned comp(const uint4& v, int j) {
  return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w;
}

// Phases 2 and 3: WTA over all groups from the four vertical planes (+ L, R at the pixel).
__global__ void wta_kernel(const uint4* __restrict__ ul, const uint4* __restrict__ dl, const uint4* __restrict__ ur,
                           const uint4* __restrict__ dr, const uint4* __restrict__ L, const uint4* __restrict__ R,
                           int W, int H, KernelParams k, u64* __restrict__ out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  const int groups = (k.ndisp + 3) / 4;
  u64 best = sl::kNoPacked;
  for (int g = 0; g < groups; ++g) {
    const std::size_t i = plane_index(g, y, x, W, H);
    const uint4 a = ul[i], b = dl[i], c = ur[i], d = dr[i];
    uint4 l = make_uint4(0, 0, 0, 0), r = l;
    if (k.variable_windows) {
      l = L[i];
      r = R[i];
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int disp = 4 * g + j;
      if (disp < k.ndisp)
        best = sl::min_packed(best, sl::pack(sl::window_key(comp(a, j), comp(b, j), comp(c, j), comp(d, j), comp(l, j),
                                                            comp(r, j), k.variable_windows, k.wsum),
                                             disp));
    }
  }
  out[static_cast<std::size_t>(y) * W + x] = best;
}

// Keys of the two disparities 4g + 2h + {0, 1} from re-packed up / down sums
// (up = (UL0 UL1 UR0 UR1), down = (DL0 DL1 DR0 DR1), centre = (L0 L1 R0 R1)).
__device__ __forceinline__ u64 half_keys(const uint4& up, const uint4& dn, const uint4& c, int g, int h,
                                         const KernelParams& k, u64 best) {
  const int d0 = 4 * g + 2 * h;
  if (d0 < k.ndisp)
    best = sl::min_packed(best, sl::pack(sl::window_key(up.x, dn.x, up.z, dn.z, c.x, c.z, k.variable_windows, k.wsum), d0));
  if (d0 + 1 < k.ndisp)
    best = sl::min_packed(best,
                          sl::pack(sl::window_key(up.y, dn.y, up.w, dn.w, c.y, c.w, k.variable_windows, k.wsum), d0 + 1));
  return best;
}

// Phase 4: WTA copy for half h from its vertical kernel's planes; merges `partial` (the
// other copy's result) when given.
__global__ void wta_half_kernel(const uint4* __restrict__ up, const uint4* __restrict__ dn,
                                const uint4* __restrict__ centre, int W, int H, KernelParams k, int h,
                                const u64* partial, u64* out) {  // may alias (in-place merge)
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  const int groups = (k.ndisp + 3) / 4;
  const std::size_t p = static_cast<std::size_t>(y) * W + x;
  u64 best = partial ? partial[p] : sl::kNoPacked;
  for (int g = 0; g < groups; ++g) {
    const std::size_t i = plane_index(g, y, x, W, H);
    const uint4 c = k.variable_windows ? centre[i] : make_uint4(0, 0, 0, 0);
    best = half_keys(up[i], dn[i], c, g, h, k, best);
  }
  out[p] = best;
}

// Phase 5: vertical sums of one re-packed plane set and its WTA copy in one kernel; the
// running min over the groups stays in a register.
__global__ void vertical_wta_kernel(const uint4* __restrict__ in, int W, int H, KernelParams k, int h,
                                    const u64* partial, u64* out) {  // may alias (in-place merge)
  __shared__ unsigned sw[sl::kMaxRadius + 1];
  load_weights(k, sw);
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  const int groups = (k.ndisp + 3) / 4;
  const std::size_t p = static_cast<std::size_t>(y) * W + x;
  u64 best = partial ? partial[p] : sl::kNoPacked;
  for (int g = 0; g < groups; ++g) {
    const uint4* col = in + plane_index(g, 0, x, W, H);
    uint4 u = make_uint4(0, 0, 0, 0), d = u;
    for (int t = 0; t <= k.radius; ++t) {
      u = mad4(sw[t], col[static_cast<std::size_t>(max(y - t, 0)) * W], u);
      d = mad4(sw[t], col[static_cast<std::size_t>(min(y + t, H - 1)) * W], d);
    }
    const uint4 c = k.variable_windows ? col[static_cast<std::size_t>(y) * W] : make_uint4(0, 0, 0, 0);
    best = half_keys(u, d, c, g, h, k, best);
  }
  out[p] = best;
}

// Fused: a kFT x kFT tile, disparities [z * dpb, min(ndisp, (z+1) * dpb)). Shared memory:
// costs of the tile plus an r-halo on every side, then the L and R streams of the tile's
// columns over the halo rows. Each thread owns kFT / kBY rows of one column.
constexpr int kFT = 32;
constexpr int kRowsPerThread = kFT / kBY;

std::size_t fused_smem_bytes(int r) {
  const std::size_t hw = kFT + 2 * r, hh = kFT + 2 * r;
  return (hh * hw + 2 * hh * kFT) * sizeof(unsigned);
}

// The fused kernels' first step: the truncated costs at disparity d of the hw x hh halo tile
// whose top-left image pixel is (gx0, gy0), coordinates clamped to the image (= the clamped
// convolutions), into sc with row stride `stride`. The block's threads stride over the tile.
__device__ __forceinline__ void cost_tile(const uchar4* __restrict__ ref, const uchar4* __restrict__ oth, int W,
                                          int H, int dir, const KernelParams& k, int d, int gx0, int gy0, int hw,
                                          int hh, int stride, unsigned* sc) {
  for (int hy = threadIdx.y; hy < hh; hy += kBY) {
    const int gy = sl::clampi(gy0 + hy, 0, H - 1);
    const uchar4* rrow = ref + static_cast<std::size_t>(gy) * W;
    const uchar4* orow = oth + static_cast<std::size_t>(gy) * W;
    for (int hx = threadIdx.x; hx < hw; hx += kBX) {
      const int gx = sl::clampi(gx0 + hx, 0, W - 1);
      const uchar4 a = rrow[gx];
      const uchar4 b = orow[sl::match_x(gx, d, dir, W)];
      sc[hy * stride + hx] = sl::pixel_cost(a.x, a.y, a.z, b.x, b.y, b.z, k.trunc3);
    }
  }
}

__global__ void __launch_bounds__(kBX* kBY) fused_kernel(const uchar4* __restrict__ ref, const uchar4* __restrict__ oth,
                                                         int W, int H, int dir, KernelParams k, int dpb,
                                                         u64* __restrict__ out) {
  extern __shared__ unsigned smem[];
  __shared__ unsigned sw[sl::kMaxRadius + 1];
  load_weights(k, sw);
  const int r = k.radius, HW = kFT + 2 * r, HH = kFT + 2 * r;
  unsigned* sc = smem;           // [HH][HW]
  unsigned* sL = sc + HH * HW;   // [HH][kFT]
  unsigned* sR = sL + HH * kFT;  // [HH][kFT]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * kFT, y0 = blockIdx.y * kFT;
  const int d_begin = blockIdx.z * dpb, d_end = min(k.ndisp, d_begin + dpb);
  u64 best[kRowsPerThread];
#pragma unroll
  for (int q = 0; q < kRowsPerThread; ++q) best[q] = sl::kNoPacked;
  for (int d = d_begin; d < d_end; ++d) {
    // 1. costs of the tile + halo, coordinates clamped (= the clamped convolutions).
    cost_tile(ref, oth, W, H, dir, k, d, x0 - r, y0 - r, HW, HH, HW, sc);
    __syncthreads();
    // 2. horizontal streams of the tile's columns, all halo rows.
    for (int hy = ty; hy < HH; hy += kBY) {
      const unsigned* c = sc + hy * HW + tx + r;
      unsigned l = 0, rr = 0;
      for (int t = 0; t <= r; ++t) {
        const unsigned w = sw[t];
        l += w * c[-t];
        rr += w * c[t];
      }
      sL[hy * kFT + tx] = l;
      sR[hy * kFT + tx] = rr;
    }
    __syncthreads();
    // 3. vertical streams and the WTA of this thread's pixels.
#pragma unroll
    for (int q = 0; q < kRowsPerThread; ++q) {
      const int oy = ty + q * kBY;  // output row in the tile; halo row oy + r
      const unsigned* cl = sL + (oy + r) * kFT + tx;
      const unsigned* cr = sR + (oy + r) * kFT + tx;
      unsigned ul = 0, dl = 0, ur = 0, dr = 0;
      for (int t = 0; t <= r; ++t) {
        const unsigned w = sw[t];
        ul += w * cl[-t * kFT];
        dl += w * cl[t * kFT];
        ur += w * cr[-t * kFT];
        dr += w * cr[t * kFT];
      }
      best[q] = sl::min_packed(best[q], sl::pack(sl::window_key(ul, dl, ur, dr, cl[0], cr[0], k.variable_windows, k.wsum), d));
    }
    __syncthreads();  // before the next disparity overwrites the shared planes
  }
  const int x = x0 + tx;
  if (x >= W) return;
#pragma unroll
  for (int q = 0; q < kRowsPerThread; ++q) {
    const int y = y0 + ty + q * kBY;
    if (y >= H) continue;
    u64* o = out + static_cast<std::size_t>(y) * W + x;
    if (gridDim.z == 1)
      *o = best[q];
    else
      atomicMin(o, best[q]);
  }
}

// Row stride of the fixed kernels' cost plane: >= kFT + 2R and = 1 (mod 32), so the 4 rows
// a warp reads in the horizontal pass fall in different banks; rounded up to keep
// HH * stride a multiple of 4 (the L / R planes after it take 16-byte stores).
constexpr int fixed_cost_stride(int r) {
  int sw = kFT + 2 * r;
  while (sw % 32 != 1) ++sw;
  return sw;
}
std::size_t fixed_smem_bytes(int r) {
  const std::size_t hh = kFT + 2 * r, sw = fixed_cost_stride(r);
  std::size_t cost = hh * sw;
  cost = (cost + 3) / 4 * 4;
  return (cost + 2 * hh * kFT) * sizeof(unsigned);
}

// The fused kernel for a compile-time radius R (the common ones, see kFixedRadii): loops
// fully unrolled, so the weights are constant-bank operands (no shared-memory loads), and
// each thread owns 4 consecutive rows of its column, so the vertical pass loads each row
// of L and R once for 4 outputs (2R + 4 loads instead of 4 (R + 1) per stream). Same
// integer sums as fused_kernel: the identical result.
template <int R>
__global__ void __launch_bounds__(kBX* kBY) fused_fixed_kernel(const uchar4* __restrict__ ref,
                                                               const uchar4* __restrict__ oth, int W, int H, int dir,
                                                               KernelParams k, int dpb, u64* __restrict__ out) {
  constexpr int HW = kFT + 2 * R, HH = kFT + 2 * R, SW = fixed_cost_stride(R);
  extern __shared__ unsigned smem[];
  unsigned* sc = smem;           // [HH][SW], HW used
  unsigned* sL = sc + (HH * SW + 3) / 4 * 4;  // [HH][kFT], 16-byte aligned (uint4 stores)
  unsigned* sR = sL + HH * kFT;  // [HH][kFT]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int oy0 = ty * kRowsPerThread;  // first of this thread's output rows in the tile
  const int x0 = blockIdx.x * kFT, y0 = blockIdx.y * kFT;
  const int d_begin = blockIdx.z * dpb, d_end = min(k.ndisp, d_begin + dpb);
  u64 best[kRowsPerThread];
#pragma unroll
  for (int q = 0; q < kRowsPerThread; ++q) best[q] = sl::kNoPacked;
  for (int d = d_begin; d < d_end; ++d) {
    cost_tile(ref, oth, W, H, dir, k, d, x0 - R, y0 - R, HW, HH, SW, sc);
    __syncthreads();
    // Horizontal: a task is 4 consecutive columns 4g .. 4g+3 of one halo row (8 tasks per
    // row, a warp = 4 rows x 8 column groups); it streams halo columns 4g .. 4g+3+2R once:
    // L of column 4g+i sums halo columns 4g+i .. 4g+i+R (weight index i + R - j for halo
    // column 4g + j), R sums 4g+i+R .. 4g+i+2R (weight index j - i - R).
    for (int task = ty * kBX + tx; task < HH * 8; task += kBX * kBY) {
      const int hy = task >> 3, g = task & 7;
      const unsigned* c = sc + hy * SW + 4 * g;
      unsigned l[4] = {}, rr[4] = {};
#pragma unroll
      for (int j = 0; j < 2 * R + 4; ++j) {
        const unsigned v = c[j];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const int tl = i + R - j, tr = j - i - R;
          if (tl >= 0 && tl <= R) l[i] += k.w[tl] * v;
          if (tr >= 0 && tr <= R) rr[i] += k.w[tr] * v;
        }
      }
      *reinterpret_cast<uint4*>(sL + hy * kFT + 4 * g) = make_uint4(l[0], l[1], l[2], l[3]);
      *reinterpret_cast<uint4*>(sR + hy * kFT + 4 * g) = make_uint4(rr[0], rr[1], rr[2], rr[3]);
    }
    __syncthreads();
    // Output row oy0 + q is halo row oy0 + q + R; UL sums halo rows oy0 + q .. oy0 + q + R
    // (weight index q + R - j for halo row oy0 + j), DL rows oy0 + q + R .. oy0 + q + 2R
    // (weight index j - q - R).
    unsigned ul[kRowsPerThread] = {}, dl[kRowsPerThread] = {}, ur[kRowsPerThread] = {}, dr[kRowsPerThread] = {};
#pragma unroll
    for (int j = 0; j < 2 * R + kRowsPerThread; ++j) {
      const unsigned a = sL[(oy0 + j) * kFT + tx], b = sR[(oy0 + j) * kFT + tx];
#pragma unroll
      for (int q = 0; q < kRowsPerThread; ++q) {
        const int tu = q + R - j, td = j - q - R;
        if (tu >= 0 && tu <= R) {
          ul[q] += k.w[tu] * a;
          ur[q] += k.w[tu] * b;
        }
        if (td >= 0 && td <= R) {
          dl[q] += k.w[td] * a;
          dr[q] += k.w[td] * b;
        }
      }
    }
#pragma unroll
    for (int q = 0; q < kRowsPerThread; ++q) {
      const int hrow = (oy0 + q + R) * kFT + tx;
      best[q] = sl::min_packed(
          best[q], sl::pack(sl::window_key(ul[q], dl[q], ur[q], dr[q], sL[hrow], sR[hrow], k.variable_windows, k.wsum), d));
    }
    __syncthreads();
  }
  const int x = x0 + tx;
  if (x >= W) return;
#pragma unroll
  for (int q = 0; q < kRowsPerThread; ++q) {
    const int y = y0 + oy0 + q;
    if (y >= H) continue;
    u64* o = out + static_cast<std::size_t>(y) * W + x;
    if (gridDim.z == 1)
      *o = best[q];
    else
      atomicMin(o, best[q]);
  }
}

// Fused, packed pairs (variant fused2): the fused kernel for a compile-time radius R with
// two disparities d, d + 1 per step, their costs packed in the 16-bit lanes of one word
// (c(d) | c(d + 1) << 16), so the cost plane and the horizontal pass carry both at once:
// w * (c0 + 2^16 c1) summed over the window is L(d) + 2^16 L(d + 1), exact while every lane
// sum L <= wsum * 3T stays <= 0xffff (packed_applies checks it on the host; otherwise, with
// variable windows, or a radius without an instance, fused2 runs the fused kernels). The
// L and R planes stay packed (48 KiB of shared memory at r 16: 4 blocks per SM); the
// vertical pass (sums up to wsum^2 * 3T, 32-bit) runs once per disparity on the lane it
// extracts (one PRMT per loaded word). Taller tiles (32 x 64,
// 8 rows per thread) halve the halo rows' share of the cost and horizontal work. The WTA
// keeps (key, d) per row in registers: disparities arrive in increasing order within a
// block, so a strict < keeps the smaller d on ties; blocks merge by atomicMin on the packed
// values as the fused kernel does. The cost is the sum of absolute byte differences of RGB
// (alpha masked off) = pixel_cost's |dR| + |dG| + |dB|, then min with 3T: the same integers
// as every other path, hence the identical map.
constexpr int kPTH = 64;               // tile height (width kFT)
constexpr int kPRows = kPTH / kBY;     // output rows per thread
constexpr unsigned kLaneMax = 0xffffu;

constexpr int packed_cost_words(int r) { return ((kPTH + 2 * r) * fixed_cost_stride(r) + 3) / 4 * 4; }
std::size_t packed_smem_bytes(int r) {
  const std::size_t hh = kPTH + 2 * r;
  return (static_cast<std::size_t>(packed_cost_words(r)) + 2 * hh * kFT) * sizeof(unsigned);
}

bool packed_radius(int r) { return r == 8 || r == 12 || r == 16 || r == 20 || r == 24; }

// Whether fused2 can run the packed kernel for k (else it runs the fused kernels): a
// compiled radius, no variable windows, lane sums within 16 bits, and the shared memory
// (r 16: 48 KiB, r 24: 63 KiB) within the device's per-block limit `smem_optin`.
bool packed_applies(const KernelParams& k, int smem_optin) {
  return packed_radius(k.radius) && !k.variable_windows &&
         static_cast<std::uint64_t>(k.wsum) * k.trunc3 <= kLaneMax &&
         packed_smem_bytes(k.radius) <= static_cast<std::size_t>(smem_optin);
}

template <int R>
__global__ void __launch_bounds__(kBX* kBY, 4) fused_packed_kernel(const uchar4* __restrict__ ref,
                                                                const uchar4* __restrict__ oth, int W, int H,
                                                                int dir, KernelParams k, int dpb,
                                                                u64* __restrict__ out) {
  constexpr int HW = kFT + 2 * R, HH = kPTH + 2 * R, SW = fixed_cost_stride(R), PL = HH * kFT;
  constexpr int CW = packed_cost_words(R);
  extern __shared__ unsigned smem[];
  unsigned* sc = smem;       // [HH][SW], HW used: packed cost pairs
  unsigned* sp = smem + CW;  // 2 planes [HH][kFT]: L, R, packed like the costs
  const unsigned* refw = reinterpret_cast<const unsigned*>(ref);
  const unsigned* othw = reinterpret_cast<const unsigned*>(oth);
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kBX + tx;
  const int oy0 = ty * kPRows;  // first of this thread's output rows in the tile
  const int x0 = blockIdx.x * kFT, y0 = blockIdx.y * kPTH;
  const int d_begin = blockIdx.z * dpb, d_end = min(k.ndisp, d_begin + dpb);
  const unsigned trunc3 = k.trunc3;
  unsigned bkey[kPRows];
  int bd[kPRows];
#pragma unroll
  for (int q = 0; q < kPRows; ++q) {
    bkey[q] = 0xffffffffu;
    bd[q] = d_begin;
  }
  for (int d = d_begin; d < d_end; d += 2) {
    // 1. packed costs of d and d + 1 (d + 1 may be ndisp: computed, never selected) over
    // the tile + halo, coordinates clamped (= the clamped convolutions).
    for (int hy = ty; hy < HH; hy += kBY) {
      const int gy = sl::clampi(y0 - R + hy, 0, H - 1);
      const unsigned* rrow = refw + static_cast<std::size_t>(gy) * W;
      const unsigned* orow = othw + static_cast<std::size_t>(gy) * W;
      for (int hx = tx; hx < HW; hx += kBX) {
        const int gx = sl::clampi(x0 - R + hx, 0, W - 1);
        const unsigned a = __ldg(rrow + gx) & 0x00ffffffu;
        const unsigned b0 = __ldg(orow + sl::match_x(gx, d, dir, W)) & 0x00ffffffu;
        const unsigned b1 = __ldg(orow + sl::match_x(gx, d + 1, dir, W)) & 0x00ffffffu;
        const unsigned c0 = min(__vsadu4(a, b0), trunc3), c1 = min(__vsadu4(a, b1), trunc3);
        sc[hy * SW + hx] = c0 | (c1 << 16);
      }
    }
    __syncthreads();
    // 2. horizontal, both lanes at once (tasks as in fused_fixed_kernel: 4 columns of one
    // halo row).
    for (int task = tid; task < HH * 8; task += kBX * kBY) {
      const int hy = task >> 3, g = task & 7;
      const unsigned* c = sc + hy * SW + 4 * g;
      unsigned l[4] = {}, rr[4] = {};
#pragma unroll
      for (int j = 0; j < 2 * R + 4; ++j) {
        const unsigned v = c[j];
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const int tl = i + R - j, tr = j - i - R;
          if (tl >= 0 && tl <= R) l[i] += k.w[tl] * v;
          if (tr >= 0 && tr <= R) rr[i] += k.w[tr] * v;
        }
      }
      unsigned* o = sp + hy * kFT + 4 * g;
      *reinterpret_cast<uint4*>(o) = make_uint4(l[0], l[1], l[2], l[3]);
      *reinterpret_cast<uint4*>(o + PL) = make_uint4(rr[0], rr[1], rr[2], rr[3]);
    }
    __syncthreads();
    // 3. vertical streams and the WTA, one disparity (lane h) at a time; the byte
    // permutation takes the lane's 16 bits (bytes 0, 1 or 2, 3; zeros above). Output row oy0 + q is halo
    // row oy0 + q + R; UL sums halo rows oy0 + q .. oy0 + q + R (weight index q + R - j for
    // halo row oy0 + j), DL rows oy0 + q + R .. oy0 + q + 2R (weight index j - q - R).
#pragma unroll 1
    for (int h = 0; h < 2 && d + h < d_end; ++h) {
      // The same words serve both lanes: an opaque column index keeps the compiler from
      // hoisting the 2 (2R + 8) loads out of this loop (it then holds them all: > 128 registers).
      int col = tx;
      asm volatile("" : "+r"(col));
      const unsigned* pl = sp + col;
      const unsigned* pr = sp + PL + col;
      const unsigned sel = 0x4410u + 0x22u * static_cast<unsigned>(h);
      unsigned ul[kPRows] = {}, dl[kPRows] = {}, ur[kPRows] = {}, dr[kPRows] = {};
#pragma unroll
      for (int j = 0; j < 2 * R + kPRows; ++j) {
        const unsigned a = __byte_perm(pl[(oy0 + j) * kFT], 0u, sel);
        const unsigned b = __byte_perm(pr[(oy0 + j) * kFT], 0u, sel);
#pragma unroll
        for (int q = 0; q < kPRows; ++q) {
          const int tu = q + R - j, td = j - q - R;
          if (tu >= 0 && tu <= R) {
            ul[q] += k.w[tu] * a;
            ur[q] += k.w[tu] * b;
          }
          if (td >= 0 && td <= R) {
            dl[q] += k.w[td] * a;
            dr[q] += k.w[td] * b;
          }
        }
      }
#pragma unroll
      for (int q = 0; q < kPRows; ++q) {
        const unsigned key = sl::min4(ul[q], dl[q], ur[q], dr[q]);
        if (key < bkey[q]) {
          bkey[q] = key;
          bd[q] = d + h;
        }
      }
    }
    __syncthreads();  // before the next pair overwrites the shared planes
  }
  const int x = x0 + tx;
  if (x >= W) return;
#pragma unroll
  for (int q = 0; q < kPRows; ++q) {
    const int y = y0 + oy0 + q;
    if (y >= H) continue;
    u64* o = out + static_cast<std::size_t>(y) * W + x;
    const u64 v = sl::pack(bkey[q], bd[q]);
    if (gridDim.z == 1)
      *o = v;
    else
      atomicMin(o, v);
  }
}

__global__ void to_float_kernel(const u64* __restrict__ packed, int n, float* __restrict__ disp) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) disp[i] = static_cast<float>(sl::packed_disparity(packed[i]));
}

__global__ void unpack_kernel(const u64* __restrict__ packed, int n, int* __restrict__ d) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = sl::packed_disparity(packed[i]);
}

__global__ void lr_kernel(const int* __restrict__ dl, const int* __restrict__ dr, int W, int H, float* __restrict__ disp) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  const std::size_t o = static_cast<std::size_t>(y) * W;
  disp[o + x] = static_cast<float>(sl::lr_fill(dl + o, dr + o, W, x));
}

}  // namespace

LocalKernel parse_local_kernel(const std::string& name) {
  if (name == "phase2") return LocalKernel::Phase2;
  if (name == "phase3") return LocalKernel::Phase3;
  if (name == "phase4") return LocalKernel::Phase4;
  if (name == "phase5") return LocalKernel::Phase5;
  if (name == "fused") return LocalKernel::Fused;
  if (name == "fused2") return LocalKernel::Fused2;
  throw Error("--variant '" + name + "': local stereo variants are phase2, phase3, phase4, phase5, fused, fused2");
}

const char* local_kernel_name(LocalKernel k) {
  switch (k) {
    case LocalKernel::Phase2: return "phase2";
    case LocalKernel::Phase3: return "phase3";
    case LocalKernel::Phase4: return "phase4";
    case LocalKernel::Phase5: return "phase5";
    case LocalKernel::Fused: return "fused";
    case LocalKernel::Fused2: return "fused2";
  }
  return "?";
}

std::uint64_t local_pass_bytes(int width, int height, const KernelParams& k, bool lr_check, LocalKernel v) {
  const std::uint64_t px = static_cast<std::uint64_t>(width) * height;
  const std::uint64_t P = static_cast<std::uint64_t>((k.ndisp + 3) / 4) * px * 16;  // one uint4 plane set
  const std::uint64_t img = 2 * px * 4, packed = px * 8;
  const std::uint64_t centre = k.variable_windows ? 2 * P : 0;  // L / R (A / B) re-read by the WTA
  std::uint64_t agg = 0;
  switch (v) {
    case LocalKernel::Phase2:
    case LocalKernel::Phase3:  // cost, horizontal, vertical, WTA
      agg = (img + P) + (P + 2 * P) + (2 * P + 4 * P) + (4 * P + centre + packed);
      break;
    case LocalKernel::Phase4:  // cost, horizontal, 2 x (vertical, WTA copy), the second merges the first
      agg = (img + P) + (P + 2 * P) + 2 * (P + 2 * P) + (4 * P + centre + packed) + 2 * packed;
      break;
    case LocalKernel::Phase5:  // cost, horizontal, 2 x vertical+WTA
      agg = (img + P) + (P + 2 * P) + (2 * P + packed) + 2 * packed;
      break;
    case LocalKernel::Fused:
    case LocalKernel::Fused2: agg = img + packed; break;
  }
  std::uint64_t total = agg + packed + px * 4;  // + to_float
  if (lr_check) total = 2 * agg + 2 * (packed + px * 4) + 2 * px * 4 + px * 4;  // two passes, unpack, check
  return total;
}

PinnedHost::~PinnedHost() {
  if (ptr_) CUDA_CHECK_PRINT(cudaFreeHost(ptr_));
}

void PinnedHost::reserve(std::size_t bytes) {
  if (bytes <= bytes_) return;
  if (ptr_) CUDA_CHECK_THROW(cudaFreeHost(ptr_));
  ptr_ = nullptr;
  bytes_ = 0;
  host_pinned_alloc(reinterpret_cast<void**>(&ptr_), bytes, "the local-stereo staging");
  bytes_ = bytes;
}

void LocalDeviceState::set_pair(const stereo::StereoPair& pair, cudaStream_t s) {
  stereo::validate(stereo::LocalParams{}, pair);
  const ImageU8 l = to_rgba(pair.left), r = to_rgba(pair.right);
  width = l.width;
  height = l.height;
  const std::size_t bytes = l.size_bytes();
  host_left_.reserve(bytes);
  host_right_.reserve(bytes);
  host_disp_.reserve(l.pixels() * sizeof(float));
  std::memcpy(host_left_.get(), l.data.data(), bytes);
  std::memcpy(host_right_.get(), r.data.data(), bytes);
  left.reserve(bytes);
  right.reserve(bytes);
  int dev = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&sm_count_, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&smem_optin_, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  upload(s);
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));
}

void LocalDeviceState::upload(cudaStream_t s) {
  const std::size_t bytes = static_cast<std::size_t>(width) * height * 4;
  CUDA_CHECK_THROW(cudaMemcpyAsync(left.get(), host_left_.get(), bytes, cudaMemcpyHostToDevice, s));
  CUDA_CHECK_THROW(cudaMemcpyAsync(right.get(), host_right_.get(), bytes, cudaMemcpyHostToDevice, s));
}

void LocalDeviceState::download(cudaStream_t s) {
  CUDA_CHECK_THROW(cudaMemcpyAsync(host_disp_.get(), disp.get(), static_cast<std::size_t>(width) * height * 4,
                                   cudaMemcpyDeviceToHost, s));
}

void LocalDeviceState::aggregate(const KernelParams& k, LocalKernel v, int dir, std::uint64_t* out_packed,
                                 cudaStream_t s) {
  const int W = width, H = height;
  const uchar4* ref = (dir < 0 ? left : right).as<uchar4>();
  const uchar4* oth = (dir < 0 ? right : left).as<uchar4>();
  u64* out = reinterpret_cast<u64*>(out_packed);
  const dim3 block(kBX, kBY);
  const dim3 grid2((W + kBX - 1) / kBX, (H + kBY - 1) / kBY);
  if (v == LocalKernel::Fused2 && packed_applies(k, smem_optin_)) {
    const int tiles = ((W + kFT - 1) / kFT) * ((H + kPTH - 1) / kPTH);
    // Disparity batches of an even size (pairs): enough blocks for ~10 per SM, so the
    // blocks (about 3 resident per SM) balance over the SMs; each batch beyond the first
    // costs one atomicMin per pixel.
    const int pairs = (k.ndisp + 1) / 2;
    const int want = std::max(1, (10 * std::max(sm_count_, 1) + tiles - 1) / tiles);
    const int batches = std::min(pairs, want);
    const int dpb = 2 * ((pairs + batches - 1) / batches);
    const int z = (k.ndisp + dpb - 1) / dpb;
    if (z > 1)
      CUDA_CHECK_THROW(cudaMemsetAsync(out, 0xff, static_cast<std::size_t>(W) * H * sizeof(u64), s));
    const dim3 gridp((W + kFT - 1) / kFT, (H + kPTH - 1) / kPTH, z);
    auto launch = [&](auto kernel, std::size_t smem) {
      if (smem > 48 * 1024)
        CUDA_CHECK_THROW(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(smem)));
      kernel<<<gridp, block, smem, s>>>(ref, oth, W, H, dir, k, dpb, out);
      CUDA_CHECK_LAUNCH();
    };
    switch (k.radius) {
      case 8: launch(fused_packed_kernel<8>, packed_smem_bytes(8)); break;
      case 12: launch(fused_packed_kernel<12>, packed_smem_bytes(12)); break;
      case 16: launch(fused_packed_kernel<16>, packed_smem_bytes(16)); break;
      case 20: launch(fused_packed_kernel<20>, packed_smem_bytes(20)); break;
      default: launch(fused_packed_kernel<24>, packed_smem_bytes(24)); break;  // packed_radius
    }
    return;
  }
  if (v == LocalKernel::Fused || v == LocalKernel::Fused2) {  // fused2 without packing: fused
    const int tiles = ((W + kFT - 1) / kFT) * ((H + kFT - 1) / kFT);
    // Enough blocks for ~4 per SM: split the disparities into batches when tiles are few.
    const int want = std::max(1, (4 * std::max(sm_count_, 1) + tiles - 1) / tiles);
    const int batches = std::min(k.ndisp, want);
    const int dpb = (k.ndisp + batches - 1) / batches;
    const int z = (k.ndisp + dpb - 1) / dpb;
    if (z > 1)
      CUDA_CHECK_THROW(cudaMemsetAsync(out, 0xff, static_cast<std::size_t>(W) * H * sizeof(u64), s));
    const dim3 gridf((W + kFT - 1) / kFT, (H + kFT - 1) / kFT, z);
    // A compile-time radius when there is one for k.radius, else the generic kernel.
    auto launch = [&](auto kernel, std::size_t smem) {
      if (smem > 48 * 1024)
        CUDA_CHECK_THROW(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(smem)));
      kernel<<<gridf, block, smem, s>>>(ref, oth, W, H, dir, k, dpb, out);
      CUDA_CHECK_LAUNCH();
    };
    switch (k.radius) {
      case 8: launch(fused_fixed_kernel<8>, fixed_smem_bytes(8)); break;
      case 12: launch(fused_fixed_kernel<12>, fixed_smem_bytes(12)); break;
      case 16: launch(fused_fixed_kernel<16>, fixed_smem_bytes(16)); break;
      case 20: launch(fused_fixed_kernel<20>, fixed_smem_bytes(20)); break;
      case 24: launch(fused_fixed_kernel<24>, fixed_smem_bytes(24)); break;
      default: launch(fused_kernel, fused_smem_bytes(k.radius)); break;
    }
    return;
  }
  const int groups = (k.ndisp + 3) / 4;
  const std::size_t plane = static_cast<std::size_t>(groups) * W * H * sizeof(uint4);
  for (DeviceBuffer& b : work) b.reserve(plane);
  uint4* w[6];
  for (int i = 0; i < 6; ++i) w[i] = work[i].as<uint4>();
  const dim3 grid3(grid2.x, grid2.y, groups);
  cost_kernel<<<grid3, block, 0, s>>>(ref, oth, W, H, dir, k.trunc3, w[0]);
  CUDA_CHECK_LAUNCH();
  switch (v) {
    case LocalKernel::Phase2:
    case LocalKernel::Phase3: {
      horizontal_kernel<false><<<grid3, block, 0, s>>>(w[0], W, H, k, w[1], w[2]);  // L, R
      CUDA_CHECK_LAUNCH();
      // UL w3, DL w4, UR w5, DR w0 (the cost plane is dead after the horizontal pass)
      if (v == LocalKernel::Phase2) {
        vertical_both_kernel<<<grid3, block, 0, s>>>(w[1], w[2], W, H, k, w[3], w[4], w[5], w[0]);
        CUDA_CHECK_LAUNCH();
      } else {
        vertical_kernel<<<grid3, block, 0, s>>>(w[1], W, H, k, w[3], w[4]);
        CUDA_CHECK_LAUNCH();
        vertical_kernel<<<grid3, block, 0, s>>>(w[2], W, H, k, w[5], w[0]);
        CUDA_CHECK_LAUNCH();
      }
      wta_kernel<<<grid2, block, 0, s>>>(w[3], w[4], w[5], w[0], w[1], w[2], W, H, k, out);
      CUDA_CHECK_LAUNCH();
      break;
    }
    case LocalKernel::Phase4: {
      horizontal_kernel<true><<<grid3, block, 0, s>>>(w[0], W, H, k, w[1], w[2]);  // A, B
      CUDA_CHECK_LAUNCH();
      // A: up w3, down w4; B: up w5, down w0. The first WTA copy's result goes to `out`,
      // the second merges it in place (each pixel reads then writes its own entry).
      vertical_kernel<<<grid3, block, 0, s>>>(w[1], W, H, k, w[3], w[4]);
      CUDA_CHECK_LAUNCH();
      wta_half_kernel<<<grid2, block, 0, s>>>(w[3], w[4], w[1], W, H, k, 0, nullptr, out);
      CUDA_CHECK_LAUNCH();
      vertical_kernel<<<grid3, block, 0, s>>>(w[2], W, H, k, w[5], w[0]);
      CUDA_CHECK_LAUNCH();
      wta_half_kernel<<<grid2, block, 0, s>>>(w[5], w[0], w[2], W, H, k, 1, out, out);
      CUDA_CHECK_LAUNCH();
      break;
    }
    case LocalKernel::Phase5: {
      horizontal_kernel<true><<<grid3, block, 0, s>>>(w[0], W, H, k, w[1], w[2]);  // A, B
      CUDA_CHECK_LAUNCH();
      vertical_wta_kernel<<<grid2, block, 0, s>>>(w[1], W, H, k, 0, nullptr, out);
      CUDA_CHECK_LAUNCH();
      vertical_wta_kernel<<<grid2, block, 0, s>>>(w[2], W, H, k, 1, out, out);
      CUDA_CHECK_LAUNCH();
      break;
    }
    case LocalKernel::Fused:
    case LocalKernel::Fused2: break;
  }
}

void LocalDeviceState::compute(const KernelParams& k, bool lr_check, LocalKernel v, cudaStream_t s) {
  LB_REQUIRE(!empty(), "stereo local: no pair loaded");
  const int n = width * height;
  packed.reserve(static_cast<std::size_t>(n) * 2 * sizeof(u64));
  disp.reserve(static_cast<std::size_t>(n) * sizeof(float));
  std::uint64_t* p0 = packed.as<std::uint64_t>();
  std::uint64_t* p1 = p0 + n;
  aggregate(k, v, -1, p0, s);
  if (!lr_check) {
    to_float_kernel<<<(n + 255) / 256, 256, 0, s>>>(reinterpret_cast<u64*>(p0), n, disp.as<float>());
    CUDA_CHECK_LAUNCH();
    return;
  }
  aggregate(k, v, +1, p1, s);
  ints.reserve(static_cast<std::size_t>(n) * 2 * sizeof(int));
  int* dl = ints.as<int>();
  int* dr = dl + n;
  unpack_kernel<<<(n + 255) / 256, 256, 0, s>>>(reinterpret_cast<u64*>(p0), n, dl);
  CUDA_CHECK_LAUNCH();
  unpack_kernel<<<(n + 255) / 256, 256, 0, s>>>(reinterpret_cast<u64*>(p1), n, dr);
  CUDA_CHECK_LAUNCH();
  const dim3 block(kBX, kBY);
  const dim3 grid2((width + kBX - 1) / kBX, (height + kBY - 1) / kBY);
  lr_kernel<<<grid2, block, 0, s>>>(dl, dr, width, height, disp.as<float>());
  CUDA_CHECK_LAUNCH();
}

}  // namespace detail

// ---------------------------------------------------------------------------------------
// The CUDA matcher
// ---------------------------------------------------------------------------------------
namespace {

using namespace detail;

class CudaLocalStereo final : public DeviceStereoMatcher<stereo::LocalParams> {
 public:
  explicit CudaLocalStereo(int device) : device_(device) {
    std::string why;
    if (!device_available(&why)) throw Error("CUDA local stereo: " + why);
    CUDA_CHECK_THROW(cudaSetDevice(device));
    info_ = device_info(device);
    stream_ = std::make_unique<Stream>();
    for (auto& e : ev_) e = std::make_unique<Event>();
  }
  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string device_name() const override { return info_.name; }
  void set_pair(const stereo::StereoPair& pair) override {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    CUDA_CHECK_THROW(cudaStreamSynchronize(stream_->get()));
    outputs_.reset();
    st_.set_pair(pair, stream_->get());
  }
  bool has_pair() const override { return !st_.empty(); }
  std::vector<std::string> variants() const override { return stereo::local_variants(); }
  std::string default_variant() const override { return "fused2"; }
 private:
  cudaStream_t stream() const override { return stream_->get(); }
  // out == nullptr: download the map into the result; else write it into out from the device.
  stereo::StereoResult run_impl(const stereo::LocalParams& p, const std::string& variant_in, Surface* out) override {
    LB_REQUIRE(has_pair(), "stereo local: no pair loaded");
    const stereo::local::KernelParams k = stereo::local::kernel_params(p);  // validates
    const std::string variant = variant_in.empty() ? default_variant() : variant_in;
    const LocalKernel v = parse_local_kernel(variant);
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const cudaStream_t s = stream_->get();
    CUDA_CHECK_THROW(cudaEventRecord(ev_[0]->get(), s));
    st_.upload(s);
    CUDA_CHECK_THROW(cudaEventRecord(ev_[1]->get(), s));
    st_.compute(k, p.lr_check != 0, v, s);
    CUDA_CHECK_THROW(cudaEventRecord(ev_[2]->get(), s));
    outputs_.set_map(st_.disp.as<float>(), st_.width, st_.height);
    if (out) outputs_.map_to_surface(*out, s);
    else st_.download(s);
    CUDA_CHECK_THROW(cudaEventRecord(ev_[3]->get(), s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    float ms = 0, total = 0;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, ev_[1]->get(), ev_[2]->get()));
    CUDA_CHECK_THROW(cudaEventElapsedTime(&total, ev_[0]->get(), ev_[3]->get()));
    stereo::StereoResult r;
    r.variant = variant;
    r.ms = ms;
    r.ms_total = total;
    if (!out) {
      r.disparity = ImageF(st_.width, st_.height, 1);
      std::memcpy(r.disparity.data.data(), st_.host_disp(), r.disparity.size_bytes());
    }
    timings_.record(stereo::local_timing_key(variant), ms,
                    local_pass_bytes(st_.width, st_.height, k, p.lr_check != 0, v));
    return r;
  }

  int device_;
  DeviceInfo info_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<Event> ev_[4];
  LocalDeviceState st_;
};

}  // namespace

std::unique_ptr<stereo::StereoMatcher<stereo::LocalParams>> make_local_stereo_cuda(int device) {
  return std::make_unique<CudaLocalStereo>(device);
}

}  // namespace lb::cuda
