#pragma once
// A plenoptic scene on disk: a JSON file naming the raw image (and optionally a ground-truth
// patch-size map) next to it, with the grid. `lightbench-cli generate` writes one; `render
// --scene`, the viewer and tests read it.
#include <string>

#include "lightbench/generator.hpp"
#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb {

struct PlenopticScene {
  ImageU8 raw;            // as loaded (RGB or RGBA)
  PlenopticGrid grid;
  ImageF truth;           // empty when the scene has no ground truth
  int truth_patch = 0;    // M of the truth map
  std::string source;     // where it came from, for display
};

// Writes DIR/raw.png, DIR/truth.pfm and DIR/scene.json (creating DIR). Returns the JSON path.
std::string save_scene(const std::string& dir, const GeneratedScene& scene);
PlenopticScene load_scene(const std::string& json_path);
PlenopticScene to_scene(GeneratedScene&& generated, const std::string& source);

}  // namespace lb
