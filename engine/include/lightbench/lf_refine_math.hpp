#pragma once
// Per-pixel arithmetic of the light-field depth refinement (issue 12), shared by the CPU
// reference (lf_refine_cpu.cpp) and the CUDA kernels (kernels/lf_refine.cu) (LB_HD).
#include <cmath>

#include "lightbench/hd.hpp"
#include "lightbench/refocus_math.hpp"

namespace lb::lfr {

// Min-max normalisation of one pixel's costs to [0, 1] (the published CAE pipeline's first
// step after the cost); a flat curve (max == min) becomes all 0.
LB_HD float normalized(float c, float mn, float mx) { return mx > mn ? (c - mn) / (mx - mn) : 0.0f; }

// The guide of the filter: the centre view's luma (ITU-R 601) in [0, 1].
LB_HD float guide_gray(float r, float g, float b) { return (0.299f * r + 0.587f * g + 0.114f * b) / 255.0f; }

// Sub-pixel offset of the minimum of the parabola through (-1, cm), (0, c0), (+1, cp), in
// [-0.5, 0.5]; 0 where the curve is not convex there (a flat or inverted neighbourhood).
LB_HD float parabola_offset(float cm, float c0, float cp) {
  const float den = cm - 2.0f * c0 + cp;
  if (!(den > 0.0f)) return 0.0f;
  const float o = 0.5f * (cm - cp) / den;
  return o < -0.5f ? -0.5f : o > 0.5f ? 0.5f : o;
}

// Disparity of a (fractional) label: labels spread dmin .. dmax evenly (cae label_disparity).
LB_HD float label_to_disparity(float dmin, float dmax, int labels, float label) {
  return labels > 1 ? dmin + label * (dmax - dmin) / static_cast<float>(labels - 1) : dmin;
}

// Confidence in [0, 1] from the (normalised, filtered) cost curve: 1 - c_min / c_second,
// c_second the smallest cost more than one label away from the winner (the peak ratio, with
// the winner's own flanks left out). No such label or c_second <= 0: 0.
LB_HD float confidence(float cmin, float csecond) {
  if (!(csecond > 0.0f) || !std::isfinite(csecond)) return 0.0f;
  const float r = 1.0f - cmin / csecond;
  return r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
}

// Weight of a neighbour in the guided weighted median: exp(-|dI|^2 / (2 sigma^2)) on the
// guide's [0, 1] scale, |dI|^2 summed over the guide's channels (d2).
LB_HD float median_weight(float d2, float sigma) { return expf(-d2 / (2.0f * sigma * sigma)); }

// The raw defocus cost of one pixel and label: the mean over RGB of |refocused - centre| on
// 0..255, the refocused value being sum / n of refocus::refocus_sums (the window's views
// sheared to the label). Every step is one of refocus_math's explicitly rounded double
// operations, so the CPU and the GPU compute the same bits (the box mean after it does not).
LB_HD double defocus_raw(const double acc[3], double n, int r, int g, int b) {
  using namespace lb::refocus;
  auto dev = [&](double s, int c) {
    const double d = sub(div(s, n), static_cast<double>(c));
    return d < 0.0 ? -d : d;
  };
  return div(add(add(dev(acc[0], r), dev(acc[1], g)), dev(acc[2], b)), 3.0);
}

// The blended data cost (1 - w) c + w d of two normalised costs, rounded the same on both
// sides (on the device each step explicitly, so nvcc cannot contract it into an FMA).
LB_HD float blend(float c, float d, float w) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(__fmul_rn(__fsub_rn(1.0f, w), c), __fmul_rn(w, d));
#else
  return (1.0f - w) * c + w * d;
#endif
}

}  // namespace lb::lfr
