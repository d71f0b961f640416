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
#include <string>

#include "lightbench/error.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/hd.hpp"

namespace lb::hci {

// The protocol's thresholds (BadPix 0.07 headline, 0.03, 0.01).
constexpr double kBad007 = 0.07, kBad003 = 0.03, kBad001 = 0.01;

LB_HD bool finite(float v) {
#if defined(__CUDA_ARCH__)
  return isfinite(v);
#else
  return std::isfinite(v);
#endif
}

// |d - g| in double.
LB_HD double abs_error(float d, float g) {
#if defined(__CUDA_ARCH__)
  return fabs(__dsub_rn(static_cast<double>(d), static_cast<double>(g)));
#else
  return std::fabs(static_cast<double>(d) - static_cast<double>(g));
#endif
}

// The error map's value: |d - g| as float, 0 where either is not finite.
LB_HD float error_value(float d, float g) {
  return finite(d) && finite(g) ? static_cast<float>(abs_error(d, g)) : 0.0f;
}

// Pixel (gx, gy) of the full gt_w x gt_h image lies inside the evaluated area.
LB_HD bool inside_border(int gx, int gy, int gt_w, int gt_h, int border) {
  return gx >= border && gx < gt_w - border && gy >= border && gy < gt_h - border;
}

// Running sums of a score. merge() is how partial sums combine (the GPU's tree).
struct Sums {
  unsigned long long bad007 = 0, bad003 = 0, bad001 = 0, pixels = 0;
  double se = 0.0;  // sum of squared errors
};

LB_HD void accumulate(Sums& s, float d, float g) {
  if (!finite(d) || !finite(g)) return;
  const double e = abs_error(d, g);
  s.bad007 += e > kBad007;
  s.bad003 += e > kBad003;
  s.bad001 += e > kBad001;
#if defined(__CUDA_ARCH__)
  s.se = __dadd_rn(s.se, __dmul_rn(e, e));
#else
  s.se += e * e;
#endif
  ++s.pixels;
}

LB_HD void merge(Sums& into, const Sums& b) {
  into.bad007 += b.bad007;
  into.bad003 += b.bad003;
  into.bad001 += b.bad001;
  into.pixels += b.pixels;
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

// The score from the sums (host): percentages and MSE x 100 over the evaluated pixels.
// Throws when nothing was evaluated (every pixel in the border or not finite).
inline HciScore finish(const Sums& s, int border) {
  LB_REQUIRE(s.pixels > 0, "score: no pixel left to evaluate after the " + std::to_string(border) +
                               " px border crop");
  HciScore r;
  r.border = border;
  r.pixels = static_cast<std::size_t>(s.pixels);
  const double n = static_cast<double>(s.pixels);
  r.badpix_007 = 100.0 * static_cast<double>(s.bad007) / n;
  r.badpix_003 = 100.0 * static_cast<double>(s.bad003) / n;
  r.badpix_001 = 100.0 * static_cast<double>(s.bad001) / n;
  r.mse_x100 = 100.0 * s.se / n;
  return r;
}

}  // namespace lb::hci
