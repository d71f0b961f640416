#pragma once
// GLSL programs built from the sources in shaders/, which are embedded into the binary at
// build time (see embed_shaders.cmake). `#include "name"` lines are resolved from the same
// table, so shared code (e.g. colour maps) lives once.
#include <map>
#include <string>
#include <string_view>

#include "lightbench/gl/gl.hpp"

namespace lb::gl {

// The embedded table {file name -> text}; generated at build time.
const std::map<std::string, std::string_view>& embedded_shaders();

// The source of shaders/<name> with its #include lines expanded. Throws lb::Error if missing.
std::string shader_source(const std::string& name);

class Program {
 public:
  Program() = default;
  // Compiles and links; throws lb::Error carrying the driver's info log on failure.
  Program(const std::string& vertex_name, const std::string& fragment_name);
  ~Program();
  Program(Program&& o) noexcept;
  Program& operator=(Program&& o) noexcept;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  GLuint id() const { return id_; }
  void use() const;
  // Location of a uniform (-1 when the compiler removed it); cached.
  GLint uniform(const char* name);

 private:
  GLuint id_ = 0;
  std::map<std::string, GLint> locations_;
};

}  // namespace lb::gl
