#pragma once
// What one image pane shows: an output of the current algorithm (from a chosen backend,
// variant and an optional parameter override, e.g. Sync vs NoSync, GPU vs CPU, two patch
// sizes), or one of its inputs (the raw image, the ground truth, a light-field view, ...), or a
// file (another method's disparity map, any image: foreign_map.hpp).
//
// Text form (--pane1 / --pane2): comma-separated key=value pairs, e.g.
//   output=view,backend=cuda,variant=sync,patch=9     output=raw     output=truth
//   file=PATH (the whole rest is the path, commas included)
//   remote:NAME (an image sent to the remote port, --listen; held in `file` as "remote:NAME")
// keys: output (an output name of the algorithm), backend (selected | cpu | cuda),
// variant (a variant name | panel), and at most one live parameter name (override).
#include <string>

#include "algorithm.hpp"
#include "backend_pool.hpp"

namespace lb::viewer {

struct PaneSource {
  std::string output = "view";  // algorithm output name
  BackendSlot backend = BackendSlot::Selected;
  PaneRun run;
  std::string file;        // non-empty: this file is shown instead of an output
  // The editor's path field and whether it is open ("file..." chosen, nothing opened yet).
  std::string file_field;
  bool file_editing = false;
};

// Throws lb::Error naming the bad key or value.
PaneSource parse_pane_source(const std::string& spec, Algorithm& algorithm);
// Short label, e.g. "view | cuda | sync | patch=9".
std::string describe(const PaneSource& s, Algorithm& algorithm);

// Whether `output` is one of the algorithm's inputs (no backend, variant or override).
bool is_input_output(Algorithm& algorithm, const std::string& output);

struct PaneSourceUi {
  Algorithm* algorithm;
  bool cuda_possible;
  std::string cuda_why;
};
// Compact editor (one row of combos + an override slider). True when the source changed.
bool edit_pane_source(PaneSource& s, const PaneSourceUi& ui);

}  // namespace lb::viewer
