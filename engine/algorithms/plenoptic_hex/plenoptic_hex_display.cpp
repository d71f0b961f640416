// plenoptic-hex: how the viewer shows it (display_decl.hpp). As the rectangular plenoptic
// algorithm (panes, depth/truth/error ranges), but its raw is drawn with the micro-lens
// circles of the scene's general grid instead of a rectangular grid.
#include "lightbench/algorithm.hpp"

namespace lb {

DisplayDecl plenoptic_display();  // plenoptic/plenoptic_display.cpp

DisplayDecl plenoptic_hex_display() {
  DisplayDecl d = plenoptic_display();
  const auto base = d.display;
  d.display = [base](const std::string& out, const ParamValues& p, const nlohmann::json& scores,
                     const AlgorithmData* data) {
    OutputDisplay o = base(out, p, scores, data);
    o.overlay = out == "raw" ? OverlayKind::LensCircles : OverlayKind::None;
    return o;
  };
  return d;
}

}  // namespace lb
