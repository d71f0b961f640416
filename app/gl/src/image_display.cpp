#include "lightbench/gl/image_display.hpp"

#include <cmath>

#include "lightbench/error.hpp"

namespace lb::gl {

ImageDisplay::ImageDisplay() : program_("fullscreen.vert", "image.frag") {
  glGenVertexArrays(1, &vao_);
  LB_GL_CHECK("creating the display VAO");
}

ImageDisplay::~ImageDisplay() {
  if (vao_) glDeleteVertexArrays(1, &vao_);
}

void ImageDisplay::draw(const PixelRect& rect, int fb_h, const Texture& tex,
                        const ViewTransform& view, const DisplayStyle& style) {
  draw_impl(rect, fb_h, &tex, nullptr, tex.format() == SurfaceFormat::R32F ? 1 : 0, view, style);
}

void ImageDisplay::draw_difference(const PixelRect& rect, int fb_h, const Texture& a,
                                   const Texture& b, const ViewTransform& view,
                                   const DisplayStyle& style, bool signed_difference) {
  LB_REQUIRE(a.width() == b.width() && a.height() == b.height() && a.format() == b.format(),
             "difference needs two images of the same size and format");
  draw_impl(rect, fb_h, &a, &b, signed_difference ? 3 : 2, view, style);
}

void ImageDisplay::draw_empty(const PixelRect& rect, int fb_h) {
  draw_impl(rect, fb_h, nullptr, nullptr, -1, {}, {});
}

void ImageDisplay::draw_impl(const PixelRect& r, int fb_h, const Texture* a, const Texture* b,
                             int mode, const ViewTransform& view, const DisplayStyle& s) {
  if (r.empty() || fb_h <= 0) return;
  const int gl_y = fb_h - (r.y + r.h);
  glViewport(r.x, gl_y, r.w, r.h);
  glEnable(GL_SCISSOR_TEST);
  glScissor(r.x, gl_y, r.w, r.h);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);

  program_.use();
  auto& p = program_;
  glUniform4f(p.uniform("u_pane"), static_cast<float>(r.x), static_cast<float>(gl_y),
              static_cast<float>(r.w), static_cast<float>(r.h));
  glUniform2f(p.uniform("u_offset"), static_cast<float>(view.offset_x),
              static_cast<float>(view.offset_y));
  glUniform1f(p.uniform("u_zoom"), static_cast<float>(view.zoom > 0 ? view.zoom : 1.0));
  // Mode -1 (empty): a zero-size image makes every pixel background.
  glUniform2i(p.uniform("u_size"), a ? a->width() : 0, a ? a->height() : 0);
  glUniform1i(p.uniform("u_mode"), mode < 0 ? 0 : mode);
  glUniform1f(p.uniform("u_exposure"), std::exp2(s.exposure_ev));
  glUniform2f(p.uniform("u_range"), s.range_min, s.range_max);
  glUniform1i(p.uniform("u_colormap"), static_cast<int>(s.colormap));
  glUniform1f(p.uniform("u_diff_max"), s.diff_max);
  glUniform1i(p.uniform("u_b_is_scalar"), b && b->format() == SurfaceFormat::R32F ? 1 : 0);
  glUniform1i(p.uniform("u_pixel_grid"), s.pixel_grid && view.zoom >= 12.0 ? 1 : 0);
  const bool mg = s.micro_grid && s.grid_pitch > 0;
  glUniform4f(p.uniform("u_mgrid"), static_cast<float>(s.grid_pitch), static_cast<float>(s.grid_ox),
              static_cast<float>(s.grid_oy), mg ? 1.0f : 0.0f);
  glUniform2i(p.uniform("u_mgrid_n"), s.grid_nx, s.grid_ny);
  glUniform1i(p.uniform("u_tex_a"), 0);
  glUniform1i(p.uniform("u_tex_b"), 1);

  GLint prev_active = 0, prev_tex0 = 0, prev_tex1 = 0;
  glGetIntegerv(GL_ACTIVE_TEXTURE, &prev_active);
  glActiveTexture(GL_TEXTURE1);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev_tex1);
  glBindTexture(GL_TEXTURE_2D, b ? b->id() : 0);
  glActiveTexture(GL_TEXTURE0);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev_tex0);
  glBindTexture(GL_TEXTURE_2D, a ? a->id() : 0);

  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);

  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(prev_tex0));
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(prev_tex1));
  glActiveTexture(static_cast<GLenum>(prev_active));
  glUseProgram(0);
  glDisable(GL_SCISSOR_TEST);
  LB_GL_CHECK("drawing an image pane");
}

}  // namespace lb::gl
