// MAD's CUDA variants: one row each, {what the spec lists, the statistics kernel's launcher}
// (lightbench/variant_table.hpp). The registry lists them as the spec's variants
// (mad_cuda_variants), the CUDA engine runs the row it is given (mad.cu). A variant = its
// kernel in mad_stats.cu + its row here.
#include "lightbench/variant_table.hpp"
#include "mad/mad_cuda.hpp"
#include "mad/mad_launch.hpp"

namespace lb::cuda {
namespace detail {

const VariantTable<MadStatsLaunch>& mad_variant_table() {
  static const VariantTable<MadStatsLaunch> table(
      "mad",
      {{{"gather", "", false, "statistics: one thread per block, samples in local memory (the seed's)"},
        {launch_mad_stats_gather, false}},
       {{"shared", "", false, "statistics: shared-memory tile laid out [x][y] (the seed's)"},
        {launch_mad_stats_shared, false}},
       {{"shared_nc", "", false, "statistics: shared tile without bank conflicts"},
        {launch_mad_stats_shared_nc, false}},
       {{"fused", "", false, "statistics: 4x4 cell moments merged (Chan/Pebay), one pass"},
        {launch_mad_stats_fused, true}}});
  return table;
}

}  // namespace detail

std::vector<VariantInfo> mad_cuda_variants() { return detail::mad_variant_table().infos(); }

}  // namespace lb::cuda
