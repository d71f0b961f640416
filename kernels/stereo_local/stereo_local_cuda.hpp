#pragma once
// CUDA center-biased local stereo (no CUDA types; stubs throw in builds without CUDA).
//
// Variants (../shared/specs/stereo-local.md, the seed's kernel-transformation phases; the
// pipelines are described in kernels/stereo_local/stereo_local_pipeline.cu):
//   phase2  cost -> horizontal -> vertical -> WTA, separate kernels through global memory,
//           four disparities per uint4
//   phase3  the vertical pass split into a left-stream and a right-stream kernel
//   phase4  L0:3 R0:3 re-packed into L0:1 R0:1 / L2:3 R2:3; one WTA copy per vertical kernel
//   phase5  each WTA copy merged into its vertical kernel (running min / argmin over the
//           disparity batches; the WTA input never reaches global memory)
//   fused   one kernel per 32x32 tile and disparity batch: cost, both passes and the WTA
//           in shared memory / registers
//   fused2  fused, two disparities packed per 32-bit word, taller tiles (the default; runs the
//           fused kernels for variable windows or a radius without a packed instance)
// All variants use the integer arithmetic of stereo_local/stereo_local_math.hpp: the maps are
// IDENTICAL to the CPU reference (stereo::local_disparity_cpu), checked exactly by
// tests/stereo_local/test_stereo_local_gpu.cpp and by the benchmark.
//
// StereoResult: ms = compute only (CUDA events, pair resident on the device), ms_total =
// upload of the pair (pinned) + compute + download of the map. Timings are recorded under
// "stereo/local/<variant>" (compute).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lightbench/cuda_api.hpp"
#include "stereo_local/stereo_local.hpp"

namespace lb::cuda {

// The CUDA engine (make_stereo_local_engine_cuda) is internal: lightbench/engines/cuda.hpp.

}  // namespace lb::cuda
