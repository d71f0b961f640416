#pragma once
// Focused-plenoptic raws on any micro-lens grid (mla_geometry.hpp), hexagonal multi-focus
// ones included: a synthetic generator with ground truth, and the CPU reference renderer.
//
// Scene model (the rectangular generator's, generator.hpp, on a lattice): S is a scene
// position in lens units, in the lens grid's own frame (rotation undone), S = 0 at lens
// (0, 0)'s centre. A plane whose depth is "patch size P" (virtual depth v = D / P) shows S in
// lens L (lattice position S_L = i base_x + j base_y) at the local offset u = P (S - S_L)
// pixels from L's centre (rotated into the raw). In a neighbour one lens away the same point
// sits P pixels further back, exactly as on the rectangular grid.
//
// Output frame: output pixel (x, y) at patch size M sees S = (s0.x + (x + 0.5) / M - 0.5,
// s0.y + (y + 0.5) / M - 0.5), s0 the smallest lattice position of the lenses inside the raw.
// For the rectangular grid (to_mla_geometry) this is the existing convention: s0 = 0, the
// output NX*M x NY*M, s = (x + 0.5) / M - 0.5.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lightbench/generator.hpp"
#include "lightbench/image.hpp"
#include "lightbench/mla_geometry.hpp"
#include "lightbench/scene_file.hpp"

namespace lb {

struct HexFrame {
  MlaVec s0;        // lens units, the scene position of output pixel (0, 0)'s patch centre
  int patch = 11;   // M: output pixels per lens unit
  int width = 0;
  int height = 0;
  MlaVec scene(int x, int y) const {
    return {s0.x + (x + 0.5) / patch - 0.5, s0.y + (y + 0.5) / patch - 0.5};
  }
};

// The frame of a width x height raw at patch M: the lattice positions of lenses_in(width,
// height) span [s0, s1]; the output is (s1 - s0 + 1) * M pixels each way (rounded).
HexFrame hex_frame(const MlaLayout& mla, int raw_width, int raw_height, int patch);

struct HexGeneratorParams {
  MlaGeometry mla;                 // any rotation; the scene lives in its frame
  int width = 0;                   // raw size
  int height = 0;
  std::vector<ScenePlane> planes;  // regions in lens units (S); the background covers all
  std::uint64_t seed = 1;
  double vignette_start = 0.80;
  int supersample = 2;
  int preview_patch = 11;          // M of the truth maps
  // Multi-focus: a lens of type t sees a plane of virtual depth v outside its depth range
  // [min, max] blurred by defocus * (distance of v to the range) texture pixels. 0: all sharp.
  double defocus = 0.0;
};

struct HexScene {
  ImageU8 raw;     // RGB
  ImageF truth;    // frame-sized, 1 channel: the front plane's patch size at each output pixel
  ImageU8 sharp;   // frame-sized, RGB: the front plane's texture there, no defocus (the
                   // in-focus render's target for a plane at patch == preview_patch)
  HexFrame frame;
  HexGeneratorParams params;
};

// Presets: assets/plenoptic_hex/<name>.json ("hex-small"); a seed replaces the file's.
// As default_truth_patch(GeneratorParams) for a general grid (the plenoptic-hex module's depth
// default: hex_tables.cpp).
int default_truth_patch(const HexGeneratorParams& params);
HexGeneratorParams hex_generator_preset(const std::string& name,
                                        std::optional<std::uint64_t> seed = std::nullopt);

// Deterministic (same params, same bytes, any thread count). Throws lb::Error on bad params.
HexScene generate_hex_scene(const HexGeneratorParams& params, int threads = 0);

// A generated hexagonal scene as the plenoptic data (mla set, truth at preview_patch in the
// frame; grid: a one-lens placeholder of pitch = diameter, never used by the general path).
PlenopticScene to_scene(HexScene&& scene, const std::string& source);

struct HexRenderParams {
  int patch = 11;          // M
  float view_x = 0.0f;     // perspective shift of the weight map, raw pixels (grid frame)
  float view_y = 0.0f;
  int rings = 1;           // blend reach: rings spacings beyond the nearest lens (hex_math.hpp)
  float sigma = 6.0f;      // Gaussian weight, raw pixels
  int lens_types = 0;      // 0: every lens; 1: per pixel the types in focus (hex_tables.hpp)
};

// CPU reference render of the whole frame hex_frame(mla, raw, M) (hex_math.hpp's model:
// every allowed lens within the reach whose usable circle holds the sample, Gaussian-weighted
// around its centre + the view shift, integer sums). Output: the raw's channel count
// (RGB for RGB), frame-sized. The tables are built per call; hex_tables.hpp has the passes
// that reuse them.
ImageU8 render_hex_cpu(const ImageU8& raw, const MlaLayout& mla, const HexRenderParams& p,
                       int threads = 0);

}  // namespace lb
