#pragma once
// Stereo files: a rectified pair (two 8-bit images of equal size, gray or colour; RGBA is
// reduced to RGB), Middlebury ground truth (8-bit PNG whose value / scale is the disparity,
// 0 = unknown; or a PFM of disparities, non-finite or 0 = unknown), the evaluation masks, and
// disparity maps written for viewing (PNG, scaled) or exactly (PFM). Every failure throws
// lb::Error with one line naming the file and the problem. Plus synthetic pairs with known
// disparity for tests.
#include <cstdint>
#include <string>

#include "lightbench/image.hpp"
#include "lightbench/stereo.hpp"

namespace lb::stereo {

// Two images of equal size; name = the left file's stem unless given.
StereoPair load_stereo_pair(const std::string& left, const std::string& right, const std::string& name = "");
// Checks a pair in memory (non-empty, equal sizes, 1 or 3 channels); throws lb::Error.
void validate(const StereoPair& pair);

// Ground-truth disparity: .pfm read as is (non-finite -> 0 = unknown); any 8-bit image as
// value / scale (scale > 0; Middlebury: tsukuba 16, venus 8). Gray or colour (channel 0).
ImageF load_stereo_gt(const std::string& path, double scale);
// 8-bit mask (first channel). expect_w/h > 0: the size must match.
ImageU8 load_stereo_mask(const std::string& path, int expect_w = 0, int expect_h = 0);

// A Middlebury scene folder (imL.png, imR.png, groundtruth.png, mask_nonocc.png,
// mask_all.png, mask_disc.png). gt_scale <= 0: the known scale for the folder's name
// (tsukuba 16, venus 8; others: error asking for --gt-scale). Missing truth/masks are left
// empty; missing images are an error.
struct StereoScene {
  StereoPair pair;
  StereoGroundTruth gt;
  double gt_scale = 0;
  int suggested_ndisp = 0;  // tsukuba 16, venus 20 (data README), else 0
};
StereoScene load_stereo_scene(const std::string& dir, double gt_scale = 0);
// Known scale / disparity count by scene name ("tsukuba", "venus"); 0 when unknown.
double known_gt_scale(const std::string& scene_name);
int known_ndisp(const std::string& scene_name);

// Disparity map to a file by extension: .pfm exact floats; .png/.pgm/.bmp gray scaled so that
// max_disp maps to 255 (max_disp <= 0: the map's maximum).
void save_disparity(const std::string& path, const ImageF& disp, float max_disp = 0.0f);
// The scaled 8-bit view (same rule).
ImageU8 disparity_to_gray(const ImageF& disp, float max_disp = 0.0f);

// Synthetic pairs (random texture, known disparity): the right image is the left shifted
// by d (left(x, y) = right(x - d, y)); pixels whose match leaves the right image get fresh
// texture. Fronto-parallel plane at disparity d:
StereoPair synthetic_plane_pair(int w, int h, int d, std::uint32_t seed, int channels = 1);
// Two planes: the background at d_back, a centred rectangle (the middle half in x and y) at
// d_front. *gt (if given) receives the true disparity of every left pixel.
StereoPair synthetic_two_plane_pair(int w, int h, int d_back, int d_front, std::uint32_t seed,
                                    ImageF* gt = nullptr, int channels = 1);

}  // namespace lb::stereo
