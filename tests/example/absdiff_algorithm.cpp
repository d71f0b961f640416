// The contract's example algorithm, built only into the test build's front ends
// (lightbench-cli-example, lightbench-example): the per-pixel absolute difference of an image
// pair, |gain * (distorted - reference)| on the luminance, with a threshold. It exists to prove
// that an algorithm plugs in with its own files and the one registration line at the bottom,
// and that a variant is its file + one row of the table below (absdiff_rows.cpp):
// the CLI gets its command, options, --variant, outputs and JSON report, the viewer its combo
// entry, parameters and panes, with no edit to any generic file (docs/DESIGN.md).
#include <cmath>
#include <memory>

#include "absdiff.hpp"
#include "lightbench/algorithm.hpp"
#include "lightbench/algorithms.hpp"
#include "lightbench/distort.hpp"
#include "lightbench/error.hpp"
#include "lightbench/variant_table.hpp"

namespace lb::example {

// The variants' launchers, each in its own file.
void absdiff_reference(const ImagePairData&, const AbsDiffParams&, ImageF&);  // absdiff_reference.cpp
void absdiff_rows(const ImagePairData&, const AbsDiffParams&, ImageF&);       // absdiff_rows.cpp

namespace {

// The variants, one row each (name, method, bit-identical, note, CPU) with its launcher.
const VariantTable<AbsDiffLaunch>& variants() {
  static const VariantTable<AbsDiffLaunch> table(
      "absdiff",
      {{{"reference", "", true, "the CPU reference (the example has no CUDA runner)", true}, &absdiff_reference},
       {{"rows", "", true, "the rows in parallel on the CPU's threads", true}, &absdiff_rows}});
  return table;
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
    AbsDiffParams p;
    apply_values(describe(p), values);
    const std::string name = variant.empty() ? "reference" : variant;
    ImageF diff(d.reference.width, d.reference.height, 1);
    {
      ScopedCpuTimer timer(timings_, "absdiff/difference");
      variants().at(name)(d, p, diff);
    }
    double sum = 0;
    std::size_t changed = 0;
    for (const float v : diff.data) {
      sum += v;
      changed += v > 0.0f;
    }
    last_variant_ = name;
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
  s.variants = variants().infos();
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
  // `bench absdiff`: a generated pair (the reference's texture, the distorted one noisier).
  s.workloads = {{"small", "a generated 257x129 gray pair",
                  [] {
                    auto d = std::make_shared<ImagePairData>();
                    d->reference = synthetic_gray(257, 129, 7);
                    d->distorted = distort_noise(d->reference, 8, 3);
                    return std::shared_ptr<const AlgorithmData>(d);
                  },
                  {},
                  "difference"}};
  return s;
}

}  // namespace lb::example

using lb::example::absdiff_spec;
LB_REGISTER_ALGORITHM(absdiff_spec);
