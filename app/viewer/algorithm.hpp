#pragma once
// What the viewer needs from an algorithm, so new ones plug in without touching the panes
// or the panel: its variants, named outputs, live parameters (generated from lb::ParamInfo),
// a key identifying the image a run would give (the viewer renders only when it changes),
// and run() into any lb::Surface.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lightbench/backend.hpp"
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
  std::string name;     // "view"
  std::string label;    // "rendered view"
  SurfaceFormat format;
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual std::string name() const = 0;
  virtual std::vector<std::string> variants() const = 0;
  virtual int current_variant() const = 0;
  virtual void set_variant(int index) = 0;
  virtual std::vector<AlgorithmOutput> outputs() const = 0;

  // The panel's live parameters, bound to the algorithm's state (ranges depend on the grid).
  virtual std::vector<ParamInfo> live_params(const PlenopticGrid& grid) = 0;
  // Side-panel section: variant, its switches, generated sliders. True when anything changed.
  virtual bool draw_controls(const PlenopticGrid& grid) = 0;
  // Brings the parameters into range after the grid changed.
  virtual void fit_to_grid(const PlenopticGrid& grid) = 0;
  virtual void reset_params(const PlenopticGrid& grid) = 0;

  // Equal keys mean identical images.
  virtual std::string run_key(const PlenopticGrid& grid, const PaneRun& run,
                              const std::string& output) = 0;
  // Renders `output` into `out` (resizing it). Throws lb::Error on bad parameters.
  virtual void run(ComputeBackend& backend, const PlenopticGrid& grid, const PaneRun& run,
                   const std::string& output, Surface& out) = 0;
  // The effective parameters of a run, for reports (screenshot sidecar).
  virtual nlohmann::json run_json(const PlenopticGrid& grid, const PaneRun& run) = 0;
};

// The algorithms the viewer offers (one line per algorithm).
std::vector<std::unique_ptr<Algorithm>> make_algorithms(const PlenopticGrid& grid);

}  // namespace lb::viewer
