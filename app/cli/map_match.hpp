#pragma once
// Which file of a folder of disparity maps (another method's results) belongs to a scene of
// a data set, by one rule (docs/CLI.md "eval"): <name>.pfm, else <name>.png (16-bit, KITTI
// convention), else the one <name>/disp0*.pfm (a MiddEval3 submission folder). KITTI scene
// names are the frame's ("000000_10"), so its maps are 000000_10.png as the benchmark names
// them.
#include <string>
#include <vector>

#include "lightbench/dataset.hpp"

namespace lb::cli {

struct MapMatch {
  std::string path;   // "" when none
  std::string error;  // why none ("no map: looked for ...") or an ambiguity
};
MapMatch find_map(const std::string& folder, const std::string& scene);

// The scene of a data set named `name` (KITTI: "000000_10", "000000" or "000000_10.png"),
// else dataset::select_scene's match ignoring case or its one-line error.
const dataset::SceneRef& find_scene(const dataset::Dataset& ds, const std::string& name);

}  // namespace lb::cli
