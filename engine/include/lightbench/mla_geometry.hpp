#pragma once
// Micro-lens array (MLA) geometry as data: a rectangular or hexagonal lattice of lenses at any
// rotation, with the lens types of a multi-focus array (Raytrix: three focal lengths, each
// sharp over its own virtual-depth range). docs/DESIGN.md ("Micro-lens grid geometry") draws
// the conventions; in short:
//   * raw coordinates are pixels, pixel (x, y)'s centre at (x, y) (sampling is floor(p + 0.5),
//     as in ../shared/specs/plenoptic.md);
//   * lens (i, j)'s centre = offset + R(rotation) * diameter * (i * base_x + j * base_y), the
//     bases in lens units (Raytrix: base_x = (1, 0), base_y = (0.5, -0.866): row j + 1 sits
//     half a lens right and one row spacing UP);
//   * lens types (the sub-grid rule): the type pattern repeats with the periods
//     (sub_grid_base.x, 0) and (0, sub_grid_base.y) (lens units), and on a hexagonal lattice
//     also with the cell's centre (sub_grid_base / 2). Lens (i, j) has type t when its lattice
//     position minus type t's offset is an integer combination of these periods. Raytrix
//     (3, -1.732) with offsets (0,0), (1,0), (-1,0) gives type = (i - j) mod 3: every lens's six
//     neighbours are of the two other types.
// A rectangular PlenopticGrid converts exactly (to_mla_geometry): its micro-image (nx, ny) is
// lens (nx, ny), centred where the renderer centres its weight map.
#include <string>
#include <vector>

#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb {

struct MlaVec {
  double x = 0.0;
  double y = 0.0;
};

enum class MlaKind { Rectangular, Hexagonal };
const char* to_string(MlaKind k);

struct MlaLensType {
  MlaVec offset;             // lens units: where this type's pattern starts (a lattice position)
  double depth_min = 0.0;    // virtual-depth range over which this type is sharp
  double depth_max = 0.0;    // (+infinity allowed: "every depth beyond depth_min")
};

struct MlaGeometry {
  MlaKind kind = MlaKind::Rectangular;
  MlaVec offset;              // pixels: centre of lens (0, 0)
  double diameter = 0.0;      // pixels: lens diameter = distance between neighbouring centres
  double rotation = 0.0;      // radians: R = [cos -sin; sin cos] applied to lens-unit vectors
  MlaVec base_x{1.0, 0.0};    // lens units
  MlaVec base_y{0.0, 1.0};
  MlaVec sub_grid_base;       // lens units; (0, 0) = no sub-grid (allowed with one type only)
  std::vector<MlaLensType> types{MlaLensType{{}, 0.0, 0.0}};  // type t = types[t]
  double tcp = 0.0;           // Raytrix total covering plane (virtual depth); 0 = unknown
  double lens_border = 0.0;   // pixels not used at each lens's rim
};

// One lens: lattice index, centre in raw pixels, type.
struct MlaLens {
  int i = 0;
  int j = 0;
  double cx = 0.0;
  double cy = 0.0;
  int type = 0;
};

// Limits enforced on every geometry (the loader's "absurd sizes").
constexpr double kMlaMinDiameter = 2.0;
constexpr double kMlaMaxDiameter = 4096.0;
constexpr double kMlaMaxOffset = 1.0e6;   // |offset| in pixels
constexpr int kMlaMaxTypes = 16;
constexpr double kMlaMaxSubGrid = 64.0;   // |sub_grid_base| components, lens units
constexpr long long kMlaMaxLenses = 50'000'000;

// A validated geometry with its derived lattice data (inverse basis, the type sub-lattice in
// integer lattice coordinates). Construct once, query per lens / pixel.
class MlaLayout {
 public:
  // Throws lb::Error "<what>: <problem>" (one line) when g is inconsistent.
  explicit MlaLayout(MlaGeometry g, const std::string& what = "micro-lens geometry");

  const MlaGeometry& geometry() const { return g_; }
  int type_count() const { return static_cast<int>(g_.types.size()); }

  MlaVec centre(int i, int j) const;
  int type(int i, int j) const;
  MlaLens lens(int i, int j) const;
  // The lens whose centre is nearest to raw position (x, y) (ties: the first in lattice order
  // of the 3 x 3 candidates around the rounded lattice coordinates).
  MlaLens nearest(double x, double y) const;
  // Every lens whose circle (radius diameter / 2) lies inside a width x height raw (half a
  // pixel of slack on each side, as validate(PlenopticGrid) allows), in row-major lattice
  // order (j, then i). Throws when the count would be absurd.
  std::vector<MlaLens> lenses_in(int width, int height) const;

 private:
  // Lattice coordinates (fractional i, j) of a raw position.
  MlaVec lattice_coords(double x, double y) const;

  MlaGeometry g_;
  double inv_[4] = {0, 0, 0, 0};   // inverse of [base_x base_y] (lens units -> lattice)
  double cos_ = 1.0, sin_ = 0.0;
  long long sub_[4] = {1, 0, 0, 1};  // sub-lattice generators, columns, integer lattice coords
  long long det_ = 1;                // index of the sub-lattice = number of types
  std::vector<long long> type_off_;  // per type: lattice offset (i, j) pairs
};

// The rectangular grid of the seed's renderer as a geometry: micro-image (nx, ny) = lens
// (nx, ny) centred at (ox + (nx + 1/2) D, oy + (ny + 1/2) D) (the weight map's centre), one
// type sharp at every depth.
MlaGeometry to_mla_geometry(const PlenopticGrid& grid);

// The grid's phase fitted to a raw (any scene, no white image needed): a micro-image ends in
// a vignetted rim or a border to its neighbour, so the image gradient is larger on a ring at
// the lens radius than inside; the offset that maximises that contrast, searched over one
// lattice cell around g.offset (about 1 px, then 0.25 and 0.05 px), replaces g.offset.
// Precision: about half a pixel (the gradients are taken at the nearest pixels). Everything
// else is kept. At most 2000 lenses are looked at (whole ones only). Throws
// lb::Error when no lens fits the raw.
MlaGeometry fit_mla_offset(const MlaGeometry& g, const ImageU8& raw);
// The same fit with its ring contrast (mean ring minus inside gradient per lens, over the same
// lenses) at the given offset and at the fitted one, so a caller can judge whether the fit is
// an improvement (load_calibrated_raw's default, calibrated_raw.hpp).
struct MlaFitResult {
  MlaGeometry geometry;          // g with the fitted offset
  double contrast_given = 0.0;   // at g.offset
  double contrast_fitted = 0.0;  // at geometry.offset (>= contrast_given up to the search grid)
};
MlaFitResult fit_mla_offset_scored(const MlaGeometry& g, const ImageU8& raw);

// Raytrix RayCalibData XML. Every problem is one lb::Error line naming the file (or `name`)
// and the element.
MlaGeometry load_raytrix_calibration(const std::string& path);
MlaGeometry parse_raytrix_calibration(const std::string& xml_text, const std::string& name);

// The Raytrix R42 crop's calibration (../shared/data/plenoptic/raytrix-r42/sc2_klein.xml) as
// load_raytrix_calibration reads it (offset left as in the file), typed in once so that tests
// and benchmarks run without ../shared; a test checks it against the file where present.
MlaGeometry raytrix_r42_calibration();

}  // namespace lb
