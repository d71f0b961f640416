#pragma once
// Plain types shared by the viewer's algorithm (spec_algorithm.hpp), its data sections and
// the panes.
#include <memory>
#include <string>

#include "lightbench/algorithm.hpp"
#include "lightbench/mla_geometry.hpp"
#include "lightbench/plenoptic_params.hpp"
#include "lightbench/surface.hpp"

namespace lb::viewer {

// What a pane asks for on top of the panel's settings.
struct PaneRun {
  int variant = -1;              // index into variants(); -1: the panel's choice
  std::string override_param;    // name of a live parameter this pane sets itself ("": none)
  double override_value = 0.0;
};

struct AlgorithmOutput {
  std::string name;     // "view", "depth", "raw", "truth"
  std::string label;    // "rendered view"
  SurfaceFormat format;
  bool input = false;   // shows the data, not a computed result (no backend, no variant)
  std::string unit = "";  // scalar outputs: the colour bar's unit (OutputInfo::unit)
};

// How the display shader should show an output (scalar range, overlays).
struct DisplayHints {
  bool has_range = false;  // scalar outputs: map [range_min, range_max] through the colour map
  float range_min = 0.0f, range_max = 1.0f;
  bool micro_grid = false;  // draw the plenoptic micro-image grid over the image (when the
                            // algorithm's own "show the grid" switch is on)
  PlenopticGrid grid;
  bool lens_overlay = false;  // draw the lens circles of `lenses` over the image (lens_overlay.hpp)
  MlaGeometry lenses;
};

struct ViewerOptions;

// What an algorithm's data section asks of the viewer after a frame.
struct DataRequest {
  std::string open_path;  // open this path as if dropped (a folder goes to the folder opener)
  // With a calibration (.xml): open_path is its raw (empty: the raw open now) and the pair
  // opens as a scene with that micro-lens geometry (ViewerApp::open_calibrated).
  std::string calib_path;
  bool replaced = false;  // new data in place: the viewer fits the panes, clears the error line
  // Data made for another algorithm (the plenoptic raw as a light field of views): the viewer
  // hands it to the section of its kind (DataSection::take_data) and shows that algorithm.
  std::shared_ptr<const AlgorithmData> hand_over;
  std::string error;      // a failed action (the previous data stays): the viewer reports it
};

}  // namespace lb::viewer
