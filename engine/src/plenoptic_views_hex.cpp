// The view grid of a scene with a general micro-lens grid (scene.mla: hexagonal, rotated,
// multi-focus): plenoptic_views.hpp's rule with D = the lens diameter, each view rendered by
// the general path's CPU reference (render_hex_cpu) over the frame at M. The shift has the
// same meaning on every grid (the weight map's offset from the lens centre, raw pixels, grid
// frame: hex_math.hpp), so the rule's sign carries over.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "lightbench/error.hpp"
#include "lightbench/hex_tables.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "lightbench/plenoptic_views.hpp"

namespace lb {

namespace {
std::string num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}
}  // namespace

double view_grid_pitch(const PlenopticScene& scene) { return scene.mla ? scene.mla->diameter : scene.grid.pitch; }

RenderParams view_grid_scene_params(const PlenopticScene& scene, const ViewGridOptions& opt) {
  ViewGridOptions o = opt;
  if (o.patch == 0 && !scene.truth.empty() && scene.truth_patch > 0) o.patch = scene.truth_patch;
  if (!scene.mla) return view_grid_params(scene.grid, o);
  LB_REQUIRE(o.patch >= 0, "views: patch size " + std::to_string(o.patch) + " must be positive (0: default)");
  LB_REQUIRE(o.lim < 0, "views: the range limit (lim) is the rectangular grid's; a general grid blends over rings");
  const MlaGeometry& g = *scene.mla;
  const HexRunParams d = default_hex_params(g);
  RenderParams p;
  p.patch = o.patch > 0 ? o.patch : d.render.patch;
  p.sigma = o.sigma > 0 ? o.sigma : d.render.sigma;
  p.lim = -1;
  HexRenderParams h = d.render;
  h.patch = p.patch;
  h.sigma = p.sigma;
  validate(h, g);  // names the parameter
  return p;
}

LightField4D plenoptic_view_grid_hex(const PlenopticScene& scene, int U, int V, const ViewGridOptions& opt) {
  LB_REQUIRE(scene.mla, "views: the scene has no micro-lens geometry");
  LB_REQUIRE(!scene.raw.empty() && (scene.raw.channels == 3 || scene.raw.channels == 4),
             "views: the raw must be an RGB or RGBA image");
  const RenderParams base = view_grid_scene_params(scene, opt);  // checks U, V below
  const MlaLayout mla(*scene.mla, "views");
  const double D = scene.mla->diameter;
  const int N = std::max(U, V);
  const double full = view_grid_step(N, D, base.patch);  // throws on a bad count
  (void)view_grid_step(std::min(U, V), D, base.patch);
  LB_REQUIRE(N == 1 || D - base.patch >= 1.0,
             "views: patch size " + std::to_string(base.patch) + " leaves no room for parallax in lenses of diameter " +
                 num(D) + " (more than one view needs M <= D - 1)");
  LB_REQUIRE(std::isfinite(opt.step) && opt.step >= 0 && opt.step <= full + 1e-9,
             "views: step " + num(opt.step) + " out of range (0.." + num(full) + " raw pixels for " +
                 std::to_string(N) + " views at M=" + std::to_string(base.patch) + ")");
  const double step = opt.step > 0 ? opt.step : view_grid_default_step(N, D, base.patch);
  HexRenderParams h = default_hex_params(*scene.mla).render;
  h.patch = base.patch;
  h.sigma = base.sigma;
  const HexFrame frame = hex_frame(mla, scene.raw.width, scene.raw.height, h.patch);

  LightField4D lf;
  lf.nu = U;
  lf.nv = V;
  lf.width = frame.width;
  lf.height = frame.height;
  lf.source = "plenoptic " + scene.source;
  lf.layout = "plenoptic";
  lf.views.reserve(static_cast<std::size_t>(U) * V);
  for (int v = 0; v < V; ++v)
    for (int u = 0; u < U; ++u) {
      HexRenderParams p = h;
      p.view_x = view_grid_shift(u, U, step);
      p.view_y = view_grid_shift(v, V, step);
      lf.views.push_back(to_rgb(render_hex_cpu(scene.raw, mla, p, opt.threads)));
    }
  validate(lf);
  return lf;
}

}  // namespace lb
