// Local stereo's CUDA variants: one row each, {what the spec lists, the launcher of its
// pipeline} (lightbench/variant_table.hpp). The registry lists them as the spec's variants
// (stereo_local_cuda_variants), the CUDA engine runs the row it is given
// (stereo_local_engine.cpp). A variant = its kernels (stereo_local_phases.cu, _fused.cu,
// _fused2.cu, wired in stereo_local_pipeline.cu) + its row here.
#include "lightbench/algorithm.hpp"
#include "stereo_local/stereo_local_launch.hpp"

namespace lb::cuda {
namespace detail {
namespace {

// The pipeline of kernels K for the resident pair.
template <LocalKernel K>
void compute_with(LocalDeviceState& state, const stereo::local::KernelParams& k, bool lr_check, cudaStream_t s) {
  state.compute(k, lr_check, K, s);
}
template <LocalKernel K>
constexpr LocalVariantLaunch launch_of() {
  return LocalVariantLaunch{K, &compute_with<K>};
}

}  // namespace

const VariantTable<LocalVariantLaunch>& stereo_local_variant_table() {
  static const VariantTable<LocalVariantLaunch> table(
      "stereo-local",
      {{{"phase2", "", true, "cost, horizontal, vertical, WTA: separate kernels through global memory"},
        launch_of<LocalKernel::Phase2>()},
       {{"phase3", "", true, "+ the vertical pass split into left- and right-stream kernels"}, launch_of<LocalKernel::Phase3>()},
       {{"phase4", "", true, "+ re-packed streams, one WTA copy per vertical kernel"}, launch_of<LocalKernel::Phase4>()},
       {{"phase5", "", true, "+ WTA merged into the vertical kernels"},
        launch_of<LocalKernel::Phase5>()},
       {{"fused", "", true, "one kernel per tile: cost, both passes and WTA on chip"},
        launch_of<LocalKernel::Fused>()},
       {{"fused2", "", true, "fused, two disparities packed per 32-bit word, taller tiles"},
        launch_of<LocalKernel::Fused2>()}});
  return table;
}

}  // namespace detail

std::vector<VariantInfo> stereo_local_cuda_variants() { return detail::stereo_local_variant_table().infos(); }

}  // namespace lb::cuda
