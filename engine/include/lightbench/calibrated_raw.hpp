#pragma once
// A raw image opened with its micro-lens calibration (Raytrix RayCalibData XML,
// mla_geometry.hpp) as plenoptic data: the scene the general-grid algorithm ("plenoptic-hex")
// runs on. The CLI's --raw --calib, the viewer's raw + calibration fields and its drops all
// come through here, so they refuse the same files with the same one-line errors.
//
// The file's offset is checked against the raw: a calibration belongs to a whole sensor frame,
// and a crop of it (the R42 crop in ../shared/data, docs/DESIGN.md) shifts the grid. The
// default (CalibFit::Auto) fits the grid's phase to the raw (fit_mla_offset) and keeps the
// fitted offset only when it is clearly better (kCalibFitGain more ring contrast), so a raw
// that matches its file keeps the file's numbers exactly.
#include <string>

#include <nlohmann/json.hpp>

#include "lightbench/image.hpp"
#include "lightbench/mla_geometry.hpp"
#include "lightbench/scene_file.hpp"

namespace lb {

enum class CalibFit {
  Auto,  // fit the offset; keep the fit when it raises the ring contrast by kCalibFitGain
  On,    // always the fitted offset
  Off,   // the file's offset as it is
};
const char* to_string(CalibFit f);
// "auto" | "on" | "off"; anything else: lb::Error "<what> '<text>': use auto, on or off".
CalibFit parse_calib_fit(const std::string& text, const std::string& what);

// Relative gain of ring contrast (fit_mla_offset_scored) above which Auto takes the fit. The
// fit's own precision is about half a pixel: a raw whose file is right gains a few percent
// from sub-pixel noise (hex-small: < 3 %), a wrong phase loses most of its contrast (the R42
// crop: the file's offset gives ~40 % of the fitted contrast).
constexpr double kCalibFitGain = 0.10;

// How the offset was chosen.
struct CalibInfo {
  std::string calib;        // the calibration's file (or name)
  CalibFit mode = CalibFit::Auto;
  MlaVec file_offset;       // the file's offset
  bool fit_run = false;     // the fit was computed (mode != Off)
  bool fitted = false;      // the fitted offset is the one in use
  MlaVec shift;             // fitted - file offset (pixels; 0, 0 when the fit did not run)
  double contrast_file = 0.0;    // ring contrast at the file's offset (0 when not run)
  double contrast_fitted = 0.0;  // at the fitted one
};

// Raises "<raw name> (WxH) and <calib name>: ..." (one line) unless at least one whole lens of
// g lies inside a width x height raw; also refuses a geometry whose lens count is absurd.
void check_calibration_fits(const MlaGeometry& g, int width, int height, const std::string& raw_name,
                            const std::string& calib_name);

// The scene of `raw` (8-bit; gray becomes RGB) on geometry g: checks the fit
// (check_calibration_fits), chooses the offset (`fit`), sets mla, source and the one-lens
// placeholder grid (pitch = diameter) the general path never reads; no truth.
PlenopticScene calibrated_scene(ImageU8 raw, const MlaGeometry& g, CalibFit fit, const std::string& raw_name,
                                const std::string& calib_name, CalibInfo* info = nullptr);

// Loads the raw and the XML and makes their scene (calibrated_scene). Every problem is one
// lb::Error line naming the file(s): a missing or undecodable raw, a bad XML, a geometry that
// does not fit the raw.
PlenopticScene load_calibrated_raw(const std::string& raw_path, const std::string& calib_path,
                                   CalibFit fit = CalibFit::Auto, CalibInfo* info = nullptr);

// A few words for a scene's source line: " (offset fitted: shift (-2.80, +5.70) px)", " (the
// file's offset; the fit would move it (+0.21, -0.30) px)" or " (the file's offset)".
std::string calib_fit_note(const CalibInfo& info);

// What reports say of a geometry: kind, diameter, offset [x, y], rotation (radians), bases,
// types [{offset, depth_min, depth_max}] (an infinite max as null), tcp, lens_border.
nlohmann::json mla_json(const MlaGeometry& g);
// The fit's record: calib, mode, fitted, file_offset, shift, contrast_file, contrast_fitted.
nlohmann::json calib_json(const CalibInfo& info);

}  // namespace lb
