// Synthetic focused-plenoptic raws through any micro-lens grid (hexagonal, multi-focus), with
// depth and appearance truth. The scene model: plenoptic_hex.hpp; the planes and textures are
// the rectangular generator's (scene_texture.hpp).
#include <algorithm>
#include <cmath>

#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "lightbench/parallel.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "lightbench/scene_texture.hpp"

namespace lb {

using namespace scene_detail;

HexFrame hex_frame(const MlaLayout& mla, int raw_width, int raw_height, int patch) {
  LB_REQUIRE(patch >= 1 && patch <= kMaxPatch,
             "patch size " + std::to_string(patch) + " out of range (1.." + std::to_string(kMaxPatch) + ")");
  const auto lenses = mla.lenses_in(raw_width, raw_height);
  LB_REQUIRE(!lenses.empty(), "micro-lens grid: no whole lens inside the " + std::to_string(raw_width) +
                                  "x" + std::to_string(raw_height) + " raw");
  const MlaGeometry& g = mla.geometry();
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
  for (const MlaLens& l : lenses) {
    const double sx = l.i * g.base_x.x + l.j * g.base_y.x, sy = l.i * g.base_x.y + l.j * g.base_y.y;
    x0 = std::min(x0, sx);
    y0 = std::min(y0, sy);
    x1 = std::max(x1, sx);
    y1 = std::max(y1, sy);
  }
  HexFrame f;
  f.s0 = {x0, y0};
  f.patch = patch;
  const double w = std::round((x1 - x0 + 1.0) * patch), h = std::round((y1 - y0 + 1.0) * patch);
  LB_REQUIRE(w * h <= 256e6, "hexagonal render: output larger than 256 megapixels");
  f.width = static_cast<int>(w);
  f.height = static_cast<int>(h);
  return f;
}

HexGeneratorParams hex_generator_preset(const std::string& name, std::optional<std::uint64_t> seed) {
  const AssetText t = read_asset("plenoptic_hex", name);
  HexGeneratorParams g = parse_plenoptic_hex_asset(t.text, t.where);
  if (seed) g.seed = *seed;
  return g;
}

namespace {

// Texture of plane k at scene position S, blurred over a disc of `blur` texture pixels
// (centre and six points around it: deterministic).
void plane_colour(const HexGeneratorParams& p, const std::vector<ScenePlane>& planes, std::size_t k,
                  double sx, double sy, double blur, double rgb[3]) {
  const double P = planes[k].patch;
  const std::uint64_t seed = plane_seed(p.seed, planes[k], k);
  if (blur <= 0.0) {
    plane_texture(seed, sx * P, sy * P, rgb);
    return;
  }
  double acc[3] = {0, 0, 0}, c[3];
  plane_texture(seed, sx * P, sy * P, acc);
  for (int a = 0; a < 6; ++a) {
    const double ang = a * M_PI / 3.0;
    plane_texture(seed, sx * P + blur * std::cos(ang), sy * P + blur * std::sin(ang), c);
    for (int ch = 0; ch < 3; ++ch) acc[ch] += c[ch];
  }
  for (int ch = 0; ch < 3; ++ch) rgb[ch] = acc[ch] / 7.0;
}

// The front-most plane covering S, or -1.
int front_plane(const std::vector<ScenePlane>& planes, double sx, double sy) {
  for (std::size_t k = 0; k < planes.size(); ++k)
    if (covers(planes[k], sx, sy)) return static_cast<int>(k);
  return -1;
}

}  // namespace

HexScene generate_hex_scene(const HexGeneratorParams& params, int threads) {
  const MlaLayout mla(params.mla, "hexagonal generator");
  const MlaGeometry& g = mla.geometry();
  LB_REQUIRE(params.width >= 1 && params.height >= 1 &&
                 static_cast<double>(params.width) * params.height <= 400e6,
             "hexagonal generator: raw size " + std::to_string(params.width) + "x" +
                 std::to_string(params.height) + " out of range (1 pixel .. 400 megapixels)");
  LB_REQUIRE(!params.planes.empty(), "hexagonal generator: the scene needs at least one plane");
  LB_REQUIRE(params.supersample >= 1 && params.supersample <= 8, "hexagonal generator: supersample 1..8");
  LB_REQUIRE(params.vignette_start >= 0.0 && params.vignette_start < 1.0,
             "hexagonal generator: vignette_start in 0..1");
  LB_REQUIRE(std::isfinite(params.defocus) && params.defocus >= 0.0 && params.defocus <= 100.0,
             "hexagonal generator: defocus in 0..100");
  for (const auto& pl : params.planes)
    LB_REQUIRE(pl.patch >= 1 && pl.patch <= kMaxPatch && pl.patch <= g.diameter,
               "hexagonal generator: plane patch size " + std::to_string(pl.patch) +
                   " out of range (1..min(64, diameter))");

  const auto planes = front_to_back(params.planes);
  HexScene scene;
  scene.params = params;
  scene.frame = hex_frame(mla, params.width, params.height, params.preview_patch);
  scene.raw.reset(params.width, params.height, 3);
  const double D = g.diameter, radius = D / 2.0, cs = std::cos(g.rotation), sn = std::sin(g.rotation);
  const int ss = params.supersample;
  // Per plane and lens type: the defocus blur (texture pixels) of that plane in that lens.
  std::vector<double> blur(planes.size() * static_cast<std::size_t>(mla.type_count()), 0.0);
  for (std::size_t k = 0; k < planes.size(); ++k)
    for (int t = 0; t < mla.type_count(); ++t) {
      const double v = D / planes[k].patch;
      const MlaLensType& ty = g.types[static_cast<std::size_t>(t)];
      const double off = std::max({0.0, ty.depth_min - v, v - ty.depth_max});
      blur[k * static_cast<std::size_t>(mla.type_count()) + static_cast<std::size_t>(t)] = params.defocus * off;
    }

  supersample_raw(scene.raw, ss, threads, [&](double px, double py, double rgb[3]) {
    // The sub-sample's lens and local offset.
    const MlaLens L = mla.nearest(px, py);
    const double dx = px - L.cx, dy = py - L.cy;
    const double vig = vignette(std::sqrt(dx * dx + dy * dy) / radius, params.vignette_start);
    if (vig <= 0.0) return 0.0;
    // Into the grid's frame: u = R^-1 (p - c), S_L = i base_x + j base_y.
    const double ux = cs * dx + sn * dy, uy = -sn * dx + cs * dy;
    const double lx = L.i * g.base_x.x + L.j * g.base_y.x, ly = L.i * g.base_x.y + L.j * g.base_y.y;
    for (std::size_t k = 0; k < planes.size(); ++k) {
      const double P = planes[k].patch;
      const double s = lx + ux / P, t = ly + uy / P;
      if (!covers(planes[k], s, t)) continue;
      plane_colour(params, planes, k, s, t,
                   blur[k * static_cast<std::size_t>(mla.type_count()) + static_cast<std::size_t>(L.type)], rgb);
      break;
    }
    return vig;
  });

  // Truths over the output frame: the front plane's patch size and its sharp texture.
  const HexFrame& f = scene.frame;
  scene.truth.reset(f.width, f.height, 1, 0.0f);
  scene.sharp.reset(f.width, f.height, 3);
  parallel_for(f.height, [&](int y) {
    for (int x = 0; x < f.width; ++x) {
      const MlaVec s = f.scene(x, y);
      const int k = front_plane(planes, s.x, s.y);
      double rgb[3] = {0, 0, 0};
      if (k >= 0) {
        scene.truth.at(x, y) = static_cast<float>(planes[static_cast<std::size_t>(k)].patch);
        plane_colour(params, planes, static_cast<std::size_t>(k), s.x, s.y, 0.0, rgb);
      }
      for (int c = 0; c < 3; ++c)
        scene.sharp.at(x, y, c) = static_cast<std::uint8_t>(std::lround(std::clamp(rgb[c], 0.0, 255.0)));
    }
  }, threads);
  return scene;
}

PlenopticScene to_scene(HexScene&& h, const std::string& source) {
  PlenopticScene s;
  s.grid = PlenopticGrid{1, 1, h.params.mla.diameter, 0.0, 0.0};
  s.mla = h.params.mla;
  s.truth_patch = h.frame.patch;
  s.raw = std::move(h.raw);
  s.truth = std::move(h.truth);
  s.source = source;
  return s;
}

}  // namespace lb
