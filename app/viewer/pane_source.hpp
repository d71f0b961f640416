#pragma once
// What one image pane shows: an algorithm output (from a chosen backend, variant and an
// optional parameter override, e.g. Sync vs NoSync, GPU vs CPU, two patch sizes), the raw
// image, or the generator's ground-truth patch-size map.
//
// Text form (--pane1 / --pane2): comma-separated key=value pairs, e.g.
//   output=view,backend=cuda,variant=sync,patch=9     output=raw     output=truth
// keys: output (an algorithm output name | raw | truth), backend (selected | cpu | cuda),
// variant (a variant name | panel), and at most one live parameter name (override).
#include <string>

#include "algorithm.hpp"
#include "backend_pool.hpp"

namespace lb::viewer {

struct PaneSource {
  enum class Kind { Algorithm, Raw, Truth };
  Kind kind = Kind::Algorithm;
  std::string output = "view";  // algorithm output name (Kind::Algorithm)
  BackendSlot backend = BackendSlot::Selected;
  PaneRun run;
};

// Throws lb::Error naming the bad key or value.
PaneSource parse_pane_source(const std::string& spec, Algorithm& algorithm,
                             const PlenopticGrid& grid);
// Short label, e.g. "view | cuda | sync | patch=9".
std::string describe(const PaneSource& s, Algorithm& algorithm);

struct PaneSourceUi {
  Algorithm* algorithm;
  const PlenopticGrid* grid;
  bool has_truth;
  bool cuda_possible;
  std::string cuda_why;
};
// Compact editor (one row of combos + an override slider). True when the source changed.
bool edit_pane_source(PaneSource& s, const PaneSourceUi& ui);

}  // namespace lb::viewer
