#pragma once
// 2D textures (RGBA8 or R32F, no mipmaps, clamp-to-edge) and read-back helpers.
#include <array>

#include "lightbench/gl/gl.hpp"
#include "lightbench/image.hpp"
#include "lightbench/surface.hpp"

namespace lb::gl {

class Texture {
 public:
  Texture() = default;
  ~Texture();
  Texture(Texture&& o) noexcept;
  Texture& operator=(Texture&& o) noexcept;
  Texture(const Texture&) = delete;
  Texture& operator=(const Texture&) = delete;

  // (Re)creates the storage; throws lb::Error when larger than GL_MAX_TEXTURE_SIZE.
  void allocate(int width, int height, SurfaceFormat format);
  void release();

  // Whole-texture uploads (glTexSubImage2D). The image must match the texture's size;
  // 8-bit images of 1..4 channels go to RGBA8 (gray replicated, alpha 255 when absent),
  // 1-channel float images to R32F.
  void upload(const ImageU8& img);
  void upload(const ImageF& img);

  ImageU8 read_rgba() const;    // glGetTexImage, RGBA8 texture
  ImageF read_scalar() const;   // glGetTexImage, R32F texture

  GLuint id() const { return id_; }
  int width() const { return w_; }
  int height() const { return h_; }
  SurfaceFormat format() const { return format_; }
  bool valid() const { return id_ != 0 && w_ > 0 && h_ > 0; }

 private:
  GLuint id_ = 0;
  int w_ = 0, h_ = 0;
  SurfaceFormat format_ = SurfaceFormat::RGBA8;
};

int max_texture_size();

// One texel of a texture through a small framebuffer object and glReadPixels (OpenGL 3.3 has
// no glGetTextureSubImage). RGBA8 values are 0..255, R32F values are in [0] (rest 0).
class TexelReader {
 public:
  TexelReader() = default;
  ~TexelReader();
  TexelReader(const TexelReader&) = delete;
  TexelReader& operator=(const TexelReader&) = delete;
  std::array<float, 4> read(const Texture& tex, int x, int y);

 private:
  GLuint fbo_ = 0;
};

// The current read framebuffer (default: the back buffer) as RGB8, rows top to bottom.
ImageU8 read_framebuffer(int width, int height);

}  // namespace lb::gl
