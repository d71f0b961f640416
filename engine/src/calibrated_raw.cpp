// A raw with its calibration as plenoptic data (calibrated_raw.hpp).
#include "lightbench/calibrated_raw.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/input_file.hpp"

namespace lb {

const char* to_string(CalibFit f) {
  switch (f) {
    case CalibFit::Auto: return "auto";
    case CalibFit::On: return "on";
    case CalibFit::Off: return "off";
  }
  return "?";
}

CalibFit parse_calib_fit(const std::string& text, const std::string& what) {
  if (text == "auto") return CalibFit::Auto;
  if (text == "on") return CalibFit::On;
  if (text == "off") return CalibFit::Off;
  throw Error(what + " '" + text + "': use auto, on or off");
}

void check_calibration_fits(const MlaGeometry& g, int width, int height, const std::string& raw_name,
                            const std::string& calib_name) {
  const std::string both = raw_name + " (" + std::to_string(width) + "x" + std::to_string(height) + ") and " +
                           calib_name + ": ";
  std::size_t lenses = 0;
  try {
    lenses = MlaLayout(g, calib_name).lenses_in(width, height).size();
  } catch (const Error& e) {
    throw Error(both + e.what());
  }
  if (lenses == 0) {
    std::ostringstream d;
    d << "no whole lens (diameter " << g.diameter << " px) lies inside the raw; is it the calibration of this raw?";
    throw Error(both + d.str());
  }
}

PlenopticScene calibrated_scene(ImageU8 raw, const MlaGeometry& g, CalibFit fit, const std::string& raw_name,
                                const std::string& calib_name, CalibInfo* info) {
  LB_REQUIRE(!raw.empty(), raw_name + ": the raw is empty");
  if (raw.channels < 3) raw = to_rgb(raw);  // the plenoptic passes read RGB or RGBA
  check_calibration_fits(g, raw.width, raw.height, raw_name, calib_name);
  CalibInfo in;
  in.calib = calib_name;
  in.mode = fit;
  in.file_offset = g.offset;
  MlaGeometry use = g;
  if (fit != CalibFit::Off) {
    const MlaFitResult r = fit_mla_offset_scored(g, raw);
    in.fit_run = true;
    in.shift = {r.geometry.offset.x - g.offset.x, r.geometry.offset.y - g.offset.y};
    in.contrast_file = r.contrast_given;
    in.contrast_fitted = r.contrast_fitted;
    // Auto: only a clear gain (the fit's half-pixel precision must not move a right file).
    const double gain = r.contrast_fitted - r.contrast_given;
    in.fitted = fit == CalibFit::On || gain > kCalibFitGain * std::max(std::fabs(r.contrast_given), 1e-9);
    if (in.fitted) use = r.geometry;
    // A fitted grid that no longer holds a whole lens (a raw barely one lens wide): the file's.
    if (in.fitted && MlaLayout(use, calib_name).lenses_in(raw.width, raw.height).empty()) {
      in.fitted = false;
      use = g;
    }
  }
  PlenopticScene s;
  s.grid = PlenopticGrid{1, 1, use.diameter, 0.0, 0.0};  // placeholder: the general path reads mla
  s.mla = use;
  s.source = raw_name + " + " + calib_name;
  s.raw = std::move(raw);
  if (info) *info = in;
  return s;
}

PlenopticScene load_calibrated_raw(const std::string& raw_path, const std::string& calib_path, CalibFit fit,
                                   CalibInfo* info) {
  // Regular files, checked before opening (a named pipe would block): one line naming each.
  require_regular_file(raw_path, "raw");
  require_regular_file(calib_path, "calibration");
  std::error_code ec;
  LB_REQUIRE(std::filesystem::is_regular_file(raw_path, ec), "raw '" + raw_path + "': file not found");
  LB_REQUIRE(std::filesystem::is_regular_file(calib_path, ec), "calibration '" + calib_path + "': file not found");
  const MlaGeometry g = load_raytrix_calibration(calib_path);  // one line naming the file
  ImageOrigin origin;
  ImageU8 raw = load_image_8bit(raw_path, &origin);  // names the file it cannot decode; 16-bit: v/257
  PlenopticScene s = calibrated_scene(std::move(raw), g, fit, raw_path, calib_path, info);
  s.raw_origin = origin;
  return s;
}

namespace {
nlohmann::json vec(const MlaVec& v) { return nlohmann::json::array({v.x, v.y}); }
nlohmann::json finite_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
}  // namespace

nlohmann::json mla_json(const MlaGeometry& g) {
  nlohmann::json types = nlohmann::json::array();
  for (const MlaLensType& t : g.types)
    types.push_back({{"offset", vec(t.offset)},
                     {"depth_min", finite_or_null(t.depth_min)},
                     {"depth_max", finite_or_null(t.depth_max)}});
  return {{"kind", to_string(g.kind)},
          {"diameter", g.diameter},
          {"offset", vec(g.offset)},
          {"rotation", g.rotation},
          {"base_x", vec(g.base_x)},
          {"base_y", vec(g.base_y)},
          {"sub_grid_base", vec(g.sub_grid_base)},
          {"types", types},
          {"tcp", g.tcp},
          {"lens_border", g.lens_border}};
}

std::string calib_fit_note(const CalibInfo& in) {
  if (!in.fit_run) return " (the file's offset)";
  char s[128];
  std::snprintf(s, sizeof s, in.fitted ? " (offset fitted: shift (%+.2f, %+.2f) px)"
                                       : " (the file's offset; the fit would move it (%+.2f, %+.2f) px)",
                in.shift.x, in.shift.y);
  return s;
}

nlohmann::json calib_json(const CalibInfo& in) {
  return {{"calib", in.calib},
          {"fit", to_string(in.mode)},
          {"fitted", in.fitted},
          {"file_offset", vec(in.file_offset)},
          {"shift", vec(in.shift)},
          {"contrast_file", in.contrast_file},
          {"contrast_fitted", in.contrast_fitted}};
}

}  // namespace lb
