#pragma once
// Middlebury scoring and the error map per pixel (stereo_metrics.hpp), shared by the CPU
// reference (engine/src/stereo_metrics.cpp) and the CUDA kernels (kernels/
// disparity_score.cu) through LB_HD.
//
// Exactness: every decision is a comparison of values computed by single correctly rounded
// operations (|d - g| in double from two floats; the gray level d * k in float, rounded by
// lround), so the counts and the colours are identical on both sides. The gain k is computed
// once on the host (error_gain) and handed to the kernel.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "lightbench/disparity_error_math.hpp"
#include "lightbench/hd.hpp"
#include "lightbench/stereo_metrics.hpp"

namespace lb::stereo::scoring {

// finite() and abs_error(): one definition for every protocol (disparity_error_math.hpp).
using disparity_math::abs_error;
using disparity_math::finite;

// The truth is known: finite and not 0 (0 marks unknown in Middlebury's PNGs).
LB_HD bool known(float g) { return finite(g) && g != 0.0f; }

// An invalid estimate (../shared/specs/evaluation.md): NaN, infinite or negative. Every bad /
// outlier count counts it as bad; the error statistics leave it out.
LB_HD bool invalid(float d) { return !finite(d) || d < 0.0f; }


// A bad pixel: the estimate is invalid or misses the truth by more than t (strictly).
LB_HD bool wrong(float d, float g, double t) { return invalid(d) || abs_error(d, g) > t; }

// A KITTI outlier: invalid, or e > 3 px and e > 5 % of the truth (both).
LB_HD bool kitti_outlier(float d, float g) {
  if (invalid(d)) return true;
  const double e = abs_error(d, g);
#if defined(__CUDA_ARCH__)
  return e > 3.0 && e > __dmul_rn(0.05, static_cast<double>(g));
#else
  return e > 3.0 && e > 0.05 * static_cast<double>(g);
#endif
}

// A mask value that selects the pixel (255); an empty mask selects every pixel.
LB_HD bool selected(std::uint8_t mask_value) { return mask_value == 255; }

// Largest finite value of the truth (-inf when none): the error map's default full scale.
inline float finite_max(const ImageF& gt) {
  float m = -std::numeric_limits<float>::infinity();
  for (float v : gt.data)
    if (finite(v) && m < v) m = v;
  return m;
}
// The error map's full-scale disparity: max_disp when > 0, else the larger of max_disp and
// the truth's finite maximum.
LB_HD float error_scale(float max_disp, float truth_max) {
  if (max_disp > 0.0f) return max_disp;
  return max_disp < truth_max ? truth_max : max_disp;
}

// Gray scale of the error map: 255 / m for the largest disparity m, 0 when m <= 0 (host).
LB_HD float error_gain(float m) {
#if defined(__CUDA_ARCH__)
  return m > 0.0f ? __fdiv_rn(255.0f, m) : 0.0f;
#else
  return m > 0.0f ? 255.0f / m : 0.0f;
#endif
}

// The disparity as a gray level: lround(d * k) clamped to 0..255, 0 where d is not finite.
// (d * k at or above 2^63, where std::lround is undefined, gives 255.)
LB_HD std::uint8_t gray_level(float d, float k) {
  if (!finite(d)) return 0;
#if defined(__CUDA_ARCH__)
  const float p = __fmul_rn(d, k);
#else
  const float p = d * k;
#endif
  if (!(p < 255.0f)) return 255;  // also +inf
  if (!(p > 0.0f)) return 0;
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint8_t>(lroundf(p));
#else
  return static_cast<std::uint8_t>(std::lround(p));
#endif
}

struct Rgb8 {
  std::uint8_t r, g, b;
};

// The error map's colour: counted = the truth is known and the "all" mask selects the pixel.
// Wrong counted pixels red, uncounted ones darkened blue-gray, the rest the gray level.
LB_HD Rgb8 error_colour(float d, float g, bool in_mask_all, double t, float k) {
  const std::uint8_t gray = gray_level(d, k);
  const bool counted = known(g) && in_mask_all;
  if (counted && wrong(d, g, t)) return Rgb8{255, 0, 0};
  if (!counted)
    return Rgb8{static_cast<std::uint8_t>(gray / 3), static_cast<std::uint8_t>(gray / 3),
                static_cast<std::uint8_t>(gray / 3 + 40)};
  return Rgb8{gray, gray, gray};
}

// Per-region counts (nonocc, all, disc).
struct Counts {
  unsigned long long pixels[3] = {0, 0, 0};
  unsigned long long bad[3] = {0, 0, 0};
};

// Adds pixel i's contribution: its truth g is known; sel[r] says whether region r's mask
// selects it (true for an empty mask).
LB_HD void accumulate(Counts& c, float d, float g, const bool sel[3], double t) {
  if (!known(g)) return;
  const bool bad = wrong(d, g, t);
  for (int r = 0; r < 3; ++r)
    if (sel[r]) {
      ++c.pixels[r];
      c.bad[r] += bad;
    }
}
LB_HD void merge(Counts& into, const Counts& b) {
  for (int r = 0; r < 3; ++r) {
    into.pixels[r] += b.pixels[r];
    into.bad[r] += b.bad[r];
  }
}

// The percentage from exact counts (host): 0 with pixels = 0 for an empty region.
inline BadPixels finish(unsigned long long bad, unsigned long long pixels) {
  BadPixels b;
  b.bad = static_cast<std::size_t>(bad);
  b.pixels = static_cast<std::size_t>(pixels);
  b.percent = b.pixels ? 100.0 * static_cast<double>(b.bad) / static_cast<double>(b.pixels) : 0.0;
  return b;
}

}  // namespace lb::stereo::scoring
