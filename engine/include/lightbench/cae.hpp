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
// float (lightbench/cae_cuda.hpp documents their tolerances).
//
// Front ends use LightFieldDepthEstimator: make_lf_depth_cpu() here, make_lf_depth_cuda()
// in lb_kernels (lightbench/cae_cuda.hpp). Parameters are described by describe() for the
// viewer's side panel and the CLI.
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

struct LfRefineParams;  // lightbench/lf_refine.hpp
struct LfRefineResult;

// One interface for the CPU reference and the CUDA kernels. The light field is handed over
// once (uploaded to the device by the CUDA estimator) and stays resident.
class LightFieldDepthEstimator {
 public:
  virtual ~LightFieldDepthEstimator() = default;
  virtual BackendKind kind() const = 0;
  virtual std::string device_name() const = 0;
  virtual void set_lightfield(const LightField4D& lf) = 0;
  virtual bool has_lightfield() const = 0;
  // Implementation variants ("reference" on the CPU; the kernel variants on CUDA).
  virtual std::vector<std::string> variants() const = 0;
  // The variant used when none is named, for a method.
  virtual std::string default_variant(CaeMethod m) const = 0;
  // Runs a depth pass. variant "" picks default_variant(p.method); a variant that does not
  // compute p.method throws lb::Error naming both.
  virtual LfDepthResult run(const CaeParams& p, const std::string& variant = "",
                            const CaeRunOptions& o = {}) = 0;
  // Disparity into a surface (R32F, resized to the region) and kept as "the last depth" for
  // last_error_to_surface() / score_last(). Default: run() + upload_host (the CUDA estimator
  // writes from device memory instead).
  virtual void run_to_surface(const CaeParams& p, const std::string& variant, Surface& out,
                              const CaeRunOptions& o = {});
  // |last depth - ground truth| (hci_error_map) into an R32F surface. Throws without a last
  // depth or ground truth.
  virtual void last_error_to_surface(Surface& out);
  // The HCI score of the last depth (hci_score_region, border cropped from the full image).
  virtual HciScore score_last(int border);
  // The sub-aperture view (u, v) into an RGBA8 surface (bounds checked).
  virtual void view_to_surface(int u, int v, Surface& out);
  // Shift-and-add refocus (lb::refocus_cpu's image) into an RGBA8 surface.
  virtual void refocus_to_surface(float disparity, int aperture_radius, Surface& out);
  // A surface of this estimator's own kind for results nobody shows (the depth behind an
  // error map): host memory here, device memory on CUDA (no download).
  virtual std::unique_ptr<Surface> scratch_surface(SurfaceFormat f) { return std::make_unique<HostSurface>(f); }
  // The host copy of the light field the defaults above read (the caller keeps it alive:
  // the runner holds the data); forgets the last depth.
  void set_host_lightfield(const LightField4D* lf) {
    host_lf_ = lf;
    has_last_ = false;
  }
  TimingRegistry& timings() { return timings_; }
  // Depth and its refinement (lightbench/lf_refine.hpp) where the cost volume lives: the CUDA
  // estimator runs every step on the device and returns true; the default returns false and
  // the caller (lb::run_refined) refines a keep_cost volume on the CPU. guide: the roi's
  // gray in [0, 1] (lf_refine_guide).
  virtual bool refine_device(const CaeParams& p, const std::string& variant, const CaeRunOptions& o,
                             const LfRefineParams& rp, const ImageF& guide, LfDepthResult* raw, LfRefineResult* out) {
    (void)p, (void)variant, (void)o, (void)rp, (void)guide, (void)raw, (void)out;
    return false;
  }
  // A map of the last refine_device ("refined", "confidence", "refined_error") written into a
  // surface from the device (CUDA-GL interop in the viewer); false when this estimator keeps
  // none (the caller uploads its host copy).
  virtual bool refined_to_surface(const std::string& which, Surface& out) {
    (void)which, (void)out;
    return false;
  }

 protected:
  // The light field the defaults above read (set_host_lightfield).
  const LightField4D* host_lf_ = nullptr;
  LfDepthResult last_;  // the default run_to_surface's result
  bool has_last_ = false;
  TimingRegistry timings_;
};

std::unique_ptr<LightFieldDepthEstimator> make_lf_depth_cpu(int threads = 0);

}  // namespace lb
