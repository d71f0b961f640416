#pragma once
// What the two CUDA stereo matchers share to keep their maps on the device: the ground truth
// uploaded once per pair (for the error map and the score), and the writes of a dense device
// map into any lb::Surface (a registered GL texture receives it through CUDA-GL interop).
#include <memory>
#include <string>

#include "disparity_score.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/engines/stereo.hpp"
#include "surface_write.hpp"

namespace lb::cuda::detail {

class StereoDeviceOutputs {
 public:
  // A new pair: the truth of the old one is forgotten.
  void reset() { truth_src_ = nullptr; has_map_ = false; }
  // The map (dense floats, w x h on the device) of the last run.
  void set_map(const float* map, int w, int h) {
    map_.ptr = map;
    map_.pitch = static_cast<std::size_t>(w) * 4;
    map_.width = w;
    map_.height = h;
    has_map_ = true;
  }
  void map_to_surface(Surface& out, cudaStream_t s) { write_surface_r32f(out, map(), s, &staging_); }
  void error_to_surface(const stereo::StereoGroundTruth& gt, float max_disp, Surface& out, cudaStream_t s) {
    stereo_error_map_to_surface(map(), truth(gt, s), 1.0, max_disp, out, s, &staging_);
  }
  stereo::StereoScore score(const stereo::StereoGroundTruth& gt, cudaStream_t s) {
    return score_stereo_device(map(), truth(gt, s), 1.0, s);
  }

 private:
  const DeviceFloatPlane& map() const {
    LB_REQUIRE(has_map_, "stereo: no disparity computed yet");
    return map_;
  }
  // The truth on the device; uploaded when the caller's truth is another object (the runner
  // keeps its data alive, and reset() runs with every new pair).
  const DeviceStereoTruth& truth(const stereo::StereoGroundTruth& gt, cudaStream_t s) {
    LB_REQUIRE(!gt.empty(), "this pair has no ground truth");
    if (truth_src_ != &gt) {
      truth_.upload(gt, s);
      truth_src_ = &gt;
    }
    return truth_;
  }
  DeviceFloatPlane map_;
  bool has_map_ = false;
  DeviceStereoTruth truth_;
  const stereo::StereoGroundTruth* truth_src_ = nullptr;
  PitchedBuffer staging_;
};

// The part both CUDA matchers share: every run goes through run_impl (out == nullptr: the map
// is downloaded into the result; else written from the device into out), and the map stays
// on the device for the error map and the score.
template <class P>
class DeviceStereoEngine : public stereo::StereoEngine<P> {
 public:
  stereo::StereoResult run(const P& p, const std::string& variant) final { return run_impl(p, variant, nullptr); }
  void run_to_surface(const P& p, const std::string& variant, Surface& out) final {
    this->last_ = run_impl(p, variant, &out);
    this->has_last_ = true;
  }
  void last_error_to_surface(const stereo::StereoGroundTruth& gt, float max_disp, Surface& out) final {
    outputs_.error_to_surface(gt, max_disp, out, stream());
  }
  stereo::StereoScore score_last(const stereo::StereoGroundTruth& gt) final { return outputs_.score(gt, stream()); }
  std::unique_ptr<Surface> scratch_surface(SurfaceFormat f) final { return make_cuda_surface(f); }

 protected:
  virtual stereo::StereoResult run_impl(const P& p, const std::string& variant, Surface* out) = 0;
  virtual cudaStream_t stream() const = 0;
  StereoDeviceOutputs outputs_;
};

}  // namespace lb::cuda::detail
