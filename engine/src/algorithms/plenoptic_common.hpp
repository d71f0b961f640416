#pragma once
// What the two plenoptic runners share: plenoptic.cpp (the seed's rectangular kernels) and
// plenoptic_hex.cpp (any micro-lens grid). Internal to engine/src/algorithms.
#include <algorithm>
#include <string>
#include <vector>

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

}  // namespace lb::plenoptic_detail
