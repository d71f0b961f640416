#pragma once
// The focused-plenoptic raw as a viewer algorithm (../shared/specs/plenoptic.md):
//   view    the rendered view at the panel's patch size (RGBA8)
//   depth   SAD depth over patch sizes pmin..pmax (R32F, value = chosen patch size)
//   aif     all-in-focus render: each pixel at its own depth's patch size (RGBA8)
//   error   |depth - truth| when the scene's ground truth is at the same output patch M
//   raw, truth   the inputs (truth: the generator's patch-size map)
// Variants Original / Sync / NoSync apply to the render and the depth kernels alike (the
// Original with the seed's four switches); the CPU backend is the reference. Depth is also
// kept on the host (the CPU backend's own result, or a CUDA rerun into host memory) to
// score it against ground truth and to build the error map. On CUDA the all-in-focus render
// reads the depth map on the device (ComputeBackend::render_all_in_focus).
// The algorithm owns the scene (SceneStore) and draws its Scene and Grid panel sections
// (plenoptic_scene_section.cpp): open a raw / scene.json, generate a preset, edit the grid.
#include <cstdint>
#include <string>

#include "algorithm.hpp"
#include "lightbench/algorithms.hpp"
#include "lightbench/plenoptic_depth.hpp"
#include "scene_store.hpp"

namespace lb::viewer {

class PlenopticAlgorithm final : public Algorithm {
 public:
  PlenopticAlgorithm();
  std::string name() const override { return "plenoptic: render & depth"; }
  DataKind data_kind() const override { return DataKind::PlenopticScene; }
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
  const gl::GlTextureSurface* input_texture(const std::string& output) const override;
  RunRequest request(BackendPool& pool, BackendSlot slot, const PaneRun& run, const std::string& output) override;
  void accept(const RunResult& result) override;
  DisplayHints display(const std::string& output) const override;
  nlohmann::json run_json(const PaneRun& run) override;
  nlohmann::json results_json() const override;
  nlohmann::json data_json() const override;
  // --scene, or --raw with --pitch/--offset/--grid, or --preset/--seed (default: the bundled
  // preset "small"). On failure the bundled scene is loaded and lb::Error says why.
  void open_startup(const ViewerOptions& options) override;
  bool opens_files() const override { return true; }
  void open_file(const std::string& path) override;
  void timing_sources(std::vector<TimingSource>& out) override { runners_.timing_sources(out); }
  void workers(std::vector<RunWorker*>& out) override { runners_.workers(out); }

 private:
  // The panel's parameters with a pane's variant / parameter override applied.
  PlenopticRunParams effective(const PaneRun& run) const;
  std::string variant_name(const PaneRun& run) const;
  ParamValues values(PlenopticRunParams p) const;
  std::vector<ParamInfo> describe_all(PlenopticRunParams& p) const;

  // After a new scene: the grid fields follow it, the parameters fit it.
  void scene_replaced();
  void load_startup_scene(const ViewerOptions& options);
  void draw_scene_section(DataRequest& req);
  void draw_grid_section();
  // Applies grid_edit_ (grid_error_ says why not; the previous grid stays).
  void apply_grid_edit();

  SceneStore scene_;
  // Panel state of the Scene and Grid sections.
  std::string path_field_;       // "open" field
  int preset_index_ = 1;         // generator preset combo
  int seed_ = 1;
  PlenopticGrid grid_edit_;      // grid fields (applied when valid)
  std::string grid_error_;
  bool show_grid_ = true;        // the micro-image grid over the raw image
  PlenopticRunParams params_;
  RenderVariant variant_ = RenderVariant::NoSync;
  RunnerSet runners_{"plenoptic"};
  nlohmann::json scores_ = nlohmann::json::object();
};

}  // namespace lb::viewer
