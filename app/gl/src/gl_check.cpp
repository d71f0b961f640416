#include <cstdio>
#include <string>

#include "lightbench/error.hpp"
#include "lightbench/gl/gl.hpp"

namespace lb::gl {

const char* error_name(GLenum err) {
  switch (err) {
    case GL_NO_ERROR: return "GL_NO_ERROR";
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_FRAMEBUFFER_UNDEFINED: return "GL_FRAMEBUFFER_UNDEFINED";
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT";
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT:
      return "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT";
    case GL_FRAMEBUFFER_UNSUPPORTED: return "GL_FRAMEBUFFER_UNSUPPORTED";
    default: return "GL error";
  }
}

void check(const char* what, const char* file, int line) {
  GLenum err = glGetError();
  if (err == GL_NO_ERROR) return;
  char code[16];
  std::snprintf(code, sizeof code, " (0x%04x)", static_cast<unsigned>(err));
  const std::string msg = std::string(what) + ": " + error_name(err) + code;
  // Drain the rest (bounded: a lost context can report errors forever).
  for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
  }
  throw_at(file, line, msg);
}

void clear_errors() {
  for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
  }
}

std::string context_description() {
  auto str = [](GLenum name) {
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return std::string(s ? s : "?");
  };
  return "OpenGL " + str(GL_VERSION) + " / " + str(GL_RENDERER);
}

}  // namespace lb::gl
