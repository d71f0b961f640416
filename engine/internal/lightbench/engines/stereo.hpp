#pragma once
// INTERNAL (lb_engine_internal: engine/src, kernels/, bench/, tests/; not app/): the stereo
// engines behind the stereo runners (lightbench/stereo_method.hpp), their CPU
// references (engine/algorithms/stereo_bp/stereo_bp_cpu.cpp, stereo_local_cpu.cpp) and the runners. The
// CUDA engines: lightbench/engines/cuda.hpp.
#include <memory>
#include <string>
#include <vector>

#include "lightbench/backend.hpp"
#include "lightbench/error.hpp"
#include "lightbench/stereo.hpp"
#include "stereo_bp/stereo_bp.hpp"
#include "stereo_local/stereo_local.hpp"
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

namespace lb::stereo {

// The stereo engine behind the stereo runners: one interface per method (BpParams,
// LocalParams) for the CPU reference and the CUDA kernels. The pair is handed over once
// and stays resident.
template <class Params>
class StereoEngine {
 public:
  virtual ~StereoEngine() = default;
  virtual BackendKind kind() const = 0;
  virtual std::string device_name() const = 0;
  virtual void set_pair(const StereoPair& pair) = 0;
  virtual bool has_pair() const = 0;
  virtual std::vector<std::string> variants() const = 0;
  virtual std::string default_variant() const = 0;
  // variant "" picks default_variant(); an unknown variant throws lb::Error naming it and
  // the known ones.
  virtual StereoResult run(const Params& p, const std::string& variant = "") = 0;
  // The disparity map into an R32F surface, kept as "the last map" for the error map and the
  // score. Default: run() + upload_host (the CUDA matchers write from device memory).
  virtual void run_to_surface(const Params& p, const std::string& variant, Surface& out) {
    last_ = run(p, variant);
    has_last_ = true;
    out.resize(last_.disparity.width, last_.disparity.height);
    out.upload_host(last_.disparity);
  }
  // What the last run_to_surface() ran ("registers", "registers->local ...") and its compute
  // time (ms, CUDA events on the GPU).
  virtual std::string last_variant() const { return last_.variant; }
  virtual double last_ms() const { return last_.ms; }
  // The Middlebury error map (stereo_error_map) of the last map, as RGBA8.
  virtual void last_error_to_surface(const StereoGroundTruth& gt, float max_disp, Surface& out) {
    LB_REQUIRE(has_last_, "stereo error map: no disparity computed yet");
    const ImageU8 img = to_rgba(stereo_error_map(last_.disparity, gt, 1.0, max_disp));
    out.resize(img.width, img.height);
    out.upload_host(img);
  }
  // Bad pixels of the last map (threshold 1).
  virtual StereoScore score_last(const StereoGroundTruth& gt) {
    LB_REQUIRE(has_last_, "stereo score: no disparity computed yet");
    return score_stereo(last_.disparity, gt, 1.0);
  }
  // A surface of this matcher's own kind for results nobody shows (the map behind an error
  // map): host memory here, device memory on CUDA (no download).
  virtual std::unique_ptr<Surface> scratch_surface(SurfaceFormat f) { return std::make_unique<HostSurface>(f); }
  TimingRegistry& timings() { return timings_; }

 protected:
  StereoResult last_;  // the default run_to_surface's result
  bool has_last_ = false;
  TimingRegistry timings_;
};

// The CPU matcher (variant "reference"), timed as "stereo/bp/cpu".
std::unique_ptr<StereoEngine<BpParams>> make_stereo_bp_engine_cpu(int threads = 0);

// CPU matcher: variant "reference"; timings "stereo/local/reference".
std::unique_ptr<StereoEngine<LocalParams>> make_stereo_local_engine_cpu(int threads = 0);

}  // namespace lb::stereo

namespace lb {

class Runner;  // lightbench/algorithm.hpp

// The stereo runners (algorithms.hpp's stereo_bp_spec, stereo_local_spec) over an engine.
std::unique_ptr<Runner> make_stereo_bp_runner(std::unique_ptr<stereo::StereoEngine<stereo::BpParams>> engine);
std::unique_ptr<Runner> make_stereo_local_runner(std::unique_ptr<stereo::StereoEngine<stereo::LocalParams>> engine);

}  // namespace lb
