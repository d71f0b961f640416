#pragma once
// The Raytrix-like micro-lens arrays the general-grid tests share: Raytrix's lens bases
// (1, 0), (0.5, -sqrt 3 / 2), sub-grid (3, -sqrt 3), three lens types with overlapping
// virtual-depth ranges [1, 3], [2.8, 4], [3.8, 100]; the diameter and offset per test.
#include "lightbench/mla_geometry.hpp"

namespace lb::test {

inline MlaGeometry three_type_hex(double diameter, double ox, double oy) {
  MlaGeometry g;
  g.kind = MlaKind::Hexagonal;
  g.offset = {ox, oy};
  g.diameter = diameter;
  g.base_x = {1.0, 0.0};
  g.base_y = {0.5, -0.8660254037844386};
  g.sub_grid_base = {3.0, -1.7320508075688772};
  g.types = {{{0.0, 0.0}, 1.0, 3.0}, {{1.0, 0.0}, 2.8, 4.0}, {{-1.0, 0.0}, 3.8, 100.0}};
  return g;
}

// hex-small's array: D = 24.
inline MlaGeometry r42_like() { return three_type_hex(24.0, 12.3, 12.7); }

}  // namespace lb::test
