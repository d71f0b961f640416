#pragma once
// Light-field depth refinement after the CAE cost (issue 12), the steps of the published CAE
// pipeline (Williem & Park) that the seed leaves out, on the cost volume of a run:
//   defocus    (defocus_weight > 0) the defocus cost of every label, as in the published CAE
//              pipeline's data term (CAE + defocus): D = box mean over a (2 r_d + 1)^2 window
//              of |refocused - centre| (mean over RGB, 0..255), the refocus being the mean of
//              the window's views sheared to the label (lf_refine_math.hpp's defocus_raw);
//   normalize  each pixel's costs min-max to [0, 1]; with the defocus cost and a fixed
//              fusion, the blend (1 - w) norm(CAE) + w norm(D);
//   filter     a guided filter (He et al.) on every label slice, guided by the centre view
//              (colour: He's 3x3 form, or gray), on [0, 1] (radius, eps; clipped windows: N =
//              the pixels inside); with confidence fusion the two normalised cues are
//              filtered apart, CAE with `radius`, defocus with `defocus_filter_radius`;
//   fuse       (defocus and confidence fusion) each pixel's filtered curves, min-max
//              normalised again, blended with the defocus share w_D = w g_D^2 / (w g_D^2 +
//              (1 - w) g_C^2), g the curve's normalised gap (lf_refine_math.hpp's
//              fusion_confidence): the entropy cue is sharp on texture and noisy where the
//              texture is faint, the defocus cue the reverse, and each pixel trusts the one
//              whose curve picks a depth;
//   aggregate  (semi_global) semi-global aggregation of the fused volume along 4 scanline
//              directions (lf_refine_math.hpp's sgm_step), the graph-cut stand-in: the
//              filter and the fusion decide each pixel from its window, the paths carry a
//              depth across the faint regions the window cannot see past, and a colour
//              edge lowers the price of a jump; each pixel's curve enters weighted by its
//              confidence (sgm_weighted), so unsure pixels follow their neighbours. The
//              labels come from the paths' sum, the confidence from the fused curve;
//   wta        winner takes all on the filtered volume, with a sub-pixel offset (mode
//              subpixel and full): the vertex of the least-squares quadratic through the 5
//              labels around the winner, or the 3-point parabola (subpixel_wide off;
//              lf_refine_math.hpp's subpixel_offset), and a confidence in [0, 1]
//              (1 - c_min / c_second, lf_refine_math.hpp);
//   median     (mode full) a guided, confidence-weighted median of the disparity map: each
//              pixel takes the weighted median of its (2 m + 1)^2 window, weights
//              exp(-dI^2 / (2 sigma^2)) x the neighbour's confidence, iterated.
// The CPU reference computes the box means in double; the CUDA kernels in float
// (kernels/lightfield/lf_refine.cu; tests/gpu bound the difference). The raw WTA stays the estimator's
// exact map (bit-identical to the 256-bin CAE).
#include <cstdint>
#include <string>
#include <vector>

#include "lightfield/cae.hpp"
#include "lightbench/image.hpp"
#include "lightbench/params.hpp"

namespace lb {

enum class LfRefineMode { None, Filter, Subpixel, Full };
const char* to_string(LfRefineMode m);
LfRefineMode parse_lf_refine_mode(const std::string& s);  // none | filter | subpixel | full

struct LfRefineParams {
  LfRefineMode mode = LfRefineMode::None;
  // The guide of the filter and the median: the centre view in colour (He's colour guided
  // filter: an edge between colours of equal gray still stops it) or its gray.
  bool color_guide = true;
  // How the defocus cost joins the CAE cost: each cue filtered apart and fused per pixel by
  // the curves' confidence (true; CLI --fusion confidence), or a fixed blend before one
  // filter (false; --fusion fixed).
  bool confidence_fusion = true;
  // w of the defocus cost: the blend weight (fixed) or the prior of its share (confidence);
  // 0: the CAE cost alone, 1: the defocus cost alone.
  float defocus_weight = 0.5f;
  int defocus_radius = 1;          // r_d of the defocus cost's box window
  int defocus_filter_radius = 2;   // confidence: the guided filter radius of the defocus cue
  bool subpixel_wide = true;    // sub-pixel: 5-point least-squares fit (false: 3-point parabola)
  int radius = 15;              // guided filter window radius (px)
  // Guided filter regulariser (guide on [0, 1]). The published pipeline's 1e-4 (a std of 2.5
  // grey levels) smooths the cost across the low-contrast edges of shadowed regions; with
  // the colour guide and the semi-global step, 1e-6 keeps them (antinous: MSE x100 4.44 ->
  // 2.72, docs/PERFORMANCE.md). Below about 1e-7 the float filter's cancellation in the
  // guide's variance (~1e-8) starts to matter.
  float eps = 1e-6f;
  // Semi-global aggregation before the WTA (the aggregate step); its costs are on the fused
  // curves' [0, 1] scale: P1 a one-label step, P2 a larger jump, halved where the guide's
  // mean channel difference reaches sgm_edge. sgm_weighted: each pixel's curve enters the
  // paths times its confidence (lfr::fusion_confidence, the normalised gap), so a pixel
  // whose curve picks no depth takes its neighbours' (the min-max normalisation made every
  // curve span [0, 1], however flat its raw costs); off, the curves enter as they are
  // (their best prices were P1 0.1, P2 3, edge 0.01: docs/PERFORMANCE.md).
  bool semi_global = true;
  bool sgm_weighted = true;
  float sgm_p1 = 0.02f;
  float sgm_p2 = 1.0f;
  float sgm_edge = 0.005f;
  int median_radius = 3;        // full: weighted median window radius
  float median_sigma = 0.05f;   // full: guide difference scale of the median's weights
  int median_iterations = 1;    // full: median passes
};
void validate(const LfRefineParams& p);  // one-line lb::Error naming the parameter
// Live parameters bound to p (radius, eps, median radius / sigma / iterations).
std::vector<ParamInfo> describe(LfRefineParams& p);

struct LfRefineResult {
  ImageF filtered;    // WTA of the filtered volume (integer labels -> d)
  ImageF refined;     // the mode's final map (filter: = filtered)
  ImageF confidence;  // [0, 1], larger = surer
  double defocus_ms = 0, normalize_ms = 0, filter_ms = 0, fuse_ms = 0, aggregate_ms = 0, wta_ms = 0, median_ms = 0;
};

// Memory of the refinement beyond the depth pass's (cae_host_bytes / cae_device_bytes), for
// the budget checks (memory_budget.hpp), for a w x h region: host, the CPU path (the defocus
// volume, the guide and each worker's double planes); device, the CUDA path's buffers.
std::uint64_t lf_refine_host_bytes(const LfRefineParams& rp, const CaeParams& p, int w, int h);
std::uint64_t lf_refine_device_bytes(const LfRefineParams& rp, const CaeParams& p, int w, int h);

// The guide in [0, 1] of the roi of an RGB(A) 8-bit view: 3 channels (r, g, b / 255) when
// color, else 1 (lfr::guide_gray).
ImageF lf_refine_guide(const ImageU8& view, const CaeRoi& roi, bool color);
// The defocus cost volume ([label][y][x] over the roi, box-filtered with radius r_d in
// double, stored as float) of p's labels and angular window (lf_refine.hpp's first step).
std::vector<float> defocus_cost_cpu(const LightField4D& lf, const CaeParams& p, const CaeRoi& roi, int radius,
                                    int threads = 0);
// cost: [label][y][x] of w x h (the estimator's keep_cost volume, consumed: normalised and
// filtered in place); defocus: defocus_cost_cpu's volume when p.defocus_weight > 0 (else
// ignored, may be null; consumed too). mode must not be None.
LfRefineResult refine_depth_cpu(std::vector<float>& cost, int w, int h, const CaeParams& cae, const ImageF& guide,
                                const LfRefineParams& p, std::vector<float>* defocus = nullptr, int threads = 0);


// Steps alone (tests, the CUDA comparison): the guided filter of one plane in double (gray
// guide; the colour one is guided_filter_cpu.hpp's guided_filter_rgb_cpu).
std::vector<double> guided_filter_cpu(const std::vector<double>& guide, const std::vector<double>& in, int w, int h,
                                      int r, double eps);
// The semi-global aggregation of a cost volume ([label][y][x] of w x h, `labels` labels):
// the sum of the 4 paths (lfr::sgm_step; left to right, right to left, top to bottom,
// bottom to top, added in that order). guide: w x h, 1 or 3 channels on [0, 1]. weighted:
// each pixel's curve times its confidence first (lfr::sgm_data_weight).
std::vector<float> semi_global_cpu(const std::vector<float>& cost, int w, int h, int labels, const ImageF& guide,
                                   float p1, float p2, float edge, bool weighted = false, int threads = 0);
// The weighted median pass (one iteration) of a disparity map.
ImageF weighted_median_cpu(const ImageF& disp, const ImageF& conf, const ImageF& guide, int radius, float sigma,
                           int threads = 0);

}  // namespace lb
