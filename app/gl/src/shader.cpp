#include "lightbench/gl/shader.hpp"

#include <sstream>
#include <utility>
#include <vector>

#include "lightbench/error.hpp"

namespace lb::gl {
namespace {

std::string expand(const std::string& name, int depth) {
  LB_REQUIRE(depth < 8, "shader " + name + ": #include nested too deeply");
  const auto& table = embedded_shaders();
  const auto it = table.find(name);
  LB_REQUIRE(it != table.end(), "shader '" + name + "' is not embedded in this binary");
  std::istringstream in{std::string(it->second)};
  std::string out, line;
  while (std::getline(in, line)) {
    const auto p = line.find("#include");
    if (p != std::string::npos && line.find_first_not_of(" \t") == p) {
      const auto a = line.find('"', p), b = line.rfind('"');
      LB_REQUIRE(a != std::string::npos && b > a, "shader " + name + ": bad #include line");
      out += expand(line.substr(a + 1, b - a - 1), depth + 1);
    } else {
      out += line;
      out += '\n';
    }
  }
  return out;
}

GLuint compile(GLenum type, const std::string& name) {
  const std::string src = shader_source(name);
  GLuint s = glCreateShader(type);
  const char* p = src.c_str();
  glShaderSource(s, 1, &p, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint len = 0;
    glGetShaderiv(s, GL_INFO_LOG_LENGTH, &len);
    std::vector<char> log(static_cast<std::size_t>(len > 1 ? len : 1));
    glGetShaderInfoLog(s, static_cast<GLsizei>(log.size()), nullptr, log.data());
    glDeleteShader(s);
    LB_THROW("compiling shader " + name + ": " + std::string(log.data()));
  }
  return s;
}

}  // namespace

std::string shader_source(const std::string& name) { return expand(name, 0); }

Program::Program(const std::string& vertex_name, const std::string& fragment_name) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_name);
  GLuint fs = 0;
  try {
    fs = compile(GL_FRAGMENT_SHADER, fragment_name);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  id_ = glCreateProgram();
  glAttachShader(id_, vs);
  glAttachShader(id_, fs);
  glLinkProgram(id_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint len = 0;
    glGetProgramiv(id_, GL_INFO_LOG_LENGTH, &len);
    std::vector<char> log(static_cast<std::size_t>(len > 1 ? len : 1));
    glGetProgramInfoLog(id_, static_cast<GLsizei>(log.size()), nullptr, log.data());
    glDeleteProgram(id_);
    id_ = 0;
    LB_THROW("linking " + vertex_name + " + " + fragment_name + ": " + std::string(log.data()));
  }
  LB_GL_CHECK("building program");
}

Program::~Program() {
  if (id_) glDeleteProgram(id_);
}

Program::Program(Program&& o) noexcept
    : id_(std::exchange(o.id_, 0)), locations_(std::move(o.locations_)) {}

Program& Program::operator=(Program&& o) noexcept {
  if (this != &o) {
    if (id_) glDeleteProgram(id_);
    id_ = std::exchange(o.id_, 0);
    locations_ = std::move(o.locations_);
  }
  return *this;
}

void Program::use() const { glUseProgram(id_); }

GLint Program::uniform(const char* name) {
  const auto it = locations_.find(name);
  if (it != locations_.end()) return it->second;
  const GLint loc = glGetUniformLocation(id_, name);
  locations_.emplace(name, loc);
  return loc;
}

}  // namespace lb::gl
