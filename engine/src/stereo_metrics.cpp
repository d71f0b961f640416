// Middlebury bad-pixel scores and the error map (stereo_metrics.hpp).
#include <algorithm>
#include <cmath>

#include "lightbench/stereo_metrics.hpp"

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
inline bool known(float g) { return std::isfinite(g) && g != 0.0f; }
inline bool wrong(float d, float g, double t) { return !std::isfinite(d) || std::fabs(double(d) - g) > t; }
}  // namespace

BadPixels bad_pixels(const ImageF& disp, const ImageF& gt, const ImageU8& mask, double threshold) {
  check_sizes(disp, gt, mask, "");
  BadPixels b;
  const int mc = mask.empty() ? 0 : mask.channels;
  for (std::size_t i = 0; i < disp.pixels(); ++i) {
    if (!known(gt.data[i])) continue;
    if (!mask.empty() && mask.data[i * static_cast<std::size_t>(mc)] != 255) continue;
    ++b.pixels;
    b.bad += wrong(disp.data[i], gt.data[i], threshold);
  }
  b.percent = b.pixels ? 100.0 * static_cast<double>(b.bad) / static_cast<double>(b.pixels) : 0.0;
  return b;
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
  float m = max_disp;
  if (m <= 0.0f)
    for (float v : gt.disparity.data)
      if (std::isfinite(v)) m = std::max(m, v);
  const float k = m > 0.0f ? 255.0f / m : 0.0f;
  ImageU8 out(disp.width, disp.height, 3);
  for (std::size_t i = 0; i < disp.pixels(); ++i) {
    const float d = disp.data[i], g = gt.disparity.data[i];
    const auto gray = static_cast<std::uint8_t>(std::isfinite(d) ? std::clamp(std::lround(d * k), 0L, 255L) : 0L);
    std::uint8_t* o = &out.data[3 * i];
    const bool counted = known(g) && (gt.mask_all.empty() || gt.mask_all.data[i * gt.mask_all.channels] == 255);
    if (counted && wrong(d, g, threshold)) {
      o[0] = 255, o[1] = 0, o[2] = 0;
    } else if (!counted) {
      o[0] = static_cast<std::uint8_t>(gray / 3), o[1] = static_cast<std::uint8_t>(gray / 3),
      o[2] = static_cast<std::uint8_t>(gray / 3 + 40);
    } else {
      o[0] = o[1] = o[2] = gray;
    }
  }
  return out;
}

}  // namespace lb::stereo
