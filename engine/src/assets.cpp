// The asset files' formats (assets/README.md) parsed strictly into the generators'
// parameters, and the bundled scenes built from them. See lightbench/assets.hpp.
#include "lightbench/assets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "assets_reader.hpp"
#include "lightbench/error.hpp"

namespace lb {

using assets_detail::Fields;

namespace {

constexpr std::uint64_t kMaxU32 = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();
// Scene coordinates (micro-image units) stay well inside what a double holds exactly.
constexpr double kMaxCoord = 1e6;
// Virtual depths in files: an open range ends here (JSON has no infinity).
constexpr double kMlaMaxDepth = 1e6;

// A JSON array of exactly n numbers in lo..hi, at key `key` of `f`.
std::vector<double> numbers(Fields& f, const std::string& key, std::size_t n, double lo, double hi) {
  const nlohmann::json& v = f.value(key);
  if (!v.is_array() || v.size() != n)
    f.fail(key, "expected an array of " + std::to_string(n) + " numbers, got " + assets_detail::brief(v));
  std::vector<double> out;
  for (const auto& x : v) {
    if (!x.is_number() || x.get<double>() < lo || x.get<double>() > hi)
      f.fail(key, "expected numbers in " + std::to_string(static_cast<long long>(lo)) + ".." +
                      std::to_string(static_cast<long long>(hi)) + ", got " + assets_detail::brief(v));
    out.push_back(x.get<double>());
  }
  return out;
}

// One plane: {"patch": P, "region": "background" | {"rect": [x0, y0, x1, y1]} | {"disc": [cx, cy, r]}}.
ScenePlane parse_plane(const nlohmann::json& j, const std::string& where, const std::string& path) {
  Fields f(j, where, path);
  ScenePlane p;
  p.patch = f.integer("patch", 1, kMaxPatch);
  const nlohmann::json& region = f.value("region");
  if (region.is_string()) {
    if (region.get<std::string>() != "background")
      f.fail("region", "expected \"background\", {\"rect\": [x0, y0, x1, y1]} or {\"disc\": [cx, cy, r]}, got " +
                           assets_detail::brief(region));
    p.background = true;
  } else {
    Fields r = f.object("region");
    if (r.has("rect") == r.has("disc"))
      f.fail("region", "give exactly one of \"rect\" and \"disc\" (or the string \"background\")");
    if (r.has("rect")) {
      const auto v = numbers(r, "rect", 4, -kMaxCoord, kMaxCoord);
      if (!(v[0] < v[2] && v[1] < v[3])) r.fail("rect", "needs x0 < x1 and y0 < y1");
      p.x0 = v[0], p.y0 = v[1], p.x1 = v[2], p.y1 = v[3];
    } else {
      const auto v = numbers(r, "disc", 3, -kMaxCoord, kMaxCoord);
      if (!(v[2] > 0)) r.fail("disc", "the radius (third number) must be positive");
      p.disc = true;
      p.x0 = v[0], p.y0 = v[1], p.x1 = v[2];
    }
    r.done();
  }
  f.done();
  return p;
}

// "planes": a non-empty array of planes (both generators' presets).
std::vector<ScenePlane> parse_planes(Fields& f, const std::string& where) {
  const nlohmann::json& planes = f.value("planes");
  if (!planes.is_array() || planes.empty())
    f.fail("planes", "expected a non-empty array of planes, got " + assets_detail::brief(planes));
  std::vector<ScenePlane> out;
  for (std::size_t i = 0; i < planes.size(); ++i)
    out.push_back(parse_plane(planes[i], where, "planes[" + std::to_string(i) + "]"));
  return out;
}

// A micro-lens grid object (assets/README.md, "mla"): a Raytrix-style grid, bases (1, 0)
// and (0.5, -0.866) unless given; one lens type per entry of "types" (lens-unit offset,
// virtual-depth range). Validated whole (MlaLayout): "<where>: 'mla': <problem>".
MlaGeometry parse_mla(Fields& m) {
  MlaGeometry a;
  a.diameter = m.number("diameter", kMlaMinDiameter, kMlaMaxDiameter);
  const auto off = numbers(m, "offset", 2, -kMlaMaxOffset, kMlaMaxOffset);
  a.offset = {off[0], off[1]};
  a.rotation = m.number("rotation", -7, 7, 0.0);
  a.lens_border = m.number("lens_border", 0, kMlaMaxDiameter, 0.0);
  a.tcp = m.number("tcp", 0, 1e6, 0.0);
  a.base_x = {1.0, 0.0};
  a.base_y = {0.5, -0.8660254037844386};
  if (m.has("base_x")) {
    const auto b = numbers(m, "base_x", 2, -2, 2);
    a.base_x = {b[0], b[1]};
  }
  if (m.has("base_y")) {
    const auto b = numbers(m, "base_y", 2, -2, 2);
    a.base_y = {b[0], b[1]};
  }
  const auto sub = numbers(m, "sub_grid_base", 2, -kMlaMaxSubGrid, kMlaMaxSubGrid);
  a.sub_grid_base = {sub[0], sub[1]};
  const nlohmann::json& types = m.value("types");
  if (!types.is_array() || types.empty() || types.size() > static_cast<std::size_t>(kMlaMaxTypes))
    m.fail("types", "expected an array of 1.." + std::to_string(kMlaMaxTypes) + " lens types, got " +
                        assets_detail::brief(types));
  a.types.clear();
  for (std::size_t i = 0; i < types.size(); ++i) {
    Fields t(types[i], m.where(), m.key_path("types[" + std::to_string(i) + "]"));
    const auto o = numbers(t, "offset", 2, -1000, 1000);
    const auto r = numbers(t, "depth_range", 2, 0, kMlaMaxDepth);
    t.done();
    a.types.push_back({{o[0], o[1]}, r[0], r[1]});
  }
  m.done();
  const double dot = a.base_x.x * a.base_y.x + a.base_x.y * a.base_y.y;
  a.kind = std::abs(dot) < 1e-3 ? MlaKind::Rectangular : MlaKind::Hexagonal;
  try {
    MlaLayout check(a, "'mla'");
  } catch (const Error& e) {
    throw Error(m.where() + ": " + e.what());
  }
  return a;
}

}  // namespace

GeneratorParams parse_plenoptic_asset(const std::string& text, const std::string& where) {
  const nlohmann::json j = assets_detail::parse_json(text, where);
  Fields f(j, where);
  f.text("description", "");
  GeneratorParams g;
  {
    Fields grid = f.object("grid");
    g.grid.nx = grid.integer("nx", 1, 10000);
    g.grid.ny = grid.integer("ny", 1, 10000);
    g.grid.pitch = grid.number("pitch", 4, 1024);
    g.grid.ox = grid.number("ox", 0, 1024, 0.0);
    g.grid.oy = grid.number("oy", 0, 1024, 0.0);
    grid.done();
    const double w = g.grid.ox + g.grid.nx * g.grid.pitch, h = g.grid.oy + g.grid.ny * g.grid.pitch;
    if (w * h > 400e6) f.fail("grid", "the raw image would exceed 400 megapixels");
  }
  g.seed = f.unsigned_integer("seed", kMaxU64, g.seed);
  g.supersample = f.integer("supersample", 1, 8, g.supersample);
  g.vignette_start = f.number("vignette_start", 0, 1, g.vignette_start);
  g.preview_patch = f.integer("truth_patch", 1, kMaxPatch, g.preview_patch);
  g.planes = parse_planes(f, where);
  f.done();
  return g;
}

HexGeneratorParams parse_plenoptic_hex_asset(const std::string& text, const std::string& where) {
  const nlohmann::json j = assets_detail::parse_json(text, where);
  Fields f(j, where);
  f.text("description", "");
  HexGeneratorParams g;
  {
    Fields raw = f.object("raw");
    g.width = raw.integer("width", 1, 30000);
    g.height = raw.integer("height", 1, 30000);
    raw.done();
    if (static_cast<double>(g.width) * g.height > 400e6) f.fail("raw", "the raw image would exceed 400 megapixels");
  }
  {
    Fields m = f.object("mla");
    g.mla = parse_mla(m);
  }
  g.seed = f.unsigned_integer("seed", kMaxU64, g.seed);
  g.supersample = f.integer("supersample", 1, 8, g.supersample);
  g.vignette_start = f.number("vignette_start", 0, 0.99, g.vignette_start);
  g.preview_patch = f.integer("truth_patch", 1, kMaxPatch, g.preview_patch);
  g.defocus = f.number("defocus", 0, 100, g.defocus);
  g.planes = parse_planes(f, where);
  f.done();
  return g;
}

MlaGeometry parse_mla_json(const nlohmann::json& mla, const std::string& where) {
  Fields m(mla, where, "mla");
  return parse_mla(m);
}

nlohmann::json mla_to_json(const MlaGeometry& g) {
  auto vec = [](MlaVec v) { return nlohmann::json::array({v.x, v.y}); };
  nlohmann::json j = {{"diameter", g.diameter},         {"offset", vec(g.offset)},
                      {"rotation", g.rotation},         {"lens_border", g.lens_border},
                      {"tcp", g.tcp},                   {"base_x", vec(g.base_x)},
                      {"base_y", vec(g.base_y)},        {"sub_grid_base", vec(g.sub_grid_base)},
                      {"types", nlohmann::json::array()}};
  for (const MlaLensType& t : g.types)
    j["types"].push_back({{"offset", vec(t.offset)},
                          {"depth_range", {t.depth_min, std::min(t.depth_max, kMlaMaxDepth)}}});
  return j;
}

LightFieldAsset parse_lightfield_asset(const std::string& text, const std::string& where) {
  const nlohmann::json j = assets_detail::parse_json(text, where);
  Fields f(j, where);
  f.text("description", "");
  LightFieldAsset a;
  a.width = f.integer("width", 1, 4096);
  a.height = f.integer("height", 1, 4096);
  a.views_u = f.integer("views_u", 1, 33);
  a.views_v = f.integer("views_v", 1, 33);
  a.disparity_back = static_cast<float>(f.number("disparity_back", -32, 32));
  a.disparity_front = static_cast<float>(f.number("disparity_front", -32, 32));
  a.seed = static_cast<unsigned>(f.unsigned_integer("seed", kMaxU32, a.seed));
  a.smoothing = f.integer("smoothing", 0, 16, a.smoothing);
  f.done();
  return a;
}

StereoAsset parse_stereo_asset(const std::string& text, const std::string& where) {
  const nlohmann::json j = assets_detail::parse_json(text, where);
  Fields f(j, where);
  f.text("description", "");
  StereoAsset a;
  a.width = f.integer("width", 2, 4096);
  a.height = f.integer("height", 2, 4096);
  a.disparity_back = f.integer("disparity_back", 0, 255);
  a.disparity_front = f.integer("disparity_front", 0, 255);
  a.ndisp = f.integer("ndisp", 1, 256);
  if (a.ndisp <= std::max(a.disparity_back, a.disparity_front))
    f.fail("ndisp", "must exceed both disparities (" + std::to_string(a.disparity_back) + ", " +
                        std::to_string(a.disparity_front) + "), got " + std::to_string(a.ndisp));
  if (std::max(a.disparity_back, a.disparity_front) >= a.width)
    f.fail("width", "must exceed both disparities, got " + std::to_string(a.width));
  a.channels = f.integer("channels", 1, 3, a.channels);
  if (a.channels == 2) f.fail("channels", "expected 1 (gray) or 3 (RGB), got 2");
  a.seed = static_cast<std::uint32_t>(f.unsigned_integer("seed", kMaxU32, a.seed));
  f.done();
  return a;
}

MadAsset parse_mad_asset(const std::string& text, const std::string& where) {
  const nlohmann::json j = assets_detail::parse_json(text, where);
  Fields f(j, where);
  f.text("description", "");
  MadAsset a;
  {
    Fields r = f.object("reference");
    a.reference_preset = r.text("plenoptic_preset");
    a.reference_seed = r.unsigned_integer("seed", kMaxU64, a.reference_seed);
    r.done();
  }
  {
    Fields d = f.object("distortion");
    const std::string kind = d.text("kind");
    const auto kinds = all_distort_kinds();
    const auto it = std::find_if(kinds.begin(), kinds.end(), [&](DistortKind k) { return kind == to_string(k); });
    if (it == kinds.end()) d.fail("kind", "expected blur, noise, jpeg or contrast, got \"" + escape_untrusted(kind, 40) + "\"");
    a.distortion.kind = static_cast<int>(it - kinds.begin());
    // The strength ranges distort() accepts, per kind.
    const double max_strength[] = {100.0, 255.0, 99.0, 1.0};
    a.distortion.strength = static_cast<float>(d.number("strength", 0, max_strength[a.distortion.kind]));
    a.distortion.seed = static_cast<int>(d.integer("seed", 0, 1000000, a.distortion.seed));
    d.done();
  }
  f.done();
  return a;
}

LightFieldAsset lightfield_asset(const std::string& name) {
  const AssetText t = read_asset("lightfield", name);
  return parse_lightfield_asset(t.text, t.where);
}

StereoAsset stereo_asset(const std::string& name) {
  const AssetText t = read_asset("stereo", name);
  return parse_stereo_asset(t.text, t.where);
}

MadAsset mad_asset(const std::string& name) {
  const AssetText t = read_asset("mad", name);
  MadAsset a = parse_mad_asset(t.text, t.where);
  try {
    read_asset("plenoptic", a.reference_preset);
  } catch (const Error& e) {
    throw Error(t.where + ": 'reference.plenoptic_preset': " + e.what());
  }
  return a;
}

LightField4D bundled_lightfield(std::optional<unsigned> seed, const std::string& name) {
  const LightFieldAsset a = lightfield_asset(name);
  return synthetic_two_plane_lightfield(a.width, a.height, a.views_u, a.views_v, a.disparity_back,
                                        a.disparity_front, seed.value_or(a.seed), a.smoothing);
}

stereo::StereoScene bundled_stereo(std::optional<std::uint32_t> seed, const std::string& name) {
  const StereoAsset a = stereo_asset(name);
  stereo::StereoScene s;
  s.pair = stereo::synthetic_two_plane_pair(a.width, a.height, a.disparity_back, a.disparity_front,
                                            seed.value_or(a.seed), &s.gt.disparity, a.channels);
  s.pair.name = "synthetic two planes (d " + std::to_string(a.disparity_back) + " / " +
                std::to_string(a.disparity_front) + ")";
  s.suggested_ndisp = a.ndisp;
  return s;
}

GeneratorParams bundled_mad_reference(const std::string& name) {
  const MadAsset a = mad_asset(name);
  return generator_preset(a.reference_preset, a.reference_seed);
}

DistortParams bundled_distortion(const std::string& name) { return mad_asset(name).distortion; }

}  // namespace lb
