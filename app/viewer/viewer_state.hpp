#pragma once
// UI state shared by the side panel, the image area and the app (no GL objects here).
#include <cstdint>
#include <memory>
#include <string>

#include "lightbench/algorithm.hpp"
#include "lightbench/gl/image_display.hpp"

namespace lb::viewer {

struct ViewerState {
  bool linked = true;          // one zoom/pan for both panes
  bool diff = false;           // right pane shows |A - B| (or A - B: signed_diff)
  bool signed_diff = false;    // the signed difference through the diverging map
  bool auto_diff_max = true;   // heat-map scale = max error
  gl::DisplayStyle style;      // exposure, colour map, difference scale, pixel grid
  bool use_interop = true;     // CUDA-GL interop when possible
  bool hover_readout = true;   // pixel value under the cursor
  bool pane_test = false;      // --pane-test layout

  std::string error;           // the red one-line message
  std::string timing_plot;     // "backend/kernel" plotted
  float panel_width = 420.0f;  // logical pixels
  double last_run_ms = 0.0;    // the slowest pane run of the last frame that ran one (slow: sliders apply on release)
};

// What the panel asks the app to do after this frame.
struct PanelActions {
  std::string open_path;       // non-empty: open this file or folder
  std::string calib_path;      // DataRequest::calib_path
  std::shared_ptr<const AlgorithmData> hand_over;  // DataRequest::hand_over
  bool data_replaced = false;  // the shown algorithm's data section opened new data
  std::string data_error;      // the data section's failed action (reported)
  bool params_changed = false;
  bool interop_toggled = false;
  bool fit = false;            // fit both panes
  bool one_to_one = false;     // 1:1 in both panes
};

}  // namespace lb::viewer
