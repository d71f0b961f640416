// plenoptic-hex's CUDA variants: one row each, {what the spec lists, the launchers of its
// render, depth and all-in-focus passes} (lightbench/variant_table.hpp). The registry lists them
// as the spec's variants (plenoptic_hex_cuda_variants), the CUDA engine runs the row it is given
// (hex_cuda_engine.cpp). A variant = its kernels (hex_render.cu, hex_depth.cu) + its row here.
#include "lightbench/algorithm.hpp"
#include "plenoptic_hex/hex_launch.hpp"

namespace lb::cuda {
namespace detail {
namespace {

template <HexVariant V>
void render_with(const HexTablesDevice& t, const HexRawDevice& raw, int P, float view_x, float view_y, float inv2s2,
                 const DeviceTarget& out, cudaStream_t stream) {
  launch_hex_render(V, t, raw, P, view_x, view_y, inv2s2, out, stream);
}
template <HexVariant V>
void depth_with(const HexTablesDevice& t, const HexRawDevice& raw, int pmin, int pmax, float aperture2,
                std::uint32_t cap, int window, std::uint32_t* scratch, float* out, std::size_t out_pitch,
                cudaStream_t stream) {
  launch_hex_depth(V, t, raw, pmin, pmax, aperture2, cap, window, scratch, out, out_pitch, stream);
}
template <HexVariant V>
void aif_with(const HexTablesDevice& t, const HexRawDevice& raw, const float* depth, std::size_t depth_pitch,
              float view_x, float view_y, float inv2s2, const DeviceTarget& out, cudaStream_t stream) {
  launch_hex_aif(V, t, raw, depth, depth_pitch, view_x, view_y, inv2s2, out, stream);
}
template <HexVariant V>
HexLaunch launch_of() {
  return HexLaunch{&render_with<V>, &depth_with<V>, &aif_with<V>};
}

}  // namespace

const VariantTable<HexLaunch>& plenoptic_hex_variant_table() {
  static const VariantTable<HexLaunch> table(
      "plenoptic-hex",
      {{{"original", "", true, "one thread per output pixel (the seed's Original mapping): tables in global memory"},
        launch_of<HexVariant::Original>()},
       {{"smem-tables", "", true, "original with the small tables staged in shared memory per block"},
        launch_of<HexVariant::SmemTables>()},
       {{"pruned", "", true,
         "smem-tables; render and all-in-focus search only the lattice offsets that can reach a lens at P"},
        launch_of<HexVariant::Pruned>()}});
  return table;
}

}  // namespace detail

std::vector<VariantInfo> plenoptic_hex_cuda_variants() { return detail::plenoptic_hex_variant_table().infos(); }

}  // namespace lb::cuda
