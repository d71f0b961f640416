#pragma once
// HCI benchmark scoring per pixel (hci_metrics.hpp), shared by the CPU reference
// (engine/src/hci_metrics.cpp) and the CUDA reduction (kernels/disparity_score.cu) through
// LB_HD.
//
// Exactness: the error |d - g| is one double subtraction of two floats (correctly rounded on
// both sides; the device uses __dsub_rn), so the error map and the BadPix comparisons, hence
// the counts, are identical. The squared-error sum is accumulated in double with explicit
// roundings (no FMA on the device, none on the baseline x86-64 host) but in a different
// order (sequential on the CPU, a fixed tree on the GPU), so MSE agrees to a relative
// rounding bound of about (pixels + log2(pixels)) * 2^-53, not bit for bit.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "lightbench/error.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/disparity_error_math.hpp"
#include "lightbench/hd.hpp"

namespace lb::hci {

// The protocol's thresholds (BadPix 0.07 headline, 0.03, 0.01).
constexpr double kBad007 = 0.07, kBad003 = 0.03, kBad001 = 0.01;

// finite() and abs_error(): one definition for every protocol (disparity_error_math.hpp).
using disparity_math::abs_error;
using disparity_math::finite;

// An invalid estimate: NaN or infinite (HCI disparities are signed, so a negative estimate
// is a real value here). Counted as bad at every threshold, left out of the MSE.
LB_HD bool invalid(float d) { return !finite(d); }


// The error map's value: |d - g| as float, 0 where either is not finite.
LB_HD float error_value(float d, float g) {
  return finite(d) && finite(g) ? static_cast<float>(abs_error(d, g)) : 0.0f;
}

// Pixel (gx, gy) of the full gt_w x gt_h image lies inside the evaluated area.
LB_HD bool inside_border(int gx, int gy, int gt_w, int gt_h, int border) {
  return gx >= border && gx < gt_w - border && gy >= border && gy < gt_h - border;
}

// BadPix at threshold t for one pixel of known (finite) truth: invalid, or e > t (strictly).
LB_HD bool bad(float d, float g, double t) { return invalid(d) || abs_error(d, g) > t; }

// Running sums of a score. merge() is how partial sums combine (the GPU's tree).
struct Sums {
  unsigned long long bad007 = 0, bad003 = 0, bad001 = 0, pixels = 0;
  unsigned long long invalid = 0;  // of `pixels`: estimates that are not finite
  double se = 0.0;                 // sum of squared errors over the valid estimates
};

// Pixels of unknown (non-finite) truth are not evaluated; an invalid estimate is bad at every
// threshold and stays out of the squared-error sum.
LB_HD void accumulate(Sums& s, float d, float g) {
  if (!finite(g)) return;
  ++s.pixels;
  if (invalid(d)) {
    ++s.invalid;
    ++s.bad007, ++s.bad003, ++s.bad001;
    return;
  }
  const double e = abs_error(d, g);
  s.bad007 += e > kBad007;
  s.bad003 += e > kBad003;
  s.bad001 += e > kBad001;
#if defined(__CUDA_ARCH__)
  s.se = __dadd_rn(s.se, __dmul_rn(e, e));
#else
  s.se += e * e;
#endif
}

LB_HD void merge(Sums& into, const Sums& b) {
  into.bad007 += b.bad007;
  into.bad003 += b.bad003;
  into.bad001 += b.bad001;
  into.pixels += b.pixels;
  into.invalid += b.invalid;
#if defined(__CUDA_ARCH__)
  into.se = __dadd_rn(into.se, b.se);
#else
  into.se += b.se;
#endif
}

// Largest difference between two MSE x 100 of the same pixels summed in different orders
// (host): the squared errors are bit-identical and >= 0, so each double sum is within
// (pixels - 1) 2^-53 (relative) of the exact one, and the final scaling adds 2 roundings.
inline double mse_tolerance(double mse_x100, std::size_t pixels) {
  return 2.0 * (static_cast<double>(pixels) + 2.0) * 0x1p-53 * mse_x100;
}

// The score from the sums (host): percentages over the evaluated pixels, MSE x 100 over their
// valid estimates (NaN when every estimate is invalid). Throws when nothing was evaluated
// (every pixel in the border or of non-finite truth).
inline HciScore finish(const Sums& s, int border) {
  LB_REQUIRE(s.pixels > 0, "score: no pixel left to evaluate after the " + std::to_string(border) +
                               " px border crop");
  HciScore r;
  r.border = border;
  r.pixels = static_cast<std::size_t>(s.pixels);
  r.invalid = static_cast<std::size_t>(s.invalid);
  const double n = static_cast<double>(s.pixels);
  r.badpix_007 = 100.0 * static_cast<double>(s.bad007) / n;
  r.badpix_003 = 100.0 * static_cast<double>(s.bad003) / n;
  r.badpix_001 = 100.0 * static_cast<double>(s.bad001) / n;
  const unsigned long long valid = s.pixels - s.invalid;
  r.mse_x100 = valid ? 100.0 * s.se / static_cast<double>(valid) : std::numeric_limits<double>::quiet_NaN();
  return r;
}

}  // namespace lb::hci
