#include "lightbench/scene_file.hpp"

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
    s.grid = {g.at("nx").get<int>(), g.at("ny").get<int>(), g.at("pitch").get<double>(),
              g.value("ox", 0.0), g.value("oy", 0.0)};
    const fs::path base = fs::path(json_path).parent_path();
    s.raw = load_image((base / j.at("raw").get<std::string>()).string());
    if (j.contains("truth")) {
      s.truth = load_pfm((base / j["truth"].get<std::string>()).string());
      s.truth_patch = j.value("truth_patch", 0);
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error("'" + json_path + "': missing or invalid field (" + std::string(e.what()) + ")");
  }
  validate(s.grid, s.raw.width, s.raw.height);
  s.source = json_path;
  return s;
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
