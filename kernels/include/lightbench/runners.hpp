#pragma once
// The registry front ends use: the built-in algorithms with their CPU runners, plus the CUDA
// runners in builds with CUDA (lb::cuda::register_runners, defined in kernels/runners.cpp,
// which exists only in CUDA builds: there are no stubs; without CUDA, lb_kernels is an
// interface library that carries this header only).
#include "lightbench/algorithm.hpp"
#include "lightbench/algorithms.hpp"
#include "lightbench/backend.hpp"
#if defined(LB_HAVE_CUDA) && LB_HAVE_CUDA
#include "lightbench/cuda_api.hpp"
#endif

namespace lb {

#if defined(LB_HAVE_CUDA) && LB_HAVE_CUDA
namespace cuda {
// Adds the CUDA runner factory of every built-in algorithm and the device hooks.
void register_runners(AlgorithmRegistry& registry);
}  // namespace cuda
#endif

// The process-wide registry (made on first use).
inline const AlgorithmRegistry& builtin_registry() {
  static const AlgorithmRegistry registry = [] {
    AlgorithmRegistry r = make_cpu_registry();
#if defined(LB_HAVE_CUDA) && LB_HAVE_CUDA
    cuda::register_runners(r);
#endif
    return r;
  }();
  return registry;
}

// Whether this build has CUDA and a usable device; *why says why not.
inline bool cuda_available(std::string* why = nullptr) { return builtin_registry().cuda_available(why); }

}  // namespace lb
