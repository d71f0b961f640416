// stereo-bp: how the viewer shows it (display_decl.hpp). The lead of the viewer's "stereo"
// entry: belief propagation and local windows (stereo_local_display.cpp) side by side on one
// pair, BP's disparity as "bp" (its error "bp_error"), its variants "bp/<name>". Disparities
// on 0..ndisp-1.
#include <algorithm>

#include "lightbench/algorithm.hpp"

namespace lb {

DisplayDecl stereo_bp_display() {
  DisplayDecl d;
  d.group = "stereo";
  d.group_name = "stereo: belief propagation & local windows";
  d.prefix = "bp";
  d.label = "belief propagation";
  d.rename = {{"disparity", "bp"}, {"error", "bp_error"}};
  d.default_panes = [](const AlgorithmData*) { return std::pair<std::string, std::string>{"bp", "local"}; };
  d.display = [](const std::string& out, const ParamValues& p, const nlohmann::json&, const AlgorithmData*) {
    if (out == "disparity" || out == "truth") return display_range(0.0, std::max(1.0, param_or(p, "ndisp", 16) - 1));
    return OutputDisplay{};
  };
  return d;
}

}  // namespace lb
