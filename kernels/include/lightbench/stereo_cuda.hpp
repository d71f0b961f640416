#pragma once
// CUDA belief-propagation stereo (no CUDA types; the stubs throw in builds without CUDA).
// The algorithm and its float arithmetic are those of lightbench/stereo_bp.hpp (shared
// through stereo_bp_math.hpp); data are disparity-major planes [d][y][x] per pyramid level,
// allocated once per (size, ndisp, levels). One kernel per checkerboard half-iteration.
//
// Variants (Grauer-Gray & Cavazos): where one thread keeps the L values of the message it
// is computing (h, then the distance transform, truncation and normalisation in place; the
// code is bpm::message in stereo_bp_math.hpp, shared with the CPU reference):
//   local      an array in local memory, any L (the naive version);
//   registers  L a template parameter (16, 20, 21, 32, 48, 60, 64, 128), the array fully
//              unrolled into registers (sm_90: no stack up to 64; 128 spills ~0.7 KB); other
//              L fall back to local and the result says so (variant "registers->local ...");
//   shared     a slice per thread in dynamic shared memory, element d of thread t at
//              [d * blockThreads + t] (consecutive threads -> consecutive banks: no bank
//              conflicts); the block shrinks if L * threads * 4 bytes exceed the device;
//   hybrid     the first R values in registers (R a template parameter: 0, 4, 8, 12, 16,
//              24, 32, 48), the next S in shared memory, the rest in local memory. "hybrid"
//              uses the auto-tuner's choice for (device, size, ndisp); "hybrid:R,S" forces a
//              split (R rounded down to an instance, S clamped to L - R).
// Tolerance vs the CPU reference (tests/gpu/test_stereo_bp_gpu.cpp): every operation is the
// same explicitly rounded float op in the same order (no FMA contraction), so the maps are
// expected identical; the test asserts the spec's bound, <= 0.1 % differing pixels. Without a
// device, tests/engine/test_stereo_bp.cpp runs the kernels' per-pixel steps
// (stereo_bp_planes.hpp) serially on the host for every variant and finds them bit-identical
// to the CPU reference.
//
// Timing: StereoResult.ms = CUDA events around the compute (preprocess, data cost, pyramid,
// message passing, WTA; the pair already on the device), ms_total = upload of the pair from
// pinned memory + compute + download of the map, events on the same stream. timings():
// "stereo/bp/<variant>" (ms) and "stereo/bp/<variant>/total" (ms_total).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lightbench/cuda_api.hpp"
#include "lightbench/stereo.hpp"
#include "lightbench/stereo_bp.hpp"
#include "lightbench/stereo_metrics.hpp"

namespace lb::cuda {

// "auto", "auto:float", "warp", "warp-fp16", "warp-bf16", "registers", "hybrid", "shared",
// "local" (the first is the default).
std::vector<std::string> bp_stereo_variants();
// Lanes per pixel the warp variant offers for ndisp ("warp:G").
std::vector<int> bp_warp_lane_counts(int ndisp);
// Disparity counts with a registers instantiation.
std::vector<int> bp_register_counts();

std::unique_ptr<stereo::StereoMatcher<stereo::BpParams>> make_bp_stereo_cuda(int device = 0);

// ---- auto-tuner -----------------------------------------------------------------------
struct BpTuneCandidate {
  std::string variant;  // the variant name of the config ("" : a hybrid split, reg / shared)
  int block_x = 32, block_y = 4;
  int reg = 0, shared = 0;  // values in registers / shared memory; the rest local
  double ms = 0;            // median message-passing time (CUDA events); < 0: failed
  std::string note;
};
struct BpTuneResult {
  std::string key;  // "<device>|<w>x<h>|<ndisp>"
  BpTuneCandidate best;
  std::vector<BpTuneCandidate> tried;  // empty when the winner came from a cache
  std::string source;                  // "tuned", "memory cache", "file cache <path>"
  std::string describe() const;        // one line for StereoResult.tuning
};
// The cache file: LB_BP_TUNE_CACHE, else $XDG_CACHE_HOME/lightbench/bp_tune.json, else
// ~/.cache/lightbench/bp_tune.json. Unwritable: a warning on stderr, never an error.
std::string bp_tune_cache_path();
void set_bp_tune_cache_path(const std::string& path);  // "" restores the default

}  // namespace lb::cuda
