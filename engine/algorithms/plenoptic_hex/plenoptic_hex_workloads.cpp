// The general-grid module's benchmark workloads (`bench plenoptic-hex`): generated hexagonal
// scenes, and issue 22's workload: a random RGB raw (seeded; the speed does not depend on the
// content) of an R42 full frame, 7716 x 5364, through the R42 calibration (D = 34.86, Raytrix
// bases and sub-grid, three lens types), rendered at M = 11, depth P = 7..14 window 1, and the
// all-in-focus of that map (scripts/gpu-check: ns per output pixel against the seed's render).
#include <cstdint>
#include <random>

#include "lightbench/algorithm.hpp"
#include "lightbench/mla_geometry.hpp"
#include "lightbench/plenoptic_hex.hpp"

namespace lb {
namespace {
std::shared_ptr<const AlgorithmData> preset(const char* name) {
  auto d = std::make_shared<PlenopticData>();
  d->scene = to_scene(generate_hex_scene(hex_generator_preset(name)), name);
  return d;
}
std::shared_ptr<const AlgorithmData> r42_full_frame() {
  auto d = std::make_shared<PlenopticData>();
  ImageU8 raw(7716, 5364, 3);
  std::mt19937_64 rng(2022);
  for (std::size_t i = 0; i < raw.data.size(); i += 8) {
    std::uint64_t v = rng();
    for (std::size_t b = 0; b < 8 && i + b < raw.data.size(); ++b, v >>= 8) raw.data[i + b] = static_cast<std::uint8_t>(v);
  }
  d->scene.raw = std::move(raw);
  d->scene.mla = raytrix_r42_calibration();
  d->scene.grid = PlenopticGrid{1, 1, d->scene.mla->diameter, 0.0, 0.0};  // as to_scene(HexScene) sets it
  d->scene.source = "random RGB (seed 2022), R42 full frame";
  return d;
}
const ParamValues kR42{{"patch", 11.0}, {"window", 1.0}};
}  // namespace

std::vector<Workload> plenoptic_hex_workloads() {
  return {{"hex-small", "render of the generator's hex-small preset (hexagonal grid)", [] { return preset("hex-small"); },
           {}, "view"},
          {"hex-small-depth", "depth of the hex-small preset", [] { return preset("hex-small"); }, {}, "depth"},
          {"r42-full", "render (M 11) of a random 7716x5364 raw through the R42 calibration (issue 22)", r42_full_frame,
           kR42, "view"},
          {"r42-full-depth", "depth (P 7..14, window 1) of the same", r42_full_frame, kR42, "depth"},
          {"r42-full-aif", "all-in-focus of the same (its depth computed first, timed apart)", r42_full_frame, kR42,
           "aif"}};
}

}  // namespace lb
