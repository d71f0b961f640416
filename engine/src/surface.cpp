#include "lightbench/surface.hpp"

namespace lb {

void HostSurface::resize(int width, int height) {
  LB_REQUIRE(width > 0 && height > 0, "surface size must be positive");
  if (width == w_ && height == h_) return;
  w_ = width;
  h_ = height;
  if (format_ == SurfaceFormat::RGBA8) rgba_.reset(width, height, 4);
  else scalar_.reset(width, height, 1);
}

void HostSurface::upload_host(const ImageU8& rgba) {
  LB_REQUIRE(format_ == SurfaceFormat::RGBA8 && rgba.channels == 4,
             "surface: RGBA8 surface needs an RGBA8 image");
  resize(rgba.width, rgba.height);
  rgba_ = rgba;
}

void HostSurface::upload_host(const ImageF& scalar) {
  LB_REQUIRE(format_ == SurfaceFormat::R32F && scalar.channels == 1,
             "surface: R32F surface needs a 1-channel float image");
  resize(scalar.width, scalar.height);
  scalar_ = scalar;
}

}  // namespace lb
