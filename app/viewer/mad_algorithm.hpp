#pragma once
// The MAD image-quality metric (../shared/specs/mad.md) as a viewer algorithm:
//   hi, lo                 the detection map HI (visible distortions) and the appearance
//                          map LO (appearance change), full size (R32F)
//   reference, distorted   the inputs
// The distorted image is loaded, generated live from the reference (blur, white noise,
// JPEG quality, contrast, each with a strength slider), or taken from the other
// algorithms' panes ("compare the panes": pane A becomes the reference, pane B the
// distorted image, e.g. a NoSync render against the CPU render). The panel shows MAD,
// d_detect and d_appear. Variants are the CUDA local-statistics kernels; the CPU runs the
// double-precision reference.
#include <memory>
#include <string>

#include "algorithm.hpp"
#include "param_store.hpp"
#include "lightbench/algorithms.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/distort.hpp"
#include "lightbench/mad.hpp"

namespace lb::viewer {

class MadAlgorithm final : public Algorithm {
 public:
  MadAlgorithm();
  ~MadAlgorithm() override;
  std::string name() const override { return "image quality: MAD"; }
  DataKind data_kind() const override { return DataKind::ImagePair; }
  std::uint64_t data_id() const override { return data_ ? data_->id : 0; }
  bool ready(std::string* why) const override;
  std::vector<std::string> variants() const override;
  int current_variant() const override { return variant_; }
  void set_variant(int index) override;
  std::vector<AlgorithmOutput> outputs() const override;
  std::pair<std::string, std::string> default_panes() const override { return {"distorted", "hi"}; }
  std::vector<ParamInfo> live_params() override;
  bool draw_controls() override;
  void draw_results() override;
  void data_changed() override {}
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
  bool compares_pane_images() const override { return true; }
  void set_pane_images(const ImageU8& a, const ImageU8& b, const std::string& source) override {
    set_images(a, b, source);
  }

  // Sets the reference (and, when `distorted` is not empty, a fixed distorted image; else
  // the distortion is generated from the reference). Same size, >= 34 x 34; throws lb::Error.
  void set_images(const ImageU8& reference, const ImageU8& distorted, const std::string& source);
  void open(const std::string& reference_path, const std::string& distorted_path);
  // Set by the panel: the app should hand over the two panes' images (set_images).
  bool take_compare_request() override {
    const bool r = compare_requested_;
    compare_requested_ = false;
    return r;
  }

 private:
  struct Params {
    // Defaults: assets/mad/default_distortion.json.
    int distortion = 1 + bundled_distortion().kind;  // 0: none (loaded / pane image), 1 + DistortKind
    float strength = bundled_distortion().strength;  // in the kind's units (blur sigma, noise std, JPEG 100-quality, contrast)
    int seed = bundled_distortion().seed;
  };
  void refresh_distorted();
  std::string variant_name(const PaneRun& run) const;
  // The spec's parameters (eight_bit) with the pane's override.
  ParamValues spec_values(const PaneRun& run) const;

  ImageU8 reference_, loaded_distorted_, distorted_;
  std::string source_;
  std::shared_ptr<const ImagePairData> data_;  // reference_ and distorted_ for the runners
  Params params_;
  std::string distorted_key_;
  int variant_ = 3;  // "fused"
  std::unique_ptr<gl::GlTextureSurface> ref_tex_, dist_tex_;
  RunnerSet runners_{"mad"};
  ParamStore spec_params_;  // the spec's parameter table (eight_bit), bound for the panel
  nlohmann::json scores_ = nlohmann::json::object();
  std::string ref_field_, dist_field_, open_error_;
  bool compare_requested_ = false;
};

}  // namespace lb::viewer
