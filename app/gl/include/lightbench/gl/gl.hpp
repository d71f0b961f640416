#pragma once
// OpenGL through libepoxy (the only GL header the project includes), and error checks.
// Every GL failure becomes an lb::Error naming the call and file:line.
#include <epoxy/gl.h>

#include <string>

namespace lb::gl {

// Name of a glGetError / framebuffer status code, e.g. "GL_INVALID_VALUE".
const char* error_name(GLenum err);

// Throws lb::Error("<what>: GL_... at file:line") when glGetError reports anything
// (drains every pending error so the next check starts clean).
void check(const char* what, const char* file, int line);

// Clears pending GL errors (e.g. left by a third-party library) without throwing.
void clear_errors();

// "OpenGL 4.5 (Core Profile) Mesa 22.3.6 / llvmpipe (LLVM 15.0.6, 256 bits)".
std::string context_description();

}  // namespace lb::gl

#define LB_GL_CHECK(what) ::lb::gl::check((what), __FILE__, __LINE__)
