// HCI benchmark metrics (BadPix, MSE x 100) and the error map.
#include "lightbench/hci_metrics.hpp"

#include <cmath>
#include <string>

namespace lb {

namespace {
void check_region(const ImageF& disp, const ImageF& gt, int ox, int oy) {
  LB_REQUIRE(disp.channels == 1 && gt.channels == 1, "score: disparity maps must be single-channel");
  LB_REQUIRE(ox >= 0 && oy >= 0 && ox + disp.width <= gt.width && oy + disp.height <= gt.height,
             "score: the disparity map (" + std::to_string(disp.width) + "x" + std::to_string(disp.height) +
                 " at " + std::to_string(ox) + "," + std::to_string(oy) + ") is not inside the " +
                 std::to_string(gt.width) + "x" + std::to_string(gt.height) + " ground truth");
}
}  // namespace

HciScore hci_score_region(const ImageF& disp, const ImageF& gt, int ox, int oy, int border) {
  check_region(disp, gt, ox, oy);
  LB_REQUIRE(border >= 0, "score: border must be >= 0");
  HciScore s;
  s.border = border;
  std::size_t b7 = 0, b3 = 0, b1 = 0;
  double se = 0.0;
  for (int y = 0; y < disp.height; ++y) {
    const int gy = oy + y;
    if (gy < border || gy >= gt.height - border) continue;
    for (int x = 0; x < disp.width; ++x) {
      const int gx = ox + x;
      if (gx < border || gx >= gt.width - border) continue;
      const double d = disp.at(x, y), g = gt.at(gx, gy);
      if (!std::isfinite(d) || !std::isfinite(g)) continue;
      const double e = std::fabs(d - g);
      b7 += e > 0.07;
      b3 += e > 0.03;
      b1 += e > 0.01;
      se += e * e;
      ++s.pixels;
    }
  }
  LB_REQUIRE(s.pixels > 0, "score: no pixel left to evaluate after the " + std::to_string(border) +
                               " px border crop");
  const double n = static_cast<double>(s.pixels);
  s.badpix_007 = 100.0 * static_cast<double>(b7) / n;
  s.badpix_003 = 100.0 * static_cast<double>(b3) / n;
  s.badpix_001 = 100.0 * static_cast<double>(b1) / n;
  s.mse_x100 = 100.0 * se / n;
  return s;
}

HciScore hci_score(const ImageF& disp, const ImageF& gt, int border) {
  LB_REQUIRE(disp.width == gt.width && disp.height == gt.height,
             "score: disparity " + std::to_string(disp.width) + "x" + std::to_string(disp.height) +
                 " vs ground truth " + std::to_string(gt.width) + "x" + std::to_string(gt.height));
  return hci_score_region(disp, gt, 0, 0, border);
}

double hci_badpix(const ImageF& disp, const ImageF& gt, double t, int border) {
  LB_REQUIRE(disp.width == gt.width && disp.height == gt.height, "badpix: size mismatch");
  check_region(disp, gt, 0, 0);
  std::size_t bad = 0, n = 0;
  for (int y = border; y < gt.height - border; ++y)
    for (int x = border; x < gt.width - border; ++x) {
      const double d = disp.at(x, y), g = gt.at(x, y);
      if (!std::isfinite(d) || !std::isfinite(g)) continue;
      bad += std::fabs(d - g) > t;
      ++n;
    }
  LB_REQUIRE(n > 0, "badpix: no pixel left to evaluate");
  return 100.0 * static_cast<double>(bad) / static_cast<double>(n);
}

ImageF hci_error_map(const ImageF& disp, const ImageF& gt, int ox, int oy) {
  check_region(disp, gt, ox, oy);
  ImageF e(disp.width, disp.height, 1);
  for (int y = 0; y < disp.height; ++y)
    for (int x = 0; x < disp.width; ++x) {
      const double d = disp.at(x, y), g = gt.at(ox + x, oy + y);
      e.at(x, y) = (std::isfinite(d) && std::isfinite(g)) ? static_cast<float>(std::fabs(d - g)) : 0.0f;
    }
  return e;
}

ImageF crop_image(const ImageF& img, int x, int y, int w, int h) {
  LB_REQUIRE(x >= 0 && y >= 0 && w >= 1 && h >= 1 && x + w <= img.width && y + h <= img.height,
             "crop: region outside the image");
  ImageF out(w, h, img.channels);
  for (int yy = 0; yy < h; ++yy)
    for (int xx = 0; xx < w; ++xx)
      for (int c = 0; c < img.channels; ++c) out.at(xx, yy, c) = img.at(x + xx, y + yy, c);
  return out;
}

}  // namespace lb
