#pragma once
// INTERNAL and TEMPORARY (issue 20): the plenoptic engine for a backend request, for the CLI's
// render and depth commands until they run through the plenoptic runner; remove with them.
#include <memory>
#include <string>

#include "plenoptic/plenoptic_engine.hpp"
#include "lightbench/runners.hpp"
#if defined(LB_HAVE_CUDA) && LB_HAVE_CUDA
#include "lightbench/engines/cuda.hpp"
#endif

namespace lb {

struct BackendChoice {
  std::unique_ptr<PlenopticEngine> backend;
  std::string reason;  // e.g. "CUDA: NVIDIA H100 80GB HBM3" or "CPU: no CUDA device (...)"
};

// The plenoptic compute backend for a request (Auto: CUDA when usable). Throws lb::Error
// ("--backend cuda: <why>") when CUDA is requested but unusable.
inline BackendChoice select_backend(BackendRequest request) {
  std::string reason;
  const BackendKind kind = builtin_registry().choose(request, &reason);
#if defined(LB_HAVE_CUDA) && LB_HAVE_CUDA
  if (kind == BackendKind::Cuda) return {cuda::make_plenoptic_engine_cuda(), reason};
#else
  (void)kind;
#endif
  return {make_plenoptic_engine_cpu(), reason};
}

}  // namespace lb
