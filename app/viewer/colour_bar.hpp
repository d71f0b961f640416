#pragma once
// The colour bar of a scalar pane: the colour map, the value range it maps (the shader's
// u_range, or +-diff_max / [0, diff_max] in difference mode) and the unit of the values.
// Drawn with ImGui's draw list from lightbench/colormap.hpp's host copy of the shader's map,
// so the bar matches the pane (and is in screenshots); reported in the sidecar.
#include <string>

#include <nlohmann/json.hpp>

#include "lightbench/colormap.hpp"

namespace lb::viewer {

struct ColourBar {
  bool shown = false;
  ColorMap map = ColorMap::Turbo;
  double lo = 0, hi = 1;
  std::string unit;   // "px", "patch", "MAD", ... ("" : none)
  std::string label;  // "A - B", "|A - B|" in difference mode; "" otherwise
};

// 3 significant digits ("0.0123", "45.7", "1.23e+03").
std::string bar_value(double v);
// {"map", "min", "max", "unit", "label"}; null when not shown.
nlohmann::json to_json(const ColourBar& bar);
// A vertical bar at the right edge of the region (logical pixels: x, y, w, h), with the
// max at the top, the min at the bottom and the unit; nothing when the region is too small.
// box (when given) receives the drawn box x, y, w, h (all 0 when nothing was drawn): it
// covers that part of the image (the sidecar reports it, tests look around it).
// Drawn into ImGui's background draw list: over the GL-drawn panes, under every ImGui window
// (a combo's list opened over a pane stays on top).
void draw_colour_bar(const ColourBar& bar, float x, float y, float w, float h, float box[4] = nullptr);

}  // namespace lb::viewer
