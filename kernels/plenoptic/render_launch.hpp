#pragma once
// Internal interface between the host code of lb_kernels (backend, bench; plain C++) and
// the render kernels (render.cu dispatches onto render_original.cu, render_sync.cu,
// render_nosync.cu). CUDA runtime types only, no device code.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "lightbench/cuda_api.hpp"
#include "plenoptic/plenoptic_math.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb::cuda::detail {

// The raw image on the device, in both layouts (the Original's "4-byte input" switch picks
// one; Sync and NoSync always read RGBA8).
struct RawDevice {
  const std::uint8_t* rgb = nullptr;    // packed RGB, 3 bytes per pixel
  std::size_t rgb_pitch = 0;            // bytes per row
  const std::uint32_t* rgba = nullptr;  // RGBA8 words (R in the low byte) of column 0
  std::size_t rgba_pitch = 0;           // bytes per row (multiple of 4)
  // Replicated border columns left of column 0 and right of column width-1 in the RGBA
  // copy (the staged kernels fetch segments without clamping; see upload_raw).
  int rgba_pad_left = 0, rgba_pad_right = 0;
  int width = 0, height = 0;
};

// Border columns upload_raw adds to the RGBA copy: enough for any segment of
// (2 kMaxLim + 1) kMaxPatch pixels fetched in 16-byte quads (multiples of 4 keep the
// 16-byte alignment of column 0).
constexpr int kRawPadLeft = kMaxLim * kMaxPatch + 4;
constexpr int kRawPadRight = (kMaxLim + 1) * kMaxPatch + 8;

// Device copies of a raw image, owned by the caller's buffers.
class PitchedBuffer;
// Uploads raw (RGB or RGBA) as packed RGB and as padded RGBA8; fills `out`. Synchronises
// `stream` before and after (nothing may still read the old contents).
void upload_raw(const ImageU8& raw, PitchedBuffer& rgba, PitchedBuffer& rgb, RawDevice& out,
                cudaStream_t stream);

// The render tables in device memory (same layout as lb::RenderTables).
struct TablesDevice {
  const int* col_start = nullptr;
  const int* row_start = nullptr;
  const std::uint32_t* wx = nullptr;
  const std::uint32_t* wy = nullptr;
};

// Where the kernel writes: a surface object (RGBA8 array) or a pitched RGBA8 buffer.
struct OutputDevice {
  enum class Kind { Surface, Pitched };
  Kind kind = Kind::Pitched;
  unsigned long long surface = 0;  // cudaSurfaceObject_t
  void* ptr = nullptr;
  std::size_t pitch = 0;
};

// The kernels a render launch may run. A configuration names one (render_kernel_asked); the
// launch runs another where that one cannot: Tiled, when no tile fits the shared memory or the
// raw is not padded and aligned, runs the Original (same output-side mapping, direct loads);
// NoSync, when the staged kernel does not apply (lim != 2, before sm_90, an unaligned raw, too
// much shared memory), its direct-loads kernel.
enum class RenderKernel { Original, Sync, NoSyncDirect, NoSyncStaged, Tiled };

// What decides between them: the device's compute capability and shared memory per block, and
// whether this build holds the staged NoSync's body for it (its sm_90 code: a build whose PTX
// targets an older architecture, e.g. 80-virtual, JIT-compiles an empty kernel on sm_90).
struct RenderDeviceLimits {
  int cc_major = 0;
  int smem_optin = 0;               // cudaDevAttrMaxSharedMemoryPerBlockOptin
  bool nosync_staged_built = true;  // the staged kernel's PTX targets compute_90 or later
};
RenderDeviceLimits render_device_limits();  // of the current device

// The kernel the configuration asks for (NoSync: the staged one unless tuning.direct_loads).
RenderKernel render_kernel_asked(const RenderConfig& config, const KernelTuning& tuning);
// The kernel launch_render runs for this layout, raw, configuration and device (no CUDA call:
// tests/plenoptic/test_render_gpu.cpp checks it without a device).
RenderKernel plan_render(const RenderLayout& layout, const RawDevice& raw, const RenderConfig& config,
                         const KernelTuning& tuning, const RenderDeviceLimits& device);
// Its name in the timing registry, the benchmark's rows and the runner's last_variant: the
// configuration's (kernel_name: "render/tiled") when it ran the kernel asked for, else that name
// and the one that ran: "render/tiled->original", "render/nosync->direct".
std::string render_kernel_name(const RenderConfig& config, const KernelTuning& tuning, RenderKernel ran);
// The part after "->" ("original", "direct"), or "" when it ran the kernel asked for.
std::string render_fallback(const RenderConfig& config, const KernelTuning& tuning, RenderKernel ran);

// Validates the launch (throws lb::Error: layout/tuning out of range, output too small) and
// enqueues one render kernel on `stream` (plan_render's for the current device). Checks the
// launch; returns the kernel it ran. block_trace (bench diagnostic): when the launch runs the
// staged NoSync, it records each block's start, end and SM there (4 words per block, zeroed by
// the caller; see bench/src/render_block_trace.cpp).
RenderKernel launch_render(const RenderLayout& layout, const TablesDevice& tables, const RawDevice& raw,
                           const RenderConfig& config, const KernelTuning& tuning,
                           const OutputDevice& out, cudaStream_t stream,
                           unsigned long long* block_trace = nullptr);

// Probe: can this process launch the kernels on the current device (a kernel image for its
// architecture exists)? Returns cudaSuccess or the error.
cudaError_t probe_kernels();

}  // namespace lb::cuda::detail
