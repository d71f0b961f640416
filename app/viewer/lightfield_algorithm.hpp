#pragma once
// 4D light fields (sub-aperture views) as a viewer algorithm
// (../shared/specs/lightfield4d-cae.md):
//   view     the sub-aperture view (u, v), picked on the panel's angular pad by dragging
//            (parallax) or with the sliders
//   refocus  shift-and-add refocus at a live disparity with an aperture radius
//   depth    CAE disparity (R32F) on the pane's backend; the variant picks the kernel and
//            with it the method (cae / binned / exact); the CPU runs the double reference
//   error    |depth - truth| (when the light field has ground truth)
//   centre, truth   the centre view and the ground-truth disparity
// The light field is its own document: the bundled synthetic two-plane scene, or a folder
// (HCI input_CamNNN.png, view_U_V.png, NNN.png) opened from the panel or dropped on the window.
#include <memory>
#include <string>

#include "algorithm.hpp"
#include "lightbench/algorithms.hpp"
#include "lightbench/lightfield.hpp"

namespace lb::viewer {

class LightFieldAlgorithm final : public Algorithm {
 public:
  LightFieldAlgorithm();
  ~LightFieldAlgorithm() override;
  std::string name() const override { return "4D light field: refocus & CAE depth"; }
  DataKind data_kind() const override { return DataKind::LightField; }
  std::uint64_t data_id() const override { return data_ ? data_->id : 0; }
  bool ready(std::string* why) const override;
  std::vector<std::string> variants() const override;
  int current_variant() const override { return variant_; }
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
  void timing_sources(std::vector<TimingSource>& out) override { runners_.timing_sources(out); }
  void workers(std::vector<RunWorker*>& out) override { runners_.workers(out); }
  void open_startup(const ViewerOptions& options) override;
  bool opens_folders() const override { return true; }
  void open_folder(const std::string& path) override { open(path); }

  // Opens a light-field folder; all-or-nothing (throws lb::Error, the old one stays).
  void open(const std::string& folder);
  // The bundled synthetic scene (two planes, with ground truth).
  void generate(unsigned seed);
  const LightField4D& lightfield() const { return data_->lf; }

 private:
  using Params = LightFieldRunParams;
  Params effective(const PaneRun& run);
  std::vector<ParamInfo> describe_all(Params& p) { return describe(p, &data_->lf); }
  std::string variant_name(const PaneRun& run) const;
  void install(LightField4D lf);
  bool draw_angular_pad();

  std::shared_ptr<const LightFieldData> data_;
  Params params_;
  static int default_variant_index();  // "exact"
  int variant_;
  std::unique_ptr<gl::GlTextureSurface> centre_tex_, truth_tex_;
  float truth_min_ = 0, truth_max_ = 1;
  RunnerSet runners_{"lightfield"};
  nlohmann::json scores_ = nlohmann::json::object();
  std::string path_field_, open_error_;
  int seed_ = 1;
};

}  // namespace lb::viewer
