// plenoptic's CUDA variants: one row each, {what the spec lists, what it runs for the render and
// for the depth} (lightbench/variant_table.hpp, plenoptic_variants.hpp). The registry lists them
// as the spec's variants (plenoptic_cuda_variants); launch_render and launch_depth run the row of
// the configuration's name. A variant = its kernel (render_<family>.cu, depth.cu) + its row here.
#include "plenoptic/plenoptic_variants.hpp"

#include <string>
#include <vector>

#include "lightbench/algorithm.hpp"

namespace lb::cuda {
namespace detail {
namespace {

template <RenderKernel K>
RenderKernel asks(const KernelTuning&) {
  return K;
}
// NoSync: the staged kernel by default, the seed's direct loads when the tuning asks for them.
RenderKernel asks_nosync(const KernelTuning& t) {
  return t.direct_loads ? RenderKernel::NoSyncDirect : RenderKernel::NoSyncStaged;
}
template <RenderKernel (*Asked)(const KernelTuning&)>
RenderKernel render_with(const RenderLayout& layout, const TablesDevice& tables, const RawDevice& raw,
                         const RenderConfig& config, const KernelTuning& tuning, const OutputDevice& out,
                         cudaStream_t stream, unsigned long long* block_trace) {
  return launch_render_kernel(Asked(tuning), layout, tables, raw, config, tuning, out, stream, block_trace);
}
template <DepthKernel K>
void depth_with(const DepthLayout& layout, const DepthTablesDevice& tables, const RawDevice& raw,
                const DepthTuning& tuning, std::uint32_t* scratch, const OutputDevice& out, cudaStream_t stream) {
  launch_depth_kernel(K, layout, tables, raw, tuning, scratch, out, stream);
}
template <RenderKernel (*Asked)(const KernelTuning&), DepthKernel D>
PlenopticLaunch launch_of(const char* depth_kernel) {
  return PlenopticLaunch{Asked, &render_with<Asked>, depth_kernel, &depth_with<D>};
}

}  // namespace

const VariantTable<PlenopticLaunch>& plenoptic_variant_table() {
  // The depth has no tiled kernel: tiled (and auto) run its Original, the same output-side
  // mapping (the fastest depth from the neighbour table: docs/PERFORMANCE.md).
  static const VariantTable<PlenopticLaunch> table(
      "plenoptic",
      {{{"auto", "", true, "the fastest kernel per output: tiled renders, original extracts depth"},
        launch_of<asks<RenderKernel::Tiled>, DepthKernel::Original>("original")},
       {{"original", "", true, "one thread per output pixel (the seed's first kernel, 4 switches)"},
        launch_of<asks<RenderKernel::Original>, DepthKernel::Original>("original")},
       {{"sync", "", true, "input-side blocks, shared-memory buffers with barriers"},
        launch_of<asks<RenderKernel::Sync>, DepthKernel::Sync>("sync")},
       {{"nosync", "", true, "private accumulators, no barriers (the seed's fastest render)"},
        launch_of<asks_nosync, DepthKernel::NoSync>("nosync")},
       {{"tiled", "", true,
         "one thread per output pixel over tiles staged in shared memory (lightbench's fastest render)"},
        launch_of<asks<RenderKernel::Tiled>, DepthKernel::Original>("original")}});
  return table;
}

}  // namespace detail

std::vector<VariantInfo> plenoptic_cuda_variants() { return detail::plenoptic_variant_table().infos(); }

}  // namespace lb::cuda
