#pragma once
// The R42-like micro-lens array the general-grid tests share (hex-small's array): Raytrix
// bases, three lens types with overlapping virtual-depth ranges, D = 24.
#include "lightbench/mla_geometry.hpp"

namespace lb::test {

inline MlaGeometry r42_like() {
  MlaGeometry g;
  g.kind = MlaKind::Hexagonal;
  g.offset = {12.3, 12.7};
  g.diameter = 24.0;
  g.base_x = {1.0, 0.0};
  g.base_y = {0.5, -0.8660254037844386};
  g.sub_grid_base = {3.0, -1.7320508075688772};
  g.types = {{{0.0, 0.0}, 1.0, 3.0}, {{1.0, 0.0}, 2.8, 4.0}, {{-1.0, 0.0}, 3.8, 100.0}};
  return g;
}

}  // namespace lb::test
