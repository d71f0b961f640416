// Plenoptic views on a general grid (plenoptic_views.hpp with scene.mla set): the light field
// has the frame's size, each view is render_hex at its shift, and across views a plane in
// focus stays put while nearer and farther planes move in opposite directions.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "lightbench/error.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "lightbench/plenoptic_views.hpp"

using namespace lb;

namespace {

const PlenopticScene& hex_views_small() {
  static const PlenopticScene s = to_scene(generate_hex_scene(hex_generator_preset("hex-small")), "hex-small");
  return s;
}

// The horizontal shift k (output pixels, steps of 1/8, b linearly interpolated) minimising
// the mean squared difference between a(x, y) and b(x + k, y) over the pixels whose truth is
// `plane` within `margin` pixels.
double best_shift(const ImageU8& a, const ImageU8& b, const ImageF& truth, float plane, int margin) {
  auto inside = [&](int x, int y) {
    for (int dy = -margin; dy <= margin; ++dy)
      for (int dx = -margin; dx <= margin; ++dx) {
        const int xx = x + dx, yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= truth.width || yy >= truth.height || truth.at(xx, yy) != plane) return false;
      }
    return true;
  };
  double best = std::numeric_limits<double>::infinity(), arg = 0;
  for (double k = -margin + 1; k <= margin - 1; k += 0.125) {
    double se = 0;
    long n = 0;
    for (int y = 0; y < a.height; ++y)
      for (int x = 0; x < a.width; ++x) {
        if (!inside(x, y)) continue;
        const int x0 = static_cast<int>(std::floor(x + k));
        const double f = x + k - x0;
        for (int c = 0; c < 3; ++c) {
          const double d = a.at(x, y, c) - ((1 - f) * b.at(x0, y, c) + f * b.at(x0 + 1, y, c));
          se += d * d;
        }
        ++n;
      }
    REQUIRE(n > 50);
    if (se / n < best) {
      best = se / n;
      arg = k;
    }
  }
  return arg;
}

}  // namespace

TEST_CASE("hex views: frame-sized light field; every view is render_hex at its shift") {
  const PlenopticScene& s = hex_views_small();
  ViewGridOptions o;  // M: the truth's (8); step: min((24 - 8) / 2, 8 / 4) = 2
  const LightField4D lf = plenoptic_view_grid(s, 3, 2, o);
  const MlaLayout mla(*s.mla);
  const HexFrame f = hex_frame(mla, s.raw.width, s.raw.height, 8);
  CHECK(lf.nu == 3);
  CHECK(lf.nv == 2);
  CHECK(lf.width == f.width);
  CHECK(lf.height == f.height);
  CHECK(lf.width == s.truth.width);
  CHECK(lf.layout == "plenoptic");
  CHECK(lf.source == "plenoptic hex-small");
  REQUIRE(lf.views.size() == 6);
  const HexRunParams d = default_hex_params(*s.mla);
  const HexTablesHost t = build_hex_tables(mla, s.raw.width, s.raw.height, 8, d.render.rings, d.render.lens_types);
  for (int v = 0; v < 2; ++v)
    for (int u = 0; u < 3; ++u) {
      HexRenderParams p = d.render;
      p.patch = 8;
      p.view_x = static_cast<float>((1 - u) * 2.0);
      p.view_y = static_cast<float>((0.5 - v) * 2.0);
      const ImageU8 ref = to_rgb(render_hex(to_rgba(s.raw), t, p));
      CHECK(lf.view(u, v).data == ref.data);
      CHECK(lf.view(u, v).channels == 3);
    }
  // Options: M, rings (lim), lens types; the step bounded by D - M.
  o.patch = 10;
  o.lim = 2;
  o.lens_types = kLensTypesAll;
  const LightField4D l10 = plenoptic_view_grid(s, 1, 1, o);
  CHECK(l10.width == hex_frame(mla, s.raw.width, s.raw.height, 10).width);
  HexRenderParams p10 = d.render;
  p10.patch = 10;
  p10.rings = 2;
  p10.lens_types = kLensTypesAll;
  CHECK(l10.view(0, 0).data == to_rgb(render_hex_cpu(s.raw, mla, p10)).data);
  o = ViewGridOptions{};
  o.step = 8.5;
  CHECK_THROWS_WITH_AS(plenoptic_view_grid(s, 3, 3, o), "views: step 8.5 out of range (0..8 raw pixels for 3 views at M=8)",
                       Error);
  o = ViewGridOptions{};
  o.patch = 24;
  CHECK_THROWS_WITH_AS(plenoptic_view_grid(s, 3, 3, o), doctest::Contains("patch: must be in 1..23, got 24"), Error);
  o.patch = 23;
  o.step = 0;
  CHECK_NOTHROW(plenoptic_view_grid(s, 2, 1, o));
  CHECK_THROWS_WITH_AS(plenoptic_view_grid(s, 0, 3, ViewGridOptions{}), doctest::Contains("views: horizontal count 0"),
                       Error);
}

TEST_CASE("hex views: the in-focus plane stays, nearer and farther planes move apart") {
  const PlenopticScene& s = hex_views_small();
  ViewGridOptions o;
  o.step = 4.0;  // views at +4, 0, -4 raw pixels at M = 8
  const LightField4D lf = plenoptic_view_grid(s, 3, 1, o);
  // The model (plenoptic_views.hpp): from view 0 to view 2 a plane of patch P moves by
  // -2 d, d = 4 (1 - 8 / P): 0 for the rectangle (P = 8), -2.2 px for the disc (P = 11,
  // nearer), +2.7 px for the background (P = 6, farther). The views blend whole lenses with
  // soft weights, so the motion is smaller than the model (measured -1.9 and +2.4 at the
  // default sigma D / 7), and the nearest-pixel sampling moves an in-focus plane by a
  // fraction of a pixel (0.1).
  const double rect = best_shift(lf.view(0, 0), lf.view(2, 0), s.truth, 8.0f, 6);
  const double disc = best_shift(lf.view(0, 0), lf.view(2, 0), s.truth, 11.0f, 6);
  const double back = best_shift(lf.view(0, 0), lf.view(2, 0), s.truth, 6.0f, 6);
  MESSAGE("shift view 0 -> 2 (px): in focus (P = 8) " << rect << ", near (P = 11) " << disc << ", far (P = 6) "
                                                     << back);
  CHECK(std::abs(rect) <= 0.5);
  CHECK(disc <= -1.0);
  CHECK(back >= 1.0);
  CHECK(disc < rect - 0.75);
  CHECK(back > rect + 0.75);
  // The same grid of views with every lens at its nearest only (rings 0): the in-focus plane
  // does not move at all.
  o.lim = 0;
  const LightField4D l0 = plenoptic_view_grid(s, 3, 1, o);
  CHECK(best_shift(l0.view(0, 0), l0.view(2, 0), s.truth, 8.0f, 6) == 0.0);
}
