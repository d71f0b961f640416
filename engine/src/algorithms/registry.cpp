// The built-in algorithms, in the order the viewer and the CLI list them. Adding one: its
// spec here (its CUDA runner: kernels/runners.cpp).
#include "lightbench/algorithms.hpp"

namespace lb {
namespace {
// Filled during static initialisation by LB_REGISTER_ALGORITHM (a function-local static, so
// the order of initialisation across files does not matter).
std::vector<SpecFactory>& plugins() {
  static std::vector<SpecFactory> v;
  return v;
}
}  // namespace

bool register_algorithm(SpecFactory factory) {
  plugins().push_back(factory);
  return true;
}

AlgorithmRegistry make_cpu_registry() {
  AlgorithmRegistry r;
  r.add(plenoptic_spec());
  r.add(plenoptic_hex_spec());
  r.add(lightfield_spec());
  r.add(stereo_bp_spec());
  r.add(stereo_local_spec());
  r.add(mad_spec());
  for (SpecFactory f : plugins()) r.add(f());
  return r;
}

}  // namespace lb
