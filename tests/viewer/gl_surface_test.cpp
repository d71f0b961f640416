// GlTextureSurface and the display shaders on a headless EGL context (Mesa's software device
// is fine): host uploads and read-back, the CPU backend rendering into a GL texture, the
// display program at 1:1 (must reproduce the texture exactly), and the difference heat map.
// Skips (exit 77) when no EGL device can give an OpenGL 3.3 context.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "lightbench/backend.hpp"
#include "lightbench/colormap.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/gl/egl_headless.hpp"
#include "lightbench/gl/gl_texture_surface.hpp"
#include "lightbench/gl/image_display.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"
#include "skip.hpp"

namespace {

// Draws `tex` (or the difference of a and b) into an offscreen RGBA8 framebuffer of w x h
// with the given view, and reads it back top row first as RGBA.
struct Offscreen {
  GLuint fbo = 0, color = 0;
  int w, h;
  Offscreen(int width, int height) : w(width), h(height) {
    glGenTextures(1, &color);
    glBindTexture(GL_TEXTURE_2D, color);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
    REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
  }
  ~Offscreen() {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &color);
  }
  lb::ImageU8 read() {
    lb::ImageU8 rgba(w, h, 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data.data());
    lb::ImageU8 out(w, h, 4);
    for (int y = 0; y < h; ++y)
      std::copy(rgba.row(h - 1 - y), rgba.row(h - 1 - y) + w * 4, out.row(y));
    LB_GL_CHECK("offscreen read");
    return out;
  }
};

lb::GeneratedScene tiny() { return lb::generate_scene(lb::generator_preset("tiny", 1)); }

}  // namespace

TEST_CASE("CPU backend renders into a GlTextureSurface by host upload, exactly") {
  const auto scene = tiny();
  auto backend = lb::make_plenoptic_engine_cpu();
  backend->set_raw(scene.raw);
  lb::gl::GlTextureSurface surf;
  for (int patch : {7, 11, 13}) {
    lb::RenderParams p = lb::default_render_params(scene.params.grid);
    p.patch = patch;
    p.view_x = 2.5f;
    backend->render(scene.params.grid, p, {}, surf);
    const lb::ImageU8 got = surf.texture().read_rgba();
    const lb::ImageU8 want = lb::render_cpu(
        lb::to_rgba(scene.raw),
        lb::build_render_tables(scene.params.grid, p, scene.raw.width, scene.raw.height));
    REQUIRE(got.same_shape(want));
    CHECK(got.data == want.data);
    CHECK(surf.transport().rfind("host upload (glTexSubImage2D)", 0) == 0);
    CHECK_FALSE(surf.last_write_was_interop());
  }
}

TEST_CASE("R32F surface round trip and texel reads") {
  lb::gl::GlTextureSurface surf(lb::SurfaceFormat::R32F);
  lb::ImageF img(37, 23, 1);
  for (std::size_t i = 0; i < img.data.size(); ++i) img.data[i] = 0.25f * float(i) - 3.0f;
  surf.upload_host(img);
  CHECK(surf.texture().read_scalar().data == img.data);
  lb::gl::TexelReader reader;
  CHECK(reader.read(surf.texture(), 5, 7)[0] == img.at(5, 7));
  CHECK_THROWS_AS(surf.upload_host(lb::ImageU8(4, 4, 4)), lb::Error);
}

TEST_CASE("display program reproduces an image exactly at 1:1 and blacks out equal diffs") {
  const auto scene = tiny();
  lb::gl::GlTextureSurface raw;
  raw.upload_host(scene.raw);  // RGB -> RGBA8
  const int w = raw.width(), h = raw.height();
  lb::gl::ImageDisplay display;
  Offscreen off(w + 20, h + 30);
  lb::gl::ViewTransform view{1.0, 20.0, 30.0};  // image at (20, 30) of the target
  display.draw({0, 0, off.w, off.h}, off.h, raw.texture(), view, {});
  const lb::ImageU8 got = off.read();
  long mismatches = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) mismatches += got.at(x + 20, y + 30, c) != scene.raw.at(x, y, c);
  CHECK(mismatches == 0);

  lb::gl::GlTextureSurface same;
  same.upload_host(scene.raw);
  display.draw_difference({0, 0, off.w, off.h}, off.h, raw.texture(), same.texture(), view, {});
  const lb::ImageU8 diff = off.read();
  long nonblack = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      nonblack += diff.at(x + 20, y + 30, 0) + diff.at(x + 20, y + 30, 1) + diff.at(x + 20, y + 30, 2) != 0;
  CHECK(nonblack == 0);

  // One changed pixel shows up (and only there).
  lb::ImageU8 changed = scene.raw;
  changed.at(3, 4, 1) = static_cast<std::uint8_t>(changed.at(3, 4, 1) ^ 0x10);
  same.upload_host(changed);
  lb::gl::DisplayStyle style;
  style.diff_max = 16.0f;
  display.draw_difference({0, 0, off.w, off.h}, off.h, raw.texture(), same.texture(), view, style);
  const lb::ImageU8 diff2 = off.read();
  nonblack = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      nonblack += diff2.at(x + 20, y + 30, 0) + diff2.at(x + 20, y + 30, 1) + diff2.at(x + 20, y + 30, 2) != 0;
  CHECK(nonblack == 1);
  CHECK(diff2.at(3 + 20, 4 + 30, 0) + diff2.at(3 + 20, 4 + 30, 1) + diff2.at(3 + 20, 4 + 30, 2) > 0);
}

TEST_CASE("the shader's colour maps are the host's (colormap.hpp), and the signed difference") {
  // A ramp over [lo, hi] with a NaN: each map drawn by the shader equals colourise() within
  // one 8-bit level (float arithmetic on another processor).
  const int w = 64;
  lb::ImageF ramp(w, 2, 1);
  for (int x = 0; x < w; ++x) {
    ramp.at(x, 0) = -1.0f + 3.0f * static_cast<float>(x) / static_cast<float>(w - 1);
    ramp.at(x, 1) = 0.5f * ramp.at(x, 0);
  }
  ramp.at(5, 1) = std::nanf("");
  lb::gl::GlTextureSurface tex(lb::SurfaceFormat::R32F);
  tex.upload_host(ramp);
  lb::gl::ImageDisplay display;
  Offscreen off(w, 2);
  const lb::gl::ViewTransform view{1.0, 0.0, 0.0};
  auto worst = [&](const lb::ImageU8& got, const lb::ImageU8& want) {
    int d = 0;
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(got.at(x, y, c)) - int(want.at(x, y, c))));
    return d;
  };
  for (lb::ColorMap m : {lb::ColorMap::Gray, lb::ColorMap::Turbo, lb::ColorMap::Viridis, lb::ColorMap::Diverging}) {
    lb::gl::DisplayStyle style;
    style.colormap = m;
    style.range_min = -0.5f;
    style.range_max = 1.5f;
    display.draw({0, 0, off.w, off.h}, off.h, tex.texture(), view, style);
    INFO("map " << lb::to_string(m));
    CHECK(worst(off.read(), lb::colormap::colourise(ramp, m, -0.5, 1.5)) <= 1);
  }
  // Signed difference A - B of two crafted maps through the diverging map over +-diff_max.
  lb::ImageF b(w, 2, 1);
  for (std::size_t i = 0; i < b.data.size(); ++i) b.data[i] = 0.25f;
  lb::gl::GlTextureSurface tb(lb::SurfaceFormat::R32F);
  tb.upload_host(b);
  lb::gl::DisplayStyle style;
  style.diff_max = 2.0f;
  display.draw_difference({0, 0, off.w, off.h}, off.h, tex.texture(), tb.texture(), view, style, true);
  lb::ImageF d = ramp;
  for (std::size_t i = 0; i < d.data.size(); ++i) d.data[i] -= 0.25f;
  const lb::ImageU8 got = off.read();
  CHECK(worst(got, lb::colormap::colourise(d, lb::ColorMap::Diverging, -2.0, 2.0)) <= 1);
  // A - B = 0 is the middle grey; negative is blue, positive red.
  const int zero_x = static_cast<int>(std::lround((1.25 / 3.0) * (w - 1)));  // ramp = 0.25 near here
  CHECK(std::abs(int(got.at(zero_x, 0, 0)) - 221) <= 12);
  CHECK(got.at(0, 0, 2) > got.at(0, 0, 0));
  CHECK(got.at(w - 1, 0, 0) > got.at(w - 1, 0, 2));
}

int main(int argc, char** argv) {
  std::string why;
  auto ctx = lb::gl::HeadlessContext::create({}, &why);
  if (!ctx) return lb::test::skip("no headless OpenGL context: " + why);
  std::printf("GL context: %s\n", ctx->description().c_str());
  doctest::Context dc;
  dc.applyCommandLine(argc, argv);
  return dc.run();
}
