// The contract's example algorithm, built only into the test build's front ends
// (lightbench-cli-example, lightbench-example): the per-pixel absolute difference of an image
// pair, |gain * (distorted - reference)| on the luminance, with a threshold. It exists to prove
// that an algorithm plugs in with its own file and the one registration line at the bottom:
// the CLI gets its command, options, --variant, outputs and JSON report, the viewer its combo
// entry, parameters and panes, with no edit to any generic file (docs/DESIGN.md).
#include <cmath>
#include <memory>

#include "lightbench/algorithm.hpp"
#include "lightbench/algorithms.hpp"
#include "lightbench/error.hpp"

namespace lb::example {
namespace {

struct AbsDiffParams {
  float gain = 1.0f;    // scales the difference
  int threshold = 0;    // differences at or below it (after the gain) count as equal
};

std::vector<ParamInfo> describe(AbsDiffParams& p) {
  return {{"gain", "gain", "scales the difference before the threshold", ParamInfo::Kind::Float, &p.gain, 0.0625,
           16.0},
          {"threshold", "threshold", "differences at or below it count as 0", ParamInfo::Kind::Int, &p.threshold, 0,
           255}};
}

// Rec. 601 luminance of an 8-bit pixel (1 or 3+ channels).
float luma(const ImageU8& img, std::size_t i) {
  const int c = img.channels;
  const std::uint8_t* p = &img.data[i * static_cast<std::size_t>(c)];
  if (c < 3) return p[0];
  return 0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2];
}

class AbsDiffRunner final : public Runner {
 public:
  BackendKind kind() const override { return BackendKind::Cpu; }
  std::string device_name() const override { return "CPU (example)"; }
  void set_data(std::shared_ptr<const AlgorithmData> data) override {
    const auto& d = data_as<ImagePairData>(*data, DataKind::ImagePair);
    LB_REQUIRE(d.reference.width == d.distorted.width && d.reference.height == d.distorted.height,
               "absdiff: the images differ in size");
    data_ = std::move(data);
    scores_ = nlohmann::json::object();
  }
  void run(const ParamValues& values, const std::string& variant, const std::string& output,
           Surface& out) override {
    LB_REQUIRE(data_ != nullptr, "absdiff: no image pair");
    const auto& d = static_cast<const ImagePairData&>(*data_);
    if (write_image_pair_input(d, output, out)) return;
    LB_REQUIRE(output == "difference", "absdiff: no output '" + output + "'");
    (void)variant;  // one CPU reference
    AbsDiffParams p;
    apply_values(describe(p), values);
    ScopedCpuTimer timer(timings_, "absdiff/difference");
    ImageF diff(d.reference.width, d.reference.height, 1);
    double sum = 0;
    std::size_t changed = 0;
    for (std::size_t i = 0; i < diff.data.size(); ++i) {
      float v = std::fabs(p.gain * (luma(d.distorted, i) - luma(d.reference, i)));
      if (v <= static_cast<float>(p.threshold)) v = 0.0f;
      diff.data[i] = v;
      sum += v;
      changed += v > 0.0f;
    }
    last_variant_ = "reference";
    scores_ = {{"mean_abs_diff", diff.data.empty() ? 0.0 : sum / static_cast<double>(diff.data.size())},
               {"changed_pixels", changed}};
    out.resize(diff.width, diff.height);
    out.upload_host(diff);
  }
};

}  // namespace

AlgorithmSpec absdiff_spec() {
  AlgorithmSpec s;
  s.id = "absdiff";
  s.name = "example: absolute difference";
  s.spec = "tests/example/absdiff_algorithm.cpp";
  s.data = DataKind::ImagePair;
  s.outputs = {{"difference", "|gain x (distorted - reference)| of the luminance", SurfaceFormat::R32F, false, false,
                {"gain", "threshold"}, false},
               {"reference", "reference image", SurfaceFormat::RGBA8, true, false, {}},
               {"distorted", "distorted image", SurfaceFormat::RGBA8, true, false, {}}};
  set_output_units(s.outputs, {{"difference", "levels"}});
  s.variants = {{"reference", "", true, "the CPU reference (the example has no CUDA runner)"}};
  s.default_variant = "reference";
  s.params = [](const AlgorithmData*) {
    AbsDiffParams p;
    return param_table(describe(p));
  };
  s.validate = [](const ParamValues& values, const AlgorithmData& d) {
    const auto& pair = data_as<ImagePairData>(d, DataKind::ImagePair);
    LB_REQUIRE(pair.reference.width == pair.distorted.width && pair.reference.height == pair.distorted.height,
               "absdiff: the reference and the distorted image differ in size");
    AbsDiffParams p;
    apply_values(describe(p), values);
  };
  s.cpu = [] { return std::make_unique<AbsDiffRunner>(); };
  return s;
}

}  // namespace lb::example

using lb::example::absdiff_spec;
LB_REGISTER_ALGORITHM(absdiff_spec);
