// Plenoptic raw -> light field of views (plenoptic/plenoptic_views.hpp): the shift rule by
// hand, every view equal to the renderer's output at its shift, CAE on the exported grid
// ordering a generated scene's two planes, and one-line refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "lightfield/cae.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/plenoptic_views.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"
#include "lightbench/scene_file.hpp"

using namespace lb;

namespace {
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

std::string error_text(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const GeneratedScene& tiny() {
  static const GeneratedScene s = generate_scene(generator_preset("tiny", 1));
  return s;
}
}  // namespace

TEST_CASE("view grid: shift rule by hand") {
  // tiny: D = 34.5; M = 11: usable range r = 11.75, N = 5 views: step 23.5 / 4 = 5.875.
  CHECK(view_grid_step(5, 34.5, 11) == doctest::Approx(5.875));
  CHECK(view_grid_step(1, 34.5, 11) == 0.0);
  CHECK(view_grid_default_step(5, 34.5, 11) == doctest::Approx(2.75));  // M / 4 < 5.875
  CHECK(view_grid_default_step(5, 12.0, 10) == doctest::Approx(0.5));   // (12 - 10) / 4 < 2.5
  const double st = view_grid_step(5, 34.5, 11);
  CHECK(view_grid_shift(0, 5, st) == doctest::Approx(11.75));  // decreasing with k (see header)
  CHECK(view_grid_shift(2, 5, st) == doctest::Approx(0.0));
  CHECK(view_grid_shift(4, 5, st) == doctest::Approx(-11.75));
  // The shorter axis of a 5 x 3 grid: the same step around 0.
  CHECK(view_grid_shift(0, 3, st) == doctest::Approx(5.875));
  CHECK(view_grid_shift(2, 3, st) == doctest::Approx(-5.875));
  // Even counts straddle 0.
  const double st2 = view_grid_step(2, 34.5, 11);
  CHECK(st2 == doctest::Approx(23.5));
  CHECK(view_grid_shift(0, 2, st2) == doctest::Approx(11.75));
  CHECK(view_grid_shift(1, 2, st2) == doctest::Approx(-11.75));
  CHECK(plenoptic_view_disparity(12, 6.0, 11) == doctest::Approx(0.5));
  CHECK(plenoptic_view_disparity(11, 6.0, 11) == doctest::Approx(0.0));
}

TEST_CASE("view grid: every view is the renderer's output at its shift") {
  const GeneratedScene& s = tiny();
  ViewGridOptions o;
  o.patch = 10;
  o.step = (34.5 - 10) / 3;  // the largest step for N = 4: the longer axis spans [-r, r]
  const LightField4D lf = plenoptic_view_grid(s.raw, s.params.grid, 4, 3, o, "tiny");
  REQUIRE(lf.nu == 4);
  REQUIRE(lf.nv == 3);
  CHECK(lf.width == 14 * 10);
  CHECK(lf.height == 10 * 10);
  CHECK(lf.layout == "plenoptic");
  CHECK(lf.source == "plenoptic tiny");
  CHECK_FALSE(lf.has_gt());
  const double step = (34.5 - 10) / 3;  // N = 4
  const ImageU8 rgba = to_rgba(s.raw);
  for (int v = 0; v < 3; ++v)
    for (int u = 0; u < 4; ++u) {
      RenderParams p = default_render_params(s.params.grid);
      p.patch = 10;
      p.view_x = static_cast<float>((1.5 - u) * step);
      p.view_y = static_cast<float>((1.0 - v) * step);
      const ImageU8 want = to_rgb(render_cpu(rgba, build_render_tables(s.params.grid, p, rgba.width, rgba.height)));
      CHECK(lf.view(u, v).data == want.data);
      CHECK(lf.view(u, v).channels == 3);
    }
  // Neighbouring views differ (there is parallax), the odd axis' middle row is the s_y = 0 render.
  CHECK(lf.view(0, 1).data != lf.view(3, 1).data);
}

TEST_CASE("view grid: the scene's truth patch is the default M; options override") {
  PlenopticScene sc;
  sc.raw = tiny().raw;
  sc.grid = tiny().params.grid;
  sc.truth = tiny().truth;
  sc.truth_patch = 9;
  CHECK(plenoptic_view_grid(sc, 1, 1).width == 14 * 9);
  sc.truth = ImageF();
  CHECK(plenoptic_view_grid(sc, 1, 1).width == 14 * default_render_params(sc.grid).patch);
  ViewGridOptions o;
  o.patch = 12;
  o.step = 2.0;
  const LightField4D lf = plenoptic_view_grid(sc, 3, 1, o);
  CHECK(lf.width == 14 * 12);
  RenderParams p = default_render_params(sc.grid);
  p.patch = 12;
  p.view_x = 2.0f;
  const ImageU8 rgba = to_rgba(sc.raw);
  CHECK(lf.view(0, 0).data == to_rgb(render_cpu(rgba, build_render_tables(sc.grid, p, rgba.width, rgba.height))).data);
}

TEST_CASE("view grid: CAE depth of the exported views orders near and far planes") {
  // tiny: background at P = 8 (far), rectangle [3, 10) x [2, 8) micro-images at P = 12 (near).
  // Disparity grows with nearness (lightfield.hpp's convention), so near > far, at a patch
  // focusing the back (8), between (10) and the truth patch (11), with the default step
  // (M / 4) on 3 x 3 and 5 x 5 grids.
  const GeneratedScene& s = tiny();
  for (int n : {3, 5})
    for (int M : {8, 10, 11}) {
      CAPTURE(n);
      CAPTURE(M);
      ViewGridOptions o;
      o.patch = M;
      const LightField4D lf = plenoptic_view_grid(s.raw, s.params.grid, n, n, o);
      CaeParams cp;
      cp.views = n;
      cp.labels = 41;
      cp.dmin = -2;
      cp.dmax = 2;
      const LfDepthResult r = cae_depth_cpu(lf, cp);
      std::vector<double> near, far;
      for (int y = 0; y < lf.height; ++y)
        for (int x = 0; x < lf.width; ++x) {
          const double sx = (x + 0.5) / M, sy = (y + 0.5) / M;  // micro-image units
          if (sx > 4 && sx < 9 && sy > 3 && sy < 7) near.push_back(r.disparity.at(x, y));
          if (sx < 2 || sx > 11 || sy < 1.5 || sy > 8.5) far.push_back(r.disparity.at(x, y));
        }
      MESSAGE("n " << n << " M " << M << ": near " << median(near) << " far " << median(far));
      CHECK(median(near) > median(far) + 0.2);
      // The plane in focus at M has no parallax.
      if (M == 8) CHECK(std::abs(median(far)) <= 0.15);
    }
}

TEST_CASE("view grid: bad requests are one-line errors") {
  const GeneratedScene& s = tiny();
  const PlenopticGrid& g = s.params.grid;
  CHECK(error_text([&] { plenoptic_view_grid(s.raw, g, 0, 3); }).find("views: horizontal count 0 out of range") == 0);
  CHECK(error_text([&] { plenoptic_view_grid(s.raw, g, 3, 34); }).find("views: vertical count 34") == 0);
  ViewGridOptions o;
  o.patch = 34;  // D = 34.5: M <= D - 1 needed for parallax
  CHECK(error_text([&] { plenoptic_view_grid(s.raw, g, 3, 3, o); }).find("leaves no room for parallax") !=
        std::string::npos);
  CHECK(plenoptic_view_grid(s.raw, g, 1, 1, o).width == 14 * 34);  // one view needs no room
  o.patch = -2;
  CHECK(error_text([&] { plenoptic_view_grid(s.raw, g, 3, 3, o); }).find("must be positive") != std::string::npos);
  o.patch = 65;
  CHECK(error_text([&] { plenoptic_view_grid(s.raw, g, 3, 3, o); }).find("patch: must be in 1..") == 0);
  o = ViewGridOptions();
  o.step = 50;
  CHECK(error_text([&] { plenoptic_view_grid(s.raw, g, 3, 3, o); }).find("views: step 50 out of range") == 0);
  CHECK_THROWS_AS(plenoptic_view_grid(ImageU8(), g, 3, 3), Error);
  PlenopticGrid big = g;
  big.nx = 40;
  CHECK(error_text([&] { plenoptic_view_grid(s.raw, big, 3, 3); }).find("needs") != std::string::npos);
}
