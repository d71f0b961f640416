#pragma once
// Shared by the local-stereo kernel files (stereo_local_phases.cu, stereo_local_fused.cu,
// stereo_local_fused2.cu) and their pipeline (stereo_local_pipeline.cu): the launch
// arguments, the per-family launchers and the small device helpers. Device code: included
// by .cu files only. The integer arithmetic is stereo_local/stereo_local_math.hpp's.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cuda_check.cuh"
#include "dynamic_shared.cuh"
#include "cuda_util.hpp"
#include "stereo_local/stereo_local_math.hpp"
#include "stereo_local/stereo_local_launch.hpp"

namespace lb::cuda::detail {

using stereo::local::KernelParams;
using u64 = unsigned long long;
namespace sl = stereo::local;

// One aggregation pass: reference image ref (dir -1: left, +1: right) against oth, into the
// packed (key << 10 | d) winners `out` (W x H).
struct LocalLaunch {
  const uchar4* ref;
  const uchar4* oth;
  int W, H, dir;
  KernelParams k;
  int sm_count;  // SMs of the device (batching of the fused kernels)
  u64* out;
};

// The fused kernels' grid over the disparities (gridDim.z): when the image has few tiles, the
// disparities are split into batches so that a launch has about `blocks_per_sm` blocks per
// SM; batch sizes are multiples of `step` (fused2 handles disparity pairs). With more than one
// batch the batches atomicMin into `out`, which is first set to "no winner yet".
struct DisparityBatches {
  int per_batch, count;
};
inline DisparityBatches disparity_batches(const LocalLaunch& a, int tiles, int blocks_per_sm, int step,
                                          cudaStream_t s) {
  const int units = (a.k.ndisp + step - 1) / step;
  const int want = std::max(1, (blocks_per_sm * std::max(a.sm_count, 1) + tiles - 1) / tiles);
  const int per_batch = step * ((units + std::min(units, want) - 1) / std::min(units, want));
  const DisparityBatches b{per_batch, (a.k.ndisp + per_batch - 1) / per_batch};
  if (b.count > 1)
    CUDA_CHECK_THROW(cudaMemsetAsync(a.out, 0xff, static_cast<std::size_t>(a.W) * a.H * sizeof(u64), s));
  return b;
}
// Launches a fused kernel (ref, oth, W, H, dir, k, per_batch, out) with `smem` bytes of dynamic
// shared memory, opting in beyond 48 KiB.
template <class Kernel>
void launch_fused_kernel(Kernel kernel, dim3 grid, dim3 block, std::size_t smem, const LocalLaunch& a,
                         int per_batch, cudaStream_t s) {
  allow_dynamic_shared(kernel, smem);
  kernel<<<grid, block, smem, s>>>(a.ref, a.oth, a.W, a.H, a.dir, a.k, per_batch, a.out);
  CUDA_CHECK_LAUNCH();
}

// stereo_local_phases.cu: phase2 .. phase5 (planes in work[0..5], reserved here).
void launch_local_phases(const LocalLaunch& a, LocalKernel v, DeviceBuffer (&work)[6], cudaStream_t s);
// stereo_local_fused.cu: the fused kernels (a compile-time radius when there is one).
void launch_local_fused(const LocalLaunch& a, cudaStream_t s);
// stereo_local_fused2.cu: the packed-pairs kernel (fused2), where local_packed_applies.
void launch_local_fused_packed(const LocalLaunch& a, cudaStream_t s);
// Whether fused2 can run the packed kernel for k (else it runs the fused kernels): a
// compiled radius, no variable windows, lane sums within 16 bits, and the shared memory
// within the device's per-block limit `smem_optin`.
bool local_packed_applies(const KernelParams& k, int smem_optin);

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

// Fused: a kFT x kFT tile, disparities [z * dpb, min(ndisp, (z+1) * dpb)). Shared memory:
// costs of the tile plus an r-halo on every side, then the L and R streams of the tile's
// columns over the halo rows. Each thread owns kFT / kBY rows of one column.
constexpr int kFT = 32;

// Row stride of the fixed kernels' cost plane: >= kFT + 2R and = 1 (mod 32), so the 4 rows
// a warp reads in the horizontal pass fall in different banks; rounded up to keep
// HH * stride a multiple of 4 (the L / R planes after it take 16-byte stores).
constexpr int fixed_cost_stride(int r) {
  int sw = kFT + 2 * r;
  while (sw % 32 != 1) ++sw;
  return sw;
}

}  // namespace
// Halo row j's values a (left) and b (right) into the vertical window sums of Q output rows of
// a tile (output row q is halo row q + R): up (ul, ur) sums halo rows q .. q + R with weight
// index q + R - j, down (dl, dr) rows q + R .. q + 2R with weight index j - q - R. With j a
// constant of an unrolled loop every test folds away (the fused kernels' inner loop).
template <int R, int Q>
__device__ __forceinline__ void vertical_window_add(const KernelParams& k, int j, unsigned a, unsigned b,
                                                    unsigned (&ul)[Q], unsigned (&dl)[Q], unsigned (&ur)[Q],
                                                    unsigned (&dr)[Q]) {
#pragma unroll
  for (int q = 0; q < Q; ++q) {
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

}  // namespace lb::cuda::detail
