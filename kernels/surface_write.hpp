#pragma once
// Internal to lb_kernels: writing device images into output surfaces (surface.hpp).
//
// Two levels:
//   * write_r32f / write_rgba8 / write_rgb8 enqueue a copy of a device plane into a
//     DeviceTarget someone already mapped (a surface object or a pitched pointer);
//   * write_surface does the whole `Surface& out` sequence for any pass that can write a
//     DeviceTarget: out.resize(w, h), map_device, the pass, unmap_device (on every path);
//     when the surface takes no device writes (map_device gives Kind::None: a HostSurface,
//     a GL texture with interop off) the pass writes a pitched staging buffer, which is
//     downloaded and handed to upload_host. Callers never see the difference.
// Every call takes the stream it enqueues on and checks its CUDA calls (lb::Error).
#include <cuda_runtime_api.h>

#include <functional>

#include "cuda_util.hpp"
#include "device_plane.hpp"
#include "lightbench/surface.hpp"

namespace lb::cuda::detail {

// Throws lb::Error ("<what>: ...") unless t can take a w x h image of 4-byte pixels (RGBA8
// or R32F): a surface object, or a 4-byte aligned pointer whose pitch holds a row; at least
// w x h.
void require_target(const DeviceTarget& t, int w, int h, const char* what);

// Copies src (its full size) into t at (0, 0). R32F from float; RGBA8 from RGBA8; RGBA8
// from packed RGB8 with alpha 255.
void write_r32f(const DeviceTarget& t, const DeviceFloatPlane& src, cudaStream_t s);
void write_rgba8(const DeviceTarget& t, const DeviceRgbaPlane& src, cudaStream_t s);
void write_rgb8(const DeviceTarget& t, const DeviceRgbPlane& src, cudaStream_t s);

// Enqueues a pass that writes a w x h image into a target (already validated for w x h).
using TargetPass = std::function<void(const DeviceTarget&)>;

// out.resize(w, h) and the pass into it (see the top of this file). `format` is what the
// pass writes; out must have it (else lb::Error "<what>: the output surface must be ...").
// staging: a buffer kept by the caller for the host-upload fallback (null: a temporary).
// Returns whether the pass wrote the surface directly (false: through the host).
bool write_surface(Surface& out, SurfaceFormat format, int w, int h, cudaStream_t s, const char* what,
                   const TargetPass& pass, PitchedBuffer* staging = nullptr);

// write_surface with the copies above.
bool write_surface_r32f(Surface& out, const DeviceFloatPlane& src, cudaStream_t s, PitchedBuffer* staging = nullptr);
bool write_surface_rgba8(Surface& out, const DeviceRgbaPlane& src, cudaStream_t s, PitchedBuffer* staging = nullptr);
bool write_surface_rgb8(Surface& out, const DeviceRgbPlane& src, cudaStream_t s, PitchedBuffer* staging = nullptr);

}  // namespace lb::cuda::detail
