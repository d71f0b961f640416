// plenoptic: how the viewer shows it (display_decl.hpp). Panes: the rendered view, and the
// ground truth when the scene has one, else the raw. Depth, truth and error on one scale from
// pmin..pmax (widened to the truth's range, so depth and truth compare colour for colour); the
// raw with the micro-image grid over it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>

#include "lightbench/algorithm.hpp"

namespace lb {

// The truth's value range (min, max; max > min) of a plenoptic scene; false without truth.
// Shared with plenoptic-hex (plenoptic_hex_display.cpp), whose data is the same kind.
// Measured once per data (ids are unique per content): a slider dragged over a depth pane asks
// again every frame.
bool plenoptic_truth_range(const AlgorithmData* data, double* lo, double* hi) {
  if (!data || data->kind() != DataKind::PlenopticScene || !data->has_truth()) return false;
  static std::mutex mutex;
  static std::uint64_t measured = 0;
  static double measured_lo = 0, measured_hi = 1;
  const std::lock_guard<std::mutex> lock(mutex);
  if (measured != data->id) {
    const ImageF& truth = data_as<PlenopticData>(*data, DataKind::PlenopticScene).scene.truth;
    const auto [mn, mx] = std::minmax_element(truth.data.begin(), truth.data.end());
    measured_lo = *mn;
    measured_hi = *mx > *mn ? *mx : *mn + 1.0f;
    measured = data->id;
  }
  *lo = measured_lo;
  *hi = measured_hi;
  return true;
}

DisplayDecl plenoptic_display() {
  DisplayDecl d;
  d.default_panes = [](const AlgorithmData* data) {
    return std::pair<std::string, std::string>{"view", data && data->has_truth() ? "truth" : "raw"};
  };
  d.display = [](const std::string& out, const ParamValues& p, const nlohmann::json&, const AlgorithmData* data) {
    const double pmin = param_or(p, "pmin", 1), pmax = param_or(p, "pmax", 2);
    OutputDisplay o;
    if (out == "raw") {
      o.overlay = OverlayKind::MicroGrid;
    } else if (out == "depth" || out == "truth") {
      double tlo = 0, thi = 0;
      if (plenoptic_truth_range(data, &tlo, &thi))
        return display_range(std::min(pmin, std::floor(tlo)), std::max(pmax, std::ceil(thi)));
      return display_range(pmin, pmax);
    } else if (out == "error") {
      return display_range(0.0, std::max(1.0, pmax - pmin));
    }
    return o;
  };
  return d;
}

}  // namespace lb
