#pragma once
// --crop X,Y,W,H: a region of every written output (the CLI-only knob of every command).
#include <string>

#include "lightbench/surface.hpp"

namespace lb::cli {

struct Region {
  int x = 0, y = 0, w = 0, h = 0;
  bool empty() const { return w == 0; }
};

// "" -> the empty region (no crop). Digits only; throws lb::Error naming the option.
Region parse_region(const std::string& option, const std::string& text);
// The region of s (a copy of s when r is empty); throws lb::Error when r is not inside it.
HostSurface cropped(const HostSurface& s, const Region& r, const std::string& option);

}  // namespace lb::cli
