// The MAD module's benchmark workloads (`bench mad`): synthetic gray pairs, the distorted image
// the reference with noise (sigma 5) and blur (0.8), as `bench mad-kernels` makes them.
#include "lightbench/algorithm.hpp"
#include "lightbench/distort.hpp"

namespace lb {
namespace {
std::shared_ptr<const AlgorithmData> pair(int w, int h) {
  auto d = std::make_shared<ImagePairData>();
  d->reference = synthetic_gray(w, h, static_cast<std::uint64_t>(w));
  d->distorted = distort_blur(distort_noise(d->reference, 5, 1), 0.8);
  d->source = "synthetic " + std::to_string(w) + "x" + std::to_string(h);
  return d;
}
}  // namespace

std::vector<Workload> mad_workloads() {
  return {{"small", "128x96 (a CPU-sized run)", [] { return pair(128, 96); }, {}, "hi"},
          {"512x384", "TID2013's size", [] { return pair(512, 384); }, {}, "hi"},
          {"1920x1080", "full HD", [] { return pair(1920, 1080); }, {}, "hi"}};
}

}  // namespace lb
