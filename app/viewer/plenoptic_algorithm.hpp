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
#include <cstdint>
#include <string>

#include "algorithm.hpp"
#include "lightbench/algorithms.hpp"
#include "lightbench/plenoptic_depth.hpp"

namespace lb::viewer {

class PlenopticAlgorithm final : public Algorithm {
 public:
  explicit PlenopticAlgorithm(SceneStore& scene);
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
  bool draw_controls() override;
  void draw_results() override;
  void data_changed() override;
  void reset_params() override;
  std::string run_key(const PaneRun& run, const std::string& output) override;
  const gl::GlTextureSurface* input_texture(const std::string& output) const override;
  void run(BackendPool& pool, BackendSlot slot, const PaneRun& run, const std::string& output,
           Surface& out) override;
  DisplayHints display(const std::string& output) const override;
  nlohmann::json run_json(const PaneRun& run) override;
  nlohmann::json results_json() const override;
  void timing_sources(std::vector<TimingSource>& out) override { runners_.timing_sources(out); }
  void synchronize() override { runners_.synchronize(); }

 private:
  // The panel's parameters with a pane's variant / parameter override applied.
  PlenopticRunParams effective(const PaneRun& run) const;
  std::string variant_name(const PaneRun& run) const;
  ParamValues values(PlenopticRunParams p) const;
  std::vector<ParamInfo> describe_all(PlenopticRunParams& p) const;

  SceneStore& scene_;
  PlenopticRunParams params_;
  RenderVariant variant_ = RenderVariant::NoSync;
  RunnerSet runners_{"plenoptic"};
  nlohmann::json scores_ = nlohmann::json::object();
};

}  // namespace lb::viewer
