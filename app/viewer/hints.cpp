// What the viewer knows about the built-in algorithms beyond their specs: which specs share
// an entry (stereo), the default panes, and display hints (value ranges of scalar outputs,
// the micro-image grid over the plenoptic raw). An algorithm without an entry here (any
// LB_REGISTER_ALGORITHM'ed one) gets a default layout: its own spec, no hints.
#include <algorithm>
#include <cmath>

#include "lightbench/runners.hpp"
#include "spec_algorithm.hpp"

namespace lb::viewer {
namespace {

double param(const HintContext& c, const char* name, double fallback) {
  const auto it = c.params.find(name);
  return it == c.params.end() ? fallback : it->second;
}

DisplayHints range(double lo, double hi) {
  DisplayHints h;
  h.has_range = true;
  h.range_min = static_cast<float>(lo);
  h.range_max = static_cast<float>(hi > lo ? hi : lo + 1.0);
  return h;
}

AlgorithmLayout plenoptic() {
  AlgorithmLayout l;
  l.parts = {{"plenoptic", "", {}, ""}};
  l.default_panes = [](const DataSection& s) {
    const auto d = s.data();
    return std::pair<std::string, std::string>{"view", d && d->has_truth() ? "truth" : "raw"};
  };
  l.display = [](const std::string& out, const HintContext& c) {
    DisplayHints h;
    const double pmin = param(c, "pmin", 1), pmax = param(c, "pmax", 2);
    if (out == "raw") {
      h.micro_grid = c.section.micro_grid(&h.grid);
    } else if (out == "depth" || out == "truth") {
      // One scale for depth and truth so the two panes compare colour for colour.
      float tlo = 0, thi = 0;
      if (c.section.truth_range(&tlo, &thi)) return range(std::min(pmin, std::floor(double(tlo))), std::max(pmax, std::ceil(double(thi))));
      return range(pmin, pmax);
    } else if (out == "error") {
      return range(0.0, std::max(1.0, pmax - pmin));
    }
    return h;
  };
  return l;
}

// The general-grid algorithm (hexagonal, rotated, multi-focus grids): the plenoptic layout,
// its raw drawn with the lens circles instead of the rectangular grid.
AlgorithmLayout plenoptic_hex() {
  AlgorithmLayout l = plenoptic();
  l.parts = {{"plenoptic-hex", "", {}, ""}};
  l.general_grid = true;
  const auto base = l.display;
  l.display = [base](const std::string& out, const HintContext& c) {
    DisplayHints h = base(out, c);
    h.micro_grid = false;
    if (out == "raw") h.lens_overlay = c.section.lens_overlay(&h.lenses);
    return h;
  };
  return l;
}

AlgorithmLayout lightfield() {
  AlgorithmLayout l;
  l.parts = {{"lightfield", "", {}, ""}};
  l.default_panes = [](const DataSection&) { return std::pair<std::string, std::string>{"view", "depth"}; };
  l.display = [](const std::string& out, const HintContext& c) {
    if (out == "depth" || out == "truth" || out == "refined" || out == "filtered")
      return range(param(c, "dmin", 0), param(c, "dmax", 1));
    if (out == "error" || out == "refined_error") return range(0.0, 0.5);  // small errors stay visible
    if (out == "confidence") return range(0.0, 1.0);
    return DisplayHints{};
  };
  return l;
}

AlgorithmLayout stereo() {
  AlgorithmLayout l;
  l.id = "stereo";
  l.name = "stereo: belief propagation & local windows";
  l.parts = {{"stereo-bp", "bp", {{"disparity", "bp"}, {"error", "bp_error"}}, "belief propagation"},
             {"stereo-local", "local", {{"disparity", "local"}, {"error", "local_error"}},
              "local windows (disparities shared)"}};
  l.default_panes = [](const DataSection&) { return std::pair<std::string, std::string>{"bp", "local"}; };
  l.display = [](const std::string& out, const HintContext& c) {
    if (out == "bp" || out == "local" || out == "truth") return range(0.0, std::max(1.0, param(c, "ndisp", 16) - 1));
    return DisplayHints{};
  };
  return l;
}

AlgorithmLayout mad() {
  AlgorithmLayout l;
  l.parts = {{"mad", "", {}, ""}};
  l.default_panes = [](const DataSection&) { return std::pair<std::string, std::string>{"distorted", "hi"}; };
  l.display = [](const std::string& out, const HintContext& c) {
    if (out != "hi" && out != "lo") return DisplayHints{};
    // The 99.5th percentile of the map (heavy tails), as the runner measured it.
    const double q = c.scores.value(out == "hi" ? "hi_p995" : "lo_p995", 1.0);
    return range(0.0, q > 0 ? q : 1.0);
  };
  return l;
}

}  // namespace

std::vector<AlgorithmLayout> algorithm_layouts() {
  const std::vector<AlgorithmLayout> builtin = {plenoptic(), plenoptic_hex(), lightfield(), stereo(), mad()};
  std::vector<AlgorithmLayout> out;
  for (const AlgorithmSpec& spec : builtin_registry().all()) {
    const AlgorithmLayout* found = nullptr;
    bool later_part = false;
    for (const auto& l : builtin)
      for (std::size_t k = 0; k < l.parts.size(); ++k)
        if (l.parts[k].spec_id == spec.id) {
          found = &l;
          later_part = k > 0;
        }
    if (later_part) continue;  // shown by the layout of its first part
    if (found) {
      out.push_back(*found);
      continue;
    }
    AlgorithmLayout l;  // any other registered algorithm: its spec as it is
    l.parts = {{spec.id, "", {}, ""}};
    out.push_back(l);
  }
  return out;
}

}  // namespace lb::viewer
