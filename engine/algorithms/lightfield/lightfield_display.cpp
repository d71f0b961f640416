// lightfield: how the viewer shows it (display_decl.hpp). Panes: the centre view and the
// depth. Disparity maps on dmin..dmax, errors on 0..0.5 px (small errors stay visible),
// confidence on 0..1. --algorithm also accepts "lf".
#include "lightbench/algorithm.hpp"

namespace lb {

DisplayDecl lightfield_display() {
  DisplayDecl d;
  d.aliases = {"lf"};
  d.default_panes = [](const AlgorithmData*) { return std::pair<std::string, std::string>{"view", "depth"}; };
  d.display = [](const std::string& out, const ParamValues& p, const nlohmann::json&, const AlgorithmData*) {
    if (out == "depth" || out == "truth" || out == "refined" || out == "filtered")
      return display_range(param_or(p, "dmin", 0), param_or(p, "dmax", 1));
    if (out == "error" || out == "refined_error") return display_range(0.0, 0.5);
    if (out == "confidence") return display_range(0.0, 1.0);
    return OutputDisplay{};
  };
  return d;
}

}  // namespace lb
