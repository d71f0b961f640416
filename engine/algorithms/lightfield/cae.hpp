#pragma once
// Depth from a 4D light field by constrained angular entropy (CAE, Williem et al.) and the
// binned CAE (Ivan et al. 2018), per ../shared/specs/lightfield4d-cae.md; plus "exact": the
// 256-bin CAE computed over the occupied bins only (an angular patch of n views fills at
// most n bins per channel), bit-identical to the 256-bin scan because it visits the same
// bins in the same (ascending) order with the same arithmetic.
//
// For every centre-view pixel p and label alpha (d = label_disparity):
//   sample   L(x - (u-uc) d, y - (v-vc) d, u, v) (HCI sign, see cae_math.hpp) for the n x n window, bilinear, position
//            clamped to the image, rounded to an intensity i = floor(value + 0.5);
//   weight   w(i) = exp(-(i - c)^2 / (2 sigma^2)), c = centre view's intensity at p
//            (binned: w at the bin centre 4b + 1.5);
//   entropy  H = -sum_i (g(i) / |g|) log g(i), g(i) = w(i) h(i), h = count / n^2, over the
//            bins with g(i) > 0 (spec: log g, not log(g / |g|); normalized_log switches);
//   cost     C = (H_R + H_G + H_B) / 3;  depth = d(argmin_alpha C) (first minimum).
// The CPU reference computes in double (bilinear, weights, entropy); the CUDA kernels in
// float (lightfield/cae_cuda.hpp documents their tolerances).
//
// Front ends run it through the light-field runner (algorithm.hpp); the engine behind it
// (LightFieldEngine, CPU and CUDA) is internal: lightfield/lightfield_engine.hpp.
// Parameters are described by describe() for the viewer's side panel and the CLI.
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/backend.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/image.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/plenoptic_params.hpp"  // ParamInfo
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

namespace lb {

enum class CaeMethod { Cae, Binned, Exact };
const char* to_string(CaeMethod m);
CaeMethod parse_cae_method(const std::string& s);  // cae | binned | exact (any case)
std::vector<CaeMethod> all_cae_methods();

struct CaeParams {
  int views = 5;        // angular window n (odd): n x n views around the centre
  int labels = 75;      // A
  float dmin = -3.3f;   // disparity of label 0 (px)
  float dmax = 2.8f;    // disparity of label A-1 (px)
  float sigma = 10.0f;  // Gaussian constraint, intensity levels
  CaeMethod method = CaeMethod::Cae;
  bool normalized_log = false;  // H = -sum p log p with p = g/|g| (not the spec's log g)
};

// Throws lb::Error with a one-line message naming the parameter.
void validate(const CaeParams& p);
void validate(const CaeParams& p, const LightField4D& lf);  // also: the window fits
// Upper bound of the host memory of an lfdepth run on `views` RGB8 views of w x h
// (memory_budget.hpp): the views (twice: loaded + the estimator's copy), a labels-deep float
// cost volume, the outputs and the ground truth.
std::uint64_t cae_host_bytes(const CaeParams& p, int views, int w, int h);
// Device: the n x n window of views (RGBA8 3D array), a labels-deep cost volume, the outputs.
std::uint64_t cae_device_bytes(const CaeParams& p, int w, int h);
// Live parameters bound to p (views, labels, dmin, dmax, sigma), ranges from lf when given.
std::vector<ParamInfo> describe(CaeParams& p, const LightField4D* lf = nullptr);
// The largest |disparity| (px per view step) the ranges of dmin, dmax (and the refocus plane)
// allow: for a light field, its width over the angular radius of its largest window (a shift
// past that takes even the nearest views wholly outside the image), at least 16 px, at most
// kMaxAbsDisparity; without one, kMaxAbsDisparity. Wide-baseline light fields need more than
// the HCI benchmark's few pixels.
constexpr double kMaxAbsDisparity = 1024.0;
double cae_max_abs_disparity(const LightField4D* lf);
// d(alpha) for these parameters.
float cae_label_disparity(const CaeParams& p, int alpha);

// Region of the centre view to compute (w or h 0: the whole view). Samples still come from
// the whole views, so a region's result equals the same pixels of a full run.
struct CaeRoi {
  int x = 0, y = 0, w = 0, h = 0;
};
CaeRoi resolve_roi(const CaeRoi& roi, int width, int height);  // validates, fills 0 sizes

struct CaeRunOptions {
  CaeRoi roi;
  bool keep_cost = false;  // also return the cost volume
  int threads = 0;         // CPU threads (0: default)
};

struct LfDepthResult {
  CaeRoi roi;                 // the region computed (resolved)
  ImageF disparity;           // roi.w x roi.h, d(label)
  std::vector<int> labels;    // argmin label per pixel, row-major
  std::vector<float> cost;    // keep_cost: [label][y][x] over the roi (CPU: rounded to float)
  ImageF confidence;          // mean cost over labels minus the minimum (larger: surer)
  std::string variant;        // what ran ("reference", "exact", ...)
  double ms = 0.0;            // wall (CPU) or CUDA-event (GPU) time of the depth pass
};

// CPU reference, multithreaded over rows. The cost volume of the CPU path keeps the double
// costs only rounded for output; the argmin is taken on the doubles.
LfDepthResult cae_depth_cpu(const LightField4D& lf, const CaeParams& p, const CaeRunOptions& o = {});
// Cost C(p, alpha) of one pixel and label (double), for tests and probes.
double cae_cost_cpu(const LightField4D& lf, const CaeParams& p, int x, int y, int alpha);


}  // namespace lb
