#pragma once
// A data-kind conversion (engine/include: the CLI's render --views and the viewer's "open as
// light field" call it; the plenoptic modules implement it, plenoptic_views.cpp and
// plenoptic_views_hex.cpp). Plenoptic capture -> 4D light field: a U x V grid of perspective views rendered from a
// focused-plenoptic raw (issue 22, item 5), in the layout of lightfield.hpp, so the
// light-field algorithms (CAE depth, refinement) run on plenoptic captures.
//
// Views. View (u, v) is the render at patch M with the weight map shifted by
// (sx(u), sy(v)) raw pixels (RenderParams view_x / view_y, ../shared/specs/plenoptic.md).
// Shift rule: usable range r = (D - M) / 2 (D: pitch), N = max(U, V) views on the longer
// axis, one step for both axes (the light field has one disparity per point), evenly spaced:
//     s(k) = ((n - 1) / 2 - k) * step,  k = 0 .. n-1   for the n views of an axis,
//     step <= max_step = 2r / (N - 1)   (N = 1: 0),
//     default step = min(max_step, M / 4).
// With max_step the longer axis spans exactly [-r, +r]; any step up to it keeps the weight
// map's centre inside the part of the micro-image where an M-wide patch fits: a view never
// reads outside its micro-image. Odd n has a view at s = 0 (the ordinary render); even n
// straddles it.
//
// Why M / 4 by default, not the whole range: a view is a blend of whole neighbour
// micro-images and the dominant neighbour changes every M raw pixels of shift; steps near M
// (3 x 3 or 5 x 5 views spread over the whole range) change it wholesale from view to view
// and CAE's disparities alias. Measured with lfdepth (5 x 5 views, CAE, 31 labels) on the
// "small" preset at M = 11, median disparity per plane P = 7, 9, 10, 12, 14 (far to near):
// whole range (step 8.44): -0.40 -1.40 -0.40 0.40 -0.60 (not monotone);
// step 3 (~ M / 4):        -0.67 -0.53 -0.27 0.13 0.40 (monotone).
//
// Order (why the shift *decreases* with k): with the renderer's model a plane of patch size P
// seen through patch M moves by (1 - M / P) * s output pixels when the weight map moves by s
// (the dominant neighbour micro-image changes; plenoptic_views.cpp). Decreasing shifts make
// that displacement x_u = x_c - d * (u - uc), lightfield.hpp's convention, with
//     d(P) = step * (1 - M / P)
// positive for planes nearer than the focus plane (P > M), zero on it, negative behind it:
// disparity grows with nearness, as in the HCI data and lfdepth's ranges. The views are a
// blend of whole neighbour micro-images, not a sub-pixel warp, so d(P) is a model, not an
// exact truth: it is not stored as ground truth (plenoptic_view_disparity gives it).
//
// Every view is rendered by render_plenoptic_view (rectangular grid) or, for a scene with a
// general grid, by render_hex (hex_tables.hpp) at its shift.
#include <vector>

#include "lightbench/image.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/plenoptic_params.hpp"
#include "lightbench/scene_file.hpp"

namespace lb {

constexpr int kMaxViewGrid = 33;  // views per axis (a 33 x 33 grid is 1089 renders)

struct ViewGridOptions {
  int patch = 0;       // M; 0: the scene's truth patch when it has one, else
                       // default_render_params(grid).patch
  int lim = -1;        // range limit; -1: default_render_params
  float sigma = -1.f;  // weight-map sigma; <= 0: default_render_params (D / 5)
  double step = 0;     // raw pixels between neighbouring views (<= max_step); 0: the default
                       // min(max_step, M / 4)
  int threads = 0;     // CPU threads (0: default)
  // General grids only (scene.mla set; lim above is then the neighbour rings): which lenses,
  // -1: the geometry's default (hex_tables.hpp: in focus on a multi-focus array).
  int lens_types = -1;
};

// The largest step between neighbouring views (raw pixels) of a grid whose longer axis has N
// views, the default step, and the shift s(k) of view k of the n views of one axis (rule above).
double view_grid_step(int N, double pitch, int patch);
double view_grid_default_step(int N, double pitch, int patch);
float view_grid_shift(int k, int n, double step);

// The render parameters shared by every view (patch, lim, sigma resolved; shifts 0).
// Validated against the grid (throws lb::Error naming the parameter).
RenderParams view_grid_params(const PlenopticGrid& grid, const ViewGridOptions& opt, int default_patch = 0);

// One view at p's shift: RGB8 of render_width x render_height. raw: RGB8 or RGBA8.
ImageU8 render_plenoptic_view(const ImageU8& raw, const PlenopticGrid& grid, const RenderParams& p,
                              int threads = 0);

// A scene's shared view parameters and the pitch its steps are measured against: its grid's
// (view_grid_params; the truth patch, when it has truth, as the default M), or for a general
// micro-lens grid (scene.mla) the lens diameter and default_hex_params' patch, sigma and
// rings (as lim: on a general grid lim is the neighbour rings, as in plenoptic_view_grid).
RenderParams view_grid_scene_params(const PlenopticScene& scene, const ViewGridOptions& opt);
double view_grid_pitch(const PlenopticScene& scene);

// The U x V grid. U, V in 1..kMaxViewGrid (one-line lb::Error otherwise, naming "views");
// more than one view along an axis needs room to move: M <= D - 1. layout "plenoptic",
// source "plenoptic <source>", no ground truth (see above).
LightField4D plenoptic_view_grid(const ImageU8& raw, const PlenopticGrid& grid, int U, int V,
                                 const ViewGridOptions& opt = {}, const std::string& source = "raw");
// The scene's raw and grid; its truth patch (when it has truth) is the default M. A scene
// with a general grid (scene.mla: hexagonal, rotated, multi-focus) renders through the
// general path (render_hex) with the same shift rule, D = the lens diameter, the frame of
// hex_frame() as the view size.
LightField4D plenoptic_view_grid(const PlenopticScene& scene, int U, int V, const ViewGridOptions& opt = {});

// The model disparity d(P) = step * (1 - M / P) of the rule above for a plane at patch size P.
float plenoptic_view_disparity(double patch_size_p, double step, int patch);

}  // namespace lb
