#pragma once
// Stereo by hierarchical loopy belief propagation (Felzenszwalb & Huttenlocher 2006), per
// ../shared/specs/stereo-bp.md; the CUDA variants of Grauer-Gray & Cavazos are in
// stereo_bp/stereo_cuda.hpp (lb_kernels).
//
// The function every implementation computes (all float32, the order of operations fixed in
// stereo_bp_math.hpp so that the CPU reference and the CUDA kernels agree bit for bit):
//   gray     g = 0.299 R + 0.587 G + 0.114 B (gray input as is), both images;
//   smooth   separable Gaussian of sigma (FH's filter: radius ceil(4 sigma), clamped
//            borders; sigma 0: none);
//   data     D0(x, y, d) = lambda * min(|gL(x, y) - gR(x - d, y)|, tau_data); x - d < 0:
//            lambda * tau_data;
//   pyramid  level k+1 (ceil(w/2) x ceil(h/2)) sums the existing pixels of the 2x2 block;
//   messages receiver-stored: in[dir](p, d) = message into p from its neighbour above /
//            below / left / right (0 for neighbours outside the image). Iteration t of a
//            level updates the pixels with (x + y + t) even (FH: one colour per iteration):
//            p sends to each existing neighbour q
//              m(d) = min_d' h(d') + min(|d - d'|, tau_disc),  h = D + the other three in
//            (O(L) forward/backward distance transform with slope 1, truncated at
//            min h + tau_disc), minus its mean;
//   down     each pixel of level k starts with the messages of its parent (x/2, y/2);
//   result   b(d) = D + in[up] + in[down] + in[left] + in[right]; disparity = first argmin.
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/image.hpp"
#include "lightbench/stereo.hpp"

namespace lb::stereo {

struct BpParams {
  int levels = 5;          // K
  int iterations = 5;      // T per level (one checkerboard colour per iteration)
  float lambda = 0.07f;    // data weight
  float tau_data = 15.0f;  // data truncation (gray levels)
  float tau_disc = 1.7f;   // discontinuity truncation (disparity steps)
  float sigma = 0.7f;      // Gaussian smoothing of the inputs (0: none)
  int ndisp = 16;          // L: disparities 0 .. L-1
};

// Up to 1024 disparities (Middlebury 2014 / MiddEval3 at full size: ndisp up to ~800). Past
// what float messages fit in device memory, the CUDA backend's auto variant stores messages
// in 16 bits; a run that fits in no form is refused in one line before allocating.
constexpr int kBpMaxDisp = 1024;
constexpr int kBpMaxLevels = 10;
constexpr float kBpMaxSigma = 8.0f;

// Throws lb::Error with a one-line message naming the parameter: every range is describe()'s
// (check_ranges), the one declaration.
void validate(const BpParams& p);
// Also: the pair is usable, ndisp fits its width (describe(p, width)'s range).
void validate(const BpParams& p, const StereoPair& pair);
// Upper bound of the host memory a BP run takes on a w x h pair of `channels` channels: the
// pair, the smoothed inputs, data cost + 4 message arrays (L floats) on every pyramid level,
// the output. The CUDA backend's host mirrors are no larger. (memory_budget.hpp)
std::uint64_t bp_host_bytes(const BpParams& p, int w, int h, int channels);
// Device: the same pyramid (data + 4 messages per level, L floats) + inputs and output.
// msg_bytes: the size of one stored message value (4 float, 2 fp16 / bf16).
std::uint64_t bp_device_bytes(const BpParams& p, int w, int h, int msg_bytes = 4);
// Live parameters bound to p for the viewer's side panel, the CLI and validate(): THE ranges.
// width > 0 (the pair's): ndisp up to min(kBpMaxDisp, width) (a disparity past the width
// matches nothing) and tau_disc up to that largest disparity count (truncating past the
// largest disparity step changes nothing; the reference's own ndisp / 7.5 always fits).
std::vector<ParamInfo> describe(BpParams& p, int width = 0);
// The largest ndisp for a pair of this width (0: no pair, kBpMaxDisp).
int bp_max_ndisp(int width);

// The float gray image after conversion and smoothing (what the data cost reads).
ImageF bp_preprocess(const ImageU8& img, float sigma);
// FH's normalised half-kernel: taps[0] centre, taps[i] at +-i.
std::vector<float> bp_gaussian_taps(float sigma);

// CPU reference, multithreaded over rows with lb::parallel_for (threads 0: default).
ImageF bp_stereo_cpu(const StereoPair& pair, const BpParams& p, int threads = 0);
// The straightforward single-threaded version (messages by the O(L^2) minimum over d', no
// distance transform), for tests on small inputs. Agrees with bp_stereo_cpu up to float
// rounding: the distance transform adds 1.0f step by step where this adds |d - d'| once.
ImageF bp_stereo_naive(const StereoPair& pair, const BpParams& p);

}  // namespace lb::stereo
