#pragma once
// Internal to lb_kernels: the plenoptic variant table (plenoptic_variants.cpp). A row carries
// what its variant runs for each output: the render kernel it asks for and the render's
// launcher (its kernel, or plan_render's named fallback where that one cannot run here), and
// the depth's kernel and launcher (the all-in-focus reads the depth map, any variant).
#include <cuda_runtime_api.h>

#include <cstdint>

#include "lightbench/variant_table.hpp"
#include "plenoptic/depth_launch.hpp"
#include "plenoptic/render_launch.hpp"

namespace lb::cuda::detail {

struct PlenopticLaunch {
  // The render kernel asked for with this tuning (nosync: the staged kernel, or the direct one
  // with KernelTuning::direct_loads): its family names the timing row ("render/tiled").
  RenderKernel (*render_asked)(const KernelTuning& tuning) = nullptr;
  // Enqueues the render (launch_render_kernel with that kernel); returns the kernel that ran.
  RenderKernel (*render)(const RenderLayout& layout, const TablesDevice& tables, const RawDevice& raw,
                         const RenderConfig& config, const KernelTuning& tuning, const OutputDevice& out,
                         cudaStream_t stream, unsigned long long* block_trace) = nullptr;
  // The depth's kernel ("original", "sync", "nosync": the timing row "depth/<kernel>") and its
  // launcher (launch_depth_kernel with it).
  const char* depth_kernel = nullptr;
  void (*depth)(const DepthLayout& layout, const DepthTablesDevice& tables, const RawDevice& raw,
                const DepthTuning& tuning, std::uint32_t* scratch, const OutputDevice& out,
                cudaStream_t stream) = nullptr;
  explicit operator bool() const { return render_asked && render && depth_kernel && depth; }
};

// plenoptic's CUDA variants: auto, original, sync, nosync, tiled.
const VariantTable<PlenopticLaunch>& plenoptic_variant_table();

}  // namespace lb::cuda::detail
