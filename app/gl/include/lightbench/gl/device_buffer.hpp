#pragma once
// DeviceBufferSurface: an lb::Surface in pitched device memory, for CUDA runs that execute
// off the GL thread (the viewer's run workers). A CUDA runner writes it on its own stream
// (map_device gives a Pitched target); the GL thread then copies it into a pane's texture
// with GlTextureSurface::write_from (map the registered texture, cudaMemcpy2DToArray,
// unmap): device results reach GL without a host round trip, and no GL object is touched
// off the GL thread. Outputs a runner computes on the host (upload_host) are kept in host
// memory and uploaded as usual. Built without CUDA, make_device_buffer_surface gives nullptr.
#include <cstddef>
#include <memory>

#include "lightbench/surface.hpp"

namespace lb::gl {

class DeviceBufferSurface final : public Surface {
 public:
  explicit DeviceBufferSurface(SurfaceFormat format) : format_(format) {}
  ~DeviceBufferSurface() override;
  DeviceBufferSurface(const DeviceBufferSurface&) = delete;
  DeviceBufferSurface& operator=(const DeviceBufferSurface&) = delete;

  int width() const override { return w_; }
  int height() const override { return h_; }
  SurfaceFormat format() const override { return format_; }
  void resize(int width, int height) override;
  DeviceTarget map_device(void* cuda_stream) override;
  void unmap_device(void* cuda_stream) override { (void)cuda_stream; }
  void upload_host(const ImageU8& rgba) override;
  void upload_host(const ImageF& scalar) override;
  std::string transport() const override { return "device buffer"; }

  // What the last write left: device memory, or a host image (upload_host).
  bool holds_host() const { return host_; }
  const ImageU8& host_rgba() const { return rgba_; }
  const ImageF& host_scalar() const { return scalar_; }
  const void* device_ptr() const { return ptr_; }
  std::size_t pitch() const { return pitch_; }
  std::size_t row_bytes() const { return static_cast<std::size_t>(w_) * 4; }  // RGBA8 and R32F: 4 bytes

 private:
  SurfaceFormat format_;
  int w_ = 0, h_ = 0;              // the content's size
  int alloc_w_ = 0, alloc_h_ = 0;  // the device allocation's
  void* ptr_ = nullptr;
  std::size_t pitch_ = 0;
  bool host_ = false;
  ImageU8 rgba_;
  ImageF scalar_;
};

// A device buffer surface, or nullptr when this build or machine has no CUDA device.
std::unique_ptr<DeviceBufferSurface> make_device_buffer_surface(SurfaceFormat format);

// Device memory in use on the current CUDA device (total - free), -1 without CUDA (soak).
long long device_memory_used();

}  // namespace lb::gl
