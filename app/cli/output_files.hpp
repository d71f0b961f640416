#pragma once
// Writing a runner's output (a HostSurface) to the file an output flag names: an R32F map
// exactly to .pfm, or mapped to 8 bits (gray or colour) for an image file; an RGBA8 image to
// .png .jpg .bmp .ppm. Extensions are checked before any computing.
#include <string>

#include "command_defs.hpp"
#include "lightbench/params.hpp"
#include "lightbench/surface.hpp"

namespace lb::cli {

// Throws lb::Error naming the flag when the file's extension cannot hold the format.
void check_output_extension(const std::string& flag, const std::string& path, SurfaceFormat format);
// Writes the surface (staged by the run's OutputTransaction); `scale` maps an R32F map for an
// image file (nullptr: turbo over its finite range, from 0 when it has no negative values).
// Maps go through the viewer's colour maps (lightbench/colormap.hpp).
void write_output(const std::string& path, const HostSurface& s, const PngScale* scale, const ParamValues& values);

// The colour map and range an R32F map was written to an image file with (the report's
// "colour" of that output); null for other files.
struct ColourRecord {
  std::string map;  // "gray", "turbo", "viridis"
  double min = 0, max = 0;
};
const ColourRecord* colour_record(const std::string& path);

}  // namespace lb::cli
