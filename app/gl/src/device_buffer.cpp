#include "lightbench/gl/device_buffer.hpp"

#include "cuda_gl_interop.hpp"
#include "lightbench/error.hpp"

namespace lb::gl {

DeviceBufferSurface::~DeviceBufferSurface() { detail::device_free(ptr_); }

void DeviceBufferSurface::resize(int width, int height) {
  LB_REQUIRE(width > 0 && height > 0, "device buffer: empty size");
  w_ = width;
  h_ = height;
  // The allocation's own size: a host upload in between may have changed w_ / h_.
  if (ptr_ && width == alloc_w_ && height == alloc_h_) return;
  detail::device_free(ptr_);
  ptr_ = nullptr;
  alloc_w_ = alloc_h_ = 0;
  ptr_ = detail::device_alloc_pitch(row_bytes(), h_, &pitch_);
  alloc_w_ = width;
  alloc_h_ = height;
}

DeviceTarget DeviceBufferSurface::map_device(void* cuda_stream) {
  (void)cuda_stream;
  LB_REQUIRE(ptr_ != nullptr && w_ == alloc_w_ && h_ == alloc_h_, "device buffer: map_device before resize");
  host_ = false;
  DeviceTarget t;
  t.kind = DeviceTarget::Kind::Pitched;
  t.ptr = ptr_;
  t.pitch = pitch_;
  t.width = w_;
  t.height = h_;
  return t;
}

void DeviceBufferSurface::upload_host(const ImageU8& rgba) {
  LB_REQUIRE(format_ == SurfaceFormat::RGBA8, "surface: RGBA8 image into an R32F surface");
  w_ = rgba.width;
  h_ = rgba.height;
  rgba_ = rgba;
  host_ = true;
}

void DeviceBufferSurface::upload_host(const ImageF& scalar) {
  LB_REQUIRE(format_ == SurfaceFormat::R32F, "surface: float image into an RGBA8 surface");
  w_ = scalar.width;
  h_ = scalar.height;
  scalar_ = scalar;
  host_ = true;
}

}  // namespace lb::gl
