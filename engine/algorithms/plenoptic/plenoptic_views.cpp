// Plenoptic raw -> U x V light field of perspective views (plenoptic/plenoptic_views.hpp).
//
// Why the shift decreases with the view index: output pixel x = n*M + a of a plane at patch
// size P takes neighbour i's sample at local position c + a - i*M, which shows the scene point
// of micro-image coordinate n + (c + a - cu) / P + i * (1 - M / P). The weight map centred at s
// favours the neighbour i ~ (a - (M - 1) / 2 - s) / M, so moving the map by s moves the point
// shown at x by -(1 - M / P) * s / M micro-images: a fixed point appears (1 - M / P) * s output
// pixels further right. With s(u) = (uc - u) * step this is x_u = x_c - d (u - uc) with
// d = step * (1 - M / P), lightfield.hpp's sign (tested with CAE on a generated scene).
#include "lightbench/plenoptic_views.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "lightbench/error.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"

namespace lb {

namespace {
std::string num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

void check_count(int n, const char* axis) {
  LB_REQUIRE(n >= 1 && n <= kMaxViewGrid, std::string("views: ") + axis + " count " + std::to_string(n) +
                                              " out of range (1.." + std::to_string(kMaxViewGrid) + ")");
}
}  // namespace

double view_grid_step(int N, double pitch, int patch) {
  check_count(N, "view");
  if (N == 1) return 0.0;
  return (pitch - patch) / (N - 1);  // 2r / (N - 1) with r = (D - M) / 2
}

double view_grid_default_step(int N, double pitch, int patch) {
  return std::min(view_grid_step(N, pitch, patch), patch / 4.0);
}

float view_grid_shift(int k, int n, double step) {
  check_count(n, "view");
  LB_REQUIRE(k >= 0 && k < n, "views: index " + std::to_string(k) + " outside 0.." + std::to_string(n - 1));
  return static_cast<float>(((n - 1) / 2.0 - k) * step);
}

RenderParams view_grid_params(const PlenopticGrid& grid, const ViewGridOptions& opt, int default_patch) {
  LB_REQUIRE(opt.patch >= 0, "views: patch size " + std::to_string(opt.patch) + " must be positive (0: default)");
  RenderParams p = default_render_params(grid);
  if (opt.patch > 0) p.patch = opt.patch;
  else if (default_patch > 0) p.patch = default_patch;
  if (opt.lim >= 0) p.lim = opt.lim;
  if (opt.sigma > 0) p.sigma = opt.sigma;
  p.view_x = p.view_y = 0.f;
  validate(p, grid);
  return p;
}

// The one place the grid geometry enters: today the rectangular renderer (render_tables,
// render_cpu); a hexagonal grid dispatches here.
ImageU8 render_plenoptic_view(const ImageU8& raw, const PlenopticGrid& grid, const RenderParams& p, int threads) {
  LB_REQUIRE(!raw.empty() && (raw.channels == 3 || raw.channels == 4),
             "views: the raw must be an RGB or RGBA image");
  const RenderTablesHost t = build_render_tables(grid, p, raw.width, raw.height);
  return to_rgb(render_cpu(raw.channels == 4 ? raw : to_rgba(raw), t, threads));
}

LightField4D plenoptic_view_grid(const ImageU8& raw, const PlenopticGrid& grid, int U, int V,
                                 const ViewGridOptions& opt, const std::string& source) {
  check_count(U, "horizontal");
  check_count(V, "vertical");
  LB_REQUIRE(!raw.empty() && (raw.channels == 3 || raw.channels == 4),
             "views: the raw must be an RGB or RGBA image");
  validate(grid, raw.width, raw.height);
  const RenderParams base = view_grid_params(grid, opt);
  const int N = std::max(U, V);
  LB_REQUIRE(N == 1 || grid.pitch - base.patch >= 1.0,
             "views: patch size " + std::to_string(base.patch) + " leaves no room for parallax in micro-images of pitch " +
                 num(grid.pitch) + " (more than one view needs M <= D - 1)");
  const double full = view_grid_step(N, grid.pitch, base.patch);
  LB_REQUIRE(std::isfinite(opt.step) && opt.step >= 0 && opt.step <= full + 1e-9,
             "views: step " + num(opt.step) + " out of range (0.." + num(full) +
                 " raw pixels for " + std::to_string(N) + " views at M=" + std::to_string(base.patch) + ")");
  const double step = opt.step > 0 ? opt.step : view_grid_default_step(N, grid.pitch, base.patch);
  const ImageU8 rgba = raw.channels == 4 ? raw : to_rgba(raw);  // converted once, not per view

  LightField4D lf;
  lf.nu = U;
  lf.nv = V;
  lf.width = render_width(grid, base);
  lf.height = render_height(grid, base);
  lf.source = "plenoptic " + source;
  lf.layout = "plenoptic";
  lf.views.reserve(static_cast<std::size_t>(U) * V);
  for (int v = 0; v < V; ++v)
    for (int u = 0; u < U; ++u) {
      RenderParams p = base;
      p.view_x = view_grid_shift(u, U, step);
      p.view_y = view_grid_shift(v, V, step);
      lf.views.push_back(render_plenoptic_view(rgba, grid, p, opt.threads));
    }
  validate(lf);
  return lf;
}

namespace {

// The general grid (scene.mla: hexagonal, rotated, multi-focus): the same shift rule with the
// lens diameter as D, every view render_hex of one set of tables at its shift. The scene
// model is the rectangular one on the lattice (plenoptic_hex.hpp), so a plane of patch P
// moves by (1 - M / P) * s output pixels here too: the same disparity sign.
LightField4D hex_view_grid(const PlenopticScene& scene, int U, int V, const ViewGridOptions& opt) {
  const MlaLayout mla(*scene.mla);
  const MlaGeometry& g = mla.geometry();
  LB_REQUIRE(opt.patch >= 0, "views: patch size " + std::to_string(opt.patch) + " must be positive (0: default)");
  HexRenderParams base = default_hex_params(g).render;
  if (opt.patch > 0) base.patch = opt.patch;
  if (opt.lim >= 0) base.rings = opt.lim;
  if (opt.sigma > 0) base.sigma = opt.sigma;
  if (opt.lens_types >= 0) base.lens_types = opt.lens_types;
  validate(base, g);
  const int N = std::max(U, V);
  LB_REQUIRE(N == 1 || g.diameter - base.patch >= 1.0,
             "views: patch size " + std::to_string(base.patch) + " leaves no room for parallax in lenses of diameter " +
                 num(g.diameter) + " (more than one view needs M <= D - 1)");
  const double full = view_grid_step(N, g.diameter, base.patch);
  LB_REQUIRE(std::isfinite(opt.step) && opt.step >= 0 && opt.step <= full + 1e-9,
             "views: step " + num(opt.step) + " out of range (0.." + num(full) + " raw pixels for " +
                 std::to_string(N) + " views at M=" + std::to_string(base.patch) + ")");
  const double step = opt.step > 0 ? opt.step : view_grid_default_step(N, g.diameter, base.patch);
  const ImageU8 rgba = to_rgba(scene.raw);
  const HexTablesHost t = build_hex_tables(mla, rgba.width, rgba.height, base.patch, base.rings, base.lens_types);
  LightField4D lf;
  lf.nu = U;
  lf.nv = V;
  lf.width = t.frame.width;
  lf.height = t.frame.height;
  lf.source = "plenoptic " + scene.source;
  lf.layout = "plenoptic";
  lf.views.reserve(static_cast<std::size_t>(U) * V);
  for (int v = 0; v < V; ++v)
    for (int u = 0; u < U; ++u) {
      HexRenderParams p = base;
      p.view_x = view_grid_shift(u, U, step);
      p.view_y = view_grid_shift(v, V, step);
      lf.views.push_back(to_rgb(render_hex(rgba, t, p, opt.threads)));
    }
  validate(lf);
  return lf;
}

}  // namespace

LightField4D plenoptic_view_grid(const PlenopticScene& scene, int U, int V, const ViewGridOptions& opt) {
  ViewGridOptions o = opt;
  if (o.patch == 0 && !scene.truth.empty() && scene.truth_patch > 0) o.patch = scene.truth_patch;
  check_count(U, "horizontal");
  check_count(V, "vertical");
  LB_REQUIRE(!scene.raw.empty() && (scene.raw.channels == 3 || scene.raw.channels == 4),
             "views: the raw must be an RGB or RGBA image");
  if (scene.mla) return hex_view_grid(scene, U, V, o);
  return plenoptic_view_grid(scene.raw, scene.grid, U, V, o, scene.source);
}

float plenoptic_view_disparity(double patch_size_p, double step, int patch) {
  LB_REQUIRE(patch_size_p > 0 && patch > 0, "views: patch sizes must be positive");
  return static_cast<float>(step * (1.0 - patch / patch_size_p));
}

}  // namespace lb
