// All-in-focus render on the device (lb::render_all_in_focus, bit-exact) and the copy of a
// float map to a display target: the plenoptic depth pass's two companions (depth.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cuda_check.cuh"
#include "plenoptic/depth_launch.hpp"
#include "surface_write.cuh"
#include "plenoptic/plenoptic_math.hpp"
#include "plenoptic/render_tables.hpp"

namespace lb::cuda::detail {

// ---------------------------------------------------------------------------------------
// All-in-focus render
// ---------------------------------------------------------------------------------------
namespace {

struct AifArgs {
  AifLayout L;
  AifTablesDevice T;
  const std::uint32_t* rgba;
  std::uint32_t pitch_w;  // words per raw row
  const std::uint8_t* depth;
  std::size_t depth_pitch;
};
struct RgbaSurfaceWriter {
  cudaSurfaceObject_t surf;
  __device__ __forceinline__ void put(int x, int y, std::uint32_t v) const { surf2Dwrite(v, surf, x * 4, y); }
};
struct RgbaPitchedWriter {
  std::uint8_t* ptr;
  std::size_t pitch;
  __device__ __forceinline__ void put(int x, int y, std::uint32_t v) const {
    *reinterpret_cast<std::uint32_t*>(ptr + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * 4) = v;
  }
};

template <class W>
__global__ void aif_render_kernel(AifArgs A, W out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const AifLayout& L = A.L;
  if (x >= L.out_w || y >= L.out_h) return;
  const float dv = *reinterpret_cast<const float*>(A.depth + static_cast<std::size_t>(y) * A.depth_pitch +
                                                   static_cast<std::size_t>(x) * 4);
  const int P = clamp_int(static_cast<int>(dv), L.pmin, L.pmax);
  const int q = P - L.pmin;
  const int nx = x / L.patch, a = x % L.patch;
  const int ny = y / L.patch, b = y % L.patch;
  const RenderLayout RL{L.grid_nx, L.grid_ny, P, L.lim, L.raw_w, L.raw_h, 0, 0};
  const RenderTables RT{A.T.col_start + q * L.grid_nx, A.T.row_start + q * L.grid_ny, A.T.wx + q * L.stride,
                        A.T.wy + q * L.stride};
  const std::uint32_t* rgba = A.rgba;
  const std::uint32_t pw = A.pitch_w;
  auto load = [rgba, pw](int col, int row) { return __ldg(rgba + static_cast<std::uint32_t>(row) * pw + col); };
  out.put(x, y, render_pixel(RL, RT, load, nx * P + depth_scaled(a, P, L.patch), ny * P + depth_scaled(b, P, L.patch)));
}

template <class W>
__global__ void depth_copy_map_kernel(const std::uint8_t* src, std::size_t pitch, int w, int h, W out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  out.put(x, y, *reinterpret_cast<const float*>(src + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * 4));
}

}  // namespace

AifTablesHost build_aif_tables(const PlenopticGrid& grid, const RenderParams& render, const DepthParams& depth,
                               int raw_w, int raw_h) {
  validate(depth, grid);
  AifTablesHost h;
  AifLayout& L = h.layout;
  L.grid_nx = grid.nx;
  L.grid_ny = grid.ny;
  L.patch = depth.patch;
  L.pmin = depth.pmin;
  L.pmax = depth.pmax;
  L.lim = render.lim;
  L.raw_w = raw_w;
  L.raw_h = raw_h;
  L.out_w = grid.nx * depth.patch;
  L.out_h = grid.ny * depth.patch;
  L.stride = (2 * render.lim + 1) * depth.pmax;
  const int count = L.count();
  std::vector<RenderTablesHost> t;
  std::uint64_t touched = 0;
  for (int P = depth.pmin; P <= depth.pmax; ++P) {
    RenderParams rp = render;
    rp.patch = P;
    t.push_back(build_render_tables(grid, rp, raw_w, raw_h));  // validates
    touched = std::max(touched, render_touched_pixels(t.back()));
  }
  h.cs_off = 0;
  h.rs_off = static_cast<std::size_t>(count) * grid.nx;
  h.wx_off = h.rs_off + static_cast<std::size_t>(count) * grid.ny;
  h.wy_off = h.wx_off + static_cast<std::size_t>(count) * L.stride;
  h.pack.assign(h.wy_off + static_cast<std::size_t>(count) * L.stride, 0u);
  for (int q = 0; q < count; ++q) {
    const RenderTablesHost& r = t[static_cast<std::size_t>(q)];
    for (int i = 0; i < grid.nx; ++i) h.pack[h.cs_off + static_cast<std::size_t>(q) * grid.nx + i] = static_cast<std::uint32_t>(r.col_start[static_cast<std::size_t>(i)]);
    for (int i = 0; i < grid.ny; ++i) h.pack[h.rs_off + static_cast<std::size_t>(q) * grid.ny + i] = static_cast<std::uint32_t>(r.row_start[static_cast<std::size_t>(i)]);
    std::copy(r.wx.begin(), r.wx.end(), h.pack.begin() + static_cast<std::ptrdiff_t>(h.wx_off + static_cast<std::size_t>(q) * L.stride));
    std::copy(r.wy.begin(), r.wy.end(), h.pack.begin() + static_cast<std::ptrdiff_t>(h.wy_off + static_cast<std::size_t>(q) * L.stride));
  }
  h.bytes = touched * 4 + static_cast<std::uint64_t>(L.out_w) * L.out_h * 8;
  return h;
}

void launch_aif(const AifLayout& L, const AifTablesDevice& T, const RawDevice& raw, const float* depth,
                std::size_t depth_pitch, const OutputDevice& out, cudaStream_t stream) {
  LB_REQUIRE(L.patch >= 1 && L.pmin >= 1 && L.pmin <= L.pmax && L.pmax <= kMaxPatch && L.lim >= 0 &&
                 L.lim <= kMaxLim && L.stride == (2 * L.lim + 1) * L.pmax && L.out_w == L.grid_nx * L.patch &&
                 L.out_h == L.grid_ny * L.patch,
             "all-in-focus: inconsistent layout");
  LB_REQUIRE(raw.width == L.raw_w && raw.height == L.raw_h && raw.rgba && raw.rgba_pitch % 4 == 0,
             "all-in-focus: raw on the device does not match the tables");
  LB_REQUIRE(depth != nullptr && depth_pitch >= static_cast<std::size_t>(L.out_w) * 4, "all-in-focus: no depth map");
  AifArgs A{};
  A.L = L;
  A.T = T;
  A.rgba = raw.rgba;
  A.pitch_w = static_cast<std::uint32_t>(raw.rgba_pitch / 4);
  A.depth = reinterpret_cast<const std::uint8_t*>(depth);
  A.depth_pitch = depth_pitch;
  const dim3 block(32, 8), grid((L.out_w + 31) / 32, (L.out_h + 7) / 8);
  if (out.kind == OutputDevice::Kind::Surface) {
    LB_REQUIRE(out.surface != 0, "all-in-focus: no output target");
    aif_render_kernel<<<grid, block, 0, stream>>>(A, RgbaSurfaceWriter{out.surface});
  } else {
    LB_REQUIRE(out.ptr != nullptr && out.pitch >= static_cast<std::size_t>(L.out_w) * 4 && out.pitch % 4 == 0,
               "all-in-focus: output pitch too small");
    aif_render_kernel<<<grid, block, 0, stream>>>(A, RgbaPitchedWriter{static_cast<std::uint8_t*>(out.ptr), out.pitch});
  }
  CUDA_CHECK_LAUNCH();
}

void launch_copy_map(const float* src, std::size_t src_pitch, int w, int h, const OutputDevice& out,
                     cudaStream_t stream) {
  const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  const auto* s = reinterpret_cast<const std::uint8_t*>(src);
  if (out.kind == OutputDevice::Kind::Surface) {
    LB_REQUIRE(out.surface != 0, "depth: no output target");
    depth_copy_map_kernel<<<grid, block, 0, stream>>>(s, src_pitch, w, h, FloatSurfaceOut{out.surface});
  } else {
    LB_REQUIRE(out.ptr != nullptr && out.pitch >= static_cast<std::size_t>(w) * 4, "depth: output pitch too small");
    CUDA_CHECK_THROW(cudaMemcpy2DAsync(out.ptr, out.pitch, src, src_pitch, static_cast<std::size_t>(w) * 4,
                                       static_cast<std::size_t>(h), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
