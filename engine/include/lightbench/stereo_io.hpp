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

// Two images of equal size; name = the left file's stem unless given. A 16-bit PNG is
// converted to 8 bits, round(v / 257) (load_image_8bit); pair.left_origin / right_origin say
// what each file held.
StereoPair load_stereo_pair(const std::string& left, const std::string& right, const std::string& name = "");
// Checks a pair in memory (non-empty, equal sizes, 1 or 3 channels); throws lb::Error.
void validate(const StereoPair& pair);

// Ground-truth disparity: .pfm read as is (non-finite -> 0 = unknown); a PNG at full depth (8 or
// 16 bits, e.g. KITTI value = 256 d) and any other 8-bit image as
// value / scale (scale > 0; Middlebury: tsukuba 16, venus 8). Gray or colour (channel 0).
ImageF load_stereo_gt(const std::string& path, double scale);
// 8-bit mask (first channel). expect_w/h > 0: the size must match.
ImageU8 load_stereo_mask(const std::string& path, int expect_w = 0, int expect_h = 0);

// A stereo scene folder in one of the published layouts (stereo_layout.cpp), detected from
// the files present or forced:
//  * Middlebury 2001-2006 ("middlebury2001"): imL/imR, view1/view5 or im2/im6 (.png, .ppm
//    or .pgm); ground truth groundtruth.png, disp1.png or disp2.png as value / scale, the
//    scale from --gt-scale or the published sets' table (known_gt_scale); masks
//    mask_nonocc/nonocc, mask_all/all, mask_disc/disc (.png); dmin.txt read when present.
//  * Middlebury 2014 / 2021 / MiddEval3 ("middlebury2014"): im0.png, im1.png, calib.txt
//    (required; its ndisp is the suggested disparity count), disp0GT.pfm or disp0.pfm
//    (inf = unknown), mask0nocc.png (255 non-occluded, 128 occluded, 0 invalid).
// Both layouts present, a missing right image or a malformed calib.txt: lb::Error in one
// line naming the files. The folder's name only picks the published scale / ndisp.
enum class StereoLayout { Auto, Middlebury2001, Middlebury2014 };
// "auto", "middlebury2001" (also 2003, 2005, 2006), "middlebury2014" (also 2021, eval3).
StereoLayout parse_stereo_layout(const std::string& name);
const char* stereo_layout_name(StereoLayout l);

// calib.txt of Middlebury 2014 / 2021 / MiddEval3 (key=value lines; cam0/cam1 as
// [f 0 cx; 0 f cy; 0 0 1]). Unknown keys are ignored; width, height, ndisp are required.
struct StereoCalib {
  double cam0[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  double doffs = 0, baseline = 0, vmin = 0, vmax = 0;
  int width = 0, height = 0, ndisp = 0;
};
// where: the file's name for the one-line errors.
StereoCalib parse_stereo_calib(const std::string& text, const std::string& where);

struct StereoScene {
  StereoPair pair;
  StereoGroundTruth gt;
  double gt_scale = 0;      // 8-bit truth: value / scale = disparity (0: PFM or no truth)
  int suggested_ndisp = 0;  // calib.txt's ndisp, or the published table's (tsukuba 16, venus 20)
  std::string layout;       // "middlebury2001" | "middlebury2014"
  std::string gt_path;      // the ground-truth file read ("" when none)
  bool has_calib = false;
  StereoCalib calib;        // middlebury2014
  double dmin = 0;          // dmin.txt (2005/2006), 0 when absent
};
StereoScene load_stereo_scene(const std::string& dir, double gt_scale = 0,
                              StereoLayout layout = StereoLayout::Auto);
// Published ground-truth scale / disparity count by scene name (case-insensitive); 0 when
// unknown.
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
