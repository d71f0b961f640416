// The light-field module's benchmark workloads (`bench lightfield`): synthetic two-plane
// light fields, and the HCI scene antinous where it travelled with the tree (.lfdata/antinous,
// relative to the working directory, as scripts/gpu-check finds it): the budget table's CAE row
// (exact against binned at windows 5 and 9, 75 labels, disparities -3.3 .. 2.8).
#include <filesystem>
#include <string>

#include "lightbench/algorithm.hpp"
#include "lightbench/error.hpp"
#include "lightbench/lightfield.hpp"

namespace lb {
namespace {
std::shared_ptr<const AlgorithmData> two_plane(int size, int views) {
  auto d = std::make_shared<LightFieldData>();
  d->lf = synthetic_two_plane_lightfield(size, size, views, views, -1.0f, 1.5f, 5, 1);
  return d;
}
// The HCI scene antinous from .lfdata/ (not generated: a missing folder is refused in one line).
std::shared_ptr<const AlgorithmData> antinous() {
  const std::string dir = ".lfdata/antinous";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw Error("workload antinous: no folder " + dir + " here (the HCI scene travels with the tree as .lfdata/; "
                "run from the folder that holds it)");
  auto d = std::make_shared<LightFieldData>();
  d->lf = load_lightfield(dir);
  return d;
}

// The CAE bench's settings on antinous at a window of n x n views.
ParamValues cae_on_antinous(int views) {
  return {{"views", static_cast<double>(views)}, {"labels", 75.0}, {"dmin", -3.3}, {"dmax", 2.8}, {"sigma", 10.0}};
}
}  // namespace

std::vector<Workload> lightfield_workloads() {
  return {{"small", "CAE depth of a synthetic 96x96 two-plane field, 5x5 views (a CPU-sized run)",
           [] { return two_plane(96, 5); }, {{"labels", 32.0}}, "depth"},
          {"synthetic-512", "CAE depth of a synthetic 512x512 two-plane field, 9x9 views, 75 labels (HCI's size)",
           [] { return two_plane(512, 9); }, {{"labels", 75.0}}, "depth"},
          {"synthetic-512-refined", "the same, refined (subpixel): what lfdepth writes",
           [] { return two_plane(512, 9); }, {{"labels", 75.0}}, "refined"},
          {"antinous", "CAE depth of HCI antinous (.lfdata/antinous), 9x9 window, 75 labels, -3.3 .. 2.8",
           antinous, cae_on_antinous(9), "depth"},
          {"antinous-5", "the same at a 5x5 window", antinous, cae_on_antinous(5), "depth"}};
}

}  // namespace lb
