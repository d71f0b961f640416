// Hexagonal multi-focus raws: the generator (determinism, lens images, truth, per-type
// defocus) and the CPU reference renderer against the generator's truth.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "hex_test_geometry.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "lightbench/plenoptic_hex.hpp"

using namespace lb;

namespace {

// A Raytrix-like grid (bases (1, 0), (0.5, -0.866), three types) of diameter D.
MlaGeometry hex_grid(double D) { return lb::test::three_type_hex(D, D / 2 + 0.3, D / 2 + 0.7); }

HexGeneratorParams scene_params(const MlaGeometry& g, int w, int h) {
  HexGeneratorParams p;
  p.mla = g;
  p.width = w;
  p.height = h;
  p.seed = 7;
  p.preview_patch = 8;
  ScenePlane bg;
  bg.background = true;
  bg.patch = 6;
  ScenePlane disc;
  disc.disc = true;
  disc.patch = 10;
  // Row j = -4 sits 4 * 0.866 lens units down: a disc in the middle of a 300 x 260 raw.
  disc.x0 = 6.0;
  disc.y0 = 4.5;
  disc.x1 = 2.5;
  p.planes = {bg, disc};
  return p;
}

double psnr_border(const ImageU8& a, const ImageU8& b, int border) {
  double se = 0;
  long n = 0;
  for (int y = border; y < a.height - border; ++y)
    for (int x = border; x < a.width - border; ++x)
      for (int c = 0; c < a.channels; ++c) {
        const double d = double(a.at(x, y, c)) - b.at(x, y, c);
        se += d * d;
        ++n;
      }
  return 10.0 * std::log10(255.0 * 255.0 / (se / n));
}

}  // namespace

TEST_CASE("hex generator: same seed, same bytes, any thread count") {
  const auto p = scene_params(hex_grid(24.0), 300, 260);
  const HexScene a = generate_hex_scene(p, 1), b = generate_hex_scene(p, 3);
  CHECK(a.raw.data == b.raw.data);
  CHECK(a.truth.data == b.truth.data);
  CHECK(a.sharp.data == b.sharp.data);
  auto q = p;
  q.seed = 8;
  CHECK(generate_hex_scene(q, 2).raw.data != a.raw.data);
}

TEST_CASE("hex generator: lens images where the grid says, dark gaps between them") {
  const MlaGeometry g = hex_grid(24.0);
  const HexScene s = generate_hex_scene(scene_params(g, 300, 260));
  const MlaLayout m(g);
  const auto lenses = m.lenses_in(300, 260);
  REQUIRE(lenses.size() > 100);
  auto lum = [&](double x, double y) {
    const int X = static_cast<int>(std::floor(x + 0.5)), Y = static_cast<int>(std::floor(y + 0.5));
    return s.raw.at(X, Y, 0) + s.raw.at(X, Y, 1) + s.raw.at(X, Y, 2);
  };
  int gaps = 0;
  for (const MlaLens& l : lenses) {
    CHECK(lum(l.cx, l.cy) > 0);
    // The point between three lenses is D / sqrt(3) > D / 2 from each: outside every aperture.
    const MlaVec a = m.centre(l.i + 1, l.j), b = m.centre(l.i, l.j + 1);
    const double gx = (l.cx + a.x + b.x) / 3, gy = (l.cy + a.y + b.y) / 3;
    if (gx < 1 || gy < 1 || gx > 298 || gy > 258) continue;
    CHECK(lum(gx, gy) == 0);
    ++gaps;
  }
  CHECK(gaps > 50);
}

TEST_CASE("hex generator: the truth holds the planes' known depths where they are") {
  const MlaGeometry g = hex_grid(24.0);
  const HexScene s = generate_hex_scene(scene_params(g, 300, 260));
  const HexFrame& f = s.frame;
  CHECK(f.patch == 8);
  CHECK(s.truth.width == f.width);
  CHECK(s.sharp.width == f.width);
  std::set<float> values(s.truth.data.begin(), s.truth.data.end());
  CHECK(values == std::set<float>{6.0f, 10.0f});
  int inside = 0;
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) {
      const MlaVec p = f.scene(x, y);
      const bool in = std::hypot(p.x - 6.0, p.y - 4.5) <= 2.5;
      CHECK(s.truth.at(x, y) == (in ? 10.0f : 6.0f));
      inside += in;
    }
  // pi * 2.5^2 lens units^2 at 8 x 8 output pixels each.
  CHECK(inside == doctest::Approx(M_PI * 2.5 * 2.5 * 64).epsilon(0.03));
  // The frame: lens positions of the raw's lenses, one lens unit each way more, at M = 8.
  const auto lenses = MlaLayout(g).lenses_in(300, 260);
  double xmin = 1e9, xmax = -1e9;
  for (const auto& l : lenses) {
    xmin = std::min(xmin, l.i + 0.5 * l.j);
    xmax = std::max(xmax, l.i + 0.5 * l.j);
  }
  CHECK(f.s0.x == doctest::Approx(xmin));
  CHECK(f.width == static_cast<int>(std::round((xmax - xmin + 1) * 8)));
}

TEST_CASE("hex generator: multi-focus: only the lens types whose range misses the depth blur") {
  const MlaGeometry g = hex_grid(24.0);
  auto p = scene_params(g, 300, 260);
  p.planes.resize(1);
  p.planes[0].patch = 8;  // virtual depth 24 / 8 = 3: sharp in types 0 ([1, 3]) and 1 ([2.8, 4])
  const HexScene sharp = generate_hex_scene(p);
  p.defocus = 2.0;
  const HexScene blurred = generate_hex_scene(p);
  const MlaLayout m(g);
  int differ[3] = {0, 0, 0};
  for (int y = 0; y < 260; ++y)
    for (int x = 0; x < 300; ++x) {
      const MlaLens l = m.nearest(x, y);
      // Pixels on an aperture's rim mix sub-samples of two lenses: count whole ones only.
      if (std::hypot(x - l.cx, y - l.cy) > 24.0 / 2 - 1.0) continue;
      const int t = l.type;
      for (int c = 0; c < 3; ++c) differ[t] += sharp.raw.at(x, y, c) != blurred.raw.at(x, y, c);
    }
  CHECK(differ[0] == 0);
  CHECK(differ[1] == 0);
  CHECK(differ[2] > 1000);
  CHECK(sharp.sharp.data == blurred.sharp.data);  // the truth has no defocus
  p.mla.types[2].depth_min = -1.0;
  CHECK_THROWS_WITH_AS(generate_hex_scene(p), doctest::Contains("hexagonal generator: lens type 2 depth range"), Error);
  p = scene_params(g, 300, 260);
  p.planes[0].patch = 30;
  CHECK_THROWS_WITH_AS(generate_hex_scene(p), doctest::Contains("plane patch size 30 out of range"), Error);
}

TEST_CASE("hex render (CPU): in focus it matches the truth; out of focus it does not") {
  const MlaGeometry g = hex_grid(24.0);
  auto p = scene_params(g, 360, 300);
  p.planes.resize(1);
  p.planes[0].patch = 8;
  const HexScene s = generate_hex_scene(p);
  const MlaLayout m(g);
  HexRenderParams rp;
  rp.patch = 8;
  const ImageU8 r = render_hex_cpu(s.raw, m, rp);
  REQUIRE(r.width == s.sharp.width);
  REQUIRE(r.height == s.sharp.height);
  const double in_focus = psnr_border(r, s.sharp, 8);
  rp.rings = 0;
  const double one_lens = psnr_border(render_hex_cpu(s.raw, m, rp), s.sharp, 8);
  // The same scene through a rectangular grid of the same pitch (the existing path's model).
  PlenopticGrid rect;
  rect.nx = 15;
  rect.ny = 12;
  rect.pitch = 24.0;
  auto pr = p;
  pr.mla = to_mla_geometry(rect);
  const HexScene sr = generate_hex_scene(pr);
  rp.rings = 1;
  const double rect_focus = psnr_border(render_hex_cpu(sr.raw, MlaLayout(pr.mla), rp), sr.sharp, 8);
  MESSAGE("in-focus PSNR: hexagonal " << in_focus << " dB (one lens " << one_lens
                                      << " dB), rectangular at equal pitch " << rect_focus << " dB");
  CHECK(in_focus > 24.0);
  CHECK(one_lens > 24.0);
  CHECK(in_focus > rect_focus - 1.0);
  // Out of focus (M = 12 for a plane at 8): compare with the truth at that M.
  auto p12 = p;
  p12.preview_patch = 12;
  const HexScene s12 = generate_hex_scene(p12);
  rp.patch = 12;
  const double defocused = psnr_border(render_hex_cpu(s.raw, m, rp), s12.sharp, 12);
  CHECK(defocused < in_focus - 3.0);
  // Refused parameters.
  rp.patch = 30;
  CHECK_THROWS_WITH_AS(render_hex_cpu(s.raw, m, rp), doctest::Contains("patch: must be in 1..23, got 30"), Error);
  rp.patch = 8;
  rp.view_x = 13.0f;
  CHECK_THROWS_WITH_AS(render_hex_cpu(s.raw, m, rp), doctest::Contains("view_x: must be in -12..12, got 13"), Error);
}

TEST_CASE("hex generator: the hex-small preset; its file refused in one line when broken") {
  const HexGeneratorParams p = hex_generator_preset("hex-small");
  CHECK(p.width == 360);
  CHECK(p.mla.kind == MlaKind::Hexagonal);
  CHECK(p.mla.types.size() == 3);
  CHECK(p.planes.size() == 3);
  CHECK(hex_generator_preset("hex-small", 9).seed == 9);
  const HexScene s = generate_hex_scene(p);
  std::set<float> values(s.truth.data.begin(), s.truth.data.end());
  CHECK(values == std::set<float>{6.0f, 8.0f, 11.0f});
  // The rectangle [2, 6) x [1.5, 4.5) at patch 8: output pixel of S = (4, 3).
  const HexFrame& f = s.frame;
  const int x = static_cast<int>(std::lround((4.0 - f.s0.x + 0.5) * f.patch - 0.5));
  const int y = static_cast<int>(std::lround((3.0 - f.s0.y + 0.5) * f.patch - 0.5));
  CHECK(s.truth.at(x, y) == 8.0f);
  auto error = [](const std::string& text) {
    try {
      parse_plenoptic_hex_asset(text, "hex.json");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string planes = R"("planes": [{"patch": 6, "region": "background"}])";
  const std::string types = R"("types": [{"offset": [0, 0], "depth_range": [1, 3]}])";
  CHECK(error(R"({"raw": {"width": 100, "height": 80}, "mla": {"diameter": 20, "offset": [10, 10],
      "sub_grid_base": [1, -1.7320508075688772], )" + types + "}, " + planes + "}") == "");
  CHECK(error(R"({"raw": {"width": 100, "height": 80}, "mla": {"diameter": 20, "offset": [10, 10],
      "sub_grid_base": [3, -1.7320508075688772], )" + types + "}, " + planes + "}") ==
        "hex.json: 'mla': sub_grid_base (3,-1.7320508) gives a cell of 3 lenses but there are 1 lens types");
  CHECK(error(R"({"raw": {"width": 100, "height": 80}, "mla": {"diameter": 1, "offset": [10, 10],
      "sub_grid_base": [1, -1.7320508075688772], )" + types + "}, " + planes + "}")
            .find("hex.json: 'mla.diameter': expected a number in 2..4096") == 0);
  CHECK(error(R"({"raw": {"width": 100}, "mla": {}, )" + planes + "}") == "hex.json: 'raw.height': missing");
}

TEST_CASE("grid fit: a perturbed offset is recovered from the raw") {
  const HexGeneratorParams p = hex_generator_preset("hex-small");
  const HexScene s = generate_hex_scene(p);
  for (const MlaVec err : {MlaVec{3.2, -4.1}, MlaVec{-6.0, 2.5}, MlaVec{0.0, 0.0}}) {
    MlaGeometry g = p.mla;
    g.offset.x += err.x;
    g.offset.y += err.y;
    const MlaGeometry f = fit_mla_offset(g, s.raw);
    MESSAGE("offset error (" << err.x << "," << err.y << "): fitted (" << f.offset.x << "," << f.offset.y
                              << "), true (" << p.mla.offset.x << "," << p.mla.offset.y << ")");
    CAPTURE(err.x);
    CAPTURE(err.y);
    CHECK(std::abs(f.offset.x - p.mla.offset.x) < 0.75);  // nearest-pixel gradients: about half a pixel
    CHECK(std::abs(f.offset.y - p.mla.offset.y) < 0.75);
    CHECK(f.diameter == g.diameter);
    CHECK(f.types.size() == 3);
  }
}

TEST_CASE("grid fit: refused inputs") {
  const HexGeneratorParams p = hex_generator_preset("hex-small");
  CHECK_THROWS_WITH_AS(fit_mla_offset(p.mla, ImageU8()), doctest::Contains("grid fit: the raw is empty"), Error);
  CHECK_THROWS_WITH_AS(fit_mla_offset(p.mla, ImageU8(20, 20, 3)), doctest::Contains("no whole lens inside the 20x20 raw"),
                       Error);
}

TEST_CASE("hex render (CPU): views and a rotated grid") {
  auto p = hex_generator_preset("hex-small");
  p.planes.resize(1);
  p.planes[0].patch = 8;
  p.defocus = 0.0;
  const HexScene s = generate_hex_scene(p);
  const MlaLayout m(p.mla);
  HexRenderParams rp;
  rp.patch = 8;
  // In focus, a view shift changes the weights, not the scene point each sample sees.
  rp.view_x = 4.0f;
  rp.view_y = -3.0f;
  const ImageU8 shifted = render_hex_cpu(s.raw, m, rp);
  CHECK(psnr_border(shifted, s.sharp, 8) > 24.0);
  // A plane at 10 rendered at 8 is out of focus: the view moves it by v (1 - M / P) = 0.8 px
  // per 4 px of shift, so the two opposite views differ.
  auto q = p;
  q.planes[0].patch = 10;
  const HexScene s10 = generate_hex_scene(q);
  rp.view_y = 0.0f;
  const ImageU8 right = render_hex_cpu(s10.raw, m, rp);
  rp.view_x = -4.0f;
  const ImageU8 left = render_hex_cpu(s10.raw, m, rp);
  CHECK(psnr_border(left, right, 8) < psnr_border(shifted, render_hex_cpu(s.raw, m, HexRenderParams{8, -4.0f, 3.0f, 1, 6.0f}), 8));
  // The grid rotated by 0.2 rad: the scene lives in the grid's frame, so the truth is the
  // same and the render matches it as well.
  auto r = p;
  r.mla.rotation = 0.2;
  r.mla.offset = {40.0, 20.0};
  const HexScene sr = generate_hex_scene(r);
  rp = HexRenderParams{};
  rp.patch = 8;
  const ImageU8 rot = render_hex_cpu(sr.raw, MlaLayout(r.mla), rp);
  REQUIRE(rot.width == sr.sharp.width);
  CHECK(psnr_border(rot, sr.sharp, 8) > 24.0);
}
