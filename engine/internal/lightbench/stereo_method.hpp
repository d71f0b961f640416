// The shape both stereo methods share in the contract (stereo_bp, stereo_local): the runner over
// a StereoEngine<P> (CPU reference, or the CUDA matcher from kernels/, which keeps the map on the
// device for the error map and score), the outputs and the table's data-derived ndisp default:
//   disparity  the map, 0 .. ndisp-1 (R32F)     error  Middlebury error map (RGBA8, with truth)
//   left, right, truth   the data
// A method supplies StereoMethod<P> (its spec, parameters, describe over the pair, memory need)
// in its module's spec file before using these templates.
#pragma once
#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "lightbench/algorithms.hpp"
#include "lightbench/engines/stereo.hpp"
#include "lightbench/error.hpp"
#include "lightbench/memory_budget.hpp"
#include "lightbench/stereo_io.hpp"

namespace lb {

// What a stereo method declares for the shared runner:
//   static const AlgorithmSpec& spec();
//   static P params(const ParamValues&);
//   static std::vector<ParamInfo> describe(P&, const StereoData* pair_or_null);
//   static std::uint64_t host_bytes(const P&, const ImageU8& left), device_bytes(...)
template <class P>
struct StereoMethod;

namespace stereo_detail {

inline std::vector<std::string> names(const std::vector<ParamInfo>& t) {
  std::vector<std::string> v;
  for (const auto& p : t) v.push_back(p.name);
  return v;
}

inline StereoData const* stereo_data(const AlgorithmData* d) {
  return d ? &data_as<StereoData>(*d, DataKind::StereoPair) : nullptr;
}

// The method's table for the pair (ranges that follow the data, e.g. BP's ndisp and tau_disc up
// to the width), its ndisp defaulting to the data set's (calib.txt's ndisp, the published table's).
template <class P>
ParamTable stereo_table(const AlgorithmData* d) {
  P p;
  const StereoData* s = stereo_data(d);
  if (s && s->ndisp_hint > 0) {
    const std::vector<ParamInfo> table = StereoMethod<P>::describe(p, s);
    p.ndisp = std::min(s->ndisp_hint, static_cast<int>(find_param(table, "ndisp")->max));
  }
  return param_table(StereoMethod<P>::describe(p, s));
}

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
    const AlgorithmSpec& spec = StereoMethod<P>::spec();
    const P p = StereoMethod<P>::params(values);
    // The table's name, with any kernel options (warp:G, hybrid:R,S) kept for the matcher.
    const std::string variant = spec.variant_for(BackendKind::Cuda, variant_in);
    validate(p, d.pair);
    // The memory budget (memory_budget.hpp): refused before the run, the caller keeps its image.
    // On CUDA the host keeps only the pair and the map (the volumes live on the device).
    const ImageU8& l = d.pair.left;
    check_host_memory(spec.name, m_->kind() == BackendKind::Cuda
                                     ? 2 * u8_bytes(l.width, l.height, l.channels) + 2 * f32_bytes(l.width, l.height)
                                     : StereoMethod<P>::host_bytes(p, l));
    if (m_->kind() == BackendKind::Cuda) check_device_memory(spec.name, StereoMethod<P>::device_bytes(p, d.pair.left));
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

// What both stereo methods declare alike: the data, the outputs (the map and the error map
// depend on every parameter of the method), the table, validation and the CPU runner.
template <class P>
inline AlgorithmSpec stereo_spec(std::string id, std::string name, std::string spec_file, const std::string& method,
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

}  // namespace stereo_detail

template <class P>
std::unique_ptr<Runner> make_stereo_runner(std::unique_ptr<stereo::StereoEngine<P>> m) {
  return std::make_unique<stereo_detail::StereoRunner<P>>(std::move(m));
}

// A benchmark pair both stereo methods declare workloads on (as the like-reference bench
// makes it): two fronto-parallel planes at ndisp/4 and 3 ndisp/4 over random texture, gray,
// its ndisp the data's (the time does not depend on the content).
inline std::shared_ptr<const AlgorithmData> synthetic_stereo_workload(int w, int h, int ndisp) {
  auto d = std::make_shared<StereoData>();
  const int back = ndisp / 4, front = std::max(back, ndisp * 3 / 4);
  d->pair = stereo::synthetic_two_plane_pair(w, h, back, front, static_cast<std::uint32_t>(w * 7 + ndisp), nullptr, 1);
  d->ndisp_hint = ndisp;
  return d;
}

}  // namespace lb
