#pragma once
// INTERNAL (lb_engine_internal: engine/src, kernels/, bench/, tests/; not app/): the 4D
// light-field engine behind the light-field runner (engine/algorithms/lightfield/lightfield_spec.cpp),
// its CPU reference (engine/algorithms/lightfield/cae_cpu.cpp), the refinement driver over it and the runner.
// The CUDA engine: lightbench/engines/cuda.hpp.
#include <memory>
#include <string>
#include <vector>

#include "lightbench/backend.hpp"
#include "lightfield/cae.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightfield/lf_refine.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

namespace lb {

class Runner;  // lightbench/algorithm.hpp

// The light-field engine (views, refocus, CAE depth and its refinement) behind the
// light-field runner: one interface for the CPU reference and the CUDA kernels. The light field is handed over
// once (uploaded to the device by the CUDA estimator) and stays resident.
class LightFieldEngine {
 public:
  virtual ~LightFieldEngine() = default;
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
  // Depth and its refinement (lightfield/lf_refine.hpp) where the cost volume lives: the CUDA
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

// The CPU reference (variant "reference").
std::unique_ptr<LightFieldEngine> make_lightfield_engine_cpu(int threads = 0);

// Depth plus refinement on est's backend: on the device where the estimator offers it
// (CUDA), else the estimator's run with keep_cost and refine_depth_cpu. raw: the unrefined
// result (exact WTA); the returned times are per step (CUDA events or wall clock), and
// est.timings() holds them as "lfdepth/refine/<step>" on either path.
// lf: the light field est holds (the CPU path's defocus cost reads it).
LfRefineResult run_refined(LightFieldEngine& est, const LightField4D& lf, const CaeParams& p,
                           const std::string& variant, CaeRunOptions o, const LfRefineParams& rp, const ImageF& guide,
                           LfDepthResult* raw, bool* on_device = nullptr);

// The light-field runner (algorithms.hpp's lightfield_spec) over an engine.
std::unique_ptr<Runner> make_lightfield_runner(std::unique_ptr<LightFieldEngine> engine);

}  // namespace lb
