#include "lightbench/gl/texture.hpp"

#include <cstring>
#include <utility>

#include "lightbench/error.hpp"

namespace lb::gl {
namespace {

// Restores GL_TEXTURE_BINDING_2D on scope exit so helpers never disturb callers (ImGui).
class TextureBindingGuard {
 public:
  TextureBindingGuard() { glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev_); }
  ~TextureBindingGuard() { glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(prev_)); }

 private:
  GLint prev_ = 0;
};

}  // namespace

int max_texture_size() {
  GLint v = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &v);
  return v;
}

Texture::~Texture() { release(); }

Texture::Texture(Texture&& o) noexcept
    : id_(std::exchange(o.id_, 0)), w_(std::exchange(o.w_, 0)), h_(std::exchange(o.h_, 0)),
      format_(o.format_) {}

Texture& Texture::operator=(Texture&& o) noexcept {
  if (this != &o) {
    release();
    id_ = std::exchange(o.id_, 0);
    w_ = std::exchange(o.w_, 0);
    h_ = std::exchange(o.h_, 0);
    format_ = o.format_;
  }
  return *this;
}

void Texture::release() {
  if (id_) glDeleteTextures(1, &id_);
  id_ = 0;
  w_ = h_ = 0;
}

void Texture::allocate(int width, int height, SurfaceFormat format) {
  LB_REQUIRE(width > 0 && height > 0, "texture size must be positive");
  const int maxs = max_texture_size();
  LB_REQUIRE(width <= maxs && height <= maxs,
             "image " + std::to_string(width) + "x" + std::to_string(height) +
                 " exceeds this GPU's GL_MAX_TEXTURE_SIZE " + std::to_string(maxs));
  TextureBindingGuard guard;
  if (!id_) glGenTextures(1, &id_);
  glBindTexture(GL_TEXTURE_2D, id_);
  // Non-mipmapped filters: the texture is complete with one level (needed by CUDA interop).
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
  if (format == SurfaceFormat::RGBA8)
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  else
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, width, height, 0, GL_RED, GL_FLOAT, nullptr);
  LB_GL_CHECK("glTexImage2D (allocate texture)");
  w_ = width;
  h_ = height;
  format_ = format;
}

void Texture::upload(const ImageU8& img) {
  LB_REQUIRE(valid() && format_ == SurfaceFormat::RGBA8, "texture: RGBA8 upload into a non-RGBA8 texture");
  LB_REQUIRE(img.width == w_ && img.height == h_,
             "texture: upload of " + describe(img) + " into " + std::to_string(w_) + "x" +
                 std::to_string(h_));
  const ImageU8* src = &img;
  ImageU8 converted;
  GLenum fmt = GL_RGBA;
  if (img.channels == 3) {
    fmt = GL_RGB;
  } else if (img.channels != 4) {
    converted = to_rgba(img);
    src = &converted;
  }
  TextureBindingGuard guard;
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w_, h_, fmt, GL_UNSIGNED_BYTE, src->data.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  LB_GL_CHECK("glTexSubImage2D (RGBA8)");
}

void Texture::upload(const ImageF& img) {
  LB_REQUIRE(valid() && format_ == SurfaceFormat::R32F && img.channels == 1,
             "texture: R32F upload needs an R32F texture and a 1-channel float image");
  LB_REQUIRE(img.width == w_ && img.height == h_, "texture: upload size mismatch");
  TextureBindingGuard guard;
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w_, h_, GL_RED, GL_FLOAT, img.data.data());
  LB_GL_CHECK("glTexSubImage2D (R32F)");
}

ImageU8 Texture::read_rgba() const {
  LB_REQUIRE(valid() && format_ == SurfaceFormat::RGBA8, "texture: not an RGBA8 texture");
  ImageU8 out(w_, h_, 4);
  TextureBindingGuard guard;
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out.data.data());
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  LB_GL_CHECK("glGetTexImage (RGBA8)");
  return out;
}

ImageF Texture::read_scalar() const {
  LB_REQUIRE(valid() && format_ == SurfaceFormat::R32F, "texture: not an R32F texture");
  ImageF out(w_, h_, 1);
  TextureBindingGuard guard;
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, out.data.data());
  LB_GL_CHECK("glGetTexImage (R32F)");
  return out;
}

TexelReader::~TexelReader() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
}

std::array<float, 4> TexelReader::read(const Texture& tex, int x, int y) {
  std::array<float, 4> v{0, 0, 0, 0};
  if (!tex.valid() || x < 0 || y < 0 || x >= tex.width() || y >= tex.height()) return v;
  GLint prev_read = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &prev_read);
  if (!fbo_) glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex.id(), 0);
  const GLenum status = glCheckFramebufferStatus(GL_READ_FRAMEBUFFER);
  if (status == GL_FRAMEBUFFER_COMPLETE) {
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    if (tex.format() == SurfaceFormat::RGBA8) {
      unsigned char px[4] = {0, 0, 0, 0};
      glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
      for (int c = 0; c < 4; ++c) v[c] = px[c];
    } else {
      glReadPixels(x, y, 1, 1, GL_RED, GL_FLOAT, v.data());
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
  }
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(prev_read));
  LB_GL_CHECK("reading a texel");
  LB_REQUIRE(status == GL_FRAMEBUFFER_COMPLETE,
             std::string("texel read-back framebuffer incomplete: ") + error_name(status));
  return v;
}

ImageU8 read_framebuffer(int width, int height) {
  LB_REQUIRE(width > 0 && height > 0, "framebuffer is empty");
  ImageU8 rgba(width, height, 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data.data());
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  LB_GL_CHECK("glReadPixels (framebuffer)");
  // GL rows run bottom to top; images top to bottom.
  ImageU8 out(width, height, 3);
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* src = rgba.row(height - 1 - y);
    std::uint8_t* dst = out.row(y);
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c) dst[x * 3 + c] = src[x * 4 + c];
  }
  return out;
}

}  // namespace lb::gl
