#include "screenshot.hpp"

#include "lightbench/atomic_file.hpp"
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
  // Both files or neither: staged as one transaction (unique temporaries, checked writes),
  // renamed into place together.
  OutputTransaction files;
  save_image(png_path, img);
  write_file_atomic(png_path + ".json", layout.dump(2) + "\n");
  files.commit();
}

}  // namespace lb::viewer
