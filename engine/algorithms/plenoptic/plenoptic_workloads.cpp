// The plenoptic module's benchmark workloads (AlgorithmSpec::workloads; `bench plenoptic`):
// generated scenes, so every machine has them.
#include "lightbench/algorithm.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/scene_file.hpp"

namespace lb {
namespace {
std::shared_ptr<const AlgorithmData> preset(const char* name) {
  auto d = std::make_shared<PlenopticData>();
  d->scene = to_scene(generate_scene(generator_preset(name, 3)), name);
  return d;
}
}  // namespace

std::vector<Workload> plenoptic_workloads() {
  return {{"tiny", "render of the generator's tiny preset (a CPU-sized run)", [] { return preset("tiny"); }, {}, "view"},
          {"seed", "render of the seed workload (generator preset seed, sigma 15; the seed paper's raw size)",
           [] { return preset("seed"); }, {{"sigma", 15.0}}, "view"},
          {"seed-depth", "depth over patch sizes of the seed workload", [] { return preset("seed"); }, {}, "depth"}};
}

}  // namespace lb
