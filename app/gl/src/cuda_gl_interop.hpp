#pragma once
// Internal: the CUDA side of GlTextureSurface. One InteropLink is one registration of one
// texture allocation (cudaGraphicsGLRegisterImage, SurfaceLoadStore). Built from
// cuda_gl_interop.cpp with CUDA, from cuda_gl_interop_stub.cpp without.
#include <memory>
#include <string>

#include "lightbench/gl/gl.hpp"
#include "lightbench/surface.hpp"

namespace lb::gl::detail {

class InteropLink {
 public:
  virtual ~InteropLink() = default;
  // Maps the resource on `stream` and returns a surface object for it (throws lb::Error).
  virtual DeviceTarget map(void* stream, int width, int height) = 0;
  // Destroys the surface object and unmaps (throws lb::Error).
  virtual void unmap(void* stream) = 0;
  // Maps, copies `height` rows of `row_bytes` from pitched device memory into the texture
  // (cudaMemcpy2DToArray), unmaps (throws lb::Error).
  virtual void copy_from(const void* src, std::size_t pitch, std::size_t row_bytes, int height) = 0;
};

// Pitched device memory for DeviceBufferSurface (throw lb::Error; free ignores nullptr).
void* device_alloc_pitch(std::size_t row_bytes, int height, std::size_t* pitch);
void device_free(void* ptr);
// Device rows to host memory (the fallback when a texture cannot be registered).
void device_download(void* dst, std::size_t dst_pitch, const void* src, std::size_t pitch, std::size_t row_bytes,
                     int height);

// Registers texture `tex` (GL_TEXTURE_2D, current context) with the CUDA device that is
// current in this thread, after checking that the GL context runs on that device
// (cudaGLGetDevices). Returns nullptr and sets *why when interop is impossible; clears the
// CUDA error state in that case so later launches are not blamed for it.
std::unique_ptr<InteropLink> register_texture(GLuint tex, std::string* why);

// Whether this build has CUDA-GL interop at all.
bool interop_compiled();

}  // namespace lb::gl::detail
