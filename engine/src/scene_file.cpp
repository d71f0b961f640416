#include "lightbench/scene_file.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "lightbench/atomic_file.hpp"
#include "lightbench/image_io.hpp"

namespace lb {

std::string save_scene(const std::string& dir, const GeneratedScene& scene) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("'" + dir + "': cannot create directory: " + ec.message());
  save_image((fs::path(dir) / "raw.png").string(), scene.raw);
  save_pfm((fs::path(dir) / "truth.pfm").string(), scene.truth);
  nlohmann::json j = nlohmann::json::parse(scene_json(scene.params));
  j["raw"] = "raw.png";
  j["truth"] = "truth.pfm";
  const std::string path = (fs::path(dir) / "scene.json").string();
  write_file_atomic(path, j.dump(2) + "\n");
  return path;
}

namespace {
// An integer field in [lo, hi]: no silent narrowing (an nx of 2^32 + 1 must not become 1),
// no fraction, no string.
int int_field(const nlohmann::json& obj, const char* key, long long lo, long long hi, const std::string& where) {
  const nlohmann::json& v = obj.at(key);
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(hi) && static_cast<long long>(u) >= lo) return static_cast<int>(u);
    throw Error("'" + where + "': field " + key + " = " + v.dump() + " out of range (" + range + ")");
  }
  if (v.is_number_integer()) {
    const auto i = v.get<long long>();
    if (i >= lo && i <= hi) return static_cast<int>(i);
    throw Error("'" + where + "': field " + key + " = " + v.dump() + " out of range (" + range + ")");
  }
  throw Error("'" + where + "': field " + key + " = " + v.dump() + " is not an integer (" + range + ")");
}
// A finite number field.
double real_field(const nlohmann::json& obj, const char* key, double fallback, bool required, const std::string& where) {
  if (!obj.contains(key)) {
    if (required) throw Error("'" + where + "': missing field " + key);
    return fallback;
  }
  const nlohmann::json& v = obj.at(key);
  if (!v.is_number()) throw Error("'" + where + "': field " + key + " = " + v.dump() + " is not a number");
  const double d = v.get<double>();
  if (!std::isfinite(d)) throw Error("'" + where + "': field " + key + " = " + v.dump() + " is not finite");
  return d;
}
}  // namespace

PlenopticScene load_scene(const std::string& json_path) {
  namespace fs = std::filesystem;
  std::ifstream f(json_path);
  if (!f) throw Error("'" + json_path + "': cannot open scene file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception& e) {
    throw Error("'" + json_path + "': not valid JSON (" + std::string(e.what()) + ")");
  }
  PlenopticScene s;
  try {
    const auto& g = j.at("grid");
    LB_REQUIRE(g.is_object(), "'" + json_path + "': field grid is not an object");
    s.grid = {int_field(g, "nx", 1, 100000, json_path), int_field(g, "ny", 1, 100000, json_path),
              real_field(g, "pitch", 0, true, json_path), real_field(g, "ox", 0.0, false, json_path),
              real_field(g, "oy", 0.0, false, json_path)};
    const fs::path base = fs::path(json_path).parent_path();
    s.raw = load_image((base / j.at("raw").get<std::string>()).string());
    if (j.contains("truth")) {
      s.truth = load_pfm((base / j["truth"].get<std::string>()).string());
      s.truth_patch = j.contains("truth_patch") ? int_field(j, "truth_patch", 0, kMaxPatch, json_path) : 0;
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error("'" + json_path + "': missing or invalid field (" + std::string(e.what()) + ")");
  }
  validate(s.grid, s.raw.width, s.raw.height);
  s.source = json_path;
  return s;
}

MlaGeometry scene_geometry(const PlenopticScene& scene) {
  return scene.mla ? *scene.mla : to_mla_geometry(scene.grid);
}

PlenopticScene to_scene(GeneratedScene&& g, const std::string& source) {
  PlenopticScene s;
  s.grid = g.params.grid;
  s.truth_patch = g.params.preview_patch;
  s.raw = std::move(g.raw);
  s.truth = std::move(g.truth);
  s.source = source;
  return s;
}

}  // namespace lb
