// The shared view parameters of a scene's view grid (plenoptic_views.hpp), so a front end
// can check and report them before rendering (render --views): the rectangular grid's, or a
// general micro-lens grid's (scene.mla), whose views plenoptic_view_grid renders through
// render_hex with the same rule (D = the lens diameter; lim = the neighbour rings).
#include "lightbench/error.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "lightbench/plenoptic_views.hpp"

namespace lb {

double view_grid_pitch(const PlenopticScene& scene) { return scene.mla ? scene.mla->diameter : scene.grid.pitch; }

RenderParams view_grid_scene_params(const PlenopticScene& scene, const ViewGridOptions& opt) {
  ViewGridOptions o = opt;
  if (o.patch == 0 && !scene.truth.empty() && scene.truth_patch > 0) o.patch = scene.truth_patch;
  if (!scene.mla) return view_grid_params(scene.grid, o);
  LB_REQUIRE(o.patch >= 0, "views: patch size " + std::to_string(o.patch) + " must be positive (0: default)");
  const MlaGeometry& g = *scene.mla;
  HexRenderParams h = default_hex_params(g).render;
  if (o.patch > 0) h.patch = o.patch;
  if (o.lim >= 0) h.rings = o.lim;
  if (o.sigma > 0) h.sigma = o.sigma;
  if (o.lens_types >= 0) h.lens_types = o.lens_types;
  validate(h, g);  // names the parameter
  RenderParams p;
  p.patch = h.patch;
  p.sigma = h.sigma;
  p.lim = h.rings;
  return p;
}

}  // namespace lb
