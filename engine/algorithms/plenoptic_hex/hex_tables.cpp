// Parameters and host tables of the general-grid path (hex_tables.hpp, hex_math.hpp).
#include "plenoptic_hex/hex_tables.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "lightbench/error.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "plenoptic_hex/hex_depth_math.hpp"

namespace lb {

namespace {

int max_patch_for(const MlaGeometry& g) {
  return std::max(1, std::min(kMaxPatch, static_cast<int>(std::floor(g.diameter)) - 1));
}

// A type with no range given (0, 0) is sharp at every depth.
double range_distance(const MlaLensType& t, double v) {
  if (!(t.depth_max > t.depth_min) && t.depth_min == 0.0) return 0.0;
  return std::max({0.0, t.depth_min - v, v - t.depth_max});
}

double length(const MlaGeometry& g, int di, int dj) {
  return std::hypot(di * g.base_x.x + dj * g.base_y.x, di * g.base_x.y + dj * g.base_y.y);
}

// Lattice offsets (di, dj) with |di base_x + dj base_y| <= radius (and not (0, 0) when
// skip_zero), by length, then row, then column: a fixed order for ties.
std::vector<hex::Offset> offsets_within(const MlaGeometry& g, double radius, bool skip_zero) {
  const double shortest = std::min({length(g, 1, 0), length(g, 0, 1), length(g, 1, -1), length(g, 1, 1)});
  const int box = static_cast<int>(std::ceil(radius / (shortest * 0.5))) + 2;
  struct Entry {
    double len;
    hex::Offset o;
  };
  std::vector<Entry> v;
  for (int dj = -box; dj <= box; ++dj)
    for (int di = -box; di <= box; ++di) {
      if (skip_zero && di == 0 && dj == 0) continue;
      const double len = length(g, di, dj);
      if (len <= radius + 1e-9) v.push_back({len, {di, dj}});
    }
  std::stable_sort(v.begin(), v.end(), [](const Entry& a, const Entry& b) {
    if (std::abs(a.len - b.len) > 1e-9) return a.len < b.len;
    return a.o.dj != b.o.dj ? a.o.dj < b.o.dj : a.o.di < b.o.di;
  });
  std::vector<hex::Offset> out;
  for (const Entry& e : v) out.push_back(e.o);
  return out;
}

// Distance (lens units) from lattice point (di, dj) to the parallelogram of lattice
// coordinates [a0, a1] x [b0, b1]: zero inside, else the nearest of its four edges.
double distance_to_cell(const MlaGeometry& g, double di, double dj, double a0, double a1, double b0, double b1) {
  if (di >= a0 && di <= a1 && dj >= b0 && dj <= b1) return 0.0;
  auto at = [&](double a, double b) {
    return std::pair{a * g.base_x.x + b * g.base_y.x, a * g.base_x.y + b * g.base_y.y};
  };
  const auto p = at(di, dj);
  auto segment = [&](std::pair<double, double> u, std::pair<double, double> v) {
    const double ex = v.first - u.first, ey = v.second - u.second;
    const double len2 = ex * ex + ey * ey;
    double k = len2 > 0 ? ((p.first - u.first) * ex + (p.second - u.second) * ey) / len2 : 0.0;
    k = std::clamp(k, 0.0, 1.0);
    return std::hypot(p.first - (u.first + k * ex), p.second - (u.second + k * ey));
  };
  const auto c00 = at(a0, b0), c10 = at(a1, b0), c11 = at(a1, b1), c01 = at(a0, b1);
  return std::min({segment(c00, c10), segment(c10, c11), segment(c11, c01), segment(c01, c00)});
}

// The render walk's sub-cell lists (hex_math.hpp, for_each_sample): for each sub-cell of the
// cell around a rounded lattice point, the offsets of `near` whose lens lies within `far` (the
// largest reach) of some point of the sub-cell. Margins: the sub-cell grows by 0.01 lattice
// units each side and the distance by 0.01 lens units, for the float rounding of s's lattice
// coordinates and of the reach test (both far below that).
void build_cell_lists(const MlaGeometry& g, double far, HexTablesHost& t) {
  constexpr double kMargin = 0.01;
  t.cell_start.assign(hex::kCells + 1, 0u);
  t.cell_near.clear();
  for (int cb = 0; cb < hex::kCellSplit; ++cb)
    for (int ca = 0; ca < hex::kCellSplit; ++ca) {
      const double a0 = -0.5 + static_cast<double>(ca) / hex::kCellSplit - kMargin;
      const double a1 = -0.5 + static_cast<double>(ca + 1) / hex::kCellSplit + kMargin;
      const double b0 = -0.5 + static_cast<double>(cb) / hex::kCellSplit - kMargin;
      const double b1 = -0.5 + static_cast<double>(cb + 1) / hex::kCellSplit + kMargin;
      for (const hex::Offset& o : t.near)
        if (distance_to_cell(g, o.di, o.dj, a0, a1, b0, b1) <= far + kMargin) t.cell_near.push_back(o);
      t.cell_start[static_cast<std::size_t>(cb * hex::kCellSplit + ca + 1)] =
          static_cast<std::uint32_t>(t.cell_near.size());
    }
}

}  // namespace

int default_truth_patch(const HexGeneratorParams& params) { return default_hex_params(params.mla).depth.patch; }

HexRunParams default_hex_params(const MlaGeometry& g) {
  HexRunParams p;
  const int top = max_patch_for(g);
  p.render.patch = std::min(11, top);
  p.render.rings = 1;
  // Measured on hex-small (D = 24, M = 8, docs/DESIGN.md "General micro-lens grids"): the
  // in-focus PSNR peaks near D / 7 (38.4 dB) and falls to 33.4 dB at the rectangular
  // default D / 5, whose wider weights reach the vignetted rims of the neighbours.
  p.render.sigma = static_cast<float>(std::max(0.5, g.diameter / 7.0));
  // Every lens: depth follows render's lens types, and "in focus" leaves a single type (sqrt 3
  // D apart) at the near end of a three-type array, too far apart for the aperture to hold a
  // pair at large patch sizes (hex-small's disc at P = 11: 0 % exact). The switch stays.
  p.render.lens_types = kLensTypesAll;
  p.depth.patch = p.render.patch;
  p.depth.pmax = std::min(14, top);
  p.depth.pmin = std::min(7, p.depth.pmax);
  p.depth.rings = 1;
  p.depth.lens_types = p.render.lens_types;
  return p;
}

std::vector<ParamInfo> describe(HexRunParams& p, const MlaGeometry& g) {
  using K = ParamInfo::Kind;
  const double half = std::max(1.0, g.diameter / 2.0);
  const double top = max_patch_for(g);
  return {
      {"patch", "patch size M", "output patch size: small focuses far, large focuses near", K::Int, &p.render.patch, 1,
       top},
      {"view_x", "perspective x", "weight-map shift in raw pixels (parallax, grid frame)", K::Float, &p.render.view_x,
       -half, half},
      {"view_y", "perspective y", "weight-map shift in raw pixels (parallax, grid frame)", K::Float, &p.render.view_y,
       -half, half},
      {"rings", "neighbour rings", "blend the lenses within rings spacings beyond the nearest one (0: the "
                                   "nearest lens); depth compares the lenses within rings spacings",
       K::Int, &p.render.rings, 0, kMaxLim},
      {"sigma", "Gaussian sigma", "sigma of the weight map, raw pixels", K::Float, &p.render.sigma, 0.5,
       std::max(1.0, g.diameter)},
      {"lens_types", "lens types", "multi-focus: every lens (all), or per pixel only the lens types whose "
                                   "depth range holds its depth (in focus)",
       K::Int, &p.render.lens_types, 0, 1},
      {"pmin", "min patch size", "smallest candidate patch size (far)", K::Int, &p.depth.pmin, 1, top},
      {"pmax", "max patch size", "largest candidate patch size (near)", K::Int, &p.depth.pmax, 1, top},
      {"window", "cost window", "k x k box aggregation of the costs before the argmin (odd)", K::Int, &p.depth.window,
       1, 15},
      {"aperture", "aperture", "samples within aperture x D/2 of their lens centre", K::Float, &p.depth.aperture, 0.1,
       1.0},
      {"truncate", "pair cost cap", "depth: each lens pair's RGB difference (summed) is capped here, so pairs "
                                    "that see an occluder do not decide (0: no cap)",
       K::Int, &p.depth.truncate, 0, hex::kMaxTruncate},
  };
}

// The ranges are describe()'s, the one declaration (check_ranges), applied to the render half
// over the defaults of the other; what no range can say is checked here.
void validate(const HexRenderParams& p, const MlaGeometry& g) {
  HexRunParams q = default_hex_params(g);
  q.render = p;
  check_ranges(describe(q, g));
}

void validate(const HexDepthParams& p, const MlaGeometry& g) {
  // The depth half as the table binds it: patch, rings and lens types are render's fields,
  // which the runner copies into depth's (default_hex_params, the runner).
  HexRunParams q = default_hex_params(g);
  q.depth = p;
  q.render.patch = p.patch;
  q.render.rings = p.rings;
  q.render.lens_types = p.lens_types;
  check_ranges(describe(q, g));
  LB_REQUIRE(p.pmin <= p.pmax, "pmin " + std::to_string(p.pmin) + " is larger than pmax " + std::to_string(p.pmax));
  LB_REQUIRE(p.rings >= 1, "rings: depth compares neighbours, so it needs at least 1, got " + std::to_string(p.rings));
  LB_REQUIRE(p.window % 2 == 1, "window: must be odd, got " + std::to_string(p.window));
}

std::uint32_t hex_type_mask(const MlaGeometry& g, int patch_size, int lens_types) {
  const int n = static_cast<int>(g.types.size());
  const std::uint32_t all = n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
  if (lens_types == kLensTypesAll || patch_size <= 0) return all;
  const double v = g.diameter / patch_size;
  double best = std::numeric_limits<double>::infinity();
  for (const MlaLensType& t : g.types) best = std::min(best, range_distance(t, v));
  std::uint32_t m = 0;
  for (int t = 0; t < n; ++t)
    if (range_distance(g.types[static_cast<std::size_t>(t)], v) <= best) m |= 1u << t;
  return m;
}

std::uint32_t hex_blur_levels(const MlaGeometry& g, int patch_size) {
  std::uint32_t levels = 0;
  if (patch_size <= 0) return levels;
  const double v = g.diameter / patch_size;
  for (std::size_t t = 0; t < g.types.size() && t < 16; ++t) {
    const double d = range_distance(g.types[t], v);
    const std::uint32_t level = d <= 0.0 ? 0u : (d <= hex::kBlurNearRange ? 1u : 2u);
    levels |= level << (2 * t);
  }
  return levels;
}

double hex_type_spacing(const MlaLayout& mla, std::uint32_t mask) {
  // The type pattern repeats within a few lenses (kMlaMaxSubGrid is large, but a real
  // sub-grid is 2-3 lenses); the window holds several periods of any pattern up to 8.
  const MlaGeometry& g = mla.geometry();
  const int w = 9;
  std::vector<std::pair<double, double>> pts;
  for (int j = -w; j <= w; ++j)
    for (int i = -w; i <= w; ++i)
      if ((mask >> mla.type(i, j)) & 1u)
        pts.emplace_back(i * g.base_x.x + j * g.base_y.x, i * g.base_x.y + j * g.base_y.y);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < pts.size(); ++a)
    for (std::size_t b = a + 1; b < pts.size(); ++b)
      best = std::min(best, std::hypot(pts[a].first - pts[b].first, pts[a].second - pts[b].second));
  LB_REQUIRE(std::isfinite(best), "micro-lens geometry: no two lenses of the allowed types near each other");
  return best;
}

double hex_covering_radius(const MlaLayout& mla, std::uint32_t mask, double spacing) {
  // The farthest any point lies from its nearest allowed lens, sampled over a few periods of
  // the pattern (step spacing / 40: within 2 % of the true radius).
  const MlaGeometry& g = mla.geometry();
  const int w = 9;
  std::vector<std::pair<double, double>> pts;
  for (int j = -w; j <= w; ++j)
    for (int i = -w; i <= w; ++i)
      if ((mask >> mla.type(i, j)) & 1u)
        pts.emplace_back(i * g.base_x.x + j * g.base_y.x, i * g.base_x.y + j * g.base_y.y);
  const double step = spacing / 40.0, span = 2.0 * spacing;
  double worst = 0.0;
  for (double y = 0; y <= span; y += step)
    for (double x = 0; x <= span; x += step) {
      double d2 = std::numeric_limits<double>::infinity();
      for (const auto& p : pts) d2 = std::min(d2, (p.first - x) * (p.first - x) + (p.second - y) * (p.second - y));
      worst = std::max(worst, d2);
    }
  return std::sqrt(worst);
}

float hex_inv2s2(float sigma) { return static_cast<float>(1.0 / (2.0 * static_cast<double>(sigma) * sigma)); }

HexTablesHost build_hex_tables(const MlaLayout& mla, int raw_w, int raw_h, int patch, int rings, int lens_types) {
  const MlaGeometry& g = mla.geometry();
  LB_REQUIRE(raw_w > 0 && raw_h > 0, "general-grid pass: the raw is empty");
  LB_REQUIRE(rings >= 0 && rings <= kMaxLim, "rings out of range");
  HexTablesHost t;
  t.frame = hex_frame(mla, raw_w, raw_h, patch);
  hex::HexLayout& L = t.layout;
  const double cs = std::cos(g.rotation), sn = std::sin(g.rotation);
  L.ox = static_cast<float>(g.offset.x);
  L.oy = static_cast<float>(g.offset.y);
  L.diameter = static_cast<float>(g.diameter);
  L.rxx = static_cast<float>(cs);
  L.rxy = static_cast<float>(-sn);
  L.ryx = static_cast<float>(sn);
  L.ryy = static_cast<float>(cs);
  L.bxx = static_cast<float>(g.base_x.x);
  L.bxy = static_cast<float>(g.base_x.y);
  L.byx = static_cast<float>(g.base_y.x);
  L.byy = static_cast<float>(g.base_y.y);
  const double det = g.base_x.x * g.base_y.y - g.base_y.x * g.base_x.y;
  L.ixx = static_cast<float>(g.base_y.y / det);
  L.ixy = static_cast<float>(-g.base_y.x / det);
  L.iyx = static_cast<float>(-g.base_x.y / det);
  L.iyy = static_cast<float>(g.base_x.x / det);
  const double usable = g.diameter / 2.0 - g.lens_border;
  L.usable2 = static_cast<float>(usable > 0 ? usable * usable : 0.0);
  L.raw_w = raw_w;
  L.raw_h = raw_h;
  L.s0x = static_cast<float>(t.frame.s0.x);
  L.s0y = static_cast<float>(t.frame.s0.y);
  L.patch = patch;
  L.out_w = t.frame.width;
  L.out_h = t.frame.height;

  // Type table: every lens whose centre lies within D/2 of the raw (a partly visible lens
  // still shows pixels inside it). Lattice bounds from the corners of the enlarged raw.
  const double m = g.diameter / 2.0 + 1.0;
  double a0 = 1e300, a1 = -1e300, b0 = 1e300, b1 = -1e300;
  for (int c = 0; c < 4; ++c) {
    const double x = (c & 1 ? raw_w + m : -m) - g.offset.x, y = (c & 2 ? raw_h + m : -m) - g.offset.y;
    // Undo the rotation and the diameter, then the basis.
    const double qx = (cs * x + sn * y) / g.diameter, qy = (-sn * x + cs * y) / g.diameter;
    const double a = (g.base_y.y * qx - g.base_y.x * qy) / det, b = (-g.base_x.y * qx + g.base_x.x * qy) / det;
    a0 = std::min(a0, a);
    a1 = std::max(a1, a);
    b0 = std::min(b0, b);
    b1 = std::max(b1, b);
  }
  L.i0 = static_cast<int>(std::floor(a0)) - 1;
  L.j0 = static_cast<int>(std::floor(b0)) - 1;
  L.ni = static_cast<int>(std::ceil(a1)) + 2 - L.i0;
  L.nj = static_cast<int>(std::ceil(b1)) + 2 - L.j0;
  LB_REQUIRE(static_cast<long long>(L.ni) * L.nj <= kMlaMaxLenses, "micro-lens geometry: too many lenses");
  t.types.assign(static_cast<std::size_t>(L.ni) * L.nj, hex::kNoLens);
  for (int b = 0; b < L.nj; ++b)
    for (int a = 0; a < L.ni; ++a) {
      const MlaVec c = mla.centre(L.i0 + a, L.j0 + b);
      if (c.x >= -m && c.y >= -m && c.x <= raw_w + m && c.y <= raw_h + m)
        t.types[static_cast<std::size_t>(b) * L.ni + a] = static_cast<std::uint8_t>(mla.type(L.i0 + a, L.j0 + b));
    }

  // Per patch size: the allowed types, their spacing, the reaches.
  const int nt = mla.type_count();
  t.mask_of_patch.assign(hex::kMaxPatchIndex + 1, 0);
  t.reach2_of_patch.assign(hex::kMaxPatchIndex + 1, 0.f);
  t.nbr2_of_patch.assign(hex::kMaxPatchIndex + 1, 0.f);
  t.blur_of_patch.assign(hex::kMaxPatchIndex + 1, 0u);
  double far = 0.0, far_nbr = 0.0;
  std::vector<double> spacing_of_mask, cover_of_mask;
  std::vector<std::uint32_t> seen;
  for (int P = 0; P <= hex::kMaxPatchIndex; ++P) {
    const std::uint32_t mask = hex_type_mask(g, P, lens_types) & (nt >= 32 ? 0xFFFFFFFFu : (1u << nt) - 1u);
    std::size_t slot = static_cast<std::size_t>(std::find(seen.begin(), seen.end(), mask) - seen.begin());
    if (slot == seen.size()) {
      const double sp = hex_type_spacing(mla, mask);
      seen.push_back(mask);
      spacing_of_mask.push_back(sp);
      cover_of_mask.push_back(hex_covering_radius(mla, mask, sp));
    }
    // Blend reach: rings spacings beyond the covering radius (every point has an allowed lens
    // within it), so rings = 0 is "the nearest lens" (blended only near cell corners).
    const double sp = spacing_of_mask[slot];
    const double reach = rings * sp + 1.05 * cover_of_mask[slot], nbr = rings * sp;
    // The types a pass uses (depth's sharpness comes from blur_of_patch).
    t.mask_of_patch[static_cast<std::size_t>(P)] = mask;
    t.blur_of_patch[static_cast<std::size_t>(P)] = hex_blur_levels(g, P);
    t.reach2_of_patch[static_cast<std::size_t>(P)] = static_cast<float>(reach * reach);
    // Slack: a neighbour exactly rings spacings away must not drop out by float rounding.
    t.nbr2_of_patch[static_cast<std::size_t>(P)] = static_cast<float>(nbr * nbr * 1.001 + 1e-6);
    far = std::max({far, reach, sp});
    far_nbr = std::max(far_nbr, nbr * 1.0005 + 1e-6);
  }
  // s is within half a cell of its rounded lattice point.
  const double cell = 0.5 * (length(g, 1, 0) + length(g, 0, 1));
  t.near = offsets_within(g, far + cell, false);
  t.nbr = offsets_within(g, far_nbr, true);
  L.n_near = static_cast<int>(t.near.size());
  L.n_nbr = static_cast<int>(t.nbr.size());
  build_cell_lists(g, far, t);
  L.n_cell_near = static_cast<int>(t.cell_near.size());
  L.near_prefix = 0;
  L.all_types = g.lens_border >= 0.0 && nt <= 16 ? (1u << nt) - 1u : 0u;

  t.weights.resize(hex::kWeightBins);
  for (int k = 0; k < hex::kWeightBins; ++k) {
    const double tt = (k + 0.5) / hex::kWeightBinsPerUnit;
    t.weights[static_cast<std::size_t>(k)] =
        static_cast<std::uint32_t>(std::max(1.0, std::round(65536.0 * std::exp(-tt))));
  }
  return t;
}

}  // namespace lb
