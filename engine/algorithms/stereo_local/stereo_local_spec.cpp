// Center-biased local-window stereo in the contract (seed 002, ../shared/specs/stereo-local.md):
// its parameters, variants and CPU runner, over the runner both stereo methods share
// (lightbench/stereo_method.hpp).
#include "lightbench/stereo_method.hpp"

namespace lb {

template <>
struct StereoMethod<stereo::LocalParams> {
  static const AlgorithmSpec& spec() {
    static const AlgorithmSpec s = stereo_local_spec();
    return s;
  }
  static stereo::LocalParams params(const ParamValues& v) { return stereo_local_params(v); }
  static std::vector<ParamInfo> describe(stereo::LocalParams& p, const StereoData*) { return stereo::describe(p); }
  static std::uint64_t host_bytes(const stereo::LocalParams& p, const ImageU8& l) {
    return stereo::local_host_bytes(p, l.width, l.height, l.channels);
  }
  static std::uint64_t device_bytes(const stereo::LocalParams& p, const ImageU8& l) {
    return stereo::local_device_bytes(p, l.width, l.height);
  }
};

stereo::LocalParams stereo_local_params(const ParamValues& values) {
  stereo::LocalParams p;
  apply_values(describe(p), values);
  return p;
}

std::vector<CommandDef> stereo_local_commands();  // stereo_local_commands.cpp

std::vector<Workload> stereo_local_workloads();  // stereo_local_workloads.cpp
DisplayDecl stereo_local_display();  // stereo_local_display.cpp
AlgorithmSpec stereo_local_spec() {
  AlgorithmSpec s = stereo_detail::stereo_spec<stereo::LocalParams>(
      "stereo-local", "stereo: center-biased local windows", "../shared/specs/stereo-local.md", "local-window",
      stereo_local_params, [] { return make_stereo_local_runner(stereo::make_stereo_local_engine_cpu()); });
  s.variants = {{"phase2", "", true, "cost, horizontal, vertical, WTA: separate kernels through global memory"},
                {"phase3", "", true, "+ the vertical pass split into left- and right-stream kernels"},
                {"phase4", "", true, "+ re-packed streams, one WTA copy per vertical kernel"},
                {"phase5", "", true, "+ WTA merged into the vertical kernels"},
                {"fused", "", true, "one kernel per tile: cost, both passes and WTA on chip"},
                {"fused2", "", true, "fused, two disparities packed per 32-bit word, taller tiles"}};
  s.default_variant = "fused2";
  s.commands = stereo_local_commands();
  s.workloads = stereo_local_workloads();
  s.display = stereo_local_display();
  return s;
}

std::unique_ptr<Runner> make_stereo_local_runner(std::unique_ptr<stereo::StereoEngine<stereo::LocalParams>> m) {
  return make_stereo_runner(std::move(m));
}

}  // namespace lb
