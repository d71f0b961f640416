#pragma once
// Parameters of the focused-plenoptic (plenoptic 2.0) camera model and its renderer,
// per ../shared/specs/plenoptic.md. Ranges are declared once (describe_*) so the viewer's
// side panel and the CLI are generated from the same table.
#include <string>
#include <vector>

#include "lightbench/params.hpp"

namespace lb {

// A rectangular grid of NX x NY micro-images of pitch D (pixels, may be non-integer);
// micro-image (nx, ny) starts at (ox + nx * D, oy + ny * D).
struct PlenopticGrid {
  int nx = 0;
  int ny = 0;
  double pitch = 0.0;
  double ox = 0.0;
  double oy = 0.0;
};

struct RenderParams {
  int patch = 11;         // M: output patch size (focus). Small M focuses far, large M near.
  float view_x = 0.0f;    // (sx, sy): perspective shift of the weight map, in raw pixels.
  float view_y = 0.0f;
  int lim = 2;            // range limit of neighbour micro-images (|i|, |j| <= lim).
  float sigma = 15.0f;    // Gaussian weight map sigma, raw pixels.
};

// Original, Sync, NoSync: the seed's kernels. Tiled: lightbench's output-side kernel over
// tiles whose raw pieces are staged through shared memory (the fastest render on Hopper:
// docs/PERFORMANCE.md); the depth has no tiled kernel and runs its Original for it.
enum class RenderVariant { Original, Sync, NoSync, Tiled };

// The seed's general optimisations of the Original kernel (its Table 4), as switches.
// Every combination computes the identical image.
struct OriginalSwitches {
  bool rgba_input = true;     // 4-byte (RGBA8) input instead of packed 3-byte RGB.
  bool vector_store = true;   // one 4-byte store per pixel instead of one per channel.
  bool reciprocal = true;     // division replaced by a reciprocal multiply (exact fix-up).
  bool sync_at_end = false;   // __syncthreads() at the end of each neighbour loop.
};

struct RenderConfig {
  RenderVariant variant = RenderVariant::NoSync;
  OriginalSwitches original;
};

const char* to_string(RenderVariant v);
// Accepts "original", "sync", "nosync", "tiled" (any case); throws lb::Error otherwise.
RenderVariant parse_render_variant(const std::string& s);
std::vector<RenderVariant> all_render_variants();

// Limits enforced everywhere (the kernels rely on them: weights fit in 32-bit sums).
constexpr int kMaxLim = 4;
constexpr int kMaxPatch = 64;

// Throw lb::Error with a one-line message naming the parameter when out of range.
void validate(const PlenopticGrid& grid, int raw_width, int raw_height);
void validate(const RenderParams& p, const PlenopticGrid& grid);

// Output size of a render at patch M: (NX * M) x (NY * M).
inline int render_width(const PlenopticGrid& g, const RenderParams& p) { return g.nx * p.patch; }
inline int render_height(const PlenopticGrid& g, const RenderParams& p) { return g.ny * p.patch; }

// ParamInfo: lightbench/params.hpp.
// Live parameters of the renderer, bound to p. Ranges depend on the grid (e.g. the view
// shift is limited to half a micro-image).
std::vector<ParamInfo> describe(RenderParams& p, const PlenopticGrid& grid);

}  // namespace lb

namespace lb {
// Sensible starting parameters for a grid: M = 11 (or the pitch if smaller), lim = 2,
// sigma = D / 5.
RenderParams default_render_params(const PlenopticGrid& grid);
}  // namespace lb
