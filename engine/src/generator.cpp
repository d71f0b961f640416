#include "lightbench/generator.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "lightbench/assets.hpp"
#include "lightbench/parallel.hpp"
#include "lightbench/scene_texture.hpp"

namespace lb {
// The scene model's pieces, shared with the hexagonal generator (generator_hex.cpp).
namespace scene_detail {

// SplitMix64 finaliser: a stateless hash, so every pixel is computed independently and the
// result does not depend on the thread count.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::uint64_t lattice_hash(std::uint64_t seed, long ix, long iy) {
  return mix(seed ^ mix(static_cast<std::uint64_t>(ix) * 0x632be59bd9b4e019ull +
                        static_cast<std::uint64_t>(iy)));
}

double smooth(double t) { return t * t * (3.0 - 2.0 * t); }

// Value noise, three channels from one hash per lattice point, values in [0, 1].
void value_noise(std::uint64_t seed, double x, double y, double out[3]) {
  const double fx = std::floor(x), fy = std::floor(y);
  const long ix = static_cast<long>(fx), iy = static_cast<long>(fy);
  const double tx = smooth(x - fx), ty = smooth(y - fy);
  const std::uint64_t h[4] = {lattice_hash(seed, ix, iy), lattice_hash(seed, ix + 1, iy),
                              lattice_hash(seed, ix, iy + 1), lattice_hash(seed, ix + 1, iy + 1)};
  for (int c = 0; c < 3; ++c) {
    auto v = [&](int k) { return static_cast<double>((h[k] >> (16 * c)) & 0xffff) / 65535.0; };
    const double top = v(0) + (v(1) - v(0)) * tx, bot = v(2) + (v(3) - v(2)) * tx;
    out[c] = top + (bot - top) * ty;
  }
}

// A plane's texture at texture coordinate (tx, ty) in raw pixels: a base colour modulated by
// three octaves of noise, plus fine detail so focus is easy to judge. Values in [0, 255].
void plane_texture(std::uint64_t seed, double tx, double ty, double rgb[3]) {
  const std::uint64_t h = mix(seed);
  const double base[3] = {0.25 + 0.6 * ((h & 0xff) / 255.0), 0.25 + 0.6 * (((h >> 8) & 0xff) / 255.0),
                          0.25 + 0.6 * (((h >> 16) & 0xff) / 255.0)};
  double n1[3], n2[3], n3[3];
  value_noise(seed + 1, tx / 23.0, ty / 23.0, n1);
  value_noise(seed + 2, tx / 7.0, ty / 7.0, n2);
  value_noise(seed + 3, tx / 2.5, ty / 2.5, n3);
  for (int c = 0; c < 3; ++c) {
    const double v = base[c] * (0.45 + 0.55 * n1[c]) + 0.30 * (n2[c] - 0.5) + 0.22 * (n3[c] - 0.5);
    rgb[c] = 255.0 * std::clamp(v, 0.0, 1.0);
  }
}

bool covers(const ScenePlane& p, double sx, double sy) {
  if (p.background) return true;
  if (p.disc) {
    const double dx = sx - p.x0, dy = sy - p.y0;
    return dx * dx + dy * dy <= p.x1 * p.x1;
  }
  return sx >= p.x0 && sx < p.x1 && sy >= p.y0 && sy < p.y1;
}

// Front (large patch) to back; the background last.
std::vector<ScenePlane> front_to_back(std::vector<ScenePlane> planes) {
  std::stable_sort(planes.begin(), planes.end(), [](const ScenePlane& a, const ScenePlane& b) {
    if (a.background != b.background) return !a.background;
    return a.patch > b.patch;
  });
  return planes;
}

std::uint64_t plane_seed(std::uint64_t seed, const ScenePlane& plane, std::size_t k) {
  return seed * 1000003ull + static_cast<std::uint64_t>(plane.patch) * 7919ull + k;
}

}  // namespace scene_detail

using namespace scene_detail;

std::vector<std::string> generator_presets() { return asset_names("plenoptic"); }

GeneratorParams generator_preset(const std::string& name, std::optional<std::uint64_t> seed) {
  const AssetText t = read_asset("plenoptic", name);
  GeneratorParams g = parse_plenoptic_asset(t.text, t.where);
  if (seed) g.seed = *seed;
  return g;
}

GeneratedScene generate_scene(const GeneratorParams& params, int threads) {
  const PlenopticGrid& G = params.grid;
  LB_REQUIRE(G.nx >= 1 && G.ny >= 1 && G.pitch >= 4.0 && G.pitch <= 1024.0,
             "generator: grid must be at least 1x1 with pitch in 4..1024");
  LB_REQUIRE(G.ox >= 0 && G.oy >= 0, "generator: grid offset must be non-negative");
  LB_REQUIRE(!params.planes.empty(), "generator: the scene needs at least one plane");
  LB_REQUIRE(params.supersample >= 1 && params.supersample <= 8, "generator: supersample 1..8");
  LB_REQUIRE(params.preview_patch >= 1 && params.preview_patch <= kMaxPatch,
             "generator: preview patch out of range");
  for (const auto& p : params.planes)
    LB_REQUIRE(p.patch >= 1 && p.patch <= kMaxPatch, "generator: plane patch size out of range");
  const double W = std::ceil(G.ox + G.nx * G.pitch), H = std::ceil(G.oy + G.ny * G.pitch);
  LB_REQUIRE(W * H <= 400e6, "generator: raw image larger than 400 megapixels");

  const auto planes = front_to_back(params.planes);
  const bool has_background = planes.back().background;
  GeneratedScene scene;
  scene.params = params;
  scene.raw.reset(static_cast<int>(W), static_cast<int>(H), 3);
  const double D = G.pitch, centre = (D - 1.0) / 2.0, radius = D / 2.0;
  const int ss = params.supersample;

  supersample_raw(scene.raw, ss, threads, [&](double px, double py, double rgb[3]) {
    const long n = static_cast<long>(std::floor((px - G.ox + 0.5) / D));
    const long m = static_cast<long>(std::floor((py - G.oy + 0.5) / D));
    if (n < 0 || m < 0 || n >= G.nx || m >= G.ny) return 0.0;  // outside the lens grid
    const double u = px - G.ox - n * D - centre, v = py - G.oy - m * D - centre;
    // Circular micro-lens aperture with a smooth fall-off (vignetting).
    const double vig = vignette(std::sqrt(u * u + v * v) / radius, params.vignette_start);
    if (vig <= 0.0) return 0.0;
    for (std::size_t k = 0; k < planes.size(); ++k) {
      const double P = planes[k].patch;
      const double s = n + u / P, t = m + v / P;  // scene coordinate of this plane
      if (!covers(planes[k], s, t)) continue;
      plane_texture(plane_seed(params.seed, planes[k], k), s * P, t * P, rgb);
      break;
    }
    return vig;
  });

  // Ground truth at the preview patch size M: output pixel (x, y) sees scene coordinate
  // ((x + 0.5) / M - 0.5, ...) (the renderer's patch centre at the in-focus size).
  const int M = params.preview_patch;
  scene.truth.reset(G.nx * M, G.ny * M, 1, 0.0f);
  for (int y = 0; y < scene.truth.height; ++y)
    for (int x = 0; x < scene.truth.width; ++x) {
      const double s = (x + 0.5) / M - 0.5, t = (y + 0.5) / M - 0.5;
      float p = has_background ? static_cast<float>(planes.back().patch) : 0.0f;
      for (const auto& pl : planes)
        if (covers(pl, s, t)) {
          p = static_cast<float>(pl.patch);
          break;
        }
      scene.truth.at(x, y) = p;
    }
  return scene;
}

std::string scene_json(const GeneratorParams& params) {
  nlohmann::json j;
  j["grid"] = {{"nx", params.grid.nx}, {"ny", params.grid.ny}, {"pitch", params.grid.pitch},
               {"ox", params.grid.ox}, {"oy", params.grid.oy}};
  j["seed"] = params.seed;
  j["supersample"] = params.supersample;
  j["vignette_start"] = params.vignette_start;
  j["truth_patch"] = params.preview_patch;
  for (const auto& p : params.planes) {
    nlohmann::json o = {{"patch", p.patch}};
    if (p.background) o["region"] = "background";
    else if (p.disc) o["region"] = {{"disc", {p.x0, p.y0, p.x1}}};
    else o["region"] = {{"rect", {p.x0, p.y0, p.x1, p.y1}}};
    j["planes"].push_back(o);
  }
  return j.dump(2);
}

}  // namespace lb
