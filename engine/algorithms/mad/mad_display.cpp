// mad: how the viewer shows it (display_decl.hpp). Panes: the distorted image and the
// detection map HI. HI and LO on 0..their 99.5th percentile (heavy tails), as the runner
// scored it ("hi_p995", "lo_p995"). --algorithm also accepts "iqa".
#include "lightbench/algorithm.hpp"

namespace lb {

DisplayDecl mad_display() {
  DisplayDecl d;
  d.aliases = {"iqa"};
  d.default_panes = [](const AlgorithmData*) { return std::pair<std::string, std::string>{"distorted", "hi"}; };
  d.display = [](const std::string& out, const ParamValues&, const nlohmann::json& scores, const AlgorithmData*) {
    if (out != "hi" && out != "lo") return OutputDisplay{};
    const double q = scores.value(out == "hi" ? "hi_p995" : "lo_p995", 1.0);
    return display_range(0.0, q > 0 ? q : 1.0);
  };
  return d;
}

}  // namespace lb
