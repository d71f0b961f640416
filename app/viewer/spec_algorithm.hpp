#pragma once
// The one viewer adapter: an Algorithm made from AlgorithmSpecs of lb::builtin_registry().
// Outputs, variants (with their notes as tooltips), parameters (sliders from the ParamInfo
// table, ranges for the data), run keys and runs all come from the spec; per algorithm only
// its data section (data_section.hpp, one per DataKind) remains; how outputs are shown (ranges,
// overlays, default panes, groups) is the spec's display declaration (display_decl.hpp). Every
// LB_REGISTER_ALGORITHM'ed algorithm gets one automatically (algorithms.cpp).
//
// Several specs on the same data may share one entry (stereo: BP and local windows side by
// side): each is a "part" with a prefix; its outputs are renamed ("disparity" -> "bp"), its
// variants read "bp/<name>", parameters it shares with an earlier part (ndisp) are set once,
// and the sidecar's params and results nest under the prefix.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend_pool.hpp"
#include "data_section.hpp"
#include "lightbench/algorithm.hpp"
#include "lightbench/gl/gl_texture_surface.hpp"
#include "param_store.hpp"
#include "run_worker.hpp"
#include "runner_set.hpp"
#include "viewer_types.hpp"

namespace lb::viewer {

struct SpecPart {
  std::string spec_id;
  std::string prefix;                         // "" for an algorithm of one spec
  std::map<std::string, std::string> rename;  // spec output -> viewer output
  std::string label;                          // its group in the panel ("" : the spec's name)
};

// An entry of the viewer's algorithm combo: one spec, or several that declare the same
// display group (layouts.cpp reads the specs' display declarations, display_decl.hpp).
struct AlgorithmLayout {
  std::string id;    // --algorithm name ("stereo"); "" : the spec's id
  std::string name;  // the combo's label; "" : the spec's name
  std::vector<SpecPart> parts;
  std::vector<std::string> aliases;  // other names --algorithm accepts ("lf")
  // The algorithm of general micro-lens grids (some command's
  // CommandDef::general_grid_algorithm): its data section opens calibrated raws and edits
  // their geometry (make_plenoptic_section).
  bool general_grid = false;
};

class SpecAlgorithm {
 public:
  SpecAlgorithm(AlgorithmLayout layout, std::unique_ptr<DataSection> section);
  ~SpecAlgorithm();
  SpecAlgorithm(const SpecAlgorithm&) = delete;
  SpecAlgorithm& operator=(const SpecAlgorithm&) = delete;

  std::string name() const { return name_; }
  std::string id() const { return layout_.id; }  // what --algorithm names ("plenoptic", "stereo", "absdiff")
  // Whether --algorithm NAME names it: its id or one of its aliases, any case.
  bool named(const std::string& name) const;
  bool general_grid() const { return layout_.general_grid; }
  DataKind data_kind() const { return section_->kind(); }
  // Changes whenever the data changes (part of every pane's key).
  std::uint64_t data_id() const;
  // Whether the data is there to run on (*why: what is missing).
  bool ready(std::string* why) const;

  // Variants: one list over every part ("bp/registers", "local/fused2" for stereo); the
  // panel keeps one choice per part, current_variant() is the first part's.
  std::vector<std::string> variants() const;
  int current_variant() const;
  void set_variant(int index);
  // Outputs available now (results first, then the data's inputs; "truth" only with ground truth).
  std::vector<AlgorithmOutput> outputs() const;
  // The two panes' default outputs when this algorithm is chosen.
  std::pair<std::string, std::string> default_panes() const;

  // The panel's live parameters, bound to the panel's values (ranges fit the data).
  std::vector<ParamInfo> live_params();
  // Side-panel headers above the "Algorithm" one (the plenoptic Scene and Grid).
  DataRequest draw_data_section();
  // The "Algorithm" section: the data section, variants, generated sliders. True when
  // anything that changes an output changed.
  bool draw_controls();
  // Under the controls: the runners' figures of the latest runs.
  void draw_results();
  // Brings the parameters into range after the data changed; back to the defaults.
  void data_changed();
  void reset_params();

  // Equal keys mean identical images (the viewer adds the data id, backend and algorithm).
  std::string run_key(const PaneRun& run, const std::string& output);
  // Input outputs whose texture the data section holds (no run needed); nullptr otherwise.
  const gl::GlTextureSurface* input_texture(const std::string& output) const {
    return section_->input_texture(output);
  }
  // Phase one of a run, on the UI thread: the snapshot that computes `output` for the pane
  // on the backend of `slot` (run_worker.hpp); the worker executes it with nothing else.
  // Throws lb::Error on an unavailable backend or an unknown output.
  RunRequest request(BackendPool& pool, BackendSlot slot, const PaneRun& run, const std::string& output);
  // The result of the pane's latest request, on the UI thread: its part keeps the scores.
  void accept(const RunResult& result);
  // How the output is shown: the range and overlay its spec declares (display_decl.hpp), the
  // overlay's geometry from the data section when its switch is on.
  DisplayHints display(const std::string& output) const;
  // The effective parameters of a run, for reports (screenshot sidecar).
  nlohmann::json run_json(const PaneRun& run);
  // The figures draw_results() shows, for reports; {} when none.
  nlohmann::json results_json() const;
  // How the data's 16-bit files became 8 bits (lb::conversion_notes), "" when none was
  // converted: the panes' status lines say it.
  std::string conversion_notes() const;
  // Top-level sidecar blocks describing the data (the plenoptic "scene").
  nlohmann::json data_json() const { return section_->data_json(); }
  // The data's truth as eval::evaluate takes it (foreign maps are scored on it); null: none.
  const eval::Truth* eval_truth() const { return section_->eval_truth(); }
  // Timing registries and workers of the runners.
  void timing_sources(std::vector<TimingSource>& out);
  void workers(std::vector<RunWorker*>& out);

  // Starts reading the command line's data (--lf, --stereo, --ref ...) on the section's
  // loader (DataSection::open_startup). The parameters start from their defaults.
  void open_startup(const ViewerOptions& options);
  // Data of another kind the command line asks its section to make (--views); nullptr: none.
  std::shared_ptr<const AlgorithmData> startup_conversion(const ViewerOptions& options) const {
    return section_->startup_conversion(options);
  }
  // Whether a folder / a file opened from the panel or dropped is this algorithm's data.
  bool opens_folders() const { return section_->opens_folders(); }
  void open_folder(const std::string& path) { section_->open_path(path); }
  void take_data(const std::shared_ptr<const AlgorithmData>& data) { section_->take_data(data); }
  bool takes(const AlgorithmData& data) const { return section_->takes(data); }
  std::shared_ptr<const AlgorithmData> data() const { return section_->data(); }  // nullptr: none yet
  bool opens_files() const { return section_->opens_files(); }
  // The data section's loads off the UI thread (data_loader.hpp).
  DataLoader& loader() { return section_->loader(); }
  const DataLoader& loader() const { return section_->loader(); }
  void open_file(const std::string& path) { section_->open_path(path); }
  // Image pairs: the last two colour panes of the other algorithms can become the pair
  // (handed over with take_data).
  bool take_compare_request() { return section_->take_compare_request(); }

 private:
  struct Part {
    SpecPart desc;
    const AlgorithmSpec* spec;
    RunnerSet runners;
    ParamStore store;
    int variant = 0;  // index into spec->variant_names()
    nlohmann::json scores = nlohmann::json::object();
    explicit Part(SpecPart d);
  };
  // The viewer output's part and spec output name; false when it has none.
  bool resolve(const std::string& output, std::size_t* part, std::string* spec_output) const;
  std::string viewer_name(const Part& p, const std::string& spec_output) const;
  std::string variant_for(const PaneRun& run, std::size_t part) const;
  // The values a run of `part` gets: its own, shared ones from earlier parts, the override.
  ParamValues values_for(std::size_t part, const PaneRun& run) const;
  ParamValues panel_values() const;
  // Rebinds the parameter tables when the data changed (keeping values that still fit).
  void sync_data() const;

  AlgorithmLayout layout_;
  // The latest declared displays by output, data, panel values and scores (a plenoptic
  // truth's range reads the whole map: not every frame).
  mutable std::map<std::string, OutputDisplay> display_cache_;
  std::string name_;
  std::unique_ptr<DataSection> section_;
  std::vector<std::unique_ptr<Part>> parts_;
  mutable std::uint64_t params_for_ = 0;  // the data id the parameter tables fit
};

// Every algorithm of the registry, grouped by the specs' display groups (layouts.cpp).
std::vector<AlgorithmLayout> algorithm_layouts();

}  // namespace lb::viewer
