#pragma once
// Public C++ API of the kernels library (lb_kernels). No CUDA types. The library and this
// header's functions exist only in CUDA builds (there are no stubs): front ends reach CUDA
// through the algorithm registry (lightbench/runners.hpp: lb::builtin_registry(),
// lb::cuda_available()) and call these only under LB_HAVE_CUDA. The CUDA engines behind the
// runners are internal (lightbench/engines/cuda.hpp, lb_engine_internal).
//
//   lb::cuda::device_available                 is there a usable device (and why not)
//   lb::cuda::device_memory                    free / total device memory (cudaMemGetInfo)
//   lb::cuda::make_cuda_surface                headless RGBA8 / R32F CUDA array + surface object
//   lb::cuda::make_cuda_buffer_surface         pitched device buffer (DeviceTarget::Pitched)
//   lb::cuda::read_back_rgba                   any of those (or a HostSurface) -> host image
// The benchmarks (`lightbench-cli bench ...`) live in bench/ (lb_bench, CUDA builds only).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lightbench/backend.hpp"
#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"
#include "lightbench/surface.hpp"

namespace lb::cuda {

// ---------------------------------------------------------------------------------------
// Device
// ---------------------------------------------------------------------------------------
struct DeviceInfo {
  bool available = false;
  std::string why;              // reason when !available ("no CUDA device (...)")
  int index = 0;                // CUDA device ordinal
  std::string name;             // "NVIDIA H100 80GB HBM3"
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::uint64_t total_memory = 0;  // bytes
  int l2_bytes = 0;
  double peak_gbps = 0.0;       // 2 * memory clock * bus width (datasheet-style), 0 if unknown
  std::string driver;           // "13.0" (driver's CUDA version)
  std::string runtime;          // "13.0" (runtime linked in)
  // One line: "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB, L2 50 MiB)".
  std::string describe() const;
};
DeviceInfo device_info(int device = 0);
// Whether a usable CUDA device exists (a context can be made and a probe kernel runs); *why
// says why not. Front ends ask lb::cuda_available() (lightbench/runners.hpp) instead.
bool device_available(std::string* why = nullptr);
// How many CUDA devices cudaGetDeviceCount sees (0 when it fails).
int device_count();
// Memory of the current CUDA device (cudaMemGetInfo): bytes free and in total. False (and
// *why) when it cannot be read. The viewer's soak checks that device memory stays flat.
bool device_memory(std::uint64_t* free_bytes, std::uint64_t* total_bytes, std::string* why = nullptr);
// Device bytes this process's lb_kernels allocations hold now (what --max-device-memory counts).
std::uint64_t device_bytes_counted();

// ---------------------------------------------------------------------------------------
// Launch shapes of the render kernels. 0 fields mean "the tuned default" of the variant.
// ---------------------------------------------------------------------------------------
struct KernelTuning {
  int original_block = 0;  // Original: threads per block (1D, over the flattened output)
  int chunk = 0;           // Sync/NoSync: micro-image columns walked by one block; Tiled: per tile
  int rows = 0;            // Sync/NoSync: output rows per block ((2lim+1)*M threads each); Tiled: 1
  // NoSync: the seed's direct 4-byte loads instead of the default staging of the raw
  // through shared memory (16-byte cp.async by a producer warp; lim = 2 on sm_90+ only,
  // other cases always load directly).
  bool direct_loads = false;
};
// Defaults tuned on an NVIDIA H200 (docs/PERFORMANCE.md): Original 128 threads; Sync
// chunk 48, 1 row; NoSync staged chunk 96, 2 rows; NoSync direct chunk 50, 1 row; on an
// H100: Tiled chunk 12.
KernelTuning default_tuning(RenderVariant v, bool direct_loads = false);
// Fills the 0 fields of t from default_tuning(v, t.direct_loads).
KernelTuning resolve(const KernelTuning& t, RenderVariant v);

// ---------------------------------------------------------------------------------------
// Surfaces (the CUDA plenoptic engine and its tuning setters: lightbench/engines/cuda.hpp)
// ---------------------------------------------------------------------------------------
// Headless CUDA array (RGBA8 or R32F) with a surface object (cudaArraySurfaceLoadStore).
// map_device() returns DeviceTarget::SurfaceObject.
std::unique_ptr<Surface> make_cuda_surface(SurfaceFormat format = SurfaceFormat::RGBA8);
// Pitched device buffer (RGBA8). map_device() returns DeviceTarget::Pitched.
std::unique_ptr<Surface> make_cuda_buffer_surface();
// Copies a surface made above (or an RGBA8 HostSurface) back to the host as RGBA8.
// Synchronises the device first.
ImageU8 read_back_rgba(Surface& s);
// Same for an R32F CUDA surface (or a scalar HostSurface).
ImageF read_back_scalar(Surface& s);

// Name of a render configuration as the timing registry and the benchmark print it:
// "render/original", "render/sync", "render/nosync", "render/tiled".
std::string kernel_name(const RenderConfig& c);
// Benchmark label: "sync", "nosync", "tiled", "original[rgba,vec,rcp,-]" (switch order: 4-byte input,
// vector store, reciprocal, sync-at-end; '-' = off, e.g. "original[rgb,bytes,div,sync]").
std::string variant_label(const RenderConfig& c);

// ---------------------------------------------------------------------------------------
// Plenoptic depth (kernels in depth.cu)
// ---------------------------------------------------------------------------------------
// Launch shapes of the depth kernels; 0 fields mean the default.
struct DepthTuning {
  int original_block = 0;  // Original: threads per block (default 128, the seed's G8 value)
  int chunk = 0;           // Sync/NoSync: micro-image columns walked by a block (default 48)
  int rows = 0;            // Sync/NoSync: output rows per block, (2lim+1)*M threads each (1)
  // Original: 0 from the neighbour table where lim <= 3 (lb::depth_cost_table), 1 with the
  // bounds and aperture tested per sample (lb::depth_cost; the only kernel past lim 3).
  int original_kernel = 0;
};
DepthTuning resolve(const DepthTuning& t);
// All-in-focus render on the device from a host depth map (values: patch sizes pmin..pmax,
// NX*M x NY*M; else lb::Error): the same image as lb::render_all_in_focus (bit-exact). For
// tests and one-off calls; the plenoptic runner uses its engine's render_all_in_focus after depth().
ImageU8 render_all_in_focus_cuda(const ImageU8& raw, const PlenopticGrid& grid, const RenderParams& render,
                                 const DepthParams& depth, const ImageF& map, int device = 0);

}  // namespace lb::cuda
