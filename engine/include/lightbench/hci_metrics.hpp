#pragma once
// Scoring of disparity maps by the HCI 4D light-field benchmark protocol (Honauer et al.
// 2016): crop a border (15 px) of the full image, BadPix(t) = % of the evaluated pixels with
// |d - d_gt| > t for t = 0.07 (headline), 0.03, 0.01, and MSE x 100 = 100 * mean((d - gt)^2).
// Pixels whose ground truth is not finite are not evaluated; an estimate that is not finite
// (invalid, ../shared/specs/evaluation.md) counts as bad at every threshold and is left out
// of the MSE (NaN when every estimate is invalid).
#include <cstddef>

#include "lightbench/image.hpp"

namespace lb {

struct HciScore {
  double badpix_007 = 0, badpix_003 = 0, badpix_001 = 0;  // percent
  double mse_x100 = 0;
  std::size_t pixels = 0;   // evaluated pixels
  std::size_t invalid = 0;  // of them, with a non-finite estimate
  int border = 15;
};

// The border a light field of w x h is scored with by default: the benchmark's 15, less for
// fields under 60 px (a quarter of the smaller side) so that something is left to score. The
// light-field algorithm's `border` default and dataset::open_scene's HCI truth both use it, so
// `eval` and `lfdepth` / `batch lightfield` agree on every size.
inline int hci_default_border(int w, int h) {
  const int q = (w < h ? w : h) / 4;
  return q < 15 ? q : 15;
}

// disp and gt of the same size (single channel).
HciScore hci_score(const ImageF& disp, const ImageF& gt, int border = 15);
// disp covers the region (ox, oy, disp.width, disp.height) of the full-size gt; the border is
// cropped from the full image (pixels of the region closer than `border` to its edge are out).
HciScore hci_score_region(const ImageF& disp, const ImageF& gt_full, int ox, int oy, int border = 15);
// Refuses (lb::Error) a ground truth with no finite pixel in the region (ox, oy, w, h) once the
// border is cropped from the full image: nothing could be scored. Checked before computing.
void hci_require_truth(const ImageF& gt_full, int ox, int oy, int w, int h, int border);
// BadPix(t) alone, same-size images, in percent.
double hci_badpix(const ImageF& disp, const ImageF& gt, double t, int border = 15);

// |d - gt| per pixel (region of gt_full at (ox, oy), disp's size); 0 where not finite. For
// the viewer's error pane.
ImageF hci_error_map(const ImageF& disp, const ImageF& gt_full, int ox = 0, int oy = 0);
// The part of a full-size image under a region.
ImageF crop_image(const ImageF& img, int x, int y, int w, int h);

}  // namespace lb
