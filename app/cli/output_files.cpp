#include "output_files.hpp"

#include <algorithm>
#include <cmath>

#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/plenoptic_depth.hpp"

namespace lb::cli {

namespace {
bool is_8bit_image(const std::string& ext) {
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".ppm";
}

// Dark blue -> red -> yellow -> white over [0, max |v|] (heavy-tailed maps such as MAD's).
ImageU8 heat_map(const ImageF& m) {
  double mx = 0;
  for (float v : m.data)
    if (std::isfinite(v)) mx = std::max(mx, static_cast<double>(std::fabs(v)));
  static const double stops[5][3] = {{0, 0, 0}, {40, 20, 120}, {200, 30, 60}, {250, 180, 20}, {255, 255, 255}};
  ImageU8 out(m.width, m.height, 3);
  for (std::size_t i = 0; i < m.pixels(); ++i) {
    const double a = std::isfinite(m.data[i]) ? std::fabs(m.data[i]) : 0.0;
    const double t = mx > 0 ? std::clamp(a / mx, 0.0, 1.0) * 4.0 : 0.0;
    const int k = std::min(3, static_cast<int>(t));
    const double f = t - k;
    for (int c = 0; c < 3; ++c)
      out.data[i * 3 + c] = static_cast<std::uint8_t>(std::lround(stops[k][c] + f * (stops[k + 1][c] - stops[k][c])));
  }
  return out;
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
  if (!scale) return save_image(path, heat_map(m));
  double lo = 0, hi = 0;
  if (scale->hi_param.empty()) {  // the map's own range; with a named top, 0 is the bottom
    bool any = false;
    for (float v : m.data)
      if (std::isfinite(v)) lo = any ? std::min<double>(lo, v) : v, hi = any ? std::max<double>(hi, v) : v, any = true;
  }
  if (!scale->lo_param.empty()) lo = value_or(values, scale->lo_param, lo);
  if (!scale->hi_param.empty()) hi = value_or(values, scale->hi_param, hi) + scale->hi_offset;
  if (scale->colour) return save_image(path, to_rgb(colorize_depth(m, static_cast<int>(lo), static_cast<int>(hi))));
  save_image(path, gray_map(m, lo, hi));
}

}  // namespace lb::cli
