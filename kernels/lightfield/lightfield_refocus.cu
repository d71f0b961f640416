// Light-field refocus and view copy on the device (lightfield_refocus.hpp). The per-pixel
// math is refocus_math.hpp's, shared with lb::refocus_cpu: one thread per output pixel walks
// the views in the CPU's order with explicitly rounded double operations, so the bytes match.
#include <cuda_runtime.h>

#include <cmath>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "lightfield/refocus_math.hpp"
#include "lightfield/lightfield_refocus.hpp"
#include "surface_write.cuh"
#include "lightfield/view_fetch.cuh"

namespace lb::cuda::detail {
namespace {

struct RefocusArgs {
  const uchar4* views;
  int nu, width, height;
  refocus::Aperture ap;
  float disparity;
};

template <class W>
__global__ void lf_refocus_kernel(RefocusArgs a, W out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= a.width || y >= a.height) return;
  const ViewFetch fetch{a.views, a.nu, a.width, static_cast<std::size_t>(a.width) * static_cast<std::size_t>(a.height)};
  const refocus::Rgb8 c = refocus::refocus_pixel(fetch, a.width, a.height, a.ap, a.disparity, x, y);
  out.put(x, y, make_uchar4(c.r, c.g, c.b, 255));
}

__global__ void lf_refocus_sums_kernel(RefocusArgs a, double* sums) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= a.width || y >= a.height) return;
  const ViewFetch fetch{a.views, a.nu, a.width, static_cast<std::size_t>(a.width) * static_cast<std::size_t>(a.height)};
  refocus::refocus_sums(fetch, a.width, a.height, a.ap, a.disparity, x, y,
                        sums + (static_cast<std::size_t>(y) * a.width + static_cast<std::size_t>(x)) * 3);
}

RefocusArgs refocus_args(const LightFieldViews& lf, float disparity, int aperture_radius) {
  LB_REQUIRE(!lf.empty(), "refocus: no light field on the device");
  LB_REQUIRE(aperture_radius >= 0, "refocus: the aperture radius must be >= 0");
  LB_REQUIRE(std::isfinite(disparity), "refocus: the disparity must be finite");
  return RefocusArgs{lf.data, lf.nu, lf.width, lf.height, refocus::aperture(lf.nu, lf.nv, aperture_radius),
                     disparity};
}

}  // namespace

const uchar4* LightFieldViews::view(int u, int v) const {
  LB_REQUIRE(!empty(), "light field: nothing on the device");
  LB_REQUIRE(u >= 0 && u < nu && v >= 0 && v < nv,
             "view (" + std::to_string(u) + "," + std::to_string(v) + ") is outside the " + std::to_string(nu) + "x" +
                 std::to_string(nv) + " light field");
  return data + (static_cast<std::size_t>(v) * nu + static_cast<std::size_t>(u)) * view_pixels();
}

DeviceRgbaPlane LightFieldViews::view_plane(int u, int v) const {
  return DeviceRgbaPlane{view(u, v), static_cast<std::size_t>(width) * sizeof(uchar4), width, height};
}

void DeviceLightField::upload(const LightField4D& lf, cudaStream_t s) {
  validate(lf);
  const std::size_t plane = static_cast<std::size_t>(lf.width) * static_cast<std::size_t>(lf.height);
  std::vector<uchar4> host(plane * lf.views.size());
  for (std::size_t k = 0; k < lf.views.size(); ++k) {
    const std::uint8_t* src = lf.views[k].data.data();  // RGB8 (validate)
    uchar4* dst = host.data() + k * plane;
    for (std::size_t i = 0; i < plane; ++i) dst[i] = make_uchar4(src[3 * i], src[3 * i + 1], src[3 * i + 2], 255);
  }
  release();
  buf_.allocate(host.size() * sizeof(uchar4));
  CUDA_CHECK_THROW(cudaMemcpyAsync(buf_.get(), host.data(), host.size() * sizeof(uchar4), cudaMemcpyHostToDevice, s));
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // `host` is a local
  views_ = LightFieldViews{buf_.as<const uchar4>(), lf.nu, lf.nv, lf.width, lf.height};
}

void DeviceLightField::release() {
  buf_.release();
  views_ = LightFieldViews{};
}

void launch_refocus(const LightFieldViews& lf, float disparity, int aperture_radius, const DeviceTarget& t,
                    cudaStream_t s) {
  const RefocusArgs a = refocus_args(lf, disparity, aperture_radius);
  dispatch_rgba(t, lf.width, lf.height, "refocus",
                [&](auto out) { lf_refocus_kernel<<<pixel_grid(a.width, a.height), pixel_block(), 0, s>>>(a, out); });
  CUDA_CHECK_LAUNCH();
}

void launch_refocus_sums(const LightFieldViews& lf, float disparity, int aperture_radius, double* sums,
                         cudaStream_t s) {
  const RefocusArgs a = refocus_args(lf, disparity, aperture_radius);
  LB_REQUIRE(sums != nullptr, "refocus: no buffer for the sums");
  lf_refocus_sums_kernel<<<pixel_grid(a.width, a.height), pixel_block(), 0, s>>>(a, sums);
  CUDA_CHECK_LAUNCH();
}

bool refocus_to_surface(const LightFieldViews& lf, float disparity, int aperture_radius, Surface& out,
                        cudaStream_t s, PitchedBuffer* staging) {
  LB_REQUIRE(!lf.empty(), "refocus: no light field on the device");
  return write_surface(out, SurfaceFormat::RGBA8, lf.width, lf.height, s, "refocus",
                       [&](const DeviceTarget& t) { launch_refocus(lf, disparity, aperture_radius, t, s); }, staging);
}

void launch_view(const LightFieldViews& lf, int u, int v, const DeviceTarget& t, cudaStream_t s) {
  write_rgba8(t, lf.view_plane(u, v), s);
}

bool view_to_surface(const LightFieldViews& lf, int u, int v, Surface& out, cudaStream_t s, PitchedBuffer* staging) {
  return write_surface_rgba8(out, lf.view_plane(u, v), s, staging);
}

}  // namespace lb::cuda::detail
