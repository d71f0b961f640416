#pragma once
// Center-biased local stereo (Lu, Lafruit & Catthoor 2007, as applied in Rogmans et al.
// 2009; ../shared/specs/stereo-local.md): truncated mean-RGB absolute difference,
// separable exponential (center-biased) weights, horizontal L/R streams, vertical
// UL/DL/UR/DR streams, winner takes all over min(UL, DL, UR, DR) with ties to the smaller
// disparity; optional variable windows and left-right check + fill.
//
// Arithmetic: integer costs and 6-bit fixed-point weights, all sums in uint32 with a proven
// bound, so the CPU reference and every CUDA variant (stereo_local/stereo_local_cuda.hpp)
// give IDENTICAL maps (stereo_local/stereo_local_math.hpp documents the choice and bound).
//
// Defaults, tuned a little on Tsukuba / Venus (the spec allows it). Middlebury bad pixels
// (|d - gt| > 1, %, nonocc / all / disc), CPU reference = every CUDA variant:
//   spec start r 12, gamma 6, T 30:  tsukuba 7.11 nonocc   venus 11.01 nonocc
//   defaults   r 16, gamma 8, T 30:  tsukuba 5.97 / 7.60 / 17.14   venus 7.02 / 7.96 / 11.49
//     + lr_check 1:                  tsukuba 5.81 / 7.24 / 17.45   venus 6.17 / 6.79 / 10.49
//   (sweep, nonocc: r 8..24, gamma 4..16; T 20..50 changes < 0.3; larger windows keep helping
//   Venus' slanted planes, e.g. r 20 gamma 8: 5.36 / 5.82, r 24 gamma 16: 7.26 / 4.03, at
//   (r+1) cost per pixel and disparity; variable windows 1 at r 16 gamma 10: 6.10 / 6.48 vs
//   6.09 / 6.51 without.) Thresholds: tests/stereo_local/test_stereo_local.cpp.
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/stereo.hpp"

namespace lb::stereo {

struct LocalParams {
  int ndisp = 16;              // disparities 0 .. ndisp-1 (Tsukuba 16, Venus 20, Teddy 60)
  int radius = 16;             // r: window quadrants are (r+1) x (r+1) (spec start: 12)
  float gamma = 8.0f;          // w(k) = exp(-k / gamma) (spec start: 6)
  int truncation = 30;         // T, intensity units (cost = min(mean |diff|, T))
  int variable_windows = 0;    // 0/1 (int so the viewer's generic slider can toggle it)
  int lr_check = 0;            // 0/1: left-right check + fill from the nearest valid pixel
};

// One-line lb::Error naming the parameter.
void validate(const LocalParams& p);
// Also: the pair is non-empty, same size, 1 or 3 channels.
void validate(const LocalParams& p, const StereoPair& pair);
// Upper bound of the host memory of a local-window run (memory_budget.hpp): the pair, RGB
// copies, per-pixel best/cost/quadrant sums of both directions, the disparities.
std::uint64_t local_host_bytes(const LocalParams& p, int w, int h, int channels);
// Device: RGB inputs, the per-pixel aggregation state, a ndisp-deep cost slab, the output.
std::uint64_t local_device_bytes(const LocalParams& p, int w, int h);
// Live parameters bound to p for the viewer and CLI.
std::vector<ParamInfo> describe(LocalParams& p);
// The CUDA kernel variants, in the seed's order: phase2, phase3, phase4, phase5, fused, then
// fused2 (the default: two disparities packed per word; see kernels/stereo_local.cu).
std::vector<std::string> local_variants();
// Timing key of a variant: "stereo/local/<variant>" (CPU: "stereo/local/reference").
std::string local_timing_key(const std::string& variant);

namespace local {
struct KernelParams;
// Integer parameters (weights quantised) shared by the CPU and the kernels. Validates p.
KernelParams kernel_params(const LocalParams& p);
}  // namespace local

// The pair as RGB8 (gray expanded; the local cost is the mean over R, G, B).
ImageU8 local_rgb(const ImageU8& img);

// CPU reference (multithreaded over rows). Integer disparities per pixel, row-major.
std::vector<int> local_disparity_cpu(const StereoPair& pair, const LocalParams& p, int threads = 0);
// Straightforward single-threaded version straight from the definition (O(r^2) per pixel
// and disparity), for tests: must equal local_disparity_cpu exactly.
std::vector<int> local_disparity_direct(const StereoPair& pair, const LocalParams& p);

}  // namespace lb::stereo
