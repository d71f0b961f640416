#pragma once
// Stereo matching as a viewer algorithm: hierarchical belief propagation
// (../shared/specs/stereo-bp.md) and center-biased local windows (stereo-local.md) on the
// same rectified pair, so the two disparity maps sit side by side with the ground truth:
//   bp, local              disparity maps (R32F, 0 .. ndisp-1)
//   bp_error, local_error  Middlebury error maps: wrong pixels (|d - gt| > 1) highlighted
//   left, right, truth     the inputs
// Variants are named "bp/<kernel>" and "local/<kernel>"; the panel holds one choice per
// method and a pane's variant override applies to the method of its output. The CPU
// backend runs each method's reference. Disparity count is shared by both methods.
#include <memory>
#include <string>

#include "algorithm.hpp"
#include "lightbench/algorithms.hpp"
#include "lightbench/stereo.hpp"
#include "lightbench/stereo_bp.hpp"
#include "lightbench/stereo_io.hpp"
#include "lightbench/stereo_local.hpp"
#include "lightbench/stereo_metrics.hpp"

namespace lb::viewer {

class StereoAlgorithm final : public Algorithm {
 public:
  StereoAlgorithm();
  ~StereoAlgorithm() override;
  std::string name() const override { return "stereo: belief propagation & local windows"; }
  DataKind data_kind() const override { return DataKind::StereoPair; }
  std::uint64_t data_id() const override { return data_ ? data_->id : 0; }
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
  RunRequest request(BackendPool& pool, BackendSlot slot, const PaneRun& run, const std::string& output) override;
  void accept(const RunResult& result) override;
  DisplayHints display(const std::string& output) const override;
  nlohmann::json run_json(const PaneRun& run) override;
  nlohmann::json results_json() const override;
  void timing_sources(std::vector<TimingSource>& out) override;
  void workers(std::vector<RunWorker*>& out) override {
    bp_.workers(out);
    local_.workers(out);
  }
  void open_startup(const ViewerOptions& options) override;

  // A Middlebury folder (imL/imR/groundtruth/masks); all-or-nothing.
  void open(const std::string& folder);
  // The bundled synthetic pair: two textured planes with ground truth.
  void generate(unsigned seed);

 private:
  struct Params {
    stereo::BpParams bp;
    stereo::LocalParams local;
  };
  Params effective(const PaneRun& run) const;
  static std::vector<ParamInfo> describe_all(Params& p);  // BP then local (without ndisp)
  // The variant name (without "bp/" or "local/") a pane runs for a method.
  std::string variant_for(const PaneRun& run, bool bp) const;
  void install(stereo::StereoScene scene);

  std::shared_ptr<const StereoData> data_;
  Params params_;
  int bp_variant_, local_variant_;  // indices into the per-method lists (registers, fused)
  std::unique_ptr<gl::GlTextureSurface> left_tex_, right_tex_, truth_tex_;
  RunnerSet bp_{"stereo-bp"}, local_{"stereo-local"};
  nlohmann::json bp_scores_ = nlohmann::json::object(), local_scores_ = nlohmann::json::object();
  std::string path_field_, open_error_;
  double gt_scale_ = 0;  // --gt-scale (0: the scale known by the folder's name)
};

}  // namespace lb::viewer
