#pragma once
// Light-field depth refinement after the CAE cost (issue 12), the steps of the published CAE
// pipeline (Williem & Park) that the seed leaves out, on the cost volume of a run:
//   normalize  each pixel's costs min-max to [0, 1];
//   filter     a guided filter (He et al.) on every label slice, guided by the centre view's
//              gray in [0, 1] (radius, eps; clipped windows: N = the pixels inside);
//   wta        winner takes all on the filtered volume, with the parabola's sub-pixel offset
//              around the winner (mode subpixel and full) and a confidence in [0, 1]
//              (1 - c_min / c_second, lf_refine_math.hpp);
//   median     (mode full) a guided, confidence-weighted median of the disparity map: each
//              pixel takes the weighted median of its (2 m + 1)^2 window, weights
//              exp(-dI^2 / (2 sigma^2)) x the neighbour's confidence, iterated.
// The CPU reference computes the box means in double; the CUDA kernels in float
// (kernels/lf_refine.cu; tests/gpu bound the difference). The raw WTA stays the estimator's
// exact map (bit-identical to the 256-bin CAE).
#include <string>
#include <vector>

#include "lightbench/cae.hpp"
#include "lightbench/image.hpp"
#include "lightbench/params.hpp"

namespace lb {

enum class LfRefineMode { None, Filter, Subpixel, Full };
const char* to_string(LfRefineMode m);
LfRefineMode parse_lf_refine_mode(const std::string& s);  // none | filter | subpixel | full

struct LfRefineParams {
  LfRefineMode mode = LfRefineMode::None;
  int radius = 15;             // guided filter window radius (px)
  float eps = 1e-4f;           // guided filter regulariser (guide on [0, 1])
  int median_radius = 7;       // full: weighted median window radius
  float median_sigma = 0.08f;  // full: guide difference scale of the median's weights
  int median_iterations = 2;   // full: median passes
};
void validate(const LfRefineParams& p);  // one-line lb::Error naming the parameter
// Live parameters bound to p (radius, eps, median radius / sigma / iterations).
std::vector<ParamInfo> describe(LfRefineParams& p);

struct LfRefineResult {
  ImageF filtered;    // WTA of the filtered volume (integer labels -> d)
  ImageF refined;     // the mode's final map (filter: = filtered)
  ImageF confidence;  // [0, 1], larger = surer
  double normalize_ms = 0, filter_ms = 0, wta_ms = 0, median_ms = 0;
};

// The guide: gray in [0, 1] of the roi of an RGB(A) 8-bit view.
ImageF lf_refine_guide(const ImageU8& view, const CaeRoi& roi);
// cost: [label][y][x] of w x h (the estimator's keep_cost volume, consumed: normalised and
// filtered in place). mode must not be None.
LfRefineResult refine_depth_cpu(std::vector<float>& cost, int w, int h, const CaeParams& cae, const ImageF& guide,
                                const LfRefineParams& p, int threads = 0);

// Depth plus refinement on est's backend: on the device where the estimator offers it
// (CUDA), else the estimator's run with keep_cost and refine_depth_cpu. raw: the unrefined
// result (exact WTA); the returned times are per step (CUDA events or wall clock).
LfRefineResult run_refined(LightFieldDepthEstimator& est, const CaeParams& p, const std::string& variant,
                           CaeRunOptions o, const LfRefineParams& rp, const ImageF& guide, LfDepthResult* raw,
                           bool* on_device = nullptr);

// Steps alone (tests, the CUDA comparison): the guided filter of one plane in double.
std::vector<double> guided_filter_cpu(const std::vector<double>& guide, const std::vector<double>& in, int w, int h,
                                      int r, double eps);
// The weighted median pass (one iteration) of a disparity map.
ImageF weighted_median_cpu(const ImageF& disp, const ImageF& conf, const ImageF& guide, int radius, float sigma,
                           int threads = 0);

}  // namespace lb
