// The general-grid module's benchmark workloads (`bench plenoptic-hex`): generated hexagonal
// scenes.
#include "lightbench/algorithm.hpp"
#include "lightbench/plenoptic_hex.hpp"

namespace lb {
namespace {
std::shared_ptr<const AlgorithmData> preset(const char* name) {
  auto d = std::make_shared<PlenopticData>();
  d->scene = to_scene(generate_hex_scene(hex_generator_preset(name)), name);
  return d;
}
}  // namespace

std::vector<Workload> plenoptic_hex_workloads() {
  return {{"hex-small", "render of the generator's hex-small preset (hexagonal grid)", [] { return preset("hex-small"); },
           {}, "view"},
          {"hex-small-depth", "depth of the hex-small preset", [] { return preset("hex-small"); }, {}, "depth"}};
}

}  // namespace lb
