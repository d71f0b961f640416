#pragma once
// A plenoptic scene on disk: a JSON file naming the raw image (and optionally a ground-truth
// patch-size map) next to it, with the grid. `lightbench-cli generate` writes one; `render
// --scene`, the viewer and tests read it.
#include <optional>
#include <string>

#include "lightbench/generator.hpp"
#include "lightbench/image.hpp"
#include "lightbench/mla_geometry.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb {

struct HexScene;  // plenoptic_hex.hpp

struct PlenopticScene {
  ImageU8 raw;            // as loaded (RGB or RGBA)
  PlenopticGrid grid;
  ImageF truth;           // empty when the scene has no ground truth
  int truth_patch = 0;    // M of the truth map
  std::string source;     // where it came from, for display
  ImageOrigin raw_origin{};  // the raw's file and depth (16-bit PNG: converted, v/257); "" in memory
  // The micro-lens grid as data when `grid` cannot say it (issue 22): a hexagonal or rotated
  // grid, a multi-focus array (a Raytrix calibration, the hexagonal generator). Set: the
  // algorithm "plenoptic-hex" runs on it and the rectangular "plenoptic" refuses the scene in
  // one line; truth / truth_patch are then in hex_frame()'s output frame. Empty: `grid` is the
  // whole story (to_mla_geometry(grid) is its geometry).
  std::optional<MlaGeometry> mla;
};

// The scene's micro-lens geometry: `mla` when set, else to_mla_geometry(grid).
MlaGeometry scene_geometry(const PlenopticScene& scene);

// Writes DIR/raw.png, DIR/truth.pfm and DIR/scene.json (creating DIR). Returns the JSON path.
std::string save_scene(const std::string& dir, const GeneratedScene& scene);
// A generated scene on any micro-lens grid: also DIR/sharp.png (the appearance truth); the
// JSON holds "mla" (assets/README.md's object) instead of "grid", and truth_patch.
std::string save_scene(const std::string& dir, const HexScene& scene);
// Either kind: with "mla" the scene's mla is set (grid optional: a one-lens placeholder), the
// raw must hold a whole lens and the truth must be hex_frame()'s size at truth_patch. Every
// problem is one lb::Error line naming the file and the field.
PlenopticScene load_scene(const std::string& json_path);
PlenopticScene to_scene(GeneratedScene&& generated, const std::string& source);

}  // namespace lb
