#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "lightbench/generator.hpp"
#include "plenoptic/render_cpu.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {

std::uint8_t px(const ImageU8& img, int x, int y, int c = 0) { return img.at(x, y, c); }

// Gradient energy of the red+green+blue channels over a rectangle of an RGBA image.
double gradient_energy(const ImageU8& img, int x0, int y0, int x1, int y1) {
  double e = 0;
  for (int y = y0; y < y1 - 1; ++y)
    for (int x = x0; x < x1 - 1; ++x)
      for (int c = 0; c < 3; ++c) {
        const double gx = img.at(x + 1, y, c) - img.at(x, y, c);
        const double gy = img.at(x, y + 1, c) - img.at(x, y, c);
        e += gx * gx + gy * gy;
      }
  return e / ((x1 - x0 - 1) * (y1 - y0 - 1));
}

}  // namespace

TEST_CASE("a constant raw renders to the same constant for any parameters") {
  ImageU8 raw(100, 80, 4);
  for (std::size_t i = 0; i < raw.pixels(); ++i) {
    raw.data[i * 4 + 0] = 200;
    raw.data[i * 4 + 1] = 17;
    raw.data[i * 4 + 2] = 90;
    raw.data[i * 4 + 3] = 255;
  }
  const PlenopticGrid g{4, 3, 23.25, 1.5, 0.5};
  for (int lim : {0, 1, 2}) {
    RenderParams p;
    p.patch = 7;
    p.lim = lim;
    p.sigma = 5.0f;
    p.view_x = 3.5f;
    p.view_y = -2.0f;
    const ImageU8 out = render_cpu(raw, build_render_tables(g, p, 100, 80), 2);
    REQUIRE(out.width == 28);
    REQUIRE(out.height == 21);
    for (std::size_t i = 0; i < out.pixels(); ++i) {
      CHECK(out.data[i * 4 + 0] == 200);
      CHECK(out.data[i * 4 + 1] == 17);
      CHECK(out.data[i * 4 + 2] == 90);
      CHECK(out.data[i * 4 + 3] == 255);
    }
  }
}

TEST_CASE("lim 0: each output patch is the centred, nearest-pixel patch of its micro-image") {
  // Pixel value encodes its own coordinates, so the sampled position can be read back.
  const int W = 64, H = 44;
  ImageU8 raw(W, H, 4, 255);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      raw.at(x, y, 0) = static_cast<std::uint8_t>(x);
      raw.at(x, y, 1) = static_cast<std::uint8_t>(y);
      raw.at(x, y, 2) = 0;
    }
  const PlenopticGrid g{3, 2, 20.5, 0.5, 0.25};
  RenderParams p;
  p.patch = 5;
  p.lim = 0;
  const ImageU8 out = render_cpu(raw, build_render_tables(g, p, W, H), 1);
  // Hand-checked: column start floor(0.5 + n*20.5 + 7.75 + 0.5) = 8, 29, 49;
  // row start floor(0.25 + n*20.5 + 7.75 + 0.5) = 8, 29.
  const int cols[3] = {8, 29, 49}, rows[2] = {8, 29};
  for (int ny = 0; ny < 2; ++ny)
    for (int nx = 0; nx < 3; ++nx)
      for (int b = 0; b < 5; ++b)
        for (int a = 0; a < 5; ++a) {
          CHECK(px(out, nx * 5 + a, ny * 5 + b, 0) == cols[nx] + a);
          CHECK(px(out, nx * 5 + a, ny * 5 + b, 1) == rows[ny] + b);
        }
}

TEST_CASE("lim 1: two micro-images blend with their quantised Gaussian weights") {
  // Grid 2x1, pitch 20: micro-image 0 is gray 100, micro-image 1 is gray 200.
  ImageU8 raw(40, 20, 4, 255);
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 40; ++x)
      for (int c = 0; c < 3; ++c) raw.at(x, y, c) = x < 20 ? 100 : 200;
  const PlenopticGrid g{2, 1, 20.0, 0, 0};
  RenderParams p;
  p.patch = 4;
  p.lim = 1;
  p.sigma = 2.0f;
  const ImageU8 out = render_cpu(raw, build_render_tables(g, p, 40, 20), 1);
  // Output pixel (a=0, b=0) of micro-image 0: its own sample has x-offset 0 - 1.5 = -1.5;
  // neighbour i=+1 (value 200, raw column 28 - 4 = 24) is seen at offset 0 - 4 - 1.5 = -5.5;
  // i=-1 does not exist.
  // Vertically only j=0 exists (grid height 1): factor wy(b=0) cancels.
  const std::uint32_t w0 = quantised_gaussian(-1.5, 2.0), w1 = quantised_gaussian(-5.5, 2.0);
  CHECK(w0 == 193);  // round(256 * exp(-2.25 / 8))
  CHECK(w1 == 6);    // round(256 * exp(-30.25 / 8))
  const std::uint32_t expect = (100 * w0 + 200 * w1 + (w0 + w1) / 2) / (w0 + w1);
  CHECK(expect == 103);
  CHECK(px(out, 0, 0) == expect);
  // Output pixel a=3 of micro-image 1: own offset 1.5, neighbour i=-1 (value 100) at 5.5.
  const std::uint32_t e2 = (200 * w0 + 100 * w1 + (w0 + w1) / 2) / (w0 + w1);
  CHECK(px(out, 4 + 3, 0) == e2);
}

TEST_CASE("a textured plane is sharpest when rendered at its true patch size") {
  const GeneratorParams gp = generator_preset("tiny", 3);
  const GeneratedScene scene = generate_scene(gp);
  const ImageU8 raw = to_rgba(scene.raw);
  // Foreground rectangle (P=12) covers micro-image units [3,10) x [2,8); the background is
  // P=8. Measure well inside each region (in micro-image units, then times M).
  struct Region { int truth; double x0, y0, x1, y1; };
  const Region regions[] = {{12, 4.0, 3.0, 9.0, 7.0}, {8, 11.0, 1.0, 13.5, 9.0}};
  for (const Region& r : regions) {
    CAPTURE(r.truth);
    std::map<int, double> energy;
    for (int M = 7; M <= 14; ++M) {
      RenderParams p = default_render_params(gp.grid);
      p.patch = M;
      const ImageU8 out = render_cpu(raw, build_render_tables(gp.grid, p, raw.width, raw.height));
      energy[M] = gradient_energy(out, static_cast<int>(r.x0 * M), static_cast<int>(r.y0 * M),
                                  static_cast<int>(r.x1 * M), static_cast<int>(r.y1 * M));
    }
    int best = 0;
    for (const auto& [M, e] : energy)
      if (best == 0 || e > energy[best]) best = M;
    std::string table;
    for (const auto& [M, e] : energy) table += " M" + std::to_string(M) + "=" + std::to_string(e);
    INFO("gradient energy:" << table);
    CHECK(best == r.truth);
  }
}

TEST_CASE("perspective shift moves an out-of-focus render (parallax), not an in-focus one") {
  const GeneratorParams gp = generator_preset("tiny", 4);
  const ImageU8 raw = to_rgba(generate_scene(gp).raw);
  RenderParams p = default_render_params(gp.grid);
  p.patch = 12;  // the foreground plane is in focus
  const ImageU8 centre = render_cpu(raw, build_render_tables(gp.grid, p, raw.width, raw.height));
  p.view_x = 6.0f;
  const ImageU8 shifted = render_cpu(raw, build_render_tables(gp.grid, p, raw.width, raw.height));
  CHECK(centre.data != shifted.data);
  CHECK_THROWS_AS(render_cpu(to_rgb(raw), build_render_tables(gp.grid, p, raw.width, raw.height)),
                  Error);
}
