#pragma once
// How a front end shows an algorithm, declared by the algorithm's module next to its spec
// (engine/algorithms/<id>/<id>_display.cpp; AlgorithmSpec::display). The viewer reads only
// this: which specs share one entry (stereo: BP and local windows side by side), the names
// --algorithm also accepts, the two panes it opens with, and per output the value range of a
// scalar map and the overlay drawn over it. An algorithm that declares nothing gets its own
// entry, its first result and first input in the panes, and no ranges (the map's min..max).
//
// Pure declarations: no UI. The viewer draws an overlay only when the data section's switch
// for that kind is on ("show the grid", "show the lenses") and takes its geometry from the
// data (a plenoptic scene's grid or micro-lens geometry).
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lightbench/params.hpp"  // ParamValues

namespace lb {

struct AlgorithmData;

// What is drawn over an output's image.
enum class OverlayKind {
  None,
  MicroGrid,    // the rectangular micro-image grid of a plenoptic scene
  LensCircles,  // the micro-lens circles of a scene's general grid (MlaGeometry)
};

// How one output is shown.
struct OutputDisplay {
  bool has_range = false;  // scalar outputs: [min, max] through the colour map (else min..max of the map)
  double min = 0.0, max = 1.0;
  OverlayKind overlay = OverlayKind::None;
};

// A range [lo, hi]; hi <= lo becomes lo + 1 (a colour bar never has zero width).
inline OutputDisplay display_range(double lo, double hi) {
  OutputDisplay d;
  d.has_range = true;
  d.min = lo;
  d.max = hi > lo ? hi : lo + 1.0;
  return d;
}

// A parameter's value in `values`, or `fallback` when it is not there.
inline double param_or(const ParamValues& values, const std::string& name, double fallback) {
  const auto it = values.find(name);
  return it == values.end() ? fallback : it->second;
}

struct DisplayDecl {
  // ---- one entry for several specs ----------------------------------------------------
  // Specs with the same group are one entry, in registry order; the first is its lead. ""
  // : an entry of its own, named by the spec's id and name.
  std::string group;       // the entry's --algorithm id ("stereo")
  std::string group_name;  // the entry's label (read from the lead)
  // A part's role in its group: the prefix of its variants ("bp/registers"), of its sidecar
  // blocks and of the panel's values; its panel label; its outputs' names in the entry
  // ("disparity" -> "bp"). Unused without a group.
  std::string prefix;
  std::string label;
  std::map<std::string, std::string> rename;

  // ---- choosing it -------------------------------------------------------------------
  // Other names --algorithm accepts for the entry ("lf"), compared case-insensitively. The
  // data flags of the viewer's command line choose by data kind (the first entry on the data
  // they name; a general grid: CommandDef::general_grid_algorithm), not by name.
  std::vector<std::string> aliases;

  // ---- panes and outputs -------------------------------------------------------------
  // The two panes' outputs when the entry is chosen, in the entry's names (a group's renamed
  // outputs), for the data (nullptr: none yet). Read from the lead. Null: the first result
  // and the first input.
  std::function<std::pair<std::string, std::string>(const AlgorithmData* data)> default_panes;
  // How `output` (the spec's own name) is shown for the panel's values (every part's), the
  // part's latest scores and the data (nullptr: none yet). Null: no range, no overlay. Called
  // whenever one of them changed (not every frame), so it may read the data once.
  std::function<OutputDisplay(const std::string& output, const ParamValues& params,
                              const nlohmann::json& scores, const AlgorithmData* data)>
      display;
};

}  // namespace lb
