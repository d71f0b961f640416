// Built without CUDA: interop is never possible, results always arrive by glTexSubImage2D.
#include "cuda_gl_interop.hpp"

namespace lb::gl::detail {

std::unique_ptr<InteropLink> register_texture(GLuint, std::string* why) {
  if (why) *why = "this build has no CUDA";
  return nullptr;
}

bool interop_compiled() { return false; }

}  // namespace lb::gl::detail
