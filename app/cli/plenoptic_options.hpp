#pragma once
// The raw / grid / render options shared by `render`, `bench render` (and later `depth`).
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "lightbench/calibrated_raw.hpp"
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
  std::string calib;     // --calib FILE.xml: the raw's micro-lens calibration (RayCalibData)
  std::string fit_grid;  // --fit-grid auto | on | off ("" : auto)

  void add_input(CLI::App& app);
  void add_render(CLI::App& app);
  // Loads or generates the scene and resolves the grid (inferring its size from the raw
  // when --grid is absent). A generated preset's ground truth is at `truth_patch` (-1: the
  // depth's default patch size for its grid).
  PlenopticScene load(int truth_patch = -1) const;
  RenderParams render_params(const PlenopticGrid& grid) const;
  // Whether the scene load() opens has a general micro-lens grid (--calib, a hexagonal
  // preset): known from the options alone, before anything is read.
  bool general_grid() const;
  // After load() of a calibrated raw: how its offset was chosen (calib empty otherwise).
  const CalibInfo& calib_info() const { return calib_info_; }

 private:
  mutable CalibInfo calib_info_;
};

}  // namespace lb::cli
