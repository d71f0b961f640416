#include "lightbench/gl/gl_texture_surface.hpp"

#include "lightbench/gl/device_buffer.hpp"

#include <atomic>
#include <cstdio>

#include "cuda_gl_interop.hpp"
#include "lightbench/error.hpp"

namespace lb::gl {
namespace {
// Versions are unique across all surfaces, so a cache keyed on (surface, version) can never
// confuse a new surface at a recycled address with an old one.
std::uint64_t next_version() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}
}  // namespace

GlTextureSurface::GlTextureSurface(SurfaceFormat format) : format_(format) {}

GlTextureSurface::~GlTextureSurface() {
  try {
    if (mapped_ && link_) link_->unmap(nullptr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lightbench: unmapping a texture: %s\n", e.what());
  }
  link_.reset();  // unregister before the texture goes
}

void GlTextureSurface::resize(int width, int height) {
  LB_REQUIRE(!mapped_, "surface: resize while mapped for CUDA");
  if (tex_.valid() && width == tex_.width() && height == tex_.height()) return;
  link_.reset();  // the registration belongs to the old storage
  tex_.allocate(width, height, format_);
}

DeviceTarget GlTextureSurface::map_device(void* cuda_stream) {
  LB_REQUIRE(tex_.valid(), "surface: map_device before resize");
  LB_REQUIRE(!mapped_, "surface: already mapped");
  if (!interop_enabled_) return {};
  if (!link_) {
    // A failure is remembered: it is a property of the context and device, not of the size.
    if (!interop_failure_.empty()) return {};
    link_ = detail::register_texture(tex_.id(), &interop_failure_);
    if (!link_) return {};
  }
  DeviceTarget t = link_->map(cuda_stream, tex_.width(), tex_.height());
  mapped_ = true;
  return t;
}

void GlTextureSurface::unmap_device(void* cuda_stream) {
  if (!mapped_) return;
  mapped_ = false;
  link_->unmap(cuda_stream);
  last_path_ = Path::Interop;
  version_ = next_version();
}

void GlTextureSurface::upload_host(const ImageU8& rgba) {
  LB_REQUIRE(format_ == SurfaceFormat::RGBA8, "surface: RGBA8 image into an R32F surface");
  LB_REQUIRE(!mapped_, "surface: host upload while mapped for CUDA");
  resize(rgba.width, rgba.height);
  tex_.upload(rgba);
  last_path_ = Path::Host;
  version_ = next_version();
}

void GlTextureSurface::upload_host(const ImageF& scalar) {
  LB_REQUIRE(format_ == SurfaceFormat::R32F, "surface: float image into an RGBA8 surface");
  LB_REQUIRE(!mapped_, "surface: host upload while mapped for CUDA");
  resize(scalar.width, scalar.height);
  tex_.upload(scalar);
  last_path_ = Path::Host;
  version_ = next_version();
}

void GlTextureSurface::write_from(const HostSurface& h) {
  LB_REQUIRE(h.format() == format_, "surface: result of another format");
  if (format_ == SurfaceFormat::RGBA8) upload_host(h.rgba());
  else upload_host(h.scalar());
}

void GlTextureSurface::write_from(const DeviceBufferSurface& result) {
  LB_REQUIRE(result.format() == format_, "surface: result of another format");
  const DeviceBufferSurface* d = &result;
  if (d->holds_host()) {
    if (format_ == SurfaceFormat::RGBA8) upload_host(d->host_rgba());
    else upload_host(d->host_scalar());
    return;
  }
  LB_REQUIRE(!mapped_, "surface: device copy while mapped");
  resize(d->width(), d->height());
  if (interop_enabled_ && !link_ && interop_failure_.empty())
    link_ = detail::register_texture(tex_.id(), &interop_failure_);
  if (interop_enabled_ && link_) {
    link_->copy_from(d->device_ptr(), d->pitch(), d->row_bytes(), d->height());
    last_path_ = Path::Interop;
    version_ = next_version();
    return;
  }
  // No interop for this texture (switched off, or the GL context is not on the device).
  if (format_ == SurfaceFormat::RGBA8) {
    ImageU8 img(d->width(), d->height(), 4);
    detail::device_download(img.data.data(), d->row_bytes(), d->device_ptr(), d->pitch(), d->row_bytes(), d->height());
    upload_host(img);
  } else {
    ImageF img(d->width(), d->height(), 1);
    detail::device_download(img.data.data(), d->row_bytes(), d->device_ptr(), d->pitch(), d->row_bytes(), d->height());
    upload_host(img);
  }
}

void GlTextureSurface::set_interop_enabled(bool on, const std::string& reason) {
  off_reason_ = reason;
  if (on == interop_enabled_) return;
  LB_REQUIRE(!mapped_, "surface: interop switched while mapped");
  interop_enabled_ = on;
  if (!on) link_.reset();
}

std::string GlTextureSurface::transport() const {
  switch (last_path_) {
    case Path::Interop: return "CUDA-GL interop";
    case Path::Host: {
      std::string why;
      if (!interop_enabled_) why = off_reason_;
      else if (!interop_failure_.empty()) why = interop_failure_;
      else if (!detail::interop_compiled()) why = "this build has no CUDA";
      else why = "CPU path";
      return "host upload (glTexSubImage2D): " + why;
    }
    case Path::None: break;
  }
  return "nothing written yet";
}

}  // namespace lb::gl
