// Hierarchical belief-propagation stereo in the contract (seed 004, ../shared/specs/stereo-bp.md):
// its parameters, variants and CPU runner, over the runner both stereo methods share
// (lightbench/stereo_method.hpp).
#include "lightbench/stereo_method.hpp"

namespace lb {

template <>
struct StereoMethod<stereo::BpParams> {
  static const AlgorithmSpec& spec() {
    static const AlgorithmSpec s = stereo_bp_spec();
    return s;
  }
  static stereo::BpParams params(const ParamValues& v) { return stereo_bp_params(v); }
  // Ranges that follow the pair: ndisp and tau_disc up to the width.
  static std::vector<ParamInfo> describe(stereo::BpParams& p, const StereoData* s) {
    return stereo::describe(p, s ? s->pair.left.width : 0);
  }
  static std::uint64_t host_bytes(const stereo::BpParams& p, const ImageU8& l) {
    return stereo::bp_host_bytes(p, l.width, l.height, l.channels);
  }
  // The least a run takes (16-bit messages, which auto falls back to): the CUDA engine checks
  // the variant's own need against the device's free memory before allocating.
  static std::uint64_t device_bytes(const stereo::BpParams& p, const ImageU8& l) {
    return stereo::bp_device_bytes(p, l.width, l.height, 2);
  }
};

stereo::BpParams stereo_bp_params(const ParamValues& values) {
  stereo::BpParams p;
  apply_values(describe(p), values);
  return p;
}

std::vector<CommandDef> stereo_bp_commands();  // stereo_bp_commands.cpp

std::vector<Workload> stereo_bp_workloads();  // stereo_bp_workloads.cpp
DisplayDecl stereo_bp_display();  // stereo_bp_display.cpp
AlgorithmSpec stereo_bp_spec() {
  AlgorithmSpec s = stereo_detail::stereo_spec<stereo::BpParams>(
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
  s.commands = stereo_bp_commands();
  s.workloads = stereo_bp_workloads();
  s.display = stereo_bp_display();
  return s;
}

std::unique_ptr<Runner> make_stereo_bp_runner(std::unique_ptr<stereo::StereoEngine<stereo::BpParams>> m) {
  return make_stereo_runner(std::move(m));
}

}  // namespace lb
