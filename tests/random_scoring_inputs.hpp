#pragma once
// Random ground truths and estimates for the scorer tests, the same on the CPU suite
// (tests/engine/test_device_ops_math.cpp) and the GPU suite (tests/gpu/test_device_ops_gpu.cpp),
// so that both score the same awkward inputs: zeros, NaN and +inf in the truth, NaN and -inf
// in the estimate, half-pixel steps, masks of 0 / 128 / 255.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "lightbench/image.hpp"
#include "lightbench/stereo.hpp"

namespace lbt {

inline lb::stereo::StereoGroundTruth random_stereo(int w, int h, std::uint64_t seed, int mask_channels,
                                                   bool empty_masks) {
  constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::mt19937_64 rng(seed);
  lb::stereo::StereoGroundTruth gt;
  gt.disparity = lb::ImageF(w, h, 1);
  for (auto& g : gt.disparity.data) {
    const unsigned r = rng() % 30;
    g = r < 4 ? 0.0f : r == 4 ? nan : r == 5 ? inf : static_cast<float>(rng() % 16) + (rng() % 2 ? 0.5f : 0.0f);
  }
  if (!empty_masks)
    for (lb::ImageU8* m : {&gt.mask_nonocc, &gt.mask_all, &gt.mask_disc}) {
      *m = lb::ImageU8(w, h, mask_channels);
      for (auto& b : m->data) {
        const unsigned r = rng() % 4;
        b = r == 0 ? 0 : r == 1 ? 128 : 255;
      }
    }
  return gt;
}

inline lb::ImageF random_estimate(const lb::ImageF& gt, std::uint64_t seed) {
  constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  std::mt19937_64 rng(seed);
  lb::ImageF d(gt.width, gt.height, 1);
  for (std::size_t i = 0; i < d.data.size(); ++i) {
    const float g = std::isfinite(gt.data[i]) ? gt.data[i] : 3.0f;
    const unsigned r = rng() % 40;
    d.data[i] = r == 0 ? nan : r == 1 ? -inf : g + static_cast<float>(static_cast<int>(rng() % 5) - 2) * 0.75f;
  }
  return d;
}

}  // namespace lbt
