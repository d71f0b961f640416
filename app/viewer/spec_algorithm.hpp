#pragma once
// The one viewer adapter: an Algorithm made from AlgorithmSpecs of lb::builtin_registry().
// Outputs, variants (with their notes as tooltips), parameters (sliders from the ParamInfo
// table, ranges for the data), run keys and runs all come from the spec; per algorithm only
// its data section (data_section.hpp, one per DataKind) and display hints remain. Every
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

#include "algorithm.hpp"
#include "data_section.hpp"
#include "param_store.hpp"

namespace lb::viewer {

struct SpecPart {
  std::string spec_id;
  std::string prefix;                         // "" for an algorithm of one spec
  std::map<std::string, std::string> rename;  // spec output -> viewer output
  std::string label;                          // its group in the panel ("" : the spec's name)
};

struct HintContext {
  const ParamValues& params;    // the panel's values (all parts)
  const nlohmann::json& scores;  // the output's part's latest scores
  const DataSection& section;
};

// How the viewer shows an algorithm beyond its spec (hints.cpp has the built-in ones).
struct AlgorithmLayout {
  std::string id;    // --algorithm name ("stereo"); "" : the spec's id
  std::string name;  // the combo's label; "" : the spec's name
  std::vector<SpecPart> parts;
  // The two panes' outputs when the algorithm is chosen (null: first result, first input).
  std::function<std::pair<std::string, std::string>(const DataSection&)> default_panes;
  std::function<DisplayHints(const std::string& output, const HintContext&)> display;  // may be null
};

class SpecAlgorithm final : public Algorithm {
 public:
  SpecAlgorithm(AlgorithmLayout layout, std::unique_ptr<DataSection> section);
  ~SpecAlgorithm() override;

  std::string id() const override { return layout_.id; }
  std::string name() const override { return name_; }
  DataKind data_kind() const override { return section_->kind(); }
  std::uint64_t data_id() const override;
  bool ready(std::string* why) const override;
  std::vector<std::string> variants() const override;
  int current_variant() const override;
  void set_variant(int index) override;
  std::vector<AlgorithmOutput> outputs() const override;
  std::pair<std::string, std::string> default_panes() const override;
  std::vector<ParamInfo> live_params() override;
  DataRequest draw_data_section() override;
  bool draw_controls() override;
  void draw_results() override;
  void data_changed() override;
  void reset_params() override;
  std::string run_key(const PaneRun& run, const std::string& output) override;
  const gl::GlTextureSurface* input_texture(const std::string& output) const override {
    return section_->input_texture(output);
  }
  RunRequest request(BackendPool& pool, BackendSlot slot, const PaneRun& run, const std::string& output) override;
  void accept(const RunResult& result) override;
  DisplayHints display(const std::string& output) const override;
  nlohmann::json run_json(const PaneRun& run) override;
  nlohmann::json results_json() const override;
  nlohmann::json data_json() const override { return section_->data_json(); }
  void timing_sources(std::vector<TimingSource>& out) override;
  void workers(std::vector<RunWorker*>& out) override;
  void open_startup(const ViewerOptions& options) override;
  bool opens_folders() const override { return section_->opens_folders(); }
  void open_folder(const std::string& path) override { section_->open_path(path); }
  bool opens_files() const override { return section_->opens_files(); }
  void open_file(const std::string& path) override { section_->open_path(path); }
  bool compares_pane_images() const override { return section_->compares_pane_images(); }
  bool take_compare_request() override { return section_->take_compare_request(); }
  void set_pane_images(const ImageU8& a, const ImageU8& b, const std::string& source) override {
    section_->set_pane_images(a, b, source);
  }

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
  std::string name_;
  std::unique_ptr<DataSection> section_;
  std::vector<std::unique_ptr<Part>> parts_;
  mutable std::uint64_t params_for_ = 0;  // the data id the parameter tables fit
};

// Every algorithm of the registry, grouped by the built-in layouts (hints.cpp).
std::vector<AlgorithmLayout> algorithm_layouts();

}  // namespace lb::viewer
