// ViewerApp, start-up: the algorithm, data and settings named on the command line.
#include <algorithm>
#include <cctype>
#include <cstdio>

#include "lightbench/error.hpp"
#include "param_widgets.hpp"
#include "viewer_app.hpp"

namespace lb::viewer {

void ViewerApp::apply_options() {
  auto lower = [](std::string s) {
    for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  };
  // Algorithm: --algorithm (an id, or an alias its spec declares), or the first one on the
  // data the command line names (--lf, --stereo, --ref, a general grid: startup_data).
  const std::string want = lower(opt_.algorithm);
  if (!want.empty()) {
    bool found = false;
    std::string ids;
    for (int i = 0; i < static_cast<int>(algorithms_.size()); ++i) {
      ids += (ids.empty() ? "" : " | ") + algorithms_[i]->id();
      if (!found && algorithms_[i]->named(want)) {
        algorithm_index_ = i;
        found = true;
      }
    }
    if (!found) report("unknown --algorithm " + quote_untrusted(opt_.algorithm) + " (" + ids + ")");
  } else if (const auto named = startup_data(opt_)) {
    for (int i = static_cast<int>(algorithms_.size()) - 1; i >= 0; --i)
      if (algorithms_[i]->data_kind() == named->kind && (!named->general_grid || algorithms_[i]->general_grid()))
        algorithm_index_ = i;
  }
  // Each algorithm starts reading what the command line names for it (--lf, --stereo,
  // --ref/--dist, the scene) on its loader; the first frames show the panes' defaults without
  // it (or the bundled data), and finish_startup() applies the rest when it is in.
  for (auto& a : algorithms_) {
    try {
      a->open_startup(opt_);
    } catch (const std::exception& e) {
      report(e.what());
    }
  }
  show_algorithm_defaults();
}

void ViewerApp::finish_startup() {
  startup_pending_ = false;
  // The parameters start from the defaults for the data the start-up opened (or fell back to).
  for (auto& a : algorithms_) {
    a->data_changed();
    a->reset_params();
  }
  auto lower = [](std::string s) {
    for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  };
  if (!opt_.views.empty()) open_startup_views();
  Algorithm& algo = algorithm();
  if (!opt_.variant.empty()) {
    const auto names = algo.variants();
    bool found = false;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (lower(names[i]) == lower(opt_.variant)) {
        algo.set_variant(static_cast<int>(i));
        found = true;
      }
    }
    if (!found) report("unknown --variant " + quote_untrusted(opt_.variant) + " for " + algo.name());
  }

  auto params = algo.live_params();
  auto set = [&](const char* name, double v, const char* flag) {
    const ParamInfo* p = find_param(params, name);
    if (!p) return;
    if (v < p->min || v > p->max) {
      char range[64];
      std::snprintf(range, sizeof range, "%g..%g", p->min, p->max);
      report(std::string(flag) + " out of range (" + range + "), clamped");
    }
    set_param_value(*p, v);
  };
  if (opt_.patch) set("patch", *opt_.patch, "--patch");
  if (opt_.lim) set("lim", *opt_.lim, "--lim");
  if (opt_.sigma) set("sigma", *opt_.sigma, "--sigma");
  if (opt_.view) {
    try {
      const auto [sx, sy] = parse_number_pair("--view", *opt_.view);
      set("view_x", sx, "--view");
      set("view_y", sy, "--view");
    } catch (const std::exception& e) {
      report(e.what());
    }
  }

  // Default panes: the algorithm's (plenoptic: A the rendered view, B the ground truth or
  // the raw image).
  show_algorithm_defaults();
  if (opt_.pane_test && algo.data_kind() == DataKind::PlenopticScene) panes_[1].source.output = "raw";
  const std::string* specs[2] = {&opt_.pane1, &opt_.pane2};
  for (int i = 0; i < 2; ++i) {
    if (specs[i]->empty()) continue;
    try {
      panes_[i].source = parse_pane_source(*specs[i], algo);
    } catch (const std::exception& e) {
      report(std::string("--pane") + std::to_string(i + 1) + ": " + e.what());
    }
  }
  state_.diff = opt_.diff || opt_.signed_diff;
  state_.signed_diff = opt_.signed_diff;
  state_.linked = !opt_.unlinked;
  if (opt_.zoom && *opt_.zoom > 0) {
    for (auto& v : views_) {
      v.t.zoom = *opt_.zoom;
      v.pending = PaneView::Pending::None;
    }
  }
  if (opt_.pane_test) {
    state_.hover_readout = false;
    state_.linked = false;
  }
  after_data_change();
}

// --views UxV and the like: the data the command line asks a section to make from its own
// (DataSection::startup_conversion), the shown algorithm's section first, handed over.
void ViewerApp::open_startup_views() {
  try {
    std::shared_ptr<const AlgorithmData> made = algorithm().startup_conversion(opt_);
    for (const auto& a : algorithms_)
      if (!made) made = a->startup_conversion(opt_);
    LB_REQUIRE(made != nullptr, "--views: no plenoptic scene is open");
    hand_over(made);
  } catch (const std::exception& e) {
    report(e.what());
  }
}

void ViewerApp::after_data_change() {
  if (!opt_.zoom)
    for (auto& v : views_) v.pending = PaneView::Pending::Fit;
  // Panes set up for another algorithm get its defaults in build_ui().
  if (algorithm_index_ != shown_algorithm_) return;
  const std::vector<AlgorithmOutput> outs = algorithm().outputs();
  std::string first_input;
  for (const auto& o : outs)
    if (o.input && first_input.empty()) first_input = o.name;
  for (auto& p : panes_) {
    bool offered = false;
    for (const auto& o : outs) offered |= o.name == p.source.output;
    if (!offered && !first_input.empty()) p.source.output = first_input;
  }
}

}  // namespace lb::viewer
