#pragma once
// Stereo matching: the types shared by both methods (hierarchical belief propagation,
// ../shared/specs/stereo-bp.md; center-biased local windows, ../shared/specs/stereo-local.md)
// and their results (the engine their CPU references and CUDA kernels implement is
// internal: lightbench/engines/stereo.hpp).
//
// Conventions (both specs): rectified pair, the left image is the reference; disparity d in
// [0, ndisp-1] means left(x, y) matches right(x - d, y). Disparity maps are float images
// (1 channel) so that ground truth with a scale factor and PFM round-trip unchanged.
#include <memory>
#include <string>
#include <vector>

#include "lightbench/backend.hpp"  // BackendKind
#include "lightbench/image.hpp"
#include "lightbench/error.hpp"
#include "lightbench/params.hpp"
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

namespace lb::stereo {

// A rectified pair as 8-bit images of equal size (1 or 3 channels; RGBA is reduced to RGB
// by the loader). Each method converts as its spec says (BP: gray; local: RGB mean).
struct StereoPair {
  ImageU8 left, right;
  std::string name;  // for reports ("tsukuba", or the left file's stem)
  // The files and their depth (a 16-bit PNG is converted to 8 bits, v/257); empty paths for
  // pairs made in memory.
  ImageOrigin left_origin{}, right_origin{};
};

// Middlebury ground truth: disparity (0 = unknown, never counted) and the three masks
// (255 = counted). Any mask may be empty: then every pixel with known truth is counted.
struct StereoGroundTruth {
  ImageF disparity;
  ImageU8 mask_nonocc, mask_all, mask_disc;
  bool empty() const { return disparity.empty(); }
};

// ---- scoring (Middlebury; stereo_metrics.cpp) ----
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
// Refuses (lb::Error) a ground truth with no pixel to evaluate: none known (finite, > 0) inside
// the "all" mask (all NaN, zero or negative). Callers that report a score check it first
// (score_stereo itself, like the CUDA scorer, gives 0 % over 0 pixels).
void require_scorable(const StereoGroundTruth& gt);
StereoScore score_stereo(const ImageF& disp, const StereoGroundTruth& gt, double threshold = 1.0);
// One region: mask may be empty (then every pixel with known truth).
BadPixels bad_pixels(const ImageF& disp, const ImageF& gt, const ImageU8& mask, double threshold = 1.0);

// The viewer's error map (RGB8): the disparity scaled to gray (max_disp -> 255, <= 0: the
// truth's maximum) where correct, wrong pixels (|d - d_gt| > threshold, or d NaN / inf /
// negative, inside `mask`, or inside the known truth when the mask is empty) in red, unknown
// truth darkened blue-gray.
ImageU8 stereo_error_map(const ImageF& disp, const StereoGroundTruth& gt, double threshold = 1.0,
                         float max_disp = 0.0f);

enum class StereoMethod { Bp, Local };
const char* to_string(StereoMethod m);
StereoMethod parse_stereo_method(const std::string& s);  // bp | local (any case)

struct StereoResult {
  ImageF disparity;        // width x height, integer-valued disparities as float
  std::string variant;     // what ran ("reference", "registers", "phase5", ...)
  double ms = 0.0;         // compute only (GPU: CUDA events, data on the device)
  double ms_total = 0.0;   // including the upload of the pair and the download of the map
  std::string tuning;      // what the auto-tuner chose / tried, when it ran (else empty)
};

}  // namespace lb::stereo
