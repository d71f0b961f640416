// Middlebury bad-pixel scores and the error map (stereo_metrics.hpp).
#include <algorithm>
#include <cmath>

#include "lightbench/stereo_metrics.hpp"
#include "lightbench/stereo_score_math.hpp"

namespace lb::stereo {

namespace {
void check_sizes(const ImageF& disp, const ImageF& gt, const ImageU8& mask, const char* what) {
  LB_REQUIRE(!disp.empty() && disp.channels == 1, "stereo score: the disparity map must be one non-empty channel");
  LB_REQUIRE(gt.width == disp.width && gt.height == disp.height && gt.channels == 1,
             "stereo score: ground truth is " + std::to_string(gt.width) + "x" + std::to_string(gt.height) +
                 " but the disparity map is " + std::to_string(disp.width) + "x" + std::to_string(disp.height));
  LB_REQUIRE(mask.empty() || (mask.width == disp.width && mask.height == disp.height),
             std::string("stereo score: mask ") + what + " does not have the disparity map's size");
}
}  // namespace

BadPixels bad_pixels(const ImageF& disp, const ImageF& gt, const ImageU8& mask, double threshold) {
  check_sizes(disp, gt, mask, "");
  const int mc = mask.empty() ? 0 : mask.channels;
  // Per-pixel rules and the percentage are stereo_score_math.hpp's, shared with the CUDA scorer.
  unsigned long long bad = 0, pixels = 0;
  for (std::size_t i = 0; i < disp.pixels(); ++i) {
    if (!scoring::known(gt.data[i])) continue;
    if (!mask.empty() && !scoring::selected(mask.data[i * static_cast<std::size_t>(mc)])) continue;
    ++pixels;
    bad += scoring::wrong(disp.data[i], gt.data[i], threshold);
  }
  return scoring::finish(bad, pixels);
}

void require_scorable(const StereoGroundTruth& gt) {
  LB_REQUIRE(!gt.empty(), "stereo score: no ground truth");
  const ImageF& g = gt.disparity;
  const ImageU8& m = gt.mask_all;
  LB_REQUIRE(m.empty() || (m.width == g.width && m.height == g.height),
             "stereo score: mask all does not have the ground truth's size");
  for (std::size_t i = 0; i < g.pixels(); ++i) {
    const float v = g.data[i * static_cast<std::size_t>(g.channels)];
    if (!scoring::known(v) || !(v > 0.0f)) continue;
    if (!m.empty() && !scoring::selected(m.data[i * static_cast<std::size_t>(m.channels)])) continue;
    return;
  }
  throw Error("stereo score: the ground truth has no valid pixel to evaluate (all unknown, NaN, zero or negative"
              " inside the evaluation mask)");
}

StereoScore score_stereo(const ImageF& disp, const StereoGroundTruth& gt, double threshold) {
  LB_REQUIRE(!gt.empty(), "stereo score: no ground truth");
  StereoScore s;
  s.threshold = threshold;
  check_sizes(disp, gt.disparity, gt.mask_nonocc, "nonocc");
  check_sizes(disp, gt.disparity, gt.mask_all, "all");
  check_sizes(disp, gt.disparity, gt.mask_disc, "disc");
  s.nonocc = bad_pixels(disp, gt.disparity, gt.mask_nonocc, threshold);
  s.all = bad_pixels(disp, gt.disparity, gt.mask_all, threshold);
  s.disc = bad_pixels(disp, gt.disparity, gt.mask_disc, threshold);
  return s;
}

ImageU8 stereo_error_map(const ImageF& disp, const StereoGroundTruth& gt, double threshold, float max_disp) {
  check_sizes(disp, gt.disparity, gt.mask_all, "all");
  const float k = scoring::error_gain(scoring::error_scale(max_disp, scoring::finite_max(gt.disparity)));
  ImageU8 out(disp.width, disp.height, 3);
  for (std::size_t i = 0; i < disp.pixels(); ++i) {
    const bool in_all = gt.mask_all.empty() || scoring::selected(gt.mask_all.data[i * gt.mask_all.channels]);
    const scoring::Rgb8 c = scoring::error_colour(disp.data[i], gt.disparity.data[i], in_all, threshold, k);
    std::uint8_t* o = &out.data[3 * i];
    o[0] = c.r, o[1] = c.g, o[2] = c.b;
  }
  return out;
}

}  // namespace lb::stereo
