#pragma once
// GlTextureSurface: an lb::Surface backed by an OpenGL texture (RGBA8, or R32F for scalar
// outputs), the instant-ngp pattern:
//   * CUDA path: on the first map_device() of a texture allocation the texture is registered
//     ONCE with CUDA (cudaGraphicsGLRegisterImage, SurfaceLoadStore), after checking that
//     the GL context runs on the CUDA backend's device (cudaGLGetDevices). Each frame
//     map_device() maps it and hands the kernel a cudaSurfaceObject_t; unmap_device()
//     destroys the surface object and unmaps. resize() unregisters; the next map
//     re-registers the new storage.
//   * Fallback: when registration is impossible (Mesa under Xvfb, a non-NVIDIA GL, a build
//     without CUDA) map_device() returns Kind::None and the caller uploads a host image;
//     on the CPU path results always arrive by upload_host() (glTexSubImage2D).
// transport() says which happened last and why. Needs its GL context current for every
// call, including destruction.
#include <cstdint>
#include <memory>
#include <string>

#include "lightbench/gl/texture.hpp"
#include "lightbench/surface.hpp"

namespace lb::gl {

namespace detail {
class InteropLink;
}
class DeviceBufferSurface;  // device_buffer.hpp

class GlTextureSurface final : public Surface {
 public:
  explicit GlTextureSurface(SurfaceFormat format = SurfaceFormat::RGBA8);
  ~GlTextureSurface() override;
  GlTextureSurface(const GlTextureSurface&) = delete;
  GlTextureSurface& operator=(const GlTextureSurface&) = delete;

  int width() const override { return tex_.width(); }
  int height() const override { return tex_.height(); }
  SurfaceFormat format() const override { return format_; }
  void resize(int width, int height) override;

  DeviceTarget map_device(void* cuda_stream) override;
  void unmap_device(void* cuda_stream) override;

  void upload_host(const ImageU8& rgba) override;
  void upload_host(const ImageF& scalar) override;

  // Takes a finished result made off the GL thread: a HostSurface (uploaded), or a
  // DeviceBufferSurface (device_buffer.hpp: copied in through interop, or downloaded and
  // uploaded when the texture cannot be registered). Throws lb::Error.
  void write_from(const HostSurface& result);
  void write_from(const DeviceBufferSurface& result);

  // "CUDA-GL interop" or "host upload (glTexSubImage2D): <reason>".
  std::string transport() const override;

  // Off: map_device() always returns Kind::None (e.g. the user forces host uploads);
  // `reason` then completes transport()'s "host upload (glTexSubImage2D): <reason>".
  void set_interop_enabled(bool on, const std::string& reason = "interop switched off");
  bool interop_enabled() const { return interop_enabled_; }
  // True when the last write went through CUDA-GL interop.
  bool last_write_was_interop() const { return last_path_ == Path::Interop; }
  // Why registration failed (empty when it did not, or was never tried).
  const std::string& interop_failure() const { return interop_failure_; }

  const Texture& texture() const { return tex_; }
  bool has_content() const { return version_ > 0 && tex_.valid(); }
  // Changes with every completed write; unique across surfaces (for caches).
  std::uint64_t version() const { return version_; }

 private:
  enum class Path { None, Interop, Host };
  Texture tex_;
  SurfaceFormat format_;
  std::unique_ptr<detail::InteropLink> link_;
  bool interop_enabled_ = true;
  bool mapped_ = false;
  std::string interop_failure_;
  std::string off_reason_ = "interop switched off";
  Path last_path_ = Path::None;
  std::uint64_t version_ = 0;
};

}  // namespace lb::gl
