#include "screenshot.hpp"

#include <fstream>

#include "lightbench/error.hpp"
#include "lightbench/gl/texture.hpp"
#include "lightbench/image_io.hpp"

namespace lb::viewer {

void save_screenshot(const std::string& png_path, int fb_w, int fb_h, const nlohmann::json& layout) {
  // What the frame was drawn into: the default framebuffer's back buffer (a window) or an
  // offscreen framebuffer object's colour attachment (headless).
  GLint draw_fbo = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(draw_fbo));
  glReadBuffer(draw_fbo == 0 ? GL_BACK : GL_COLOR_ATTACHMENT0);
  LB_GL_CHECK("selecting the framebuffer to read");
  const ImageU8 img = gl::read_framebuffer(fb_w, fb_h);
  save_image(png_path, img);
  const std::string json_path = png_path + ".json";
  std::ofstream out(json_path);
  LB_REQUIRE(out.good(), "cannot write " + json_path);
  out << layout.dump(2) << "\n";
  LB_REQUIRE(out.good(), "error writing " + json_path);
}

}  // namespace lb::viewer
