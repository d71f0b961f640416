#pragma once
// What the two plenoptic runners share: plenoptic_spec.cpp (the seed's rectangular kernels) and
// plenoptic_hex/plenoptic_hex_spec.cpp (any micro-lens grid). Internal to the two modules.
#include <algorithm>
#include <string>
#include <vector>

#include "lightbench/algorithm.hpp"
#include "lightbench/error.hpp"
#include "lightbench/scene_file.hpp"
#include "lightbench/surface.hpp"

namespace lb::plenoptic_detail {

// a, then the names of b it lacks (an output's dependency list from two parameter groups).
inline std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  for (const auto& x : b)
    if (std::find(a.begin(), a.end(), x) == a.end()) a.push_back(x);
  return a;
}

// The outputs that show the data: "raw" (RGBA8) and "truth" (R32F, one line without one).
// True when `output` was one of them and `out` holds it.
inline bool write_data_output(const PlenopticScene& scene, const std::string& output, Surface& out) {
  if (output == "raw") {
    out.resize(scene.raw.width, scene.raw.height);
    out.upload_host(to_rgba(scene.raw));
    return true;
  }
  if (output == "truth") {
    LB_REQUIRE(!scene.truth.empty(), "this scene has no ground truth");
    out.resize(scene.truth.width, scene.truth.height);
    out.upload_host(scene.truth);
    return true;
  }
  return false;
}

// The error map needs the truth at the depth's output patch size (one line otherwise).
inline void require_truth_at(const PlenopticScene& scene, int patch) {
  LB_REQUIRE(!scene.truth.empty(), "this scene has no ground truth");
  LB_REQUIRE(scene.truth_patch == patch, "the ground truth is at M = " + std::to_string(scene.truth_patch) +
                                             "; set patch M to it for the error map");
}


// The six outputs both runners show (view, depth, all-in-focus, the data, the error map) with
// the parameters each one depends on, their units included.
inline void set_plenoptic_outputs(AlgorithmSpec& s, const std::vector<std::string>& render_params,
                                  const std::vector<std::string>& depth_params) {
  s.outputs = {
      {"view", "rendered view", SurfaceFormat::RGBA8, false, false, render_params},
      {"depth", "depth (patch size)", SurfaceFormat::R32F, false, false, depth_params},
      {"aif", "all-in-focus render", SurfaceFormat::RGBA8, false, false, concat(render_params, depth_params)},
      {"raw", "raw image", SurfaceFormat::RGBA8, true, false, {}},
      {"truth", "ground truth (patch size)", SurfaceFormat::R32F, true, true, {}},
      {"error", "|depth - truth|", SurfaceFormat::R32F, false, true, depth_params},
  };
  set_output_units(s.outputs, {{"depth", "patch"}, {"truth", "patch"}, {"error", "patch"}});
}

}  // namespace lb::plenoptic_detail
