#pragma once
// Internal interface between the host code of lb_kernels (backend, bench) and the depth
// kernels in depth.cu. CUDA runtime types only, no device code.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "lightbench/cuda_api.hpp"
#include "lightbench/depth_math.hpp"
#include "render_launch.hpp"

namespace lb::cuda::detail {

// The depth tables in device memory (same layout as lb::DepthTables).
struct DepthTablesDevice {
  const int* col_start = nullptr;  // [count][grid_nx]
  const int* row_start = nullptr;  // [count][grid_ny]
};

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

}  // namespace lb::cuda::detail
