// Center-biased local stereo on CUDA, variant fused: one kernel per 32x32 tile and batch of
// disparities: cost (tile + halo), both passes and the WTA in shared memory / registers;
// batches merge by atomicMin on the packed (key, d) values, which is order-independent.
// Radii 8, 12, 16, 20, 24 run an unrolled instance (weights as constants, 4 rows per thread
// in the vertical pass), other radii the generic kernel. Integer arithmetic of
// stereo_local/stereo_local_math.hpp: the CPU reference's map exactly.
#include <cuda_runtime.h>

#include <algorithm>

#include "cuda_check.cuh"
#include "stereo_local/stereo_local_kernels.cuh"

namespace lb::cuda::detail {
namespace {

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

__global__ void __launch_bounds__(kBX* kBY) local_fused_kernel(const uchar4* __restrict__ ref, const uchar4* __restrict__ oth,
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
// integer sums as local_fused_kernel: the identical result.
template <int R>
__global__ void __launch_bounds__(kBX* kBY) local_fused_fixed_kernel(const uchar4* __restrict__ ref,
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
      vertical_window_add<R>(k, j, sL[(oy0 + j) * kFT + tx], sR[(oy0 + j) * kFT + tx], ul, dl, ur, dr);
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

}  // namespace

void launch_local_fused(const LocalLaunch& a, cudaStream_t s) {
  const dim3 block(kBX, kBY);
  const int tiles = ((a.W + kFT - 1) / kFT) * ((a.H + kFT - 1) / kFT);
  const DisparityBatches z = disparity_batches(a, tiles, 4, 1, s);  // ~4 blocks per SM
  const dim3 grid((a.W + kFT - 1) / kFT, (a.H + kFT - 1) / kFT, z.count);
  // A compile-time radius when there is one for k.radius, else the generic kernel.
  auto launch = [&](auto kernel, std::size_t smem) {
    launch_fused_kernel(kernel, grid, block, smem, a, z.per_batch, s);
  };
  switch (a.k.radius) {
    case 8: launch(local_fused_fixed_kernel<8>, fixed_smem_bytes(8)); break;
    case 12: launch(local_fused_fixed_kernel<12>, fixed_smem_bytes(12)); break;
    case 16: launch(local_fused_fixed_kernel<16>, fixed_smem_bytes(16)); break;
    case 20: launch(local_fused_fixed_kernel<20>, fixed_smem_bytes(20)); break;
    case 24: launch(local_fused_fixed_kernel<24>, fixed_smem_bytes(24)); break;
    default: launch(local_fused_kernel, fused_smem_bytes(a.k.radius)); break;
  }
}

}  // namespace lb::cuda::detail
