#pragma once
// Deterministic synthetic focused-plenoptic raw images with exact ground truth.
//
// Scene model (consistent with the renderer of ../shared/specs/plenoptic.md): a plane whose
// depth is "patch size P" shows the same scene point in micro-image n at local position u
// and in micro-image n+1 at u - P. So the scene coordinate s = n + (u - cu) / P (in
// micro-image units, cu = the micro-image centre) is the same in every micro-image that
// sees the point. Planes are layered front (large P) to back (small P); each has a region
// in s-coordinates (the background covers everything) and its own seeded texture. Each
// micro-image is vignetted by a circular aperture. The ground truth for an output grid of
// patch M is the P of the front-most plane covering s = ((x + 0.5) / M, (y + 0.5) / M).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb {

struct ScenePlane {
  int patch = 10;                // depth, as the patch size that focuses it
  // Region in micro-image units: a rectangle, or a disc when `disc` is set (cx, cy, r).
  bool disc = false;
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // rectangle; disc uses x0=cx, y0=cy, x1=r
  bool background = false;       // covers everything
};

struct GeneratorParams {
  PlenopticGrid grid;
  std::vector<ScenePlane> planes;  // any order; sorted front to back internally
  std::uint64_t seed = 1;
  double vignette_start = 0.80;    // fraction of the radius where the fall-off begins
  int supersample = 2;             // per axis, anti-aliasing of the texture
  int preview_patch = 11;          // M of the ground-truth map
};

struct GeneratedScene {
  ImageU8 raw;        // RGB, 3 channels
  ImageF truth;       // 1 channel: true patch size per output pixel at preview_patch
  GeneratorParams params;
};

// Presets are the bundled assets assets/plenoptic/<name>.json (lightbench/assets.hpp; an
// override directory can replace or add them): "tiny" (tests), "small" (the viewer's bundled
// scene), "seed" (the seed's workload: 96 x 72 micro-images, D = 74.75, 1056 x 792 at
// M = 11). A seed replaces the file's. Unknown names and malformed files throw lb::Error.
GeneratorParams generator_preset(const std::string& name, std::optional<std::uint64_t> seed = std::nullopt);
// The truth's patch size for a generated scene when none is asked for: the depth algorithm's
// default output patch for its grid, so its depth map is scored as it is (the plenoptic
// module defines it: plenoptic_depth.cpp).
int default_truth_patch(const GeneratorParams& params);
std::vector<std::string> generator_presets();  // smallest grid first: tiny, small, seed

GeneratedScene generate_scene(const GeneratorParams& params, int threads = 0);

// The scene description as JSON text (grid, planes, seed), for reports and scene files; the
// plenoptic asset format (parse_plenoptic_asset reads it back).
std::string scene_json(const GeneratorParams& params);

}  // namespace lb
