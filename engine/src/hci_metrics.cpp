// HCI benchmark metrics (BadPix, MSE x 100) and the error map.
#include "lightbench/hci_metrics.hpp"
#include "lightbench/hci_math.hpp"

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
  // Per-pixel rules and the final formulas are hci_math.hpp's, shared with the CUDA scorer.
  hci::Sums sums;
  for (int y = 0; y < disp.height; ++y)
    for (int x = 0; x < disp.width; ++x)
      if (hci::inside_border(ox + x, oy + y, gt.width, gt.height, border))
        hci::accumulate(sums, disp.at(x, y), gt.at(ox + x, oy + y));
  return hci::finish(sums, border);
}

HciScore hci_score(const ImageF& disp, const ImageF& gt, int border) {
  LB_REQUIRE(disp.width == gt.width && disp.height == gt.height,
             "score: disparity " + std::to_string(disp.width) + "x" + std::to_string(disp.height) +
                 " vs ground truth " + std::to_string(gt.width) + "x" + std::to_string(gt.height));
  return hci_score_region(disp, gt, 0, 0, border);
}

void hci_require_truth(const ImageF& gt, int ox, int oy, int w, int h, int border) {
  LB_REQUIRE(gt.channels == 1 && !gt.empty(), "ground truth: must be one non-empty channel");
  LB_REQUIRE(border >= 0, "score: border must be >= 0");
  LB_REQUIRE(ox >= 0 && oy >= 0 && w >= 1 && h >= 1 && static_cast<long long>(ox) + w <= gt.width &&
                 static_cast<long long>(oy) + h <= gt.height,
             "score: region outside the ground truth");
  for (int y = oy; y < oy + h; ++y)
    for (int x = ox; x < ox + w; ++x)
      if (hci::inside_border(x, y, gt.width, gt.height, border) && std::isfinite(gt.at(x, y))) return;
  throw Error("ground truth: no valid (finite) pixel to evaluate in the " + std::to_string(w) + "x" +
              std::to_string(h) + " region at " + std::to_string(ox) + "," + std::to_string(oy) + " after the " +
              std::to_string(border) + " px border crop");
}

double hci_badpix(const ImageF& disp, const ImageF& gt, double t, int border) {
  LB_REQUIRE(disp.width == gt.width && disp.height == gt.height, "badpix: size mismatch");
  check_region(disp, gt, 0, 0);
  std::size_t bad = 0, n = 0;
  for (int y = border; y < gt.height - border; ++y)
    for (int x = border; x < gt.width - border; ++x) {
      const float d = disp.at(x, y), g = gt.at(x, y);
      if (!hci::finite(g)) continue;
      bad += hci::bad(d, g, t);
      ++n;
    }
  LB_REQUIRE(n > 0, "badpix: no pixel left to evaluate");
  return 100.0 * static_cast<double>(bad) / static_cast<double>(n);
}

ImageF hci_error_map(const ImageF& disp, const ImageF& gt, int ox, int oy) {
  check_region(disp, gt, ox, oy);
  ImageF e(disp.width, disp.height, 1);
  for (int y = 0; y < disp.height; ++y)
    for (int x = 0; x < disp.width; ++x) e.at(x, y) = hci::error_value(disp.at(x, y), gt.at(ox + x, oy + y));
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
