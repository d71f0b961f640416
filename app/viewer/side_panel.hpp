#pragma once
// The side panel: backend / device / transport, the shown algorithm's data sections (the
// plenoptic scene and grid), algorithm (variant, switches, live parameters), display and
// difference settings, timings.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "algorithm.hpp"
#include "backend_pool.hpp"
#include "diff_stats.hpp"
#include "image_pane.hpp"
#include "viewer_state.hpp"

namespace lb::viewer {

struct SidePanelContext {
  ViewerState& state;
  BackendPool& pool;
  std::vector<std::unique_ptr<Algorithm>>& algorithms;
  int& algorithm_index;
  std::array<ImagePane, 2>& panes;
  const DiffStats* diff;          // difference mode statistics (null when off)
  std::string gl_description;
};

// Draws the panel as a window pinned to the left edge (width state.panel_width, full height).
PanelActions draw_side_panel(SidePanelContext& ctx, float height);

}  // namespace lb::viewer
