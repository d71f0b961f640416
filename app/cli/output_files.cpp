#include "output_files.hpp"

#include <algorithm>
#include <cmath>

#include <map>
#include <mutex>

#include "lightbench/colormap.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"

namespace lb::cli {

namespace {
bool is_8bit_image(const std::string& ext) {
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".ppm";
}

// Gray, lo -> 0 and hi -> 255 (NaN: 0).
ImageU8 gray_map(const ImageF& m, double lo, double hi) {
  ImageU8 out(m.width, m.height, 1);
  const double span = hi > lo ? hi - lo : 1.0;
  for (std::size_t i = 0; i < m.pixels(); ++i) {
    const double v = std::isfinite(m.data[i]) ? std::clamp((m.data[i] - lo) / span, 0.0, 1.0) : 0.0;
    out.data[i] = static_cast<std::uint8_t>(std::lround(v * 255.0));
  }
  return out;
}

// The viewer's colour maps (lightbench/colormap.hpp); the range of every colour file written,
// by path, for the report (driver_report.cpp).
std::mutex records_mutex;
std::map<std::string, ColourRecord>& records() {
  static std::map<std::string, ColourRecord> r;
  return r;
}

void save_mapped(const std::string& path, const ImageF& m, ColorMap map, double lo, double hi) {
  if (map == ColorMap::Gray) save_image(path, gray_map(m, lo, hi));
  else save_image(path, colormap::colourise(m, map, lo, hi));
  std::lock_guard<std::mutex> lock(records_mutex);
  records()[path] = ColourRecord{to_string(map), lo, hi};
}

double value_or(const ParamValues& v, const std::string& name, double fallback) {
  const auto it = v.find(name);
  return it == v.end() ? fallback : it->second;
}
}  // namespace

void check_output_extension(const std::string& flag, const std::string& path, SurfaceFormat format) {
  const std::string ext = file_extension(path);
  if (format == SurfaceFormat::RGBA8 && !is_8bit_image(ext))
    throw Error(flag + " '" + path + "': use .png, .jpg, .bmp or .ppm");
  if (format == SurfaceFormat::R32F && ext != ".pfm" && !is_8bit_image(ext) && ext != ".pgm")
    throw Error(flag + " '" + path + "': use .pfm (exact) or .png, .jpg, .bmp, .ppm (for viewing)");
}

void write_output(const std::string& path, const HostSurface& s, const PngScale* scale, const ParamValues& values) {
  const std::string ext = file_extension(path);
  if (s.format() == SurfaceFormat::RGBA8) return save_image(path, to_rgb(s.rgba()));
  const ImageF& m = s.scalar();
  if (ext == ".pfm") return save_pfm(path, m);
  if (!scale) {
    // Turbo over the map's finite range, from 0 when it has no negative values (heavy-tailed
    // maps such as MAD's start at black-blue for "no error").
    double lo = 0, hi = 0;
    colormap::finite_range(m, &lo, &hi);
    lo = std::min(lo, 0.0);
    if (!(hi > lo)) hi = lo + 1.0;
    return save_mapped(path, m, ColorMap::Turbo, lo, hi);
  }
  double lo = 0, hi = 0;
  if (scale->hi_param.empty()) {  // the map's own range; with a named top, 0 is the bottom
    bool any = false;
    for (float v : m.data)
      if (std::isfinite(v)) lo = any ? std::min<double>(lo, v) : v, hi = any ? std::max<double>(hi, v) : v, any = true;
  }
  if (!scale->lo_param.empty()) lo = value_or(values, scale->lo_param, lo);
  if (!scale->hi_param.empty()) hi = value_or(values, scale->hi_param, hi) + scale->hi_offset;
  save_mapped(path, m, scale->colour ? ColorMap::Viridis : ColorMap::Gray, lo, hi);
}

const ColourRecord* colour_record(const std::string& path) {
  std::lock_guard<std::mutex> lock(records_mutex);
  const auto it = records().find(path);
  return it == records().end() ? nullptr : &it->second;
}

}  // namespace lb::cli
