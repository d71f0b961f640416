// Stereo matching in the contract: hierarchical belief propagation (seed 004,
// ../shared/specs/stereo-bp.md) and center-biased local windows (seed 002, stereo-local.md):
//   disparity  the map, 0 .. ndisp-1 (R32F)     error  Middlebury error map (RGBA8, with truth)
//   left, right, truth   the data
// One runner shape for both methods, over the method's StereoEngine (CPU reference, or the
// CUDA matcher from kernels/, which keeps the map on the device for the error map and score).
#include <algorithm>
#include <sstream>

#include "lightbench/algorithms.hpp"
#include "lightbench/engines/stereo.hpp"
#include "lightbench/error.hpp"
#include "lightbench/memory_budget.hpp"

namespace lb {
namespace {

template <class P>
struct MethodTraits;
template <>
struct MethodTraits<stereo::BpParams> {
  static const AlgorithmSpec& spec() {
    static const AlgorithmSpec s = stereo_bp_spec();
    return s;
  }
  static stereo::BpParams params(const ParamValues& v) { return stereo_bp_params(v); }
  static std::uint64_t host_bytes(const stereo::BpParams& p, const ImageU8& l) {
    return stereo::bp_host_bytes(p, l.width, l.height, l.channels);
  }
  // The least a run takes (16-bit messages, which auto falls back to): the CUDA engine checks
  // the variant's own need against the device's free memory before allocating.
  static std::uint64_t device_bytes(const stereo::BpParams& p, const ImageU8& l) {
    return stereo::bp_device_bytes(p, l.width, l.height, 2);
  }
};
template <>
struct MethodTraits<stereo::LocalParams> {
  static const AlgorithmSpec& spec() {
    static const AlgorithmSpec s = stereo_local_spec();
    return s;
  }
  static stereo::LocalParams params(const ParamValues& v) { return stereo_local_params(v); }
  static std::uint64_t host_bytes(const stereo::LocalParams& p, const ImageU8& l) {
    return stereo::local_host_bytes(p, l.width, l.height, l.channels);
  }
  static std::uint64_t device_bytes(const stereo::LocalParams& p, const ImageU8& l) {
    return stereo::local_device_bytes(p, l.width, l.height);
  }
};

template <class P>
class StereoRunner final : public Runner {
 public:
  explicit StereoRunner(std::unique_ptr<stereo::StereoEngine<P>> m) : m_(std::move(m)) {
    LB_REQUIRE(m_ != nullptr, "stereo runner without a matcher");
  }
  BackendKind kind() const override { return m_->kind(); }
  TimingRegistry& timings() override { return m_->timings(); }
  std::string device_name() const override { return m_->device_name(); }
  void set_data(std::shared_ptr<const AlgorithmData> data) override {
    const auto& d = data_as<StereoData>(*data, DataKind::StereoPair);
    m_->set_pair(d.pair);
    data_ = std::move(data);
    key_.clear();
    scores_ = nlohmann::json::object();
  }

  void forget_results() override { key_.clear(); }

  void run(const ParamValues& values, const std::string& variant_in, const std::string& output,
           Surface& out) override {
    LB_REQUIRE(data_ != nullptr, "no stereo pair loaded");
    const auto& d = static_cast<const StereoData&>(*data_);
    if (output == "left" || output == "right") {
      const ImageU8 img = to_rgba(output == "left" ? d.pair.left : d.pair.right);
      out.resize(img.width, img.height);
      out.upload_host(img);
      return;
    }
    if (output == "truth") {
      LB_REQUIRE(!d.gt.empty(), "this pair has no ground truth");
      out.resize(d.gt.disparity.width, d.gt.disparity.height);
      out.upload_host(d.gt.disparity);
      return;
    }
    const AlgorithmSpec& spec = MethodTraits<P>::spec();
    const P p = MethodTraits<P>::params(values);
    // The table's name, with any kernel options (warp:G, hybrid:R,S) kept for the matcher.
    const std::string variant = spec.variant_for(BackendKind::Cuda, variant_in);
    validate(p, d.pair);
    // The memory budget (memory_budget.hpp): refused before the run, the caller keeps its image.
    // On CUDA the host keeps only the pair and the map (the volumes live on the device).
    const ImageU8& l = d.pair.left;
    check_host_memory(spec.name, m_->kind() == BackendKind::Cuda
                                     ? 2 * u8_bytes(l.width, l.height, l.channels) + 2 * f32_bytes(l.width, l.height)
                                     : MethodTraits<P>::host_bytes(p, l));
    if (m_->kind() == BackendKind::Cuda) check_device_memory(spec.name, MethodTraits<P>::device_bytes(p, d.pair.left));
    const std::string run_variant = m_->kind() == BackendKind::Cuda ? variant : "";
    if (output == "disparity") {
      m_->run_to_surface(p, run_variant, out);
      remember(p, variant);
    } else if (output == "error") {
      LB_REQUIRE(!d.gt.empty(), "this pair has no ground truth");
      if (key_ != key(p, variant)) {
        if (!scratch_) scratch_ = m_->scratch_surface(SurfaceFormat::R32F);
        m_->run_to_surface(p, run_variant, *scratch_);
        remember(p, variant);
      }
      m_->last_error_to_surface(d.gt, static_cast<float>(p.ndisp - 1), out);
    } else {
      throw Error(spec.name + ": no output '" + output + "'");
    }
  }

 private:
  std::string key(const P& p, const std::string& variant) const {
    std::ostringstream k;
    k << data_->id << '|' << variant;
    for (const auto& info : describe(const_cast<P&>(p))) k << '|' << info.get();
    return k.str();
  }
  void remember(const P& p, const std::string& variant) {
    key_ = key(p, variant);
    last_variant_ = m_->last_variant();
    const auto& d = static_cast<const StereoData&>(*data_);
    if (d.gt.empty()) {
      scores_ = {{"ms", m_->last_ms()}, {"ran", m_->device_name() + ", " + last_variant_}};
      return;
    }
    const stereo::StereoScore s = m_->score_last(d.gt);
    scores_ = {{"bad1_nonocc", s.nonocc.percent},
               {"bad1_all", s.all.percent},
               {"bad1_disc", s.disc.percent},
               {"evaluated_pixels", {{"nonocc", s.nonocc.pixels}, {"all", s.all.pixels}, {"disc", s.disc.pixels}}},
               {"ms", m_->last_ms()},
               {"ran", m_->device_name() + ", " + last_variant_}};
  }

  std::unique_ptr<stereo::StereoEngine<P>> m_;
  std::unique_ptr<Surface> scratch_;
  std::string key_;
};

std::vector<std::string> names(const std::vector<ParamInfo>& t) {
  std::vector<std::string> v;
  for (const auto& p : t) v.push_back(p.name);
  return v;
}

StereoData const* stereo_data(const AlgorithmData* d) {
  return d ? &data_as<StereoData>(*d, DataKind::StereoPair) : nullptr;
}

// The method's table for the pair (ranges that follow the data: BP's ndisp and tau_disc up to
// the width), its ndisp defaulting to the data set's (calib.txt's ndisp, the published table's).
std::vector<ParamInfo> describe_for(stereo::BpParams& p, const StereoData* s) {
  return stereo::describe(p, s ? s->pair.left.width : 0);
}
std::vector<ParamInfo> describe_for(stereo::LocalParams& p, const StereoData*) { return stereo::describe(p); }

template <class P>
ParamTable stereo_table(const AlgorithmData* d) {
  P p;
  const StereoData* s = stereo_data(d);
  if (s && s->ndisp_hint > 0) {
    const std::vector<ParamInfo> table = describe_for(p, s);
    p.ndisp = std::min(s->ndisp_hint, static_cast<int>(find_param(table, "ndisp")->max));
  }
  return param_table(describe_for(p, s));
}

}  // namespace

stereo::BpParams stereo_bp_params(const ParamValues& values) {
  stereo::BpParams p;
  apply_values(describe(p), values);
  return p;
}

stereo::LocalParams stereo_local_params(const ParamValues& values) {
  stereo::LocalParams p;
  apply_values(describe(p), values);
  return p;
}

namespace {

// What both stereo methods declare alike: the data, the outputs (the map and the error map
// depend on every parameter of the method), the table, validation and the CPU runner.
template <class P>
AlgorithmSpec stereo_spec(std::string id, std::string name, std::string spec_file, const std::string& method,
                          P (*params)(const ParamValues&), RunnerFactory cpu) {
  AlgorithmSpec s;
  s.id = std::move(id);
  s.name = std::move(name);
  s.spec = std::move(spec_file);
  s.data = DataKind::StereoPair;
  P p;
  const auto all = names(describe(p));
  s.outputs = {{"disparity", method + " disparity", SurfaceFormat::R32F, false, false, all},
               {"error", method + " errors (|d - gt| > 1 in red)", SurfaceFormat::RGBA8, false, true, all},
               {"left", "left image (reference)", SurfaceFormat::RGBA8, true, false, {}},
               {"right", "right image", SurfaceFormat::RGBA8, true, false, {}},
               {"truth", "ground-truth disparity", SurfaceFormat::R32F, true, true, {}}};
  set_output_units(s.outputs, {{"disparity", "px"}, {"truth", "px"}});
  s.params = stereo_table<P>;
  s.validate = [params](const ParamValues& v, const AlgorithmData& d) {
    validate(params(v), data_as<StereoData>(d, DataKind::StereoPair).pair);
  };
  s.cpu = std::move(cpu);
  return s;
}

}  // namespace

AlgorithmSpec stereo_bp_spec() {
  AlgorithmSpec s = stereo_spec<stereo::BpParams>(
      "stereo-bp", "stereo: hierarchical belief propagation", "../shared/specs/stereo-bp.md", "BP",
      stereo_bp_params, [] { return make_stereo_bp_runner(stereo::make_stereo_bp_engine_cpu()); });
  s.variants = {{"auto", "", true, "the fastest of the kernels and message types below, tuned per device and size"},
                {"auto:float", "", true, "the fastest with float messages (bit-identical to the CPU reference)"},
                {"warp", "", true, "one pixel's disparities across the lanes of a (sub-)warp, any L (warp:G)"},
                {"warp-fp16", "", true, "warp, messages stored as fp16 (float arithmetic)"},
                {"warp-bf16", "", true, "warp, messages stored as bf16 (float arithmetic)"},
                {"registers", "", true, "messages unrolled into registers (L instances; else local)"},
                {"hybrid", "", true, "R values in registers, S in shared memory (auto-tuned; hybrid:R,S)"},
                {"shared", "", true, "a shared-memory slice per thread"},
                {"local", "", true, "messages in a local-memory array, any L"}};
  s.default_variant = "auto";
  return s;
}

AlgorithmSpec stereo_local_spec() {
  AlgorithmSpec s = stereo_spec<stereo::LocalParams>(
      "stereo-local", "stereo: center-biased local windows", "../shared/specs/stereo-local.md", "local-window",
      stereo_local_params, [] { return make_stereo_local_runner(stereo::make_stereo_local_engine_cpu()); });
  s.variants = {{"phase2", "", true, "cost, horizontal, vertical, WTA: separate kernels through global memory"},
                {"phase3", "", true, "+ the vertical pass split into left- and right-stream kernels"},
                {"phase4", "", true, "+ re-packed streams, one WTA copy per vertical kernel"},
                {"phase5", "", true, "+ WTA merged into the vertical kernels"},
                {"fused", "", true, "one kernel per tile: cost, both passes and WTA on chip"},
                {"fused2", "", true, "fused, two disparities packed per 32-bit word, taller tiles"}};
  s.default_variant = "fused2";
  return s;
}

std::unique_ptr<Runner> make_stereo_bp_runner(std::unique_ptr<stereo::StereoEngine<stereo::BpParams>> m) {
  return std::make_unique<StereoRunner<stereo::BpParams>>(std::move(m));
}

std::unique_ptr<Runner> make_stereo_local_runner(std::unique_ptr<stereo::StereoEngine<stereo::LocalParams>> m) {
  return std::make_unique<StereoRunner<stereo::LocalParams>>(std::move(m));
}

}  // namespace lb
