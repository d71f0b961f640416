// The built-in algorithms, in the order the viewer and the CLI list them: LB_ALGORITHMS in the
// top-level CMakeLists.txt (builtin_spec_factories() is generated from it), then any algorithm
// linked into the program that registers itself (LB_REGISTER_ALGORITHM).
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
  for (SpecFactory f : builtin_spec_factories()) r.add(f());
  for (SpecFactory f : plugins()) r.add(f());
  return r;
}

}  // namespace lb
