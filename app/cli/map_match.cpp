#include "map_match.hpp"

#include <algorithm>
#include <filesystem>

#include "lightbench/error.hpp"

namespace lb::cli {

namespace fs = std::filesystem;

MapMatch find_map(const std::string& folder, const std::string& scene) {
  MapMatch m;
  std::error_code ec;
  for (const char* ext : {".pfm", ".png"}) {
    const fs::path p = fs::path(folder) / (scene + ext);
    if (fs::is_regular_file(p, ec)) {
      m.path = p.string();
      return m;
    }
  }
  std::vector<std::string> found;
  const fs::path sub = fs::path(folder) / scene;
  if (fs::is_directory(sub, ec))
    for (const auto& e : fs::directory_iterator(sub, ec)) {
      const std::string n = e.path().filename().string();
      if (e.is_regular_file(ec) && n.rfind("disp0", 0) == 0 && n.size() > 4 && n.substr(n.size() - 4) == ".pfm")
        found.push_back(e.path().string());
    }
  std::sort(found.begin(), found.end());
  if (found.size() == 1) {
    m.path = found[0];
  } else if (found.size() > 1) {
    m.error = "several maps: " + found[0] + ", " + found[1] + (found.size() > 2 ? ", ..." : "");
  } else {
    m.error = "no map (looked for " + scene + ".pfm, " + scene + ".png, " + scene + "/disp0*.pfm in " + folder + ")";
  }
  return m;
}

const dataset::SceneRef& find_scene(const dataset::Dataset& ds, const std::string& name) {
  std::string n = name;
  if (n.size() > 4 && (n.substr(n.size() - 4) == ".png" || n.substr(n.size() - 4) == ".pfm")) n.resize(n.size() - 4);
  for (const auto& s : ds.scenes)
    if (s.name == n || (ds.layout == dataset::Layout::Kitti && s.name == n + "_10")) return s;
  return dataset::select_scene(ds, name);  // exact or ignoring case; else its one-line error
}

}  // namespace lb::cli
