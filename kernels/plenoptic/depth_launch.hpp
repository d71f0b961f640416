#pragma once
// Internal interface between the host code of lb_kernels (backend, bench) and the depth
// kernels in depth.cu (the all-in-focus render in depth_aif.cu). CUDA runtime types only.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "lightbench/cuda_api.hpp"
#include "plenoptic/depth_math.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "plenoptic/render_launch.hpp"

namespace lb::cuda::detail {

// The depth tables in device memory (same layout as lb::DepthTables).
struct DepthTablesDevice {
  const int* col_start = nullptr;            // [count][grid_nx]
  const int* row_start = nullptr;            // [count][grid_ny]
  const std::uint64_t* neighbours = nullptr;  // [count][M][M], or null (lim > kDepthTableLim)
};
// The host tables in one buffer for one upload: the neighbour entries (8-byte aligned first),
// then col_start and row_start. depth_tables_on_device() points into a copy of it at base.
std::vector<std::uint64_t> pack_depth_tables(const DepthTablesHost& t);
DepthTablesDevice depth_tables_on_device(const void* base, const DepthTablesHost& t);

// Device scratch a launch needs: the cost volume (count x out_h x out_w uint32) when the
// aggregation window is larger than 1, else 0 bytes.
std::size_t depth_scratch_bytes(const DepthLayout& L);

// Validates (throws lb::Error) and enqueues one depth pass on `stream`: the variant's kernel
// (with the argmin fused when window == 1), else the variant's cost kernel into `scratch`
// followed by the window-aggregation + argmin kernel. `out` is a float target: an R32F
// surface object or a pitched float buffer (value = chosen patch size).
void launch_depth(const DepthLayout& layout, const DepthTablesDevice& tables, const RawDevice& raw,
                  RenderVariant variant, const DepthTuning& tuning, std::uint32_t* scratch,
                  const OutputDevice& out, cudaStream_t stream);

// ---- all-in-focus render (lb::render_all_in_focus on the device) -----------------------
// The render tables of every candidate patch size P = pmin..pmax, packed in one buffer:
// col_start [count][grid_nx], row_start [count][grid_ny], wx and wy [count][stride] with
// stride = (2 lim + 1) pmax (the tables of P use their first (2 lim + 1) P entries).
struct AifLayout {
  int grid_nx = 0, grid_ny = 0;
  int patch = 0;  // M of the depth map and of the output
  int pmin = 0, pmax = 0, lim = 0;
  int raw_w = 0, raw_h = 0;
  int out_w = 0, out_h = 0;
  int stride = 0;
  int count() const { return pmax - pmin + 1; }
};
struct AifTablesHost {
  AifLayout layout;
  std::vector<std::uint32_t> pack;
  std::size_t cs_off = 0, rs_off = 0, wx_off = 0, wy_off = 0;  // in words
  std::uint64_t bytes = 0;  // a pass must move at least: depth map read, image written, the
                            // raw pixels the largest P touches
};
// Validates (lb::Error, the messages of build_render_tables / validate(DepthParams)).
// render: view, lim, sigma (its patch is ignored; lim is the depth params' lim, as the CLI
// and the CPU reference use it).
AifTablesHost build_aif_tables(const PlenopticGrid& grid, const RenderParams& render, const DepthParams& depth,
                               int raw_w, int raw_h);
struct AifTablesDevice {
  const int* col_start = nullptr;
  const int* row_start = nullptr;
  const std::uint32_t* wx = nullptr;
  const std::uint32_t* wy = nullptr;
};
// One thread per output pixel: P = depth(x, y) (clamped to pmin..pmax so that a foreign map
// cannot index outside the tables), then lb::render_pixel with the tables of P at
// (nx P + a P / M, ny P + b P / M). out: an RGBA8 surface object or pitched buffer.
void launch_aif(const AifLayout& layout, const AifTablesDevice& tables, const RawDevice& raw, const float* depth,
                std::size_t depth_pitch, const OutputDevice& out, cudaStream_t stream);
// Copies a pitched float map (w x h) to a float target (R32F surface object or pitched buffer).
void launch_copy_map(const float* src, std::size_t src_pitch, int w, int h, const OutputDevice& out,
                     cudaStream_t stream);

}  // namespace lb::cuda::detail
