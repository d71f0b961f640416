#pragma once
// Scoring any disparity map (lightbench's or another method's) by a benchmark's own protocol,
// and objective image-quality scores against human opinion scores. The definitions are
// ../shared/specs/evaluation.md's; this is the one implementation of each, used by `eval`,
// `batch`, the compute commands' reports and the viewer's foreign-map panes.
//
// Per pixel: `d` the evaluated map, `g` the truth, e = |d - g| (in double from the floats).
// A truth pixel is known when finite and non-zero. An estimate that is NaN, infinite or
// negative is invalid: counted as bad by every badX / d1, left out of avgerr, rms, mse and
// the percentiles, and reported as `invalid` (% of the evaluated pixels). HCI truths and
// estimates are signed float disparities: there a truth is known when finite (0 included)
// and an estimate invalid when not finite.
// A value over no pixel (a statistic of the valid estimates when none is valid, a d1 of an
// empty fg / bg split) is NaN, null in the JSON: never a 0 that reads as perfect.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lightbench/image.hpp"
#include "lightbench/stereo.hpp"

namespace lb::eval {

// Which benchmark's protocol a truth is scored by.
enum class Protocol {
  Middlebury2003,  // 2001-2006 sets: bad > 1 over nonocc / all / disc (the runners' score)
  MiddleburyV3,    // 2014 / 2021 / MiddEval3: bad050..bad400, invalid, avgerr, rms, a50..a99
  Kitti,           // 2012 / 2015: d1_all (and d1_bg / d1_fg with obj_map) over noc / occ
  Hci              // 4D light field: badpix_007/003/001, mse_x100, q25 (15-pixel border)
};
const char* to_string(Protocol p);  // "middlebury2003", "middlebury-v3", "kitti", "hci"

// ---- one mask ------------------------------------------------------------------------
// mask: 255 = evaluated (first channel); empty = every pixel with known truth.
struct MiddleburyV3 {
  double bad050 = 0, bad100 = 0, bad200 = 0, bad400 = 0;  // % of the evaluated pixels
  double invalid = 0;                                     // %
  double avgerr = 0, rms = 0;                             // over the valid estimates
  double a50 = 0, a90 = 0, a95 = 0, a99 = 0;              // percentiles of e (valid only)
  std::uint64_t pixels = 0;                               // evaluated (known truth in mask)
};
MiddleburyV3 middlebury_v3(const ImageF& d, const ImageF& g, const ImageU8& mask);

// KITTI outliers: e > 3 and e > 0.05 g (an invalid estimate is an outlier).
// select: empty = every known pixel; else only pixels where select's value (first channel)
// is > 0 when `foreground`, == 0 when not (obj_map's fg / bg split).
struct KittiD1 {
  double d1 = 0;       // % outliers of the evaluated pixels
  double invalid = 0;  // %
  std::uint64_t pixels = 0, outliers = 0;
};
KittiD1 kitti_d1(const ImageF& d, const ImageF& g, const ImageU8& select = {}, bool foreground = true);

// HCI: the border is cropped from the image; every remaining known pixel counts.
struct HciMetrics {
  double badpix_007 = 0, badpix_003 = 0, badpix_001 = 0;  // %
  double mse_x100 = 0, q25 = 0;                           // valid estimates only
  double invalid = 0;                                     // %
  std::uint64_t pixels = 0;
};
HciMetrics hci_metrics(const ImageF& d, const ImageF& g, int border = 15);

// The P-th percentile as the spec defines it: sort, index ceil(P/100 * n) - 1 (n > 0).
// values is reordered (selection, not a full sort).
double percentile(std::vector<float>& values, double p);

// ---- a scene's truth, by protocol ------------------------------------------------------
struct Truth {
  Protocol protocol = Protocol::Middlebury2003;
  // Middlebury: disparity and masks as stereo::StereoGroundTruth (mask 255 = counted;
  // 2014: nonocc = 255 of mask0nocc, all = 255 or 128).
  // KITTI: disparity = disp_occ (or disp_noc when only it exists); mask_nonocc = 255 where
  // disp_noc is known; mask_all empty; obj_map (8-bit, > 0 = foreground) may be empty.
  // HCI: disparity = the centre view's truth, masks empty.
  stereo::StereoGroundTruth stereo;
  ImageU8 obj_map;
  int border = 15;  // HCI
};

// The protocol's metrics grouped by mask, with the spec's key names:
//  Middlebury2003: {"nonocc": {"bad100", "pixels"}, "all": {...}, "disc": {...}}
//                  (stereo::score_stereo at threshold 1: an empty region gives 0 with pixels 0)
//  MiddleburyV3:   {"nonocc": {bad050, bad100, bad200, bad400, invalid, avgerr, rms, a50, a90,
//                   a95, a99, pixels}, "all": {...}}
//  Kitti:          {"noc": {"d1_all", "d1_bg", "d1_fg" (with obj_map), "invalid", "pixels"},
//                   "occ": {...}}
//  Hci:            {"all": {badpix_007, badpix_003, badpix_001, mse_x100, q25, invalid, pixels}}
// Throws lb::Error (one line) on mismatched sizes or a truth with nothing to evaluate.
nlohmann::json evaluate(const ImageF& d, const Truth& truth);

// ---- image quality against human scores -------------------------------------------------
// q(x) = b1 (1/2 - 1/(1 + exp(b2 (x - b3)))) + b4 x + b5, least squares (Levenberg-Marquardt).
struct Logistic5 {
  double b[5] = {0, 0, 0, 0, 0};
  bool converged = false;
  double operator()(double x) const;
};
Logistic5 fit_logistic5(const std::vector<double>& x, const std::vector<double>& y);

double pearson(const std::vector<double>& a, const std::vector<double>& b);
double spearman(const std::vector<double>& a, const std::vector<double>& b);   // average ranks for ties
double kendall_tau_b(const std::vector<double>& a, const std::vector<double>& b);  // O(n log n)

struct IqaCorrelation {
  double srocc = 0, krocc = 0, plcc = 0;  // signed (MAD: negative against MOS)
  Logistic5 fit;  // |plcc| = pearson(mos, fit(objective)); its sign is srocc's (the relation's)
  std::size_t n = 0;
};
// objective[i] and mos[i] for the same distorted image; n >= 5 with some spread, else
// lb::Error in one line.
IqaCorrelation correlate(const std::vector<double>& objective, const std::vector<double>& mos);
// {"srocc", "krocc", "plcc", "n", "logistic": [b1..b5], "logistic_converged"}
nlohmann::json to_json(const IqaCorrelation& c);

}  // namespace lb::eval
