// Plenoptic rendering: validation and dispatch of one render launch onto the variant
// families (render_original.cu, render_sync.cu, render_nosync.cu, render_tiled.cu; shared pieces in
// render_kernels.cuh). Every kernel computes exactly lb::render_pixel: integer weights and
// sums (plenoptic_math.hpp), so the summation order does not matter and every variant is
// bit-exact with the CPU reference. The bandwidth references of the benchmarks (simple
// copy, L2 flush, raster reads) are in bench/src/bench_kernels.cu.
//
// Instantiations (kept few: CI compiles these files for several architectures):
//   original<RGBA in {0,1}, writer in {surface, pitched u32, pitched bytes}>        6
//   sync / nosync (direct loads) <LIM in {2 (seed, compile-time lim), 0 (run-time
//                 lim)}, writer in {surface, pitched u32}>                         8
//   nosync_staged<LIM = 2, writer> (sm_90+ body; the default NoSync)                2
//   tiled<LIM in {2, 0}, writer in {surface, pitched u32}> (render_tiled.cu)          4
// The Original's other two switches (reciprocal division, barrier at the end of each
// neighbour iteration) are uniform run-time flags: one branch per pixel or per iteration.
// Launch shapes: KernelTuning (cuda_api.hpp), defaults tuned on an H200.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda_check.cuh"
#include "plenoptic/render_kernels.cuh"

namespace lb::cuda::detail {
namespace {

// The kernels' parameters for a validated layout (tuning resolved; T may be empty: planning).
KParams render_params(const RenderLayout& L, const TablesDevice& T, const RawDevice& raw, const RenderConfig& config,
                      const KernelTuning& tuning, unsigned long long* block_trace) {
  KParams P{};
  P.L = L;
  P.T = T;
  P.rgb = raw.rgb;
  P.rgb_pitch = raw.rgb_pitch;
  P.rgba = raw.rgba;
  P.rgba_pitch_w = static_cast<std::uint32_t>(raw.rgba_pitch / 4);
  P.stages = kStagedSteps;
  P.reciprocal = config.original.reciprocal ? 1 : 0;
  P.sync_at_end = config.original.sync_at_end ? 1 : 0;
  P.block_trace = block_trace;

  const int span = (2 * L.lim + 1) * L.patch;  // <= 9 * 64 = 576 threads: always fits
  static_assert((2 * kMaxLim + 1) * kMaxPatch <= kMaxInputBlock, "one row must fit a block");
  P.chunk = std::clamp(tuning.chunk, 1, std::min(L.grid_nx, 1024));
  P.rows = std::clamp(tuning.rows, 1, std::max(1, kMaxInputBlock / span));
  P.rows = std::min(P.rows, L.out_h);
  return P;
}

// The kernel for P (plan_render's decision; P.chunk / P.rows fitted for the staged kernels).
RenderKernel plan(KParams& P, const RawDevice& raw, const RenderConfig& config, const KernelTuning& tuning,
                  const RenderDeviceLimits& device) {
  const RenderKernel asked = render_kernel_asked(config, tuning);
  if (asked == RenderKernel::Tiled) {
    const int chunk = tiled_chunk(P, raw, device.smem_optin);
    if (chunk == 0) return RenderKernel::Original;  // same mapping, direct loads
    P.chunk = chunk;
  } else if (asked == RenderKernel::NoSyncStaged) {
    const int rows = device.nosync_staged_built ? staged_rows(P, raw, device.cc_major, device.smem_optin) : 0;
    if (rows == 0) return RenderKernel::NoSyncDirect;
    P.rows = rows;
  }
  return asked;
}

template <class W>
void launch_input_side(const KParams& P, RenderKernel k, const W& w, cudaStream_t stream) {
  if (k == RenderKernel::NoSyncStaged) {
    launch_render_nosync_staged(P, w, stream);
    return;
  }
  const int lim = P.L.lim, S = 2 * lim + 1, span = S * P.L.patch;
  const dim3 block(static_cast<unsigned>(span * P.rows));
  const dim3 grid(static_cast<unsigned>((P.L.grid_nx + P.chunk - 1) / P.chunk),
                  static_cast<unsigned>((P.L.out_h + P.rows - 1) / P.rows));
  const std::size_t shmem_nosync =
      input_shared_words(span, P.rows, S, input_columns(P.chunk, S)) * 4;
  const std::size_t shmem_sync = static_cast<std::size_t>(P.rows) * span * sizeof(uint4) + shmem_nosync;
  LB_REQUIRE(shmem_sync <= 48u * 1024u, "render: chunk or rows too large for shared memory");
  if (k == RenderKernel::Sync) launch_render_sync(P, grid, block, shmem_sync, w, stream);
  else launch_render_nosync(P, grid, block, shmem_nosync, w, stream);
}

}  // namespace

RenderDeviceLimits render_device_limits() {
  RenderDeviceLimits d;
  int dev = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&d.cc_major, cudaDevAttrComputeCapabilityMajor, dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&d.smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  d.nosync_staged_built = d.cc_major >= 9 && nosync_staged_built();
  return d;
}

RenderKernel plan_render(const RenderLayout& L, const RawDevice& raw, const RenderConfig& config,
                         const KernelTuning& tuning_in, const RenderDeviceLimits& device) {
  const KernelTuning tuning = resolve(tuning_in, config.variant);
  KParams P = render_params(L, TablesDevice{}, raw, config, tuning, nullptr);
  return plan(P, raw, config, tuning, device);
}

RenderKernel launch_render(const RenderLayout& L, const TablesDevice& T, const RawDevice& raw,
                           const RenderConfig& config, const KernelTuning& tuning_in,
                           const OutputDevice& out, cudaStream_t stream, unsigned long long* block_trace) {
  const KernelTuning tuning = resolve(tuning_in, config.variant);
  LB_REQUIRE(L.patch >= 1 && L.patch <= kMaxPatch && L.lim >= 0 && L.lim <= kMaxLim,
             "render: patch or range limit out of range");
  LB_REQUIRE(L.grid_nx >= 1 && L.grid_ny >= 1 && L.out_w == L.grid_nx * L.patch &&
                 L.out_h == L.grid_ny * L.patch,
             "render: inconsistent layout");
  LB_REQUIRE(raw.width == L.raw_w && raw.height == L.raw_h && raw.rgba && raw.rgb,
             "render: raw on the device does not match the tables");
  LB_REQUIRE(raw.rgba_pitch % 4 == 0 &&
                 static_cast<unsigned long long>(raw.rgba_pitch / 4) * raw.height < (1ull << 32),
             "render: raw image too large for 32-bit word offsets");
  KParams P = render_params(L, T, raw, config, tuning, block_trace);
  const int block = std::clamp(tuning.original_block, 32, 1024);

  const bool surface = out.kind == OutputDevice::Kind::Surface;
  LB_REQUIRE(surface ? out.surface != 0 : out.ptr != nullptr, "render: no output target");
  LB_REQUIRE(surface || out.pitch >= static_cast<std::size_t>(L.out_w) * 4,
             "render: output pitch too small");
  if (config.variant == RenderVariant::Tiled)
    LB_REQUIRE(surface || out.pitch % 4 == 0, "render: output pitch must be a multiple of 4");
  // The device decides only between the staged kernels and their fallbacks.
  const RenderKernel asked = render_kernel_asked(config, tuning);
  const bool staged = asked == RenderKernel::Tiled || asked == RenderKernel::NoSyncStaged;
  const RenderKernel k = staged ? plan(P, raw, config, tuning, render_device_limits()) : asked;
  if (k == RenderKernel::Tiled) {
    if (surface) launch_render_tiled(P, SurfaceWriter{out.surface}, stream);
    else launch_render_tiled(P, PitchedWriter<true>{static_cast<std::uint8_t*>(out.ptr), out.pitch}, stream);
  } else if (k == RenderKernel::Original) {
    // The Original, asked for or Tiled's fallback: it maps the threads the same way and loads
    // directly, here with the RGBA raw and vector stores.
    OriginalSwitches sw = config.original;
    if (config.variant == RenderVariant::Tiled) sw.rgba_input = sw.vector_store = true;
    if (surface) {
      launch_render_original(P, sw.rgba_input, block, SurfaceWriter{out.surface}, stream);
    } else if (sw.vector_store) {
      launch_render_original(P, sw.rgba_input, block,
                             PitchedWriter<true>{static_cast<std::uint8_t*>(out.ptr), out.pitch}, stream);
    } else {
      launch_render_original(P, sw.rgba_input, block,
                             PitchedWriter<false>{static_cast<std::uint8_t*>(out.ptr), out.pitch}, stream);
    }
  } else {
    if (surface) {
      launch_input_side(P, k, SurfaceWriter{out.surface}, stream);
    } else {
      LB_REQUIRE(out.pitch % 4 == 0, "render: output pitch must be a multiple of 4");
      launch_input_side(P, k, PitchedWriter<true>{static_cast<std::uint8_t*>(out.ptr), out.pitch}, stream);
    }
  }
  return k;
}

}  // namespace lb::cuda::detail
