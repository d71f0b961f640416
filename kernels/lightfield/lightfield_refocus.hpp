#pragma once
// Internal to lb_kernels: the 4D light field on the device, its shift-and-add refocus (the
// same bytes as lb::refocus_cpu, through refocus_math.hpp) and the copy of one view, into
// any DeviceTarget or Surface.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "cuda_util.hpp"
#include "device_plane.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/surface.hpp"

namespace lb::cuda::detail {

// The views of a 4D light field on the device (non-owning): RGBA8 (alpha 255), all views
// contiguous in the light field's order [v][u][y][x] (view (u, v) starts at
// (v * nu + u) * width * height pixels, rows width pixels apart, no padding). Owned by a
// DeviceLightField, or by anything else with this layout (CaeDeviceLightField::rgba).
struct LightFieldViews {
  const uchar4* data = nullptr;
  int nu = 0, nv = 0, width = 0, height = 0;

  bool empty() const { return data == nullptr || nu <= 0 || nv <= 0 || width <= 0 || height <= 0; }
  std::size_t view_pixels() const { return static_cast<std::size_t>(width) * static_cast<std::size_t>(height); }
  // View (u, v); lb::Error (extract_view's message) outside the grid.
  const uchar4* view(int u, int v) const;
  DeviceRgbaPlane view_plane(int u, int v) const;
};

// Owns the views of an lb::LightField4D, uploaded once.
class DeviceLightField {
 public:
  DeviceLightField() = default;
  DeviceLightField(const LightField4D& lf, cudaStream_t s) { upload(lf, s); }
  // validate(lf), then uploads; synchronises s (lf may go away afterwards).
  void upload(const LightField4D& lf, cudaStream_t s);
  void release();

  bool empty() const { return views_.empty(); }
  int nu() const { return views_.nu; }
  int nv() const { return views_.nv; }
  int width() const { return views_.width; }
  int height() const { return views_.height; }
  const LightFieldViews& views() const { return views_; }
  operator const LightFieldViews&() const { return views_; }  // NOLINT: pass where views go

 private:
  DeviceBuffer buf_;
  LightFieldViews views_;
};

// Refocus at `disparity` with `aperture_radius` (lb::refocus_cpu's parameters and errors)
// into t (RGBA8, alpha 255; at least width x height).
void launch_refocus(const LightFieldViews& lf, float disparity, int aperture_radius, const DeviceTarget& t,
                    cudaStream_t s);
// The same into a surface (resized to width x height; see write_surface). Returns whether
// it was written on the device (false: through a host upload).
bool refocus_to_surface(const LightFieldViews& lf, float disparity, int aperture_radius, Surface& out,
                        cudaStream_t s, PitchedBuffer* staging = nullptr);

// The unrounded per-channel sums of every pixel (refocus_math.hpp's refocus_sums), as
// double[height][width][3] at `sums` (device memory). For the exactness test: a fused or
// reordered operation changes these bits long before it flips an output byte.
void launch_refocus_sums(const LightFieldViews& lf, float disparity, int aperture_radius, double* sums,
                         cudaStream_t s);

// View (u, v) as RGBA8 (alpha 255) into t / a surface.
void launch_view(const LightFieldViews& lf, int u, int v, const DeviceTarget& t, cudaStream_t s);
bool view_to_surface(const LightFieldViews& lf, int u, int v, Surface& out, cudaStream_t s,
                     PitchedBuffer* staging = nullptr);

}  // namespace lb::cuda::detail
