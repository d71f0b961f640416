// MAD image quality (seed 001, ../shared/specs/mad.md) in the contract:
//   hi   detection map HI (R32F)     lo   appearance map LO (R32F)
//   reference, distorted   the data
// The variant picks the local-statistics kernel on CUDA; the CPU runs the double reference.
// Scores: MAD, d_detect, d_appear of the pair, and the 99.5 % quantiles of the maps (the
// viewer's display scale for these heavy-tailed maps).
#include "lightbench/algorithms.hpp"
#include "mad/mad_engine.hpp"
#include "lightbench/error.hpp"
#include "lightbench/memory_budget.hpp"

namespace lb {
namespace {

const AlgorithmSpec& spec() {
  static const AlgorithmSpec s = mad_spec();
  return s;
}

struct MadRunParams {
  bool eight_bit = true;
};

std::vector<ParamInfo> describe(MadRunParams& p) {
  return {{"eight_bit", "8-bit input", "integer input 0..255 through the reference's luminance table",
           ParamInfo::Kind::Bool, &p.eight_bit, 0, 1}};
}

class MadRunner final : public Runner {
 public:
  explicit MadRunner(std::unique_ptr<MadEngine> e) : e_(std::move(e)) {
    LB_REQUIRE(e_ != nullptr, "MAD runner without an evaluator");
  }
  BackendKind kind() const override { return e_->kind(); }
  TimingRegistry& timings() override { return e_->timings(); }
  std::string device_name() const override { return e_->device_name(); }
  void set_data(std::shared_ptr<const AlgorithmData> data) override {
    const auto& d = data_as<ImagePairData>(*data, DataKind::ImagePair);
    LB_REQUIRE(!d.reference.empty() && !d.distorted.empty(), "MAD: the image pair is incomplete");
    // The budget before the double-precision gray copies (as large as the run's planes).
    check_host_memory("MAD", mad_host_bytes(d.reference.width, d.reference.height, 1));
    ref_ = mad_gray(d.reference);
    dst_ = mad_gray(d.distorted);
    data_ = std::move(data);
    key_.clear();
    scores_ = nlohmann::json::object();
  }

  void forget_results() override { key_.clear(); }

  void run(const ParamValues& values, const std::string& variant_in, const std::string& output,
           Surface& out) override {
    LB_REQUIRE(data_ != nullptr, "MAD: no image pair");
    const auto& d = static_cast<const ImagePairData&>(*data_);
    if (write_image_pair_input(d, output, out)) return;
    LB_REQUIRE(output == "hi" || output == "lo", "MAD: no output '" + output + "'");
    MadRunParams p;
    apply_values(describe(p), values);
    const std::string variant = spec().resolve_variant(variant_in);
    const std::string key = std::to_string(data_->id) + "|" + variant + "|" + std::to_string(p.eight_bit);
    if (key != key_) {
      key_.clear();
      // The memory budget (memory_budget.hpp): refused before the run, the caller keeps its image.
      check_host_memory("MAD", mad_host_bytes(ref_.width, ref_.height, 1));
      if (e_->kind() == BackendKind::Cuda) check_device_memory("MAD", mad_device_bytes(ref_.width, ref_.height));
      MadOptions o;
      o.eight_bit = p.eight_bit;
      const MadResult r = e_->run_keep(ref_, dst_, e_->kind() == BackendKind::Cuda ? variant : "", o);
      last_variant_ = r.variant;
      scores_ = {{"mad", r.mad},
                 {"d_detect", r.d_detect},
                 {"d_appear", r.d_appear},
                 {"ms", r.ms},
                 {"cropped_odd", r.cropped_odd},
                 {"hi_p995", e_->map_quantile(true, 0.995)},
                 {"lo_p995", e_->map_quantile(false, 0.995)},
                 {"ran", e_->device_name() + ", " + r.variant}};
      key_ = key;
    }
    e_->map_to_surface(output == "hi", out);
  }

 private:
  std::unique_ptr<MadEngine> e_;
  ImageD ref_, dst_;
  std::string key_;
};

}  // namespace

std::vector<CommandDef> mad_commands();  // mad_commands.cpp

std::vector<Workload> mad_workloads();  // mad_workloads.cpp
DisplayDecl mad_display();  // mad_display.cpp
AlgorithmSpec mad_spec() {
  AlgorithmSpec s;
  s.id = "mad";
  s.name = "MAD image quality";
  s.spec = "../shared/specs/mad.md";
  s.data = DataKind::ImagePair;
  s.outputs = {{"hi", "detection map HI (visible distortion x local error)", SurfaceFormat::R32F, false, false,
                {"eight_bit"}},
               {"lo", "appearance map LO (change of log-Gabor statistics)", SurfaceFormat::R32F, false, false,
                {"eight_bit"}},
               {"distorted", "distorted image", SurfaceFormat::RGBA8, true, false, {}},
               {"reference", "reference image", SurfaceFormat::RGBA8, true, false, {}}};
  set_output_units(s.outputs, {{"hi", "MAD"}, {"lo", "MAD"}});
  s.variants = {{"gather", "", false, "statistics: one thread per block, samples in local memory (the seed's)"},
                {"shared", "", false, "statistics: shared-memory tile laid out [x][y] (the seed's)"},
                {"shared_nc", "", false, "statistics: shared tile without bank conflicts"},
                {"fused", "", false, "statistics: 4x4 cell moments merged (Chan/Pebay), one pass"}};
  s.default_variant = "fused";
  s.params = [](const AlgorithmData*) {
    MadRunParams p;
    return param_table(describe(p));
  };
  s.validate = [](const ParamValues& v, const AlgorithmData& d) {
    const auto& pair = data_as<ImagePairData>(d, DataKind::ImagePair);
    MadRunParams p;
    apply_values(describe(p), v);  // the table's ranges, as the runner applies them
    // The budget first: the check below makes the double-precision gray copies.
    check_host_memory("MAD", mad_host_bytes(pair.reference.width, pair.reference.height, 1));
    MadOptions o;
    validate_mad_input(mad_gray(pair.reference), mad_gray(pair.distorted), o);
  };
  s.cpu = [] { return make_mad_runner(make_mad_engine_cpu()); };
  s.commands = mad_commands();
  s.workloads = mad_workloads();
  s.display = mad_display();
  return s;
}

std::unique_ptr<Runner> make_mad_runner(std::unique_ptr<MadEngine> evaluator) {
  return std::make_unique<MadRunner>(std::move(evaluator));
}


}  // namespace lb
