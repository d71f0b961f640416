#pragma once
// CUDA belief-propagation stereo (no CUDA types; the stubs throw in builds without CUDA).
// The algorithm and its float arithmetic are those of stereo_bp/stereo_bp.hpp (shared
// through stereo_bp_math.hpp: the distance transform as two prefix minima and the mean over a
// fixed pairwise tree, so every evaluation order below computes the same bits). One kernel
// per checkerboard half-iteration.
//
// Variants:
//   auto       (the default) the fastest of the warp variant in every message type and lane
//              count, registers (when L has an instance) and the seed scheme's hybrid split,
//              timed once per (device, size, L) and cached (bp_tune_cache_path); auto:float
//              the same over float messages only (bit-identical to the CPU reference);
//   warp       beyond the seed (kernels/stereo_bp/stereo_bp_warp.cu): one pixel's disparities across a
//              group of G lanes, K consecutive values per lane (K * G = the next power of two
//              >= L, at least 4; K <= 8): data cost and message sums per lane, the minimum,
//              the forward / backward prefix minima and the mean's tree as warp shuffles; no
//              per-thread 4 x L array; any L in 2..256; pixel-major layout [y][x][L] per
//              direction. "warp:G" picks G; "warp-fp16" / "warp-bf16" store the messages in 16
//              bits (arithmetic stays float; the data cost stays float);
//   the seed's (Grauer-Gray & Cavazos), where one thread keeps the L values of the message it
//   is computing, on disparity-major planes [d][y][x]:
//   local      an array in local memory, any L (the naive version);
//   registers  L a template parameter (16, 20, 21, 32, 48, 60, 64, 128), the array fully
//              unrolled into registers (sm_90: no stack up to 64; 128 spills ~0.7 KB); other
//              L fall back to local and the result says so, and why (256 values per thread
//              exceed the 255-register limit; the warp variant serves every L);
//   shared     a slice per thread in dynamic shared memory, element d of thread t at
//              [d * blockThreads + t] (consecutive threads -> consecutive banks: no bank
//              conflicts); the block shrinks if L * threads * 4 bytes exceed the device;
//   hybrid     the first R values in registers (R a template parameter: 0, 4, 8, 12, 16,
//              24, 32, 48), the next S in shared memory, the rest in local memory. "hybrid"
//              uses the auto-tuner's choice for (device, size, ndisp); "hybrid:R,S" forces a
//              split (R rounded down to an instance, S clamped to L - R).
// Tolerance vs the CPU reference (tests/stereo_bp/test_stereo_bp_gpu.cpp): float variants perform
// the reference's float operations (no FMA contraction) and give its map exactly, asserted at
// L = 2, 3, 8, 16, 21, 33, 64, 100, 128, 256; fp16 / bf16 messages: <= 2 % of the pixels
// differ on structured pairs, <= 10 % on random noise (docs/PERFORMANCE.md has the measured
// counts and the bad-pixel change on Tsukuba and Venus). Without a device,
// tests/stereo_bp/test_stereo_bp.cpp runs the seed kernels' per-pixel steps
// (stereo_bp_planes.hpp) serially on the host against the CPU reference.
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
#include "stereo_bp/stereo_bp.hpp"
#include "lightbench/stereo_metrics.hpp"

namespace lb::cuda {

// "auto", "auto:float", "warp", "warp-fp16", "warp-bf16", "registers", "hybrid", "shared",
// "local" (the first is the default).
std::vector<std::string> bp_stereo_variants();
// Lanes per pixel the warp variant offers for ndisp ("warp:G").
std::vector<int> bp_warp_lane_counts(int ndisp);
// Disparity counts with a registers instantiation.
std::vector<int> bp_register_counts();

// The CUDA engine (make_stereo_bp_engine_cuda) is internal: lightbench/engines/cuda.hpp.

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
