#pragma once
// Output surfaces (instant-ngp's pattern): an algorithm writes its result into a Surface
// and never knows what is behind it:
//   * HostSurface (here): host memory; CLI on the CPU path, tests.
//   * lb::cuda::CudaSurface (kernels/): a CUDA array with a surface object; headless GPU.
//   * lb::gl::GlTextureSurface (app/gl/): a GL texture registered once with CUDA
//     (SurfaceLoadStore) and mapped per frame; or, when registration is impossible or the
//     CPU path is active, filled from host memory with glTexSubImage2D.
// The CUDA path asks for a DeviceTarget (a cudaSurfaceObject_t or a pitched pointer, as
// plain integers so this header needs no CUDA); the CPU path hands over a host image.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lightbench/image.hpp"

namespace lb {

enum class SurfaceFormat { RGBA8, R32F };

struct DeviceTarget {
  enum class Kind { None, SurfaceObject, Pitched };
  Kind kind = Kind::None;
  std::uint64_t surface = 0;  // cudaSurfaceObject_t when kind == SurfaceObject
  void* ptr = nullptr;        // device pointer when kind == Pitched
  std::size_t pitch = 0;      // bytes per row when kind == Pitched
  int width = 0, height = 0;
};

class Surface {
 public:
  virtual ~Surface() = default;
  virtual int width() const = 0;
  virtual int height() const = 0;
  virtual SurfaceFormat format() const = 0;
  // (Re)allocates to the given size; no-op when unchanged. Contents become undefined.
  virtual void resize(int width, int height) = 0;

  // CUDA path. Returns Kind::None when the surface cannot take device writes (the caller
  // then renders to a staging buffer and calls upload_host()).
  virtual DeviceTarget map_device(void* cuda_stream) { (void)cuda_stream; return {}; }
  virtual void unmap_device(void* cuda_stream) { (void)cuda_stream; }

  // CPU path (and fallback): copy a host image (RGBA8 or 1-channel float) in.
  virtual void upload_host(const ImageU8& rgba) = 0;
  virtual void upload_host(const ImageF& scalar) = 0;

  // How results reach this surface, for the panel ("CUDA-GL interop", "host upload ...").
  virtual std::string transport() const = 0;
};

// Host memory surface. Readable back as an image.
class HostSurface final : public Surface {
 public:
  explicit HostSurface(SurfaceFormat f = SurfaceFormat::RGBA8) : format_(f) {}
  int width() const override { return w_; }
  int height() const override { return h_; }
  SurfaceFormat format() const override { return format_; }
  void resize(int width, int height) override;
  void upload_host(const ImageU8& rgba) override;
  void upload_host(const ImageF& scalar) override;
  std::string transport() const override { return "host memory"; }
  const ImageU8& rgba() const { return rgba_; }
  const ImageF& scalar() const { return scalar_; }

 private:
  SurfaceFormat format_;
  int w_ = 0, h_ = 0;
  ImageU8 rgba_;
  ImageF scalar_;
};

}  // namespace lb
