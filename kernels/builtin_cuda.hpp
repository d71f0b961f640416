#pragma once
// Internal to lb_kernels: one row of the generated list of the built-in algorithms' CUDA sides
// (builtin_cuda_runners.cpp, made by kernels/CMakeLists.txt from LB_ALGORITHMS): the spec, the
// CUDA runner factory and the CUDA variant rows (the infos of kernels/<id>/'s VariantTable).
#include <vector>

#include "lightbench/algorithm.hpp"

namespace lb::cuda {

struct BuiltinCuda {
  SpecFactory spec;
  CudaRunnerFactory runner;
  std::vector<VariantInfo> (*variants)();  // null: the spec lists its variants itself
};
std::vector<BuiltinCuda> builtin_cuda_runners();

}  // namespace lb::cuda
