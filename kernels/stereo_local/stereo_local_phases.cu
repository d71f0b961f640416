// Center-biased local stereo on CUDA, the seed's kernel-fusion phases (phase2 .. phase5):
// disparities in groups of four, one uint4 per pixel and group ("four disparities packed per
// 4-vector"), planes [group][y][x] in global memory (the pipelines: stereo_local_pipeline.cu).
// Integer arithmetic of stereo_local/stereo_local_math.hpp: the CPU reference's map exactly.
#include <cuda_runtime.h>

#include "cuda_check.cuh"
#include "stereo_local/stereo_local_kernels.cuh"

namespace lb::cuda::detail {
namespace {

// cost[g][y][x] = costs of d = 4g .. 4g+3 (beyond ndisp: computed, never selected).
__global__ void local_cost_kernel(const uchar4* __restrict__ ref, const uchar4* __restrict__ oth, int W, int H, int dir,
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
__global__ void local_horizontal_kernel(const uint4* __restrict__ cost, int W, int H, KernelParams k,
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
__global__ void local_vertical_kernel(const uint4* __restrict__ in, int W, int H, KernelParams k, uint4* __restrict__ up,
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
__global__ void local_vertical_both_kernel(const uint4* __restrict__ L, const uint4* __restrict__ R, int W, int H,
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
__global__ void local_wta_kernel(const uint4* __restrict__ ul, const uint4* __restrict__ dl, const uint4* __restrict__ ur,
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
__global__ void local_wta_half_kernel(const uint4* __restrict__ up, const uint4* __restrict__ dn,
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
__global__ void local_vertical_wta_kernel(const uint4* __restrict__ in, int W, int H, KernelParams k, int h,
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

}  // namespace

void launch_local_phases(const LocalLaunch& a, LocalKernel v, DeviceBuffer (&work)[6], cudaStream_t s) {
  const uchar4* ref = a.ref;
  const uchar4* oth = a.oth;
  const int W = a.W, H = a.H, dir = a.dir;
  const KernelParams& k = a.k;
  u64* out = a.out;
  const dim3 block(kBX, kBY);
  const dim3 grid2((W + kBX - 1) / kBX, (H + kBY - 1) / kBY);
  const int groups = (k.ndisp + 3) / 4;
  const std::size_t plane = static_cast<std::size_t>(groups) * W * H * sizeof(uint4);
  for (DeviceBuffer& b : work) b.reserve(plane);
  uint4* w[6];
  for (int i = 0; i < 6; ++i) w[i] = work[i].as<uint4>();
  const dim3 grid3(grid2.x, grid2.y, groups);
  local_cost_kernel<<<grid3, block, 0, s>>>(ref, oth, W, H, dir, k.trunc3, w[0]);
  CUDA_CHECK_LAUNCH();
  switch (v) {
    case LocalKernel::Phase2:
    case LocalKernel::Phase3: {
      local_horizontal_kernel<false><<<grid3, block, 0, s>>>(w[0], W, H, k, w[1], w[2]);  // L, R
      CUDA_CHECK_LAUNCH();
      // UL w3, DL w4, UR w5, DR w0 (the cost plane is dead after the horizontal pass)
      if (v == LocalKernel::Phase2) {
        local_vertical_both_kernel<<<grid3, block, 0, s>>>(w[1], w[2], W, H, k, w[3], w[4], w[5], w[0]);
        CUDA_CHECK_LAUNCH();
      } else {
        local_vertical_kernel<<<grid3, block, 0, s>>>(w[1], W, H, k, w[3], w[4]);
        CUDA_CHECK_LAUNCH();
        local_vertical_kernel<<<grid3, block, 0, s>>>(w[2], W, H, k, w[5], w[0]);
        CUDA_CHECK_LAUNCH();
      }
      local_wta_kernel<<<grid2, block, 0, s>>>(w[3], w[4], w[5], w[0], w[1], w[2], W, H, k, out);
      CUDA_CHECK_LAUNCH();
      break;
    }
    case LocalKernel::Phase4: {
      local_horizontal_kernel<true><<<grid3, block, 0, s>>>(w[0], W, H, k, w[1], w[2]);  // A, B
      CUDA_CHECK_LAUNCH();
      // A: up w3, down w4; B: up w5, down w0. The first WTA copy's result goes to `out`,
      // the second merges it in place (each pixel reads then writes its own entry).
      local_vertical_kernel<<<grid3, block, 0, s>>>(w[1], W, H, k, w[3], w[4]);
      CUDA_CHECK_LAUNCH();
      local_wta_half_kernel<<<grid2, block, 0, s>>>(w[3], w[4], w[1], W, H, k, 0, nullptr, out);
      CUDA_CHECK_LAUNCH();
      local_vertical_kernel<<<grid3, block, 0, s>>>(w[2], W, H, k, w[5], w[0]);
      CUDA_CHECK_LAUNCH();
      local_wta_half_kernel<<<grid2, block, 0, s>>>(w[5], w[0], w[2], W, H, k, 1, out, out);
      CUDA_CHECK_LAUNCH();
      break;
    }
    case LocalKernel::Phase5: {
      local_horizontal_kernel<true><<<grid3, block, 0, s>>>(w[0], W, H, k, w[1], w[2]);  // A, B
      CUDA_CHECK_LAUNCH();
      local_vertical_wta_kernel<<<grid2, block, 0, s>>>(w[1], W, H, k, 0, nullptr, out);
      CUDA_CHECK_LAUNCH();
      local_vertical_wta_kernel<<<grid2, block, 0, s>>>(w[2], W, H, k, 1, out, out);
      CUDA_CHECK_LAUNCH();
      break;
    }
    case LocalKernel::Fused:
    case LocalKernel::Fused2: break;
  }
}

}  // namespace lb::cuda::detail
