#pragma once
// What the viewer needs from an algorithm, so new ones plug in without touching the panes
// or the panel: the data it works on (each algorithm owns or shares a document: the
// plenoptic scene, a 4D light field, ...), its variants, named outputs (results and the
// inputs worth showing, such as the raw image or the ground truth), live parameters
// (generated from lb::ParamInfo), a key identifying the image a run would give (the viewer
// renders only when it changes), and run() into any lb::Surface.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend_pool.hpp"
#include "lightbench/algorithm.hpp"
#include "run_worker.hpp"
#include "runner_set.hpp"
#include "lightbench/gl/gl_texture_surface.hpp"
#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"
#include "lightbench/error.hpp"
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

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
};

// How the display shader should show an output (scalar range, overlays).
struct DisplayHints {
  bool has_range = false;  // scalar outputs: map [range_min, range_max] through the colour map
  float range_min = 0.0f, range_max = 1.0f;
  bool micro_grid = false;  // draw the plenoptic micro-image grid over the image (when the
                            // algorithm's own "show the grid" switch is on)
  PlenopticGrid grid;
};

struct ViewerOptions;

// What an algorithm's data section asks of the viewer after a frame.
struct DataRequest {
  std::string open_path;  // open this path as if dropped (a folder goes to the folder opener)
  bool replaced = false;  // new data in place: the viewer fits the panes, clears the error line
  std::string error;      // a failed action (the previous data stays): the viewer reports it
};

class Algorithm {
 public:
  virtual ~Algorithm() = default;
  virtual std::string name() const = 0;
  virtual std::string id() const = 0;  // what --algorithm names ("plenoptic", "stereo", "absdiff")
  virtual DataKind data_kind() const = 0;
  // Changes whenever the algorithm's data changes (part of every pane's key).
  virtual std::uint64_t data_id() const = 0;
  // Whether the data is there to run on (*why: what is missing).
  virtual bool ready(std::string* why) const = 0;

  virtual std::vector<std::string> variants() const = 0;
  virtual int current_variant() const = 0;
  virtual void set_variant(int index) = 0;
  // Outputs available now (e.g. "truth" only when the data has ground truth).
  virtual std::vector<AlgorithmOutput> outputs() const = 0;
  // The two panes' default outputs when this algorithm is chosen.
  virtual std::pair<std::string, std::string> default_panes() const = 0;

  // The panel's live parameters, bound to the algorithm's state (ranges fit the data).
  virtual std::vector<ParamInfo> live_params() = 0;
  // Side-panel sections above the "Algorithm" one, for data the algorithm keeps apart from
  // its controls (the plenoptic Scene and Grid headers); drawn only while it is shown.
  virtual DataRequest draw_data_section() { return {}; }
  // Side-panel section: data (when the algorithm owns it), variant, switches, generated
  // sliders. True when anything that changes an output changed.
  virtual bool draw_controls() = 0;
  // Side-panel section under the controls: scores against ground truth and other figures
  // of the latest run.
  virtual void draw_results() {}
  // Brings the parameters into range after the data changed.
  virtual void data_changed() = 0;
  virtual void reset_params() = 0;

  // Equal keys mean identical images (the data id is added by the viewer).
  virtual std::string run_key(const PaneRun& run, const std::string& output) = 0;
  // Input outputs whose texture the data already holds (no run needed); nullptr otherwise.
  virtual const gl::GlTextureSurface* input_texture(const std::string& output) const {
    (void)output;
    return nullptr;
  }
  // Phase one of a run, on the UI thread: the snapshot that computes `output` for the pane
  // on the backend of `slot` (run_worker.hpp); the worker executes it with nothing else.
  // Throws lb::Error on an unavailable backend.
  virtual RunRequest request(BackendPool& pool, BackendSlot slot, const PaneRun& run,
                             const std::string& output) = 0;
  // The result of a request the viewer showed (the pane's latest), on the UI thread: the
  // algorithm keeps its scores for the panel and the sidecar.
  virtual void accept(const RunResult& result) = 0;
  virtual DisplayHints display(const std::string& output) const {
    (void)output;
    return {};
  }
  // The effective parameters of a run, for reports (screenshot sidecar).
  virtual nlohmann::json run_json(const PaneRun& run) = 0;
  // The figures draw_results() shows, for reports (screenshot sidecar); {} when none.
  virtual nlohmann::json results_json() const { return nlohmann::json::object(); }
  // Top-level blocks for the screenshot sidecar describing the algorithm's data (the
  // plenoptic "scene"), added whichever algorithm is shown; {} when none.
  virtual nlohmann::json data_json() const { return nlohmann::json::object(); }
  // Timing registries of the algorithm's runners.
  virtual void timing_sources(std::vector<TimingSource>& out) { (void)out; }
  // The workers of the algorithm's runners (results to collect, runs in flight).
  virtual void workers(std::vector<RunWorker*>& out) { (void)out; }

  // Opens the data the command line names for this algorithm (--lf, --stereo, --ref ...);
  // throws lb::Error with a message naming what could not be opened (the bundled data stays).
  virtual void open_startup(const ViewerOptions& options) { (void)options; }
  // Whether a folder opened from the panel or dropped on the window is this algorithm's data.
  virtual bool opens_folders() const { return false; }
  virtual void open_folder(const std::string& path) {
    (void)path;
    throw Error(name() + " opens no folders");
  }
  // Whether a file (not a folder) opened from the panel or dropped on the window is this
  // algorithm's data (the plenoptic raw image or scene.json). Throws lb::Error; the data stays.
  virtual bool opens_files() const { return false; }
  virtual void open_file(const std::string& path) {
    (void)path;
    throw Error(name() + " opens no files");
  }
  // Algorithms that compare the images other algorithms' panes showed (MAD): the viewer
  // keeps the last two colour panes of the other algorithms for them.
  virtual bool compares_pane_images() const { return false; }
  // True once after the user asked to compare the kept pane images.
  virtual bool take_compare_request() { return false; }
  virtual void set_pane_images(const ImageU8& a, const ImageU8& b, const std::string& source) {
    (void)a;
    (void)b;
    (void)source;
  }
};

// The algorithms the viewer offers, each owning its data.
std::vector<std::unique_ptr<Algorithm>> make_algorithms();

}  // namespace lb::viewer
