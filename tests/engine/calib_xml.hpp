#pragma once
// A Raytrix RayCalibData file written from a geometry (the elements load_raytrix_calibration
// reads, in the R42 file's layout), for tests that need a raw with its calibration.
#include <sstream>
#include <string>

#include "lightbench/mla_geometry.hpp"

namespace lbt {

inline std::string calib_xml_of(const lb::MlaGeometry& g) {
  std::ostringstream x;
  x.precision(17);
  auto v = [&](const char* tag, const lb::MlaVec& p, const char* units) {
    x << "  <" << tag << " units=\"" << units << "\"><x>" << p.x << "</x><y>" << p.y << "</y></" << tag << ">\n";
  };
  x << "<RayCalibData version=\"1.0\">\n";
  v("offset", g.offset, "pix");
  x << "  <diameter units=\"pix\">" << g.diameter << "</diameter>\n";
  x << "  <rotation units=\"rad\">" << g.rotation << "</rotation>\n";
  x << "  <lens_border units=\"pix\">" << g.lens_border << "</lens_border>\n";
  x << "  <tcp units=\"virtual_depth\">" << (g.tcp > 0 ? g.tcp : 2.0) << "</tcp>\n";
  v("lens_base_x", g.base_x, "lens");
  v("lens_base_y", g.base_y, "lens");
  v("sub_grid_base", g.sub_grid_base, "lens");
  for (std::size_t t = 0; t < g.types.size(); ++t) {
    x << "  <lens_type id=\"" << t << "\">\n";
    v("offset", g.types[t].offset, "lens");
    x << "    <depth_range units=\"virtual_depth\"><min>" << g.types[t].depth_min << "</min><max>"
      << g.types[t].depth_max << "</max></depth_range>\n  </lens_type>\n";
  }
  x << "</RayCalibData>\n";
  return x.str();
}

}  // namespace lbt
