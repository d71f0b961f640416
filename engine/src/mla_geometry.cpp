// Micro-lens grid geometry: validation, lens centres, lens types (the sub-grid rule), nearest
// lens, enumeration. See mla_geometry.hpp and docs/DESIGN.md for the conventions.
#include "lightbench/mla_geometry.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "lightbench/error.hpp"

namespace lb {

namespace {

std::string num(double v) {
  std::ostringstream s;
  s.precision(8);
  s << v;
  return s.str();
}

// (Through a stream: GCC 12 warns falsely (-Wrestrict) on "(" + std::string + ... here.)
std::string vec(MlaVec v) {
  std::ostringstream s;
  s.precision(8);
  s << '(' << v.x << ',' << v.y << ')';
  return s.str();
}

bool finite(MlaVec v) { return std::isfinite(v.x) && std::isfinite(v.y); }
double length(MlaVec v) { return std::hypot(v.x, v.y); }

// Integer within 1e-3 (calibration files store sqrt(3)/2 with 9 digits).
bool near_int(double v, long long* out) {
  if (!std::isfinite(v) || std::abs(v) > 1e9) return false;
  const double r = std::round(v);
  if (std::abs(v - r) > 1e-3) return false;
  *out = static_cast<long long>(r);
  return true;
}

long long floor_mod(long long a, long long n) {
  const long long m = a % n;
  return m < 0 ? m + n : m;
}

}  // namespace

const char* to_string(MlaKind k) { return k == MlaKind::Hexagonal ? "hexagonal" : "rectangular"; }

MlaLayout::MlaLayout(MlaGeometry g, const std::string& what) : g_(std::move(g)) {
  auto fail = [&](const std::string& msg) { throw Error(what + ": " + msg); };
  if (!std::isfinite(g_.diameter) || g_.diameter < kMlaMinDiameter ||
      g_.diameter > kMlaMaxDiameter)
    fail("diameter " + num(g_.diameter) + " out of range (" + num(kMlaMinDiameter) + ".." +
         num(kMlaMaxDiameter) + " pixels)");
  if (!finite(g_.offset) || std::abs(g_.offset.x) > kMlaMaxOffset ||
      std::abs(g_.offset.y) > kMlaMaxOffset)
    fail("offset " + vec(g_.offset) + " out of range (|x|, |y| <= " + num(kMlaMaxOffset) + ")");
  if (!std::isfinite(g_.rotation) || std::abs(g_.rotation) > 7.0)
    fail("rotation " + num(g_.rotation) + " out of range (|r| <= 2 pi rad)");
  if (!std::isfinite(g_.tcp) || g_.tcp < 0.0 || g_.tcp > 1e6)
    fail("tcp " + num(g_.tcp) + " out of range (0..1e6)");
  if (!std::isfinite(g_.lens_border) || g_.lens_border < 0.0 ||
      g_.lens_border >= g_.diameter / 2.0)
    fail("lens_border " + num(g_.lens_border) + " out of range (0..diameter/2)");
  for (const auto& [name, b] : {std::pair<const char*, MlaVec>{"lens_base_x", g_.base_x},
                                {"lens_base_y", g_.base_y}}) {
    if (!finite(b) || length(b) < 0.5 || length(b) > 2.0)
      fail(std::string(name) + " " + vec(b) + " must have a length of about one lens (0.5..2)");
  }
  const MlaVec bx = g_.base_x, by = g_.base_y;
  const double cross = bx.x * by.y - bx.y * by.x;
  const double norm = length(bx) * length(by);
  // The nearest-lens search looks at the 3 x 3 lattice neighbours of the rounded lattice
  // coordinates: right for bases at 30..150 degrees (hexagonal: 60 or 120, rectangular: 90).
  if (std::abs(cross) < 0.5 * norm)
    fail("lens_base_x " + vec(bx) + " and lens_base_y " + vec(by) +
         " are collinear (or less than 30 degrees apart)");
  const bool orthogonal = std::abs(bx.x * by.x + bx.y * by.y) < 1e-3 * norm;
  if (orthogonal != (g_.kind == MlaKind::Rectangular))
    fail(std::string("a ") + to_string(g_.kind) + " grid with lens bases " + vec(bx) + ", " +
         vec(by) + (orthogonal ? " (orthogonal)" : " (not orthogonal)"));
  inv_[0] = by.y / cross;
  inv_[1] = -by.x / cross;
  inv_[2] = -bx.y / cross;
  inv_[3] = bx.x / cross;
  cos_ = std::cos(g_.rotation);
  sin_ = std::sin(g_.rotation);

  const int types = static_cast<int>(g_.types.size());
  if (types < 1 || types > kMlaMaxTypes)
    fail(std::to_string(types) + " lens types (1.." + std::to_string(kMlaMaxTypes) + ")");
  for (int t = 0; t < types; ++t) {
    const MlaLensType& ty = g_.types[static_cast<size_t>(t)];
    const std::string name = "lens type " + std::to_string(t);
    if (!std::isfinite(ty.depth_min) || std::isnan(ty.depth_max) || ty.depth_min < 0.0)
      fail(name + " depth range " + num(ty.depth_min) + ".." + num(ty.depth_max) +
           " must be finite and non-negative");
    if (ty.depth_min > ty.depth_max)
      fail(name + " depth range min " + num(ty.depth_min) + " > max " + num(ty.depth_max));
  }
  // Lattice coordinates of a lens-unit vector.
  auto lat = [&](MlaVec v) {
    return MlaVec{inv_[0] * v.x + inv_[1] * v.y, inv_[2] * v.x + inv_[3] * v.y};
  };
  const MlaVec s = g_.sub_grid_base;
  if (!finite(s) || std::abs(s.x) > kMlaMaxSubGrid || std::abs(s.y) > kMlaMaxSubGrid)
    fail("sub_grid_base " + vec(s) + " out of range (|x|, |y| <= " + num(kMlaMaxSubGrid) + ")");
  if (s.x == 0.0 && s.y == 0.0) {
    if (types > 1) fail(std::to_string(types) + " lens types but no sub_grid_base");
  } else {
    // The sub-grid rule: periods (sx, 0) and (0, sy); a hexagonal lattice is a centred
    // rectangular one, so its type pattern also repeats with the cell's centre (sx/2, sy/2).
    const MlaVec p1 = lat({s.x, 0.0});
    const MlaVec p2 = g_.kind == MlaKind::Hexagonal ? lat({s.x / 2.0, s.y / 2.0}) : lat({0.0, s.y});
    long long a, c, b, d;
    if (!near_int(p1.x, &a) || !near_int(p1.y, &c) || !near_int(p2.x, &b) || !near_int(p2.y, &d))
      fail("sub_grid_base " + vec(s) + " does not repeat on lens positions of this " +
           to_string(g_.kind) + " grid");
    const long long det = a * d - b * c;
    if (det == 0) fail("sub_grid_base " + vec(s) + " spans no area (a zero component)");
    if (std::llabs(det) != types)
      fail("sub_grid_base " + vec(s) + " gives a cell of " + std::to_string(std::llabs(det)) +
           " lenses but there are " + std::to_string(types) + " lens types");
    sub_[0] = a;
    sub_[1] = b;
    sub_[2] = c;
    sub_[3] = d;
    det_ = det;
  }
  for (int t = 0; t < types; ++t) {
    const MlaVec o = g_.types[static_cast<size_t>(t)].offset;
    const MlaVec l = lat(o);
    long long oi, oj;
    if (!finite(o) || !near_int(l.x, &oi) || !near_int(l.y, &oj) || std::llabs(oi) > 1000 ||
        std::llabs(oj) > 1000)
      fail("lens type " + std::to_string(t) + " offset " + vec(o) + " is not a lens position");
    type_off_.push_back(oi);
    type_off_.push_back(oj);
  }
  // Distinct cosets: with |det| == types, every lens then gets exactly one type.
  for (int t = 0; t < types; ++t)
    for (int u = 0; u < t; ++u) {
      const long long di = type_off_[2 * t] - type_off_[2 * u];
      const long long dj = type_off_[2 * t + 1] - type_off_[2 * u + 1];
      if (floor_mod(sub_[3] * di - sub_[1] * dj, det_) == 0 &&
          floor_mod(-sub_[2] * di + sub_[0] * dj, det_) == 0)
        fail("lens types " + std::to_string(u) + " and " + std::to_string(t) +
             " fall on the same lenses (offsets " + vec(g_.types[size_t(u)].offset) + " and " +
             vec(g_.types[size_t(t)].offset) + ")");
    }
}

MlaVec MlaLayout::centre(int i, int j) const {
  const double d = g_.diameter;
  const double ux = d * (i * g_.base_x.x + j * g_.base_y.x);
  const double uy = d * (i * g_.base_x.y + j * g_.base_y.y);
  return {g_.offset.x + cos_ * ux - sin_ * uy, g_.offset.y + sin_ * ux + cos_ * uy};
}

int MlaLayout::type(int i, int j) const {
  const int types = type_count();
  if (types == 1) return 0;
  for (int t = 0; t < types; ++t) {
    const long long di = i - type_off_[2 * t], dj = j - type_off_[2 * t + 1];
    if (floor_mod(sub_[3] * di - sub_[1] * dj, det_) == 0 &&
        floor_mod(-sub_[2] * di + sub_[0] * dj, det_) == 0)
      return t;
  }
  return 0;  // unreachable: the constructor checked that the types cover every coset
}

MlaLens MlaLayout::lens(int i, int j) const {
  const MlaVec c = centre(i, j);
  return {i, j, c.x, c.y, type(i, j)};
}

MlaVec MlaLayout::lattice_coords(double x, double y) const {
  const double dx = x - g_.offset.x, dy = y - g_.offset.y;
  // Undo the rotation and the scale: lens units.
  const double ux = (cos_ * dx + sin_ * dy) / g_.diameter;
  const double uy = (-sin_ * dx + cos_ * dy) / g_.diameter;
  return {inv_[0] * ux + inv_[1] * uy, inv_[2] * ux + inv_[3] * uy};
}

MlaLens MlaLayout::nearest(double x, double y) const {
  if (!std::isfinite(x) || !std::isfinite(y) || std::abs(x) > 1e8 || std::abs(y) > 1e8)
    throw Error("nearest lens: position (" + num(x) + "," + num(y) + ") out of range");
  const MlaVec l = lattice_coords(x, y);
  const int i0 = static_cast<int>(std::lround(l.x)), j0 = static_cast<int>(std::lround(l.y));
  int bi = i0, bj = j0;
  double best = std::numeric_limits<double>::infinity();
  for (int dj = -1; dj <= 1; ++dj)
    for (int di = -1; di <= 1; ++di) {
      const MlaVec c = centre(i0 + di, j0 + dj);
      const double dist = (c.x - x) * (c.x - x) + (c.y - y) * (c.y - y);
      if (dist < best) {
        best = dist;
        bi = i0 + di;
        bj = j0 + dj;
      }
    }
  return lens(bi, bj);
}

std::vector<MlaLens> MlaLayout::lenses_in(int width, int height) const {
  if (width <= 0 || height <= 0)
    throw Error("micro-lens grid: raw size " + std::to_string(width) + "x" +
                std::to_string(height) + " is empty");
  const double lo_x = -0.5, lo_y = -0.5, hi_x = width + 0.5, hi_y = height + 0.5;
  double imin = 1e300, imax = -1e300, jmin = 1e300, jmax = -1e300;
  for (double x : {lo_x, hi_x})
    for (double y : {lo_y, hi_y}) {
      const MlaVec l = lattice_coords(x, y);
      imin = std::min(imin, l.x);
      imax = std::max(imax, l.x);
      jmin = std::min(jmin, l.y);
      jmax = std::max(jmax, l.y);
    }
  const double box = (imax - imin + 3.0) * (jmax - jmin + 3.0);
  if (!(box <= 4.0 * static_cast<double>(kMlaMaxLenses)))
    throw Error("micro-lens grid: a " + std::to_string(width) + "x" + std::to_string(height) +
                " raw with diameter " + num(g_.diameter) + " holds too many lenses (over " +
                std::to_string(kMlaMaxLenses) + ")");
  const int i0 = static_cast<int>(std::floor(imin)) - 1, i1 = static_cast<int>(std::ceil(imax)) + 1;
  const int j0 = static_cast<int>(std::floor(jmin)) - 1, j1 = static_cast<int>(std::ceil(jmax)) + 1;
  const double r = g_.diameter / 2.0;
  std::vector<MlaLens> out;
  for (int j = j0; j <= j1; ++j)
    for (int i = i0; i <= i1; ++i) {
      const MlaVec c = centre(i, j);
      if (c.x - r >= lo_x && c.x + r <= hi_x && c.y - r >= lo_y && c.y + r <= hi_y)
        out.push_back({i, j, c.x, c.y, type(i, j)});
    }
  return out;
}

MlaGeometry to_mla_geometry(const PlenopticGrid& grid) {
  MlaGeometry g;
  g.kind = MlaKind::Rectangular;
  g.offset = {grid.ox + grid.pitch / 2.0, grid.oy + grid.pitch / 2.0};
  g.diameter = grid.pitch;
  g.rotation = 0.0;
  g.base_x = {1.0, 0.0};
  g.base_y = {0.0, 1.0};
  g.sub_grid_base = {1.0, 1.0};
  g.types = {MlaLensType{{0.0, 0.0}, 0.0, std::numeric_limits<double>::infinity()}};
  return g;
}

}  // namespace lb
