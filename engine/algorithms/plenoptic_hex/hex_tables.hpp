#pragma once
// Host side of the general-grid path (hex_math.hpp): parameters with their ranges, the tables
// a CPU or CUDA pass reads, and the CPU reference passes (render, depth, all-in-focus,
// scoring). The CUDA engine uploads the same tables, so both compute the same function.
#include <cstdint>
#include <string>
#include <vector>

#include "plenoptic_hex/hex_math.hpp"
#include "lightbench/image.hpp"
#include "lightbench/mla_geometry.hpp"
#include "lightbench/params.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "lightbench/plenoptic_hex.hpp"

namespace lb {

// lens_types: which lenses a pass uses (the multi-focus switch, issue 22).
constexpr int kLensTypesAll = 0;      // every lens
constexpr int kLensTypesInFocus = 1;  // per output pixel, the types whose depth range holds D / P

struct HexDepthParams {
  int patch = 11;    // M of the frame
  int pmin = 7;      // candidate patch sizes
  int pmax = 14;
  int rings = 1;     // neighbours within rings x the allowed lenses' spacing (>= 1)
  int window = 1;    // k x k box aggregation of the costs (odd)
  float aperture = 0.8f;  // samples within aperture * D/2 of their lens centre
  int lens_types = kLensTypesAll;
  int truncate = 40;      // per pair, the RGB difference (summed) capped at this (0: no cap;
                          // hex_depth_math.hpp; 40: docs/DESIGN.md, "General micro-lens grids")
};

// Every parameter of the general path: one struct for render, depth and all-in-focus.
struct HexRunParams {
  HexRenderParams render;
  HexDepthParams depth;  // patch, rings, lens_types follow render's
};

// Defaults for a geometry: M = 11 clamped to (D - 1), depth 7..14 clamped likewise, rings 1,
// sigma D / 7, every lens type (hex_tables.cpp says why; measured in docs/DESIGN.md).
HexRunParams default_hex_params(const MlaGeometry& g);
// Live parameters bound to p with ranges for g (patch, view_x, view_y, rings, sigma,
// lens_types, pmin, pmax, window, aperture, truncate).
std::vector<ParamInfo> describe(HexRunParams& p, const MlaGeometry& g);
// One-line lb::Error naming the parameter.
void validate(const HexRenderParams& p, const MlaGeometry& g);
void validate(const HexDepthParams& p, const MlaGeometry& g);

// The tables of one pass set (render at M, depth over pmin..pmax, all-in-focus): the frame at
// `patch`, the lens-type table of the raw, the neighbour offsets for `rings`, and per patch size
// the allowed types (lens_types) and reaches. sigma does not enter (it is inv2s2 at run time).
struct HexTablesHost {
  hex::HexLayout layout{};
  HexFrame frame;
  std::vector<std::uint8_t> types;
  std::vector<hex::Offset> near, nbr;
  std::vector<std::uint32_t> weights, mask_of_patch;
  std::vector<float> reach2_of_patch, nbr2_of_patch;
  std::vector<std::uint32_t> cell_start;  // hex::kCells + 1
  std::vector<hex::Offset> cell_near;     // per sub-cell, the offsets of `near` that can reach it
  std::vector<std::uint32_t> blur_of_patch;
  hex::HexTables view() const {
    return {types.data(),          near.data(),          nbr.data(),        weights.data(),
            mask_of_patch.data(),  reach2_of_patch.data(), nbr2_of_patch.data(), cell_start.data(),
            cell_near.data(),      blur_of_patch.data()};
  }
};
HexTablesHost build_hex_tables(const MlaLayout& mla, int raw_w, int raw_h, int patch, int rings, int lens_types);

// The allowed types at patch size P (bit t = type t) and their spacing (lens units): exposed
// for tests and the viewer's overlay.
std::uint32_t hex_type_mask(const MlaGeometry& g, int patch_size, int lens_types);
double hex_type_spacing(const MlaLayout& mla, std::uint32_t mask);
// The farthest a point lies from its nearest allowed lens (hexagonal: spacing / sqrt 3;
// rectangular: spacing / sqrt 2). The blend reach is rings * spacing + 1.05 x this.
double hex_covering_radius(const MlaLayout& mla, std::uint32_t mask, double spacing);

// Depth's blur level of each lens type at patch size P, 2 bits per type (hex_depth_math.hpp):
// 0 when its virtual-depth range holds D / P (or it has none), 1 within kBlurNearRange of it,
// 2 beyond.
std::uint32_t hex_blur_levels(const MlaGeometry& g, int patch_size);

// 1 / (2 sigma^2) as the passes use it.
float hex_inv2s2(float sigma);

// CPU reference passes. raw: RGBA8 (to_rgba). Outputs are frame-sized.
ImageU8 render_hex(const ImageU8& raw_rgba, const HexTablesHost& t, const HexRenderParams& p, int threads = 0);
// Value = chosen patch size; 0 where no candidate has a sample pair.
ImageF depth_hex(const ImageU8& raw_rgba, const HexTablesHost& t, const HexDepthParams& p, int threads = 0);
// Each pixel rendered at its own patch size from `depth` (0: black), view / sigma from p.
ImageU8 render_all_in_focus_hex(const ImageU8& raw_rgba, const HexTablesHost& t, const HexRenderParams& p,
                                const ImageF& depth, int threads = 0);
// Against a patch-size truth of the frame's size (exact = equal patch size; MAE over pixels
// with an estimate; a pixel without one counts as not exact).
DepthScore score_hex_depth(const ImageF& depth, const ImageF& truth);

}  // namespace lb
