// The built-in algorithms, in the order the viewer and the CLI list them. Adding one: its
// spec here (its CUDA runner: kernels/runners.cpp).
#include "lightbench/algorithms.hpp"

namespace lb {

AlgorithmRegistry make_cpu_registry() {
  AlgorithmRegistry r;
  r.add(plenoptic_spec());
  r.add(lightfield_spec());
  r.add(stereo_bp_spec());
  r.add(stereo_local_spec());
  r.add(mad_spec());
  return r;
}

}  // namespace lb
