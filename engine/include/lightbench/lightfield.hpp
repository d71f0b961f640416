#pragma once
// 4D light fields L(x, y, u, v): U x V sub-aperture views of W x H RGB8 pixels, per
// ../shared/specs/lightfield4d-cae.md. Views are stored row-major (index v * U + u); u runs
// along x (left to right), v along y (top to bottom); the centre view is (U / 2, V / 2).
//
// Folder layouts understood by load_lightfield():
//   * HCI benchmark: input_Cam000.png .. input_CamNNN.png, row-major. The grid comes from
//     the folder's parameters.cfg (num_cams_x, num_cams_y), else the explicit grid, else it
//     is the benchmark's 9 x 9: the count alone never decides it (64 views left of 81 would
//     look like a whole 8 x 8). An optional gt_disp_lowres.pfm is the ground truth
//     disparity of the centre view.
//   * Plain grid, named by angular coordinate: view_U_V.png (U = column, V = row, both
//     from 0; any of .png .jpg .bmp .ppm), every (U, V) of the bounding grid present.
//   * Plain grid, numbered: NNN.png (0-based, row-major, any number of digits, every index
//     0 .. n-1 present). The grid is square (sqrt(n) x sqrt(n)) unless given explicitly
//     (LightFieldLoadOptions::grid_u / grid_v, the CLI's --grid UxV).
//   Ground truth: gt_disp_lowres.pfm, else gt_disp.pfm, else disparity.pfm when present.
//
// Disparity convention (the HCI ground truth's, checked on antinous; cae_math.hpp
// kShearSign): the centre-view point (x, y) with disparity d appears in view (u, v) at
// (x - d * (u - uc), y - d * (v - vc)). (../shared/data/README.md states "+", which gives
// the negated ground truth.)
#include <string>
#include <vector>

#include "lightbench/image.hpp"

namespace lb {

struct LightField4D {
  int nu = 0, nv = 0;          // angular size (views along x, along y)
  int width = 0, height = 0;   // spatial size of every view
  std::vector<ImageU8> views;  // nu * nv RGB8 images, row-major (v * nu + u)
  ImageF gt;                   // ground-truth disparity of the centre view (empty: none)
  std::string source;          // folder it came from, or "synthetic ..."
  std::string layout;          // "hci", "grid-uv", "grid-numbered", "memory"
  // The views' files (path: the folder) and their depth: the deepest view's (16-bit PNG views
  // are converted to 8 bits, v/257). Path "" for a light field made in memory.
  ImageOrigin views_origin{};
  // The scene's disparity range from its parameters.cfg (HCI disp_min / disp_max): the
  // default CAE range when given (disp_min < disp_max); 0, 0 when the folder has none.
  float disp_min = 0, disp_max = 0;
  bool has_disp_range() const { return disp_min < disp_max; }

  int uc() const { return nu / 2; }
  int vc() const { return nv / 2; }
  bool empty() const { return views.empty(); }
  bool has_gt() const { return !gt.empty(); }
  int view_count() const { return nu * nv; }
  const ImageU8& view(int u, int v) const { return views[static_cast<std::size_t>(v) * nu + u]; }
  ImageU8& view(int u, int v) { return views[static_cast<std::size_t>(v) * nu + u]; }
  const ImageU8& centre() const { return view(uc(), vc()); }
};

// Throws lb::Error (one line) when the light field is not a consistent U x V set of equally
// sized RGB8 views, or the ground truth has the wrong size.
void validate(const LightField4D& lf);

struct LightFieldLoadOptions {
  int grid_u = 0, grid_v = 0;  // numbered layout only: explicit grid (0: square, inferred)
  bool load_gt = true;
};
// Loads a folder in one of the layouts above (views converted to RGB8; 16-bit PNG views to 8
// bits, round(v / 257), told by views_origin). Throws lb::Error
// naming the folder/file: no views found, missing index, mismatched view sizes, a count
// that is not square (numbered/HCI layouts without an explicit grid), unreadable images.
LightField4D load_lightfield(const std::string& dir, const LightFieldLoadOptions& opt = {});

// Writes views as view_U_V.png (and gt_disp_lowres.pfm when present) into dir (created).
void save_lightfield(const std::string& dir, const LightField4D& lf);

// Angular window of n x n views centred on (uc, vc): n odd, 1 <= n <= min(nu, nv) and the
// window must fit (n/2 <= uc, vc and the opposite sides). Views u0 .. u0 + n - 1.
struct AngularWindow {
  int n = 0;
  int u0 = 0, v0 = 0;
};
AngularWindow angular_window(const LightField4D& lf, int n);
// Window sizes a light field supports: 1, 3, 5, ... up to the largest that fits.
std::vector<int> angular_window_sizes(const LightField4D& lf);

// A copy restricted to the n x n window (centre view stays the centre; gt kept).
LightField4D crop_views(const LightField4D& lf, int n);

// View (u, v) as RGB8 (bounds checked).
ImageU8 extract_view(const LightField4D& lf, int u, int v);

// Shift-and-add refocus at disparity d: the average over the views with
// |u - uc| <= r and |v - vc| <= r (r = aperture radius in views, clamped to the grid) of
// L(x - (u - uc) * d, y - (v - vc) * d, u, v), bilinear with clamp at the border. Points
// at disparity d come out sharp. Multithreaded; RGB8 out (rounded).
ImageU8 refocus_cpu(const LightField4D& lf, float disparity, int aperture_radius, int threads = 0);

// Synthetic light field of a fronto-parallel textured plane at constant disparity d: view
// (u, v) at (x, y) shows texture(x + d * (u - uc) + margin, y + d * (v - vc) + margin)
// bilinearly resampled from a seeded random RGB texture (blurred by `smooth` box passes, 0:
// raw noise). gt is filled with d. Used by the tests and the CLI's self-checks.
LightField4D synthetic_plane_lightfield(int width, int height, int nu, int nv, float disparity,
                                        unsigned seed, int smooth = 0);
// Two fronto-parallel planes: the background at d_back and, in front of it, a square (the
// middle half of the centre view) at d_front that occludes it in every view. gt holds d_back
// and d_front accordingly. The viewer's bundled light field.
LightField4D synthetic_two_plane_lightfield(int width, int height, int nu, int nv, float d_back,
                                            float d_front, unsigned seed, int smooth = 0);

}  // namespace lb
