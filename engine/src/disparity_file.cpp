// Disparity map files of any method (dataset.hpp): PFM as stored, 16-bit PNG in KITTI's
// convention (value / 256, 0 = invalid), 8-bit PNG only with an explicit scale.
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/input_file.hpp"

namespace lb::dataset {

namespace {
constexpr double kKittiScale = 256.0;
}

ImageF load_disparity_map(const std::string& path, double png8_scale) {
  require_regular_file(path, "disparity map");  // a named pipe, a folder, a missing file: one line
  const std::string ext = file_extension(path);
  if (ext == ".pfm") {
    ImageF d = load_pfm(path);
    LB_REQUIRE(d.channels == 1, "disparity map '" + path + "' has " + std::to_string(d.channels) +
                                    " channels; a disparity map is a grey PFM (Pf)");
    return d;
  }
  LB_REQUIRE(ext == ".png", "disparity map '" + path + "': use .pfm (floats) or .png (16-bit, KITTI: value / 256)");
  int depth = 0;
  const ImageU16 raw = load_image16(path, 0, &depth);
  LB_REQUIRE(raw.channels == 1, "disparity map '" + path + "' has " + std::to_string(raw.channels) +
                                    " channels; a disparity PNG is grey");
  LB_REQUIRE(depth == 16 || png8_scale > 0,
             "disparity map '" + path + "' is " + (depth == 8 ? "an " : "a ") + std::to_string(depth) +
                 "-bit PNG: its scale is unknown (KITTI maps are 16-bit, value / 256; give the 8-bit scale)");
  const double scale = depth == 16 ? kKittiScale : png8_scale;
  ImageF d(raw.width, raw.height, 1);
  for (std::size_t i = 0; i < raw.data.size(); ++i)
    d.data[i] = raw.data[i] == 0 ? std::nanf("") : static_cast<float>(raw.data[i] / scale);
  return d;
}

void save_kitti_disparity(const std::string& path, const ImageF& disp) {
  LB_REQUIRE(!disp.empty() && disp.channels == 1,
             "KITTI disparity '" + path + "': the map must be one channel and not empty");
  LB_REQUIRE(file_extension(path) == ".png", "KITTI disparity '" + path + "': the file must be .png (16-bit)");
  ImageU16 out(disp.width, disp.height, 1);
  for (std::size_t i = 0; i < disp.data.size(); ++i) {
    const double d = disp.data[i];
    // 0 is KITTI's "invalid": a finite d >= 0 is stored as at least 1 (1/256 px).
    out.data[i] = std::isfinite(d) && d >= 0
                      ? static_cast<std::uint16_t>(std::clamp(std::llround(d * kKittiScale), 1LL, 65535LL))
                      : 0;
  }
  save_png16(path, out);
}

}  // namespace lb::dataset
