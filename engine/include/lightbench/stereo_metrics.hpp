#pragma once
// Middlebury scoring of a disparity map (Scharstein & Szeliski; ../shared/data/README.md):
// bad pixels = % of the evaluated pixels with |d - d_gt| > threshold (1.0), where evaluated
// means: the ground truth is known (d_gt != 0) and the region's mask is 255. Regions:
// nonocc (mask_nonocc), all (mask_all), disc (mask_disc). An empty mask counts every pixel
// with known truth. A region with no evaluated pixel scores 0 with pixels = 0.
#include <cstddef>

#include "lightbench/image.hpp"
#include "lightbench/stereo.hpp"

namespace lb::stereo {

struct BadPixels {
  double percent = 0;      // of the evaluated pixels
  std::size_t bad = 0;     // count
  std::size_t pixels = 0;  // evaluated
};

struct StereoScore {
  double threshold = 1.0;
  BadPixels nonocc, all, disc;
};

// disp (1 channel) and gt of the same size; throws lb::Error naming the mismatch.
StereoScore score_stereo(const ImageF& disp, const StereoGroundTruth& gt, double threshold = 1.0);
// One region: mask may be empty (then every pixel with known truth).
BadPixels bad_pixels(const ImageF& disp, const ImageF& gt, const ImageU8& mask, double threshold = 1.0);

// The viewer's error map (RGB8): the disparity scaled to gray (max_disp -> 255, <= 0: the
// truth's maximum) where correct, wrong pixels (|d - d_gt| > threshold inside `mask`, or
// inside the known truth when the mask is empty) in red, unknown truth darkened blue-gray.
ImageU8 stereo_error_map(const ImageF& disp, const StereoGroundTruth& gt, double threshold = 1.0,
                         float max_disp = 0.0f);

}  // namespace lb::stereo
