// The example algorithm's parameters and the shape of its variants' launchers (absdiff_*.cpp).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lightbench/algorithm.hpp"
#include "lightbench/image.hpp"

namespace lb::example {

struct AbsDiffParams {
  float gain = 1.0f;    // scales the difference
  int threshold = 0;    // differences at or below it (after the gain) count as equal
};

inline std::vector<ParamInfo> describe(AbsDiffParams& p) {
  return {{"gain", "gain", "scales the difference before the threshold", ParamInfo::Kind::Float, &p.gain, 0.0625,
           16.0},
          {"threshold", "threshold", "differences at or below it count as 0", ParamInfo::Kind::Int, &p.threshold, 0,
           255}};
}

// Rec. 601 luminance of an 8-bit pixel (1 or 3+ channels).
inline float luma(const ImageU8& img, std::size_t i) {
  const int c = img.channels;
  const std::uint8_t* p = &img.data[i * static_cast<std::size_t>(c)];
  if (c < 3) return p[0];
  return 0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2];
}

// One pixel of the map: every variant computes it with this function, so all are bit-identical.
inline float absdiff_pixel(const ImagePairData& d, const AbsDiffParams& p, std::size_t i) {
  const float v = std::fabs(p.gain * (luma(d.distorted, i) - luma(d.reference, i)));
  return v <= static_cast<float>(p.threshold) ? 0.0f : v;
}

// A variant: fills `diff` (already sized to the pair) from the pair.
using AbsDiffLaunch = void (*)(const ImagePairData& pair, const AbsDiffParams& p, ImageF& diff);

}  // namespace lb::example
