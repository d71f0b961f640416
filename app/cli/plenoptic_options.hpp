#pragma once
// The raw / grid / render options shared by `render`, `bench render` (and later `depth`).
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "lightbench/plenoptic_params.hpp"
#include "lightbench/scene_file.hpp"

namespace lb::cli {

struct PlenopticOptions {
  std::string raw, scene, preset;
  double pitch = 0;
  std::string offset = "0,0", grid;
  int patch = -1, lim = -1;
  float sigma = -1;
  std::string view = "0,0";
  std::uint64_t seed = 1;

  void add_input(CLI::App& app);
  void add_render(CLI::App& app);
  // Loads or generates the scene and resolves the grid (inferring its size from the raw
  // when --grid is absent). A generated preset's ground truth is at `truth_patch` (-1: the
  // depth's default patch size for its grid).
  PlenopticScene load(int truth_patch = -1) const;
  RenderParams render_params(const PlenopticGrid& grid) const;
};

}  // namespace lb::cli
