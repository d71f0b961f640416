// The bundled scene assets (assets/, lightbench/assets.hpp): every file parses, each gives
// the same scene as the constants it replaced (same parameters, same bytes), malformed files
// give one-line errors naming the file and the key, and an override directory wins.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "lightbench/assets.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {

// FNV-1a over the bytes of a vector: the fingerprints below were taken from the scenes the
// code made before the assets existed (commit 20c7938, constants in generator.cpp and the
// viewer), so equal hashes mean identical scenes.
template <class T>
std::uint64_t fnv(const std::vector<T>& v, std::uint64_t h = 0xcbf29ce484222325ull) {
  const auto* b = reinterpret_cast<const unsigned char*>(v.data());
  for (std::size_t i = 0; i < v.size() * sizeof(T); ++i) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

ScenePlane rect(int patch, double x0, double y0, double x1, double y1) {
  ScenePlane p;
  p.patch = patch;
  p.x0 = x0, p.y0 = y0, p.x1 = x1, p.y1 = y1;
  return p;
}
ScenePlane disc(int patch, double cx, double cy, double r) {
  ScenePlane p = rect(patch, cx, cy, r, 0);
  p.disc = true;
  return p;
}
ScenePlane background(int patch) {
  ScenePlane p;
  p.patch = patch;
  p.background = true;
  return p;
}

// The presets as generator.cpp held them before (commit 20c7938).
GeneratorParams old_preset(const std::string& name) {
  GeneratorParams g;
  if (name == "tiny") {
    g.grid = {14, 10, 34.5, 0.75, 1.25};
    g.planes = {background(8), rect(12, 3.0, 2.0, 10.0, 8.0)};
  } else if (name == "small") {
    g.grid = {40, 30, 44.75, 1.25, 0.75};
    g.planes = {background(7), rect(9, 3.0, 3.0, 17.0, 13.0), disc(12, 28.0, 9.0, 6.5),
                rect(14, 12.0, 18.0, 31.0, 26.0), disc(10, 7.5, 21.5, 5.0)};
  } else {
    g.grid = {96, 72, 74.75, 0.0, 0.0};
    g.planes = {background(7),          rect(9, 6, 6, 40, 30),  disc(12, 68, 20, 14),
                rect(14, 30, 44, 74, 64), disc(10, 18, 52, 11), rect(11, 78, 40, 92, 68),
                rect(13, 46, 8, 58, 20),  disc(8, 86, 8, 6)};
  }
  return g;
}

void check_same(const GeneratorParams& a, const GeneratorParams& b) {
  CHECK(a.grid.nx == b.grid.nx);
  CHECK(a.grid.ny == b.grid.ny);
  CHECK(a.grid.pitch == b.grid.pitch);
  CHECK(a.grid.ox == b.grid.ox);
  CHECK(a.grid.oy == b.grid.oy);
  CHECK(a.seed == b.seed);
  CHECK(a.vignette_start == b.vignette_start);
  CHECK(a.supersample == b.supersample);
  CHECK(a.preview_patch == b.preview_patch);
  REQUIRE(a.planes.size() == b.planes.size());
  for (std::size_t i = 0; i < a.planes.size(); ++i) {
    CAPTURE(i);
    CHECK(a.planes[i].patch == b.planes[i].patch);
    CHECK(a.planes[i].disc == b.planes[i].disc);
    CHECK(a.planes[i].background == b.planes[i].background);
    CHECK(a.planes[i].x0 == b.planes[i].x0);
    CHECK(a.planes[i].y0 == b.planes[i].y0);
    CHECK(a.planes[i].x1 == b.planes[i].x1);
    CHECK(a.planes[i].y1 == b.planes[i].y1);
  }
}

// Sets the override directory for one test and clears it afterwards.
struct AssetsDirScope {
  explicit AssetsDirScope(const std::string& dir) { set_assets_dir(dir); }
  ~AssetsDirScope() { set_assets_dir(""); }
};

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream f(path);
  f << text;
}

// The parse error of `text` as the given kind ("" when it parses).
std::string error_of(const std::string& kind, const std::string& text) {
  try {
    if (kind == "plenoptic") parse_plenoptic_asset(text, "test.json");
    else if (kind == "lightfield") parse_lightfield_asset(text, "test.json");
    else if (kind == "stereo") parse_stereo_asset(text, "test.json");
    else if (kind == "plenoptic_hex") parse_plenoptic_hex_asset(text, "test.json");
    else parse_mad_asset(text, "test.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const char* kTinyText = R"({"grid": {"nx": 14, "ny": 10, "pitch": 34.5},
  "planes": [{"patch": 8, "region": "background"}, {"patch": 12, "region": {"rect": [3, 2, 10, 8]}}]})";

}  // namespace

TEST_CASE("assets: every bundled file parses; the expected names are there") {
  CHECK(asset_kinds() == std::vector<std::string>{"plenoptic", "lightfield", "stereo", "mad", "plenoptic_hex"});
  CHECK(asset_names("plenoptic_hex") == std::vector<std::string>{"hex-small"});
  CHECK(asset_names("plenoptic") == std::vector<std::string>{"tiny", "small", "seed"});
  CHECK(generator_presets() == asset_names("plenoptic"));
  CHECK(asset_names("lightfield") == std::vector<std::string>{"two_planes"});
  CHECK(asset_names("stereo") == std::vector<std::string>{"two_planes"});
  CHECK(asset_names("mad") == std::vector<std::string>{"default_distortion"});
  for (const auto& kind : asset_kinds())
    for (const auto& name : asset_names(kind)) {
      CAPTURE(kind + "/" + name);
      const AssetText t = read_asset(kind, name);
      CHECK(t.where == "assets/" + kind + "/" + name + ".json");
      CHECK(error_of(kind, t.text) == "");
    }
  CHECK_THROWS_WITH_AS(asset_names("images"), doctest::Contains("unknown asset kind 'images'"), Error);
  CHECK_THROWS_WITH_AS(generator_preset("huge"), "unknown plenoptic asset 'huge' (have: seed, small, tiny)", Error);
  CHECK_THROWS_WITH_AS(read_asset("plenoptic", "../stereo/two_planes"), doctest::Contains("asset name"), Error);
}

TEST_CASE("assets: the plenoptic presets are the old constants") {
  for (const char* name : {"tiny", "small", "seed"}) {
    CAPTURE(name);
    check_same(generator_preset(name), old_preset(name));
    CHECK(generator_preset(name, 7).seed == 7);
  }
  // The same bytes as before the assets (seed 1).
  const GeneratedScene tiny = generate_scene(generator_preset("tiny"));
  CHECK(fnv(tiny.raw.data) == 0x30459a90b78554c0ull);
  CHECK(fnv(tiny.truth.data) == 0xb3d8466875c64945ull);
  const GeneratedScene small = generate_scene(generator_preset("small", 1));
  CHECK(fnv(small.raw.data) == 0x9168919abd78b7c0ull);
  CHECK(fnv(small.truth.data) == 0x2bd2d9754d0712f2ull);
}

TEST_CASE("assets: scene_json is the plenoptic asset format (round trip)") {
  for (const char* name : {"tiny", "small", "seed"}) {
    CAPTURE(name);
    const GeneratorParams p = generator_preset(name, 12345678901234ull);
    check_same(parse_plenoptic_asset(scene_json(p), "scene_json"), p);
  }
}

TEST_CASE("assets: the synthetic light field is the viewer's old constants") {
  const LightFieldAsset a = lightfield_asset();
  CHECK(a.width == 192);
  CHECK(a.height == 160);
  CHECK(a.views_u == 9);
  CHECK(a.views_v == 9);
  CHECK(a.disparity_back == -1.2f);
  CHECK(a.disparity_front == 1.6f);
  CHECK(a.seed == 1u);
  CHECK(a.smoothing == 2);
  const LightField4D lf = bundled_lightfield(1u);
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const auto& v : lf.views) h = fnv(v.data, h);
  CHECK(h == 0x8654e3cb5820e838ull);
  CHECK(fnv(lf.gt.data) == 0xbbcc1ee7116e5725ull);
  CHECK(lf.source == "synthetic two planes, d = -1.2 (back) / 1.6 (square)");
  CHECK(bundled_lightfield(2u).views[0].data != lf.views[0].data);
}

TEST_CASE("assets: the synthetic stereo pair is the viewer's old constants") {
  const StereoAsset a = stereo_asset();
  CHECK(a.width == 256);
  CHECK(a.height == 192);
  CHECK(a.disparity_back == 4);
  CHECK(a.disparity_front == 11);
  CHECK(a.ndisp == 16);
  CHECK(a.channels == 3);
  const stereo::StereoScene s = bundled_stereo(1u);
  CHECK(fnv(s.pair.left.data) == 0x6cb713514f159499ull);
  CHECK(fnv(s.pair.right.data) == 0x493252b85beb8dacull);
  CHECK(fnv(s.gt.disparity.data) == 0xb7165933cd65a325ull);
  CHECK(s.pair.name == "synthetic two planes (d 4 / 11)");
  CHECK(s.suggested_ndisp == 16);
}

TEST_CASE("assets: the MAD pair is the viewer's old reference and distortion") {
  const DistortParams d = bundled_distortion();
  CHECK(all_distort_kinds()[static_cast<std::size_t>(d.kind)] == DistortKind::Blur);
  CHECK(d.strength == 1.5f);
  CHECK(d.seed == 1);
  const GeneratorParams ref = bundled_mad_reference();
  check_same(ref, old_preset("small"));
  // The viewer's bundled pair: the CPU render of that scene, blurred.
  const GeneratedScene s = generate_scene(ref);
  const RenderParams p = default_render_params(s.params.grid);
  const ImageU8 view = to_rgb(render_cpu(to_rgba(s.raw), build_render_tables(s.params.grid, p, s.raw.width, s.raw.height)));
  CHECK(fnv(view.data) == 0xab382f177fe31359ull);
  CHECK(fnv(distort(view, all_distort_kinds()[static_cast<std::size_t>(d.kind)], d.strength,
                    static_cast<std::uint64_t>(d.seed)).data) == 0x7898236de267e675ull);
}

TEST_CASE("assets: malformed files give one line naming the file and the key") {
  CHECK(error_of("plenoptic", kTinyText) == "");
  struct Case {
    const char* kind;
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"plenoptic", "{\"grid\": ", "test.json: not valid JSON"},
      {"plenoptic", "[1, 2]", "test.json: the file must be a JSON object, got [1,2]"},
      {"plenoptic", R"({"grid": {"nx": 14, "ny": 10, "pitch": 34.5}, "planes": [{"patch": 8, "region": "background"}], "sede": 3})",
       "test.json: 'sede': unknown key"},
      {"plenoptic", R"({"grid": {"nx": 14, "ny": 10, "pich": 34.5}, "planes": []})", "test.json: 'grid.pitch': missing"},
      {"plenoptic", R"({"grid": {"nx": 14, "ny": 10, "pitch": 34.5, "oz": 1}, "planes": []})", "test.json: 'grid.oz': unknown key"},
      {"plenoptic", R"({"grid": {"nx": "14", "ny": 10, "pitch": 34.5}, "planes": []})",
       "test.json: 'grid.nx': expected an integer in 1..10000, got \"14\""},
      {"plenoptic", R"({"grid": {"nx": 14.5, "ny": 10, "pitch": 34.5}, "planes": []})",
       "test.json: 'grid.nx': expected an integer in 1..10000, got 14.5"},
      {"plenoptic", R"({"grid": {"nx": 14, "ny": 10, "pitch": 2}, "planes": []})",
       "test.json: 'grid.pitch': expected a number in 4..1024, got 2"},
      {"plenoptic", R"({"grid": {"nx": 14, "ny": 10, "pitch": 34.5}, "planes": []})",
       "test.json: 'planes': expected a non-empty array of planes, got []"},
      {"plenoptic", R"({"grid": {"nx": 14, "ny": 10, "pitch": 34.5}, "planes": [{"patch": 80, "region": "background"}]})",
       "test.json: 'planes[0].patch': expected an integer in 1..64, got 80"},
      {"plenoptic", R"({"grid": {"nx": 14, "ny": 10, "pitch": 34.5}, "planes": [{"patch": 8, "region": {"rect": [1, 2, 3]}}]})",
       "test.json: 'planes[0].region.rect': expected an array of 4 numbers, got [1,2,3]"},
      {"plenoptic", R"({"grid": {"nx": 14, "ny": 10, "pitch": 34.5}, "planes": [{"patch": 8, "region": {"rect": [5, 2, 3, 4]}}]})",
       "test.json: 'planes[0].region.rect': needs x0 < x1 and y0 < y1"},
      {"plenoptic", R"({"grid": {"nx": 14, "ny": 10, "pitch": 34.5}, "planes": [{"patch": 8, "region": "sky"}]})",
       "test.json: 'planes[0].region': expected \"background\""},
      {"plenoptic", R"({"grid": {"nx": 14, "ny": 10, "pitch": 34.5}, "seed": -1, "planes": [{"patch": 8, "region": "background"}]})",
       "test.json: 'seed': expected an integer in 0..18446744073709551615, got -1"},
      {"plenoptic", R"({"grid": {"nx": 10000, "ny": 10000, "pitch": 100}, "planes": [{"patch": 8, "region": "background"}]})",
       "test.json: 'grid': the raw image would exceed 400 megapixels"},
      {"lightfield", R"({"width": 192, "height": 160, "views_u": 9, "views_v": 9, "disparity_back": -1.2, "disparity_front": 99})",
       "test.json: 'disparity_front': expected a number in -32..32, got 99"},
      {"lightfield", R"({"width": 192, "height": 160, "views_u": 9, "views_v": 9, "disparity_back": -1.2, "disparity_front": 1.6, "smooth": 2})",
       "test.json: 'smooth': unknown key"},
      {"stereo", R"({"width": 256, "height": 192, "disparity_back": 4, "disparity_front": 11, "ndisp": 8})",
       "test.json: 'ndisp': must exceed both disparities (4, 11), got 8"},
      {"stereo", R"({"width": 256, "height": 192, "disparity_back": 4, "disparity_front": 11, "ndisp": 16, "channels": 2})",
       "test.json: 'channels': expected 1 (gray) or 3 (RGB), got 2"},
      {"mad", R"({"reference": {"plenoptic_preset": "small"}, "distortion": {"kind": "fog", "strength": 1}})",
       "test.json: 'distortion.kind': expected blur, noise, jpeg or contrast, got \"fog\""},
      {"mad", R"({"reference": {"plenoptic_preset": "small"}, "distortion": {"kind": "contrast", "strength": 2}})",
       "test.json: 'distortion.strength': expected a number in 0..1, got 2"},
      {"mad", R"({"reference": {"plenoptic_preset": 3}, "distortion": {"kind": "blur", "strength": 1}})",
       "test.json: 'reference.plenoptic_preset': expected a string, got 3"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const std::string e = error_of(c.kind, c.text);
    CHECK(e.rfind(c.message, 0) == 0);  // starts with the expected text
    CHECK(e.find('\n') == std::string::npos);
  }
}

TEST_CASE("assets: an override directory replaces and adds files") {
  lbt::TempDir dir("assets");
  // A replaced preset (tiny with a new seed) and a new one.
  std::string tiny = read_asset("plenoptic", "tiny").text;
  tiny.replace(tiny.find("\"seed\": 1"), 9, "\"seed\": 99");
  write_file(dir.path / "plenoptic" / "tiny.json", tiny);
  write_file(dir.path / "plenoptic" / "mine.json", kTinyText);
  write_file(dir.path / "plenoptic" / "broken.json", "{\"grid\": 3}");
  write_file(dir.path / "stereo" / "two_planes.json",
             R"({"width": 64, "height": 48, "disparity_back": 2, "disparity_front": 5, "ndisp": 8, "extra": 1})");
  {
    AssetsDirScope scope(dir.path.string());
    CHECK(assets_dir() == dir.path.string());
    CHECK(generator_preset("tiny").seed == 99u);
    CHECK(generator_preset("small").seed == 1u);  // not overridden: embedded
    const auto names = generator_presets();
    // mine: 14x10 like tiny, then by name; the malformed file last, its error when used.
    CHECK(names == std::vector<std::string>{"mine", "tiny", "small", "seed", "broken"});
    CHECK_THROWS_WITH_AS(generator_preset("broken"), doctest::Contains("broken.json: 'grid': must be a JSON object, got 3"), Error);
    CHECK(read_asset("plenoptic", "mine").where == (dir.path / "plenoptic" / "mine.json").string());
    const std::string stereo_file = (dir.path / "stereo" / "two_planes.json").string();
    CHECK_THROWS_WITH_AS(bundled_stereo(), doctest::Contains((stereo_file + ": 'extra': unknown key").c_str()), Error);
  }
  CHECK(generator_preset("tiny").seed == 1u);
  {
    AssetsDirScope scope(dir.file("missing"));
    CHECK_THROWS_WITH_AS(generator_preset("tiny"), doctest::Contains("--assets '"), Error);
  }
  // The environment variable applies when no directory is set.
  ::setenv("LB_ASSETS_DIR", dir.path.string().c_str(), 1);
  CHECK(generator_preset("tiny").seed == 99u);
  ::setenv("LB_ASSETS_DIR", dir.file("missing").c_str(), 1);
  CHECK_THROWS_WITH_AS(generator_presets(), doctest::Contains("LB_ASSETS_DIR '"), Error);
  ::unsetenv("LB_ASSETS_DIR");
  CHECK(generator_preset("tiny").seed == 1u);
}
