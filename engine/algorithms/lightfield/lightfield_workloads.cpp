// The light-field module's benchmark workloads (`bench lightfield`): synthetic two-plane
// light fields (the HCI scenes are data sets: `lfdepth --lf DIR --repeat N`).
#include "lightbench/algorithm.hpp"
#include "lightbench/lightfield.hpp"

namespace lb {
namespace {
std::shared_ptr<const AlgorithmData> two_plane(int size, int views) {
  auto d = std::make_shared<LightFieldData>();
  d->lf = synthetic_two_plane_lightfield(size, size, views, views, -1.0f, 1.5f, 5, 1);
  return d;
}
}  // namespace

std::vector<Workload> lightfield_workloads() {
  return {{"small", "CAE depth of a synthetic 96x96 two-plane field, 5x5 views (a CPU-sized run)",
           [] { return two_plane(96, 5); }, {{"labels", 32.0}}, "depth"},
          {"synthetic-512", "CAE depth of a synthetic 512x512 two-plane field, 9x9 views, 75 labels (HCI's size)",
           [] { return two_plane(512, 9); }, {{"labels", 75.0}}, "depth"},
          {"synthetic-512-refined", "the same, refined (subpixel): what lfdepth writes",
           [] { return two_plane(512, 9); }, {{"labels", 75.0}}, "refined"}};
}

}  // namespace lb
