#pragma once
// Depth extraction from a focused-plenoptic raw by SAD over candidate patch sizes
// (../shared/specs/plenoptic.md, "Depth extraction"; the math is in depth_math.hpp):
// parameters with their ranges (describe() feeds a viewer's panel), host tables, the
// multithreaded CPU reference, the all-in-focus render and scoring against ground truth.
//
// A viewer calls it live through PlenopticEngine::depth(grid, params, config, surface) with
// an R32F surface (value = chosen patch size P); render_all_in_focus() turns that map into
// an RGBA8 image.
#include <cstdint>
#include <string>
#include <vector>

#include "plenoptic/depth_math.hpp"
#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb {

struct DepthParams {
  int patch = 11;   // M: output patch size; the depth map is NX*M x NY*M
  int pmin = 7;     // candidate patch sizes pmin..pmax (seed: 7..14)
  int pmax = 14;
  int lim = 2;      // neighbour micro-images |i|, |j| <= lim (>= 1)
  int window = 1;   // k: k x k box aggregation of the costs before the argmin (odd; 1: none)
  // A neighbour sample counts only inside the aperture: within aperture * D/2 of its
  // micro-image centre (1: the inscribed circle; the vignetted rim biases towards small P).
  float aperture = 0.8f;
};

// The kernel variant of the CUDA backend (the CPU backend is the reference and ignores it).
struct DepthConfig {
  RenderVariant variant = RenderVariant::NoSync;
};

// Throws lb::Error with a one-line message naming the parameter when out of range.
void validate(const DepthParams& p, const PlenopticGrid& grid);
// Defaults for a grid: M = 11 (or the pitch if smaller), 7..14 clamped to the pitch, lim 2.
DepthParams default_depth_params(const PlenopticGrid& grid);
// Live parameters bound to p, with ranges for the grid (generated panels and CLIs).
std::vector<ParamInfo> describe(DepthParams& p, const PlenopticGrid& grid);

inline int depth_width(const PlenopticGrid& g, const DepthParams& p) { return g.nx * p.patch; }
inline int depth_height(const PlenopticGrid& g, const DepthParams& p) { return g.ny * p.patch; }
// Upper bound of the host memory of a depth run (memory_budget.hpp): the raw (raw_channels
// 8-bit), the pmax - pmin + 1 candidate cost planes of the output grid (uint32), the depth
// map, the all-in-focus image (RGBA8) and the colour-mapped outputs.
std::uint64_t depth_host_bytes(const DepthParams& p, const PlenopticGrid& g, int raw_w, int raw_h,
                               int raw_channels);
// Upper bound of a plenoptic render (the raw, an RGBA float + RGBA8 view of the output size).
std::uint64_t render_host_bytes(const PlenopticGrid& g, int patch, int raw_w, int raw_h, int raw_channels);

struct DepthTablesHost {
  DepthLayout layout{};
  std::vector<int> col_start, row_start;  // [count][grid_nx], [count][grid_ny]
  // [count][M][M] depth_neighbour_entry; empty when lim > kDepthTableLim.
  std::vector<std::uint64_t> neighbours;
  DepthTables view() const {
    return {col_start.data(), row_start.data(), neighbours.empty() ? nullptr : neighbours.data()};
  }
};

// Validates grid and params against the raw size first (throws lb::Error).
DepthTablesHost build_depth_tables(const PlenopticGrid& grid, const DepthParams& p, int raw_w,
                                   int raw_h);

// Distinct raw pixels a depth pass reads (union over the candidate patch sizes), for the
// "bytes moved" of timings.
std::uint64_t depth_touched_pixels(const DepthTablesHost& t);
// Bytes a depth pass must move: touched pixels * 4 + the float depth map.
std::uint64_t depth_bytes(const DepthTablesHost& t);

// CPU reference. raw: RGBA8. Returns the depth map (1 channel, value = chosen P).
ImageF depth_cpu(const ImageU8& raw_rgba, const DepthTablesHost& tables, int threads = 0);
// Optional: the per-pixel cost sums (channel-less volume, index (q * out_h + y) * out_w + x).
std::vector<std::uint32_t> depth_costs_cpu(const ImageU8& raw_rgba, const DepthTablesHost& tables,
                                           int threads = 0);

// All-in-focus render: output pixel (x, y) of the M grid, with its chosen patch size P,
// is lb::render_pixel at patch P of the pixel (nx*P + a*P/M, ny*P + b*P/M) (same micro-image,
// the offset scaled like the depth search). view / lim / sigma come from `render`
// (its patch is ignored). raw: RGBA8; depth: as returned by depth_cpu. Returns RGBA8.
ImageU8 render_all_in_focus(const ImageU8& raw_rgba, const PlenopticGrid& grid,
                            const RenderParams& render, const ImageF& depth, int patch,
                            int threads = 0);

// Whether two depth passes had the same inputs (grid and every depth parameter): the
// backends' render_all_in_focus() checks that the map it holds fits the call.
bool same_depth_inputs(const PlenopticGrid& a, const DepthParams& p, const PlenopticGrid& b, const DepthParams& q);

// Score against a ground-truth patch-size map of the same size. `border` output pixels on
// each side are left out (0: all).
struct DepthScore {
  std::uint64_t pixels = 0;  // scored
  double exact_pct = 0.0;    // % with depth == truth
  double mae = 0.0;          // mean |depth - truth|, patch-size units
};
DepthScore score_depth(const ImageF& depth, const ImageF& truth, int border = 0);

// Colour-mapped view of a depth map for display: pmin (far) dark blue .. pmax (near) yellow.
ImageU8 colorize_depth(const ImageF& depth, int pmin, int pmax);

}  // namespace lb
