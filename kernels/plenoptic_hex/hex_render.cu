// General-grid render and all-in-focus kernels (issue 22): one thread per output pixel (the
// seed's Original mapping), the body hex::render_sums itself (hex_math.hpp: the sub-cell
// walk), so every pixel is bit-identical to render_hex / render_all_in_focus_hex on the CPU. Variants (HexVariant):
// the tables read from global memory, or the small ones staged in shared memory per block.
// Also the touched-pixel count of a render (the bytes a pass must move).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

#include "cuda_check.cuh"
#include "plenoptic_hex/hex_kernels.cuh"
#include "surface_write.cuh"

namespace lb::cuda::detail {
namespace {

// Acc: uint32 when the walk is at most hex::kMaxSamples32 offsets long (the launch checks
// n_near, which bounds every list), else uint64; the same integers either way.
template <class Acc>
__device__ __forceinline__ uchar4 hex_pixel(const hex::HexLayout& L, const hex::HexTables& T, int x, int y, int P,
                                            float vx, float vy, float inv2s2, const HexRawFetch& fetch) {
  Acc acc[3], wsum;
  hex::render_sums(L, T, hex::scene_coord(L.s0x, x, L.patch), hex::scene_coord(L.s0y, y, L.patch), P, vx, vy, inv2s2,
                   fetch, acc, &wsum);
  return make_uchar4(static_cast<unsigned char>(hex::quotient(acc[0], wsum)),
                     static_cast<unsigned char>(hex::quotient(acc[1], wsum)),
                     static_cast<unsigned char>(hex::quotient(acc[2], wsum)), 255);
}

// Render at patch P (render_hex). No early return before the staging barrier.
template <bool Smem, class Acc, class W>
__global__ void hex_render_kernel(const hex::HexLayout L, const hex::HexTables G, const HexRawFetch fetch, int P,
                                  float vx, float vy, float inv2s2, const W out) {
  const hex::HexTables T = hex_tables_for<Smem>(L, G);
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= L.out_w || y >= L.out_h) return;
  out.put(x, y, hex_pixel<Acc>(L, T, x, y, P, vx, vy, inv2s2, fetch));
}

// All-in-focus (render_all_in_focus_hex): P from the depth map, black without one. Pruned:
// the offsets walked at P are the prefix of `near` HexNearPrefix allows (the sums do not
// change); otherwise the sub-cell lists.
template <bool Smem, bool Pruned, class Acc, class W>
__global__ void hex_aif_kernel(const hex::HexLayout L, const hex::HexTables G, const HexNearPrefix prefix,
                               const HexRawFetch fetch, const std::uint8_t* depth, std::size_t depth_pitch, float vx,
                               float vy, float inv2s2, const W out) {
  const hex::HexTables T = hex_tables_for<Smem>(L, G);
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= L.out_w || y >= L.out_h) return;
  const float d = plane_row(reinterpret_cast<const float*>(depth), depth_pitch, y)[x];
  // The CPU's rule, in its order: finite, 1 <= d <= kMaxPatchIndex, truncated.
  const int P = isfinite(d) && d >= 1.f && d <= static_cast<float>(hex::kMaxPatchIndex) ? static_cast<int>(d) : 0;
  if (P == 0) {
    out.put(x, y, make_uchar4(0, 0, 0, 255));
    return;
  }
  hex::HexLayout Lp = L;
  if constexpr (Pruned) Lp.near_prefix = prefix.n[P];
  out.put(x, y, hex_pixel<Acc>(Lp, T, x, y, P, vx, vy, inv2s2, fetch));
}

// The raw pixels the render at P reads, marked in a raw-sized byte map.
__global__ void hex_touch_render_kernel(const hex::HexLayout L, const hex::HexTables T, HexMarkFetch mark, int P) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= L.out_w || y >= L.out_h) return;
  std::uint64_t acc[3], wsum;
  hex::render_sums(L, T, hex::scene_coord(L.s0x, x, L.patch), hex::scene_coord(L.s0y, y, L.patch), P, 0.f, 0.f, 1.f,
                   mark, acc, &wsum);
}

void require_launch(const HexTablesDevice& t, const HexRawDevice& raw, const char* what) {
  const hex::HexLayout& L = t.layout;
  LB_REQUIRE(t.buf.get() != nullptr && t.view.types != nullptr, std::string(what) + ": no tables on the device");
  LB_REQUIRE(raw.rgba != nullptr && raw.width == L.raw_w && raw.height == L.raw_h &&
                 raw.pitch >= static_cast<std::size_t>(raw.width) * 4,
             std::string(what) + ": the tables were built for another raw size");
}

}  // namespace

std::size_t hex_launch_smem(HexVariant v, const hex::HexLayout& L) {
  if (v == HexVariant::Original) return 0;
  const std::size_t bytes = hex_smem_bytes(L);
  // The default dynamic limit (48 KiB) holds the tables of any grid the validation allows
  // (the offsets are a few hundred at most); past it, say so rather than launch and fail.
  LB_REQUIRE(bytes <= 48 * 1024, "hex variant smem-tables: the tables need " + std::to_string(bytes) +
                                     " bytes of shared memory (limit 49152); use variant original");
  return bytes;
}

// The accumulator type for a layout: 32-bit sums when no walk can exceed kMaxSamples32.
template <class F>
void with_acc(const hex::HexLayout& L, F&& f) {
  if (L.n_near <= hex::kMaxSamples32) f(std::uint32_t{});
  else f(std::uint64_t{});
}

void launch_hex_render(HexVariant v, const HexTablesDevice& t, const HexRawDevice& raw, int P, float view_x,
                       float view_y, float inv2s2, const DeviceTarget& out, cudaStream_t stream) {
  require_launch(t, raw, "hex render");
  LB_REQUIRE(P >= 1 && P <= hex::kMaxPatchIndex, "hex render: patch size " + std::to_string(P) + " out of range");
  const hex::HexLayout& L = t.layout;
  if (L.out_w <= 0 || L.out_h <= 0) return;
  // Pruned: the whole frame is at P, so the pruned walk is the prefix at P.
  hex::HexLayout Lv = L;
  if (v == HexVariant::Pruned) Lv.near_prefix = t.prefix.n[P];
  const std::size_t smem = hex_launch_smem(v, Lv);
  const HexRawFetch fetch{raw.rgba, raw.pitch};
  dispatch_rgba(out, L.out_w, L.out_h, "hex render", [&](auto w) {
    using W = decltype(w);
    with_acc(L, [&](auto acc) {
      using Acc = decltype(acc);
      if (v != HexVariant::Original)
        hex_render_kernel<true, Acc, W><<<hex_grid(L.out_w, L.out_h), hex_block(), smem, stream>>>(
            Lv, t.view, fetch, P, view_x, view_y, inv2s2, w);
      else
        hex_render_kernel<false, Acc, W><<<hex_grid(L.out_w, L.out_h), hex_block(), 0, stream>>>(
            Lv, t.view, fetch, P, view_x, view_y, inv2s2, w);
      CUDA_CHECK_LAUNCH();
    });
  });
}

void launch_hex_aif(HexVariant v, const HexTablesDevice& t, const HexRawDevice& raw, const float* depth,
                    std::size_t depth_pitch, float view_x, float view_y, float inv2s2, const DeviceTarget& out,
                    cudaStream_t stream) {
  require_launch(t, raw, "hex all-in-focus");
  const hex::HexLayout& L = t.layout;
  LB_REQUIRE(depth != nullptr && depth_pitch >= static_cast<std::size_t>(L.out_w) * 4,
             "hex all-in-focus: no depth map on the device");
  if (L.out_w <= 0 || L.out_h <= 0) return;
  const std::size_t smem = hex_launch_smem(v, L);
  const HexRawFetch fetch{raw.rgba, raw.pitch};
  const auto* d = reinterpret_cast<const std::uint8_t*>(depth);
  dispatch_rgba(out, L.out_w, L.out_h, "hex all-in-focus", [&](auto w) {
    using W = decltype(w);
    const dim3 grid = hex_grid(L.out_w, L.out_h), block = hex_block();
    with_acc(L, [&](auto acc) {
      using Acc = decltype(acc);
      if (v == HexVariant::Pruned)
        hex_aif_kernel<true, true, Acc, W><<<grid, block, smem, stream>>>(L, t.view, t.prefix, fetch, d,
                                                                          depth_pitch, view_x, view_y, inv2s2, w);
      else if (v == HexVariant::SmemTables)
        hex_aif_kernel<true, false, Acc, W><<<grid, block, smem, stream>>>(L, t.view, t.prefix, fetch, d,
                                                                           depth_pitch, view_x, view_y, inv2s2, w);
      else
        hex_aif_kernel<false, false, Acc, W><<<grid, block, 0, stream>>>(L, t.view, t.prefix, fetch, d,
                                                                         depth_pitch, view_x, view_y, inv2s2, w);
      CUDA_CHECK_LAUNCH();
    });
  });
}

std::uint64_t hex_touched_render(const HexTablesDevice& t, const HexRawDevice& raw, int P, cudaStream_t stream) {
  require_launch(t, raw, "hex render");
  LB_REQUIRE(P >= 1 && P <= hex::kMaxPatchIndex, "hex render: patch size " + std::to_string(P) + " out of range");
  const hex::HexLayout& L = t.layout;
  if (L.out_w <= 0 || L.out_h <= 0) return 0;
  const std::size_t n = static_cast<std::size_t>(L.raw_w) * L.raw_h;
  DeviceBuffer mark(n, "the touched-pixel map");
  CUDA_CHECK_THROW(cudaMemsetAsync(mark.get(), 0, n, stream));
  hex_touch_render_kernel<<<hex_grid(L.out_w, L.out_h), hex_block(), 0, stream>>>(
      L, t.view, HexMarkFetch{mark.as<std::uint8_t>(), L.raw_w}, P);
  CUDA_CHECK_LAUNCH();
  return hex_count_marked(mark.as<std::uint8_t>(), n, stream);
}

}  // namespace lb::cuda::detail
