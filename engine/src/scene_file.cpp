#include "lightbench/scene_file.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "lightbench/assets.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/input_file.hpp"
#include "lightbench/plenoptic_hex.hpp"

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

std::string save_scene(const std::string& dir, const HexScene& scene) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("'" + dir + "': cannot create directory: " + ec.message());
  save_image((fs::path(dir) / "raw.png").string(), scene.raw);
  save_pfm((fs::path(dir) / "truth.pfm").string(), scene.truth);
  save_image((fs::path(dir) / "sharp.png").string(), scene.sharp);
  const HexGeneratorParams& p = scene.params;
  nlohmann::json j = {{"raw", "raw.png"},
                      {"truth", "truth.pfm"},
                      {"truth_patch", scene.frame.patch},
                      {"sharp", "sharp.png"},
                      {"mla", mla_to_json(p.mla)},
                      {"generator", {{"seed", p.seed}, {"defocus", p.defocus}, {"supersample", p.supersample},
                                     {"vignette_start", p.vignette_start}}}};
  const std::string path = (fs::path(dir) / "scene.json").string();
  write_file_atomic(path, j.dump(2) + "\n");
  return path;
}

namespace {
// A field's value in a message: JSON text (control characters escaped by the dump, invalid
// UTF-8 replaced instead of throwing), cut at 80 characters.
std::string json_value(const nlohmann::json& v) {
  return safe_line(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 80);
}

// An integer field in [lo, hi]: no silent narrowing (an nx of 2^32 + 1 must not become 1),
// no fraction, no string.
int int_field(const nlohmann::json& obj, const char* key, long long lo, long long hi, const std::string& where) {
  const nlohmann::json& v = obj.at(key);
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(hi) && static_cast<long long>(u) >= lo) return static_cast<int>(u);
    throw Error("'" + where + "': field " + key + " = " + json_value(v) + " out of range (" + range + ")");
  }
  if (v.is_number_integer()) {
    const auto i = v.get<long long>();
    if (i >= lo && i <= hi) return static_cast<int>(i);
    throw Error("'" + where + "': field " + key + " = " + json_value(v) + " out of range (" + range + ")");
  }
  throw Error("'" + where + "': field " + key + " = " + json_value(v) + " is not an integer (" + range + ")");
}
// A finite number field.
double real_field(const nlohmann::json& obj, const char* key, double fallback, bool required, const std::string& where) {
  if (!obj.contains(key)) {
    if (required) throw Error("'" + where + "': missing field " + key);
    return fallback;
  }
  const nlohmann::json& v = obj.at(key);
  if (!v.is_number()) throw Error("'" + where + "': field " + key + " = " + json_value(v) + " is not a number");
  const double d = v.get<double>();
  if (!std::isfinite(d)) throw Error("'" + where + "': field " + key + " = " + json_value(v) + " is not finite");
  return d;
}
}  // namespace

namespace {
// A scene on a general grid: its frame exists and the truth fits it.
void check_general_scene(const PlenopticScene& s, const std::string& json_path) {
  HexFrame f;
  try {
    f = hex_frame(MlaLayout(*s.mla), s.raw.width, s.raw.height, std::max(1, s.truth_patch));
  } catch (const Error& e) {
    throw Error("'" + json_path + "': " + e.what());
  }
  if (s.truth.empty()) return;
  LB_REQUIRE(s.truth_patch >= 1, "'" + json_path + "': field truth_patch (1.." + std::to_string(kMaxPatch) +
                                     ") is needed with a truth on a micro-lens grid");
  LB_REQUIRE(s.truth.width == f.width && s.truth.height == f.height && s.truth.channels == 1,
             "'" + json_path + "': the truth is " + std::to_string(s.truth.width) + "x" +
                 std::to_string(s.truth.height) + " but the grid's frame at M = " + std::to_string(s.truth_patch) +
                 " is " + std::to_string(f.width) + "x" + std::to_string(f.height));
}
}  // namespace

PlenopticScene load_scene(const std::string& json_path) {
  namespace fs = std::filesystem;
  // A regular file (a named pipe is refused before opening) of at most 16 MiB.
  const std::string text = read_text_file(json_path, "scene file", kJsonFileLimit);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw Error("'" + json_path + "': not valid JSON (" + safe_line(e.what(), 300) + ")");  // quotes the bytes
  }
  PlenopticScene s;
  LB_REQUIRE(j.is_object(), "'" + json_path + "': not a JSON object");
  if (j.contains("mla")) s.mla = parse_mla_json(j["mla"], "'" + json_path + "'");
  try {
    if (s.mla && !j.contains("grid")) {
      s.grid = PlenopticGrid{1, 1, s.mla->diameter, 0.0, 0.0};  // never used by the general path
    } else {
      const auto& g = j.at("grid");
      LB_REQUIRE(g.is_object(), "'" + json_path + "': field grid is not an object");
      s.grid = {int_field(g, "nx", 1, 100000, json_path), int_field(g, "ny", 1, 100000, json_path),
                real_field(g, "pitch", 0, true, json_path), real_field(g, "ox", 0.0, false, json_path),
                real_field(g, "oy", 0.0, false, json_path)};
    }
    const fs::path base = fs::path(json_path).parent_path();
    s.raw = load_image_8bit((base / j.at("raw").get<std::string>()).string(), &s.raw_origin);
    if (j.contains("truth")) {
      s.truth = load_pfm((base / j["truth"].get<std::string>()).string());
      s.truth_patch = j.contains("truth_patch") ? int_field(j, "truth_patch", 0, kMaxPatch, json_path) : 0;
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error("'" + json_path + "': missing or invalid field (" + safe_line(e.what(), 300) + ")");
  }
  if (s.mla) {
    check_general_scene(s, json_path);
  } else {
    validate(s.grid, s.raw.width, s.raw.height);
  }
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
