// General-grid depth kernels (issue 22), exactly depth_hex (render_hex_cpu.cpp): the cost of
// each candidate patch size is hex::depth_cost itself (integer, hex_depth_math.hpp); window 1 fuses
// the argmin into the cost kernel, a larger window writes the cost volume [q][y][x] first
// and hex_depth_select_kernel does the k x k aggregation (uint64 sums of the valid costs,
// round-half-up mean) and the argmin with the CPU's loop order (q ascending, strict <: ties
// go to the smaller P; 0 where no candidate has a cost). Also the touched-pixel count of a
// depth pass and the score of a map (score_hex_depth's definition).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cuda_check.cuh"
#include "plenoptic_hex/hex_kernels.cuh"
#include "plenoptic_hex/hex_depth_math.hpp"
#include "surface_write.cuh"

namespace lb::cuda::detail {
namespace {

__device__ __forceinline__ float* map_row(float* base, std::size_t pitch, int y) {
  return reinterpret_cast<float*>(reinterpret_cast<std::uint8_t*>(base) + static_cast<std::size_t>(y) * pitch);
}

// window == 1: costs and argmin in one pass, nothing stored but the map.
template <bool Smem, int MaxS>
__global__ void hex_depth_fused_kernel(const hex::HexLayout L, const hex::HexTables G, const HexRawFetch fetch,
                                       int pmin, int pmax, float ap2, std::uint32_t cap, float* out,
                                       std::size_t out_pitch) {
  const hex::HexTables T = hex_tables_for<Smem>(L, G);
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= L.out_w || y >= L.out_h) return;
  const float sx = hex::scene_coord(L.s0x, x, L.patch), sy = hex::scene_coord(L.s0y, y, L.patch);
  std::uint32_t best = hex::kNoCost;
  int bestP = 0;
  for (int P = pmin; P <= pmax; ++P) {
    const std::uint32_t c = hex::depth_cost<MaxS>(L, T, sx, sy, P, ap2, cap, fetch);
    if (c < best) {  // ties: the smaller patch size (first)
      best = c;
      bestP = P;
    }
  }
  map_row(out, out_pitch, y)[x] = static_cast<float>(bestP);
}

// window > 1, pass 1: the cost volume [q][y][x].
template <bool Smem, int MaxS>
__global__ void hex_depth_cost_kernel(const hex::HexLayout L, const hex::HexTables G, const HexRawFetch fetch,
                                      int pmin, int pmax, float ap2, std::uint32_t cap, std::uint32_t* cost) {
  const hex::HexTables T = hex_tables_for<Smem>(L, G);
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= L.out_w || y >= L.out_h) return;
  const float sx = hex::scene_coord(L.s0x, x, L.patch), sy = hex::scene_coord(L.s0y, y, L.patch);
  const std::size_t plane = static_cast<std::size_t>(L.out_w) * L.out_h;
  const std::size_t at = static_cast<std::size_t>(y) * L.out_w + x;
  for (int P = pmin; P <= pmax; ++P)
    cost[static_cast<std::size_t>(P - pmin) * plane + at] = hex::depth_cost<MaxS>(L, T, sx, sy, P, ap2, cap, fetch);
}

// window > 1, pass 2: the box mean of the valid costs per candidate, then the argmin.
__global__ void hex_depth_select_kernel(const std::uint32_t* cost, int W, int H, int n, int pmin, int r, float* out,
                                        std::size_t out_pitch) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= W || y >= H) return;
  const int y0 = max(0, y - r), y1 = min(H - 1, y + r), x0 = max(0, x - r), x1 = min(W - 1, x + r);
  std::uint32_t best = hex::kNoCost;
  int bestP = 0;
  for (int q = 0; q < n; ++q) {
    const std::uint32_t* c = cost + static_cast<std::size_t>(q) * W * H;
    std::uint64_t sum = 0, cnt = 0;
    for (int yy = y0; yy <= y1; ++yy)
      for (int xx = x0; xx <= x1; ++xx) {
        const std::uint32_t v = __ldg(c + static_cast<std::size_t>(yy) * W + xx);
        if (v != hex::kNoCost) {
          sum += v;
          ++cnt;
        }
      }
    const std::uint32_t m = cnt > 0 ? static_cast<std::uint32_t>((sum + cnt / 2) / cnt) : hex::kNoCost;
    if (m < best) {
      best = m;
      bestP = pmin + q;
    }
  }
  map_row(out, out_pitch, y)[x] = static_cast<float>(bestP);
}

// The raw pixels the depth pass reads over every candidate, marked in a byte map.
__global__ void hex_touch_depth_kernel(const hex::HexLayout L, const hex::HexTables T, HexMarkFetch mark, int pmin,
                                       int pmax, float ap2) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= L.out_w || y >= L.out_h) return;
  const float sx = hex::scene_coord(L.s0x, x, L.patch), sy = hex::scene_coord(L.s0y, y, L.patch);
  for (int P = pmin; P <= pmax; ++P) (void)hex::depth_cost(L, T, sx, sy, P, ap2, hex::kNoCap, mark);
}

constexpr int kCountThreads = 256;

__global__ void hex_count_kernel(const std::uint8_t* mark, std::size_t n, unsigned long long* total) {
  unsigned long long c = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * kCountThreads + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * kCountThreads)
    c += mark[i] != 0;
  __shared__ unsigned long long s[kCountThreads];
  s[threadIdx.x] = c;
  __syncthreads();
  for (int k = kCountThreads / 2; k > 0; k >>= 1) {
    if (static_cast<int>(threadIdx.x) < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, s[0]);
}

// One partial per block (pixels, with, exact, sum |d - g|); the host adds the blocks in order.
__global__ void hex_score_kernel(const std::uint8_t* map, std::size_t map_pitch, const float* truth, int w, int h,
                                 unsigned long long* parts, double* err) {
  __shared__ unsigned long long s_pix[kCountThreads], s_with[kCountThreads], s_exact[kCountThreads];
  __shared__ double s_err[kCountThreads];
  const long long n = static_cast<long long>(w) * h;
  unsigned long long pix = 0, with = 0, ex = 0;
  double e = 0.0;
  for (long long i = static_cast<long long>(blockIdx.x) * kCountThreads + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * kCountThreads) {
    const int x = static_cast<int>(i % w), y = static_cast<int>(i / w);
    const float g = truth[i];
    if (!isfinite(g) || g <= 0.f) continue;
    ++pix;
    const float d = plane_row(reinterpret_cast<const float*>(map), map_pitch, y)[x];
    if (!(isfinite(d) && d > 0.f)) continue;
    ++with;
    ex += d == g;
    e += fabs(static_cast<double>(d) - static_cast<double>(g));
  }
  s_pix[threadIdx.x] = pix;
  s_with[threadIdx.x] = with;
  s_exact[threadIdx.x] = ex;
  s_err[threadIdx.x] = e;
  __syncthreads();
  for (int k = kCountThreads / 2; k > 0; k >>= 1) {
    if (static_cast<int>(threadIdx.x) < k) {
      s_pix[threadIdx.x] += s_pix[threadIdx.x + k];
      s_with[threadIdx.x] += s_with[threadIdx.x + k];
      s_exact[threadIdx.x] += s_exact[threadIdx.x + k];
      s_err[threadIdx.x] += s_err[threadIdx.x + k];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    parts[3 * blockIdx.x] = s_pix[0];
    parts[3 * blockIdx.x + 1] = s_with[0];
    parts[3 * blockIdx.x + 2] = s_exact[0];
    err[blockIdx.x] = s_err[0];
  }
}

void require_depth(const HexTablesDevice& t, const HexRawDevice& raw, int pmin, int pmax) {
  const hex::HexLayout& L = t.layout;
  LB_REQUIRE(t.buf.get() != nullptr && t.view.types != nullptr, "hex depth: no tables on the device");
  LB_REQUIRE(raw.rgba != nullptr && raw.width == L.raw_w && raw.height == L.raw_h &&
                 raw.pitch >= static_cast<std::size_t>(raw.width) * 4,
             "hex depth: the tables were built for another raw size");
  LB_REQUIRE(pmin >= 1 && pmax <= hex::kMaxPatchIndex && pmin <= pmax,
             "hex depth: bad patch-size range " + std::to_string(pmin) + ".." + std::to_string(pmax));
}

}  // namespace

std::size_t hex_depth_scratch_bytes(const hex::HexLayout& L, int pmin, int pmax, int window) {
  if (window <= 1 || pmax < pmin) return 0;
  return static_cast<std::size_t>(pmax - pmin + 1) * static_cast<std::size_t>(std::max(0, L.out_w)) *
         static_cast<std::size_t>(std::max(0, L.out_h)) * 4;
}

void launch_hex_depth(HexVariant v, const HexTablesDevice& t, const HexRawDevice& raw, int pmin, int pmax,
                      float aperture2, std::uint32_t cap, int window, std::uint32_t* scratch, float* out,
                      std::size_t out_pitch, cudaStream_t stream) {
  require_depth(t, raw, pmin, pmax);
  LB_REQUIRE(window >= 1 && window % 2 == 1, "hex depth: window " + std::to_string(window) + " must be odd");
  const hex::HexLayout& L = t.layout;
  LB_REQUIRE(out != nullptr && out_pitch >= static_cast<std::size_t>(L.out_w) * 4, "hex depth: no output map");
  if (L.out_w <= 0 || L.out_h <= 0) return;
  const std::size_t smem = hex_launch_smem(v, L);
  const bool staged = v != HexVariant::Original;  // pruned: depth as smem-tables (see HexNearPrefix)
  const HexRawFetch fetch{raw.rgba, raw.pitch};
  const dim3 grid = hex_grid(L.out_w, L.out_h), block = hex_block();
  // 8 samples when the main lens and its neighbours fit (rings 1 on a hexagonal grid: 7), else 64.
  auto with_max = [&](auto f) {
    if (1 + L.n_nbr <= 8) f(std::integral_constant<int, 8>{});
    else f(std::integral_constant<int, hex::kMaxDepthSamples>{});
  };
  if (window == 1) {
    with_max([&](auto m) {
      constexpr int M = decltype(m)::value;
      if (staged)
        hex_depth_fused_kernel<true, M><<<grid, block, smem, stream>>>(L, t.view, fetch, pmin, pmax, aperture2, cap,
                                                                       out, out_pitch);
      else
        hex_depth_fused_kernel<false, M><<<grid, block, 0, stream>>>(L, t.view, fetch, pmin, pmax, aperture2, cap,
                                                                     out, out_pitch);
      CUDA_CHECK_LAUNCH();
    });
    return;
  }
  LB_REQUIRE(scratch != nullptr, "hex depth: no cost-volume scratch for window " + std::to_string(window));
  with_max([&](auto m) {
    constexpr int M = decltype(m)::value;
    if (staged)
      hex_depth_cost_kernel<true, M><<<grid, block, smem, stream>>>(L, t.view, fetch, pmin, pmax, aperture2, cap,
                                                                    scratch);
    else
      hex_depth_cost_kernel<false, M><<<grid, block, 0, stream>>>(L, t.view, fetch, pmin, pmax, aperture2, cap,
                                                                  scratch);
    CUDA_CHECK_LAUNCH();
  });
  hex_depth_select_kernel<<<grid, block, 0, stream>>>(scratch, L.out_w, L.out_h, pmax - pmin + 1, pmin, window / 2,
                                                      out, out_pitch);
  CUDA_CHECK_LAUNCH();
}

std::uint64_t hex_count_marked(const std::uint8_t* mark, std::size_t n, cudaStream_t stream) {
  DeviceBuffer total(sizeof(unsigned long long), "the touched-pixel count");
  CUDA_CHECK_THROW(cudaMemsetAsync(total.get(), 0, sizeof(unsigned long long), stream));
  const int blocks = static_cast<int>(std::min<std::size_t>((n + kCountThreads - 1) / kCountThreads, 1024));
  if (blocks > 0) {
    hex_count_kernel<<<blocks, kCountThreads, 0, stream>>>(mark, n, total.as<unsigned long long>());
    CUDA_CHECK_LAUNCH();
  }
  unsigned long long h = 0;
  CUDA_CHECK_THROW(cudaMemcpyAsync(&h, total.get(), sizeof h, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
  return h;
}

std::uint64_t hex_touched_depth(const HexTablesDevice& t, const HexRawDevice& raw, int pmin, int pmax,
                                float aperture2, cudaStream_t stream) {
  require_depth(t, raw, pmin, pmax);
  const hex::HexLayout& L = t.layout;
  if (L.out_w <= 0 || L.out_h <= 0) return 0;
  const std::size_t n = static_cast<std::size_t>(L.raw_w) * L.raw_h;
  DeviceBuffer mark(n, "the touched-pixel map");
  CUDA_CHECK_THROW(cudaMemsetAsync(mark.get(), 0, n, stream));
  hex_touch_depth_kernel<<<hex_grid(L.out_w, L.out_h), hex_block(), 0, stream>>>(
      L, t.view, HexMarkFetch{mark.as<std::uint8_t>(), L.raw_w}, pmin, pmax, aperture2);
  CUDA_CHECK_LAUNCH();
  return hex_count_marked(mark.as<std::uint8_t>(), n, stream);
}

HexScoreSums hex_score_device(const float* map, std::size_t map_pitch, const float* truth, int w, int h,
                              cudaStream_t stream) {
  HexScoreSums r;
  if (w <= 0 || h <= 0) return r;
  LB_REQUIRE(map != nullptr && truth != nullptr, "depth score: no depth map or truth on the device");
  const long long n = static_cast<long long>(w) * h;
  const int blocks = static_cast<int>(std::min<long long>((n + kCountThreads - 1) / kCountThreads, 1024));
  DeviceBuffer buf(static_cast<std::size_t>(blocks) * 32, "the depth score partials");
  auto* parts = buf.as<unsigned long long>();
  auto* err = reinterpret_cast<double*>(parts + 3 * blocks);
  hex_score_kernel<<<blocks, kCountThreads, 0, stream>>>(reinterpret_cast<const std::uint8_t*>(map), map_pitch, truth,
                                                         w, h, parts, err);
  CUDA_CHECK_LAUNCH();
  std::vector<unsigned long long> hp(static_cast<std::size_t>(blocks) * 3);
  std::vector<double> he(static_cast<std::size_t>(blocks));
  CUDA_CHECK_THROW(cudaMemcpyAsync(hp.data(), parts, hp.size() * 8, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK_THROW(cudaMemcpyAsync(he.data(), err, he.size() * 8, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
  for (int b = 0; b < blocks; ++b) {
    r.pixels += hp[3 * static_cast<std::size_t>(b)];
    r.with += hp[3 * static_cast<std::size_t>(b) + 1];
    r.exact += hp[3 * static_cast<std::size_t>(b) + 2];
    r.abs_err += he[static_cast<std::size_t>(b)];
  }
  return r;
}

}  // namespace lb::cuda::detail
