// scene.json with "mla" (scene_file.hpp): a generated hexagonal scene saved and loaded back
// runs plenoptic-hex with the same results; the shared "mla" parsing (assets.hpp) round-trips
// a geometry; broken files are one line naming the file and the field.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

#include <nlohmann/json.hpp>

#include "lightbench/algorithms.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "lightbench/scene_file.hpp"

using namespace lb;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("lb_hex_scene_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string load_error(const fs::path& json) {
  try {
    load_scene(json.string());
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

void write_json(const fs::path& p, const nlohmann::json& j) { std::ofstream(p) << j.dump(1); }

}  // namespace

TEST_CASE("hex scene file: save, load, the same raw, truth and geometry; the runner agrees") {
  TempDir tmp;
  HexScene h = generate_hex_scene(hex_generator_preset("hex-small"));
  const std::string path = save_scene(tmp.path.string(), h);
  CHECK(fs::exists(tmp.path / "raw.png"));
  CHECK(fs::exists(tmp.path / "truth.pfm"));
  CHECK(load_image((tmp.path / "sharp.png").string()).data == h.sharp.data);
  const PlenopticScene s = load_scene(path);
  REQUIRE(s.mla.has_value());
  CHECK(s.raw.data == h.raw.data);
  CHECK(s.truth.data == h.truth.data);
  CHECK(s.truth_patch == 8);
  CHECK(s.source == path);
  const MlaGeometry& a = *s.mla;
  const MlaGeometry& b = h.params.mla;
  CHECK(a.kind == MlaKind::Hexagonal);
  CHECK(a.diameter == b.diameter);
  CHECK(a.offset.x == b.offset.x);
  CHECK(a.offset.y == b.offset.y);
  CHECK(a.base_y.y == b.base_y.y);
  CHECK(a.sub_grid_base.y == b.sub_grid_base.y);
  REQUIRE(a.types.size() == 3);
  for (std::size_t t = 0; t < 3; ++t) {
    CHECK(a.types[t].offset.x == b.types[t].offset.x);
    CHECK(a.types[t].depth_min == b.types[t].depth_min);
    CHECK(a.types[t].depth_max == b.types[t].depth_max);
  }
  // The loaded scene and the in-memory one give the same depth and score.
  auto from_file = std::make_shared<PlenopticData>(), in_memory = std::make_shared<PlenopticData>();
  from_file->scene = s;
  in_memory->scene = to_scene(std::move(h), "memory");
  const AlgorithmRegistry reg = make_cpu_registry();
  auto r1 = reg.make_runner("plenoptic-hex", BackendKind::Cpu), r2 = reg.make_runner("plenoptic-hex", BackendKind::Cpu);
  r1->set_data(from_file);
  r2->set_data(in_memory);
  HostSurface d1(SurfaceFormat::R32F), d2(SurfaceFormat::R32F);
  r1->run({{"patch", 8}}, "", "depth", d1);
  r2->run({{"patch", 8}}, "", "depth", d2);
  CHECK(d1.scalar().data == d2.scalar().data);
  CHECK(r1->scores().at("exact_pct") == r2->scores().at("exact_pct"));
}

TEST_CASE("mla JSON: a rotated multi-type geometry round-trips; an open range is written as 1e6") {
  MlaGeometry g = hex_generator_preset("hex-small").mla;
  g.rotation = 0.123456789;
  g.lens_border = 1.5;
  g.tcp = 2.25;
  g.types[2].depth_max = std::numeric_limits<double>::infinity();
  const MlaGeometry r = parse_mla_json(mla_to_json(g), "x.json");
  CHECK(r.rotation == g.rotation);
  CHECK(r.lens_border == 1.5);
  CHECK(r.tcp == 2.25);
  CHECK(r.types[2].depth_max == 1e6);
  CHECK(r.kind == MlaKind::Hexagonal);
  const MlaGeometry rect = parse_mla_json(mla_to_json(to_mla_geometry(PlenopticGrid{4, 3, 20.0, 1.0, 2.0})), "r.json");
  CHECK(rect.kind == MlaKind::Rectangular);
  CHECK(rect.offset.x == 11.0);
}

TEST_CASE("hex scene file: broken fields are one line naming the file and the field") {
  TempDir tmp;
  const HexScene h = generate_hex_scene(hex_generator_preset("hex-small"));
  const std::string path = save_scene(tmp.path.string(), h);
  nlohmann::json good;
  std::ifstream(path) >> good;
  const fs::path bad = tmp.path / "bad.json";
  std::string where = "'";  // appended, not operator+: GCC 12's -Wrestrict false positive
  where += bad.string();
  where += "'";
  auto with = [&](const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json j = good;
    edit(j);
    write_json(bad, j);
    return load_error(bad);
  };
  CHECK(with([](nlohmann::json&) {}) == "");
  CHECK(with([](nlohmann::json& j) { j["mla"].erase("diameter"); }) == where + ": 'mla.diameter': missing");
  CHECK(with([](nlohmann::json& j) { j["mla"]["diameter"] = "big"; })
            .find(where + ": 'mla.diameter': expected a number") == 0);
  CHECK(with([](nlohmann::json& j) { j["mla"]["types"][1]["depth_range"] = {1}; })
            .find(where + ": 'mla.types[1].depth_range': expected an array of 2 numbers") == 0);
  CHECK(with([](nlohmann::json& j) { j["mla"]["typo"] = 1; }).find(where + ": 'mla.typo'") == 0);
  CHECK(with([](nlohmann::json& j) { j["mla"]["sub_grid_base"] = {1, -1.7320508075688772}; }) ==
        where + ": 'mla': sub_grid_base (1,-1.7320508) gives a cell of 1 lenses but there are 3 lens types");
  CHECK(with([](nlohmann::json& j) { j["mla"] = 3; }).find(where + ": 'mla': must be a JSON object") == 0);
  // The truth must be the frame's size at truth_patch.
  CHECK(with([](nlohmann::json& j) { j["truth_patch"] = 9; }) ==
        where + ": the truth is 120x98 but the grid's frame at M = 9 is 135x110");
  CHECK(with([](nlohmann::json& j) { j.erase("truth_patch"); }).find("field truth_patch (1..64) is needed") !=
        std::string::npos);
  // A raw too small for one lens.
  save_image((tmp.path / "tiny.png").string(), ImageU8(12, 12, 3));
  CHECK(with([](nlohmann::json& j) {
          j["raw"] = "tiny.png";
          j.erase("truth");
        }) == where + ": micro-lens grid: no whole lens inside the 12x12 raw");
  // A grid given alongside is read (and then unused by the general path).
  CHECK(with([](nlohmann::json& j) { j["grid"] = {{"nx", 2}, {"ny", 2}, {"pitch", 24}}; }) == "");
  CHECK(with([](nlohmann::json& j) { j["grid"] = {{"nx", 2}}; }).find("missing or invalid field") != std::string::npos);
  // Nothing half-written when the directory cannot be made.
  const fs::path file = tmp.path / "file";
  std::ofstream(file) << "x";
  CHECK_THROWS_WITH_AS(save_scene((file / "sub").string(), h), doctest::Contains("cannot create directory"), Error);
}
