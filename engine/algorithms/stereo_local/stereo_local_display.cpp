// stereo-local: how the viewer shows it (display_decl.hpp). The second part of the viewer's
// "stereo" entry (stereo_bp_display.cpp leads it): its disparity as "local" (its error
// "local_error"), its variants "local/<name>", the disparity count shared with BP.
// Disparities on 0..ndisp-1.
#include <algorithm>

#include "lightbench/algorithm.hpp"

namespace lb {

DisplayDecl stereo_local_display() {
  DisplayDecl d;
  d.group = "stereo";
  d.prefix = "local";
  d.label = "local windows (disparities shared)";
  d.rename = {{"disparity", "local"}, {"error", "local_error"}};
  d.display = [](const std::string& out, const ParamValues& p, const nlohmann::json&, const AlgorithmData*) {
    if (out == "disparity" || out == "truth") return display_range(0.0, std::max(1.0, param_or(p, "ndisp", 16) - 1));
    return OutputDisplay{};
  };
  return d;
}

}  // namespace lb
