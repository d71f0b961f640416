#pragma once
// What the two CUDA stereo matchers share: their device and stream and, to keep their maps on
// the device, the ground truth uploaded once per pair (for the error map and the score) and
// the writes of a dense device map into any lb::Surface (a registered GL texture receives it
// through CUDA-GL interop).
#include <memory>
#include <string>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "disparity_score.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/error.hpp"
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

// The part both CUDA matchers share: the device, its name and the engine's stream (a device
// that cannot run throws one line naming the matcher, `what`); a new pair waits for the queued
// work and forgets the last map and truth before upload_pair; every run goes through run_impl
// (out == nullptr: the map is downloaded into the result; else written from the device into
// out), timed by timed_run, and the map stays on the device for the error map and the score.
template <class P>
class DeviceStereoEngine : public stereo::StereoEngine<P> {
 public:
  DeviceStereoEngine(int device, const char* what) : device_(device) {
    std::string why;
    if (!device_available(&why)) throw Error(std::string(what) + ": " + why);
    CUDA_CHECK_THROW(cudaSetDevice(device));
    info_ = device_info(device);
    stream_ = std::make_unique<Stream>();
    for (auto& e : events_) e = std::make_unique<Event>();
  }
  BackendKind kind() const final { return BackendKind::Cuda; }
  std::string device_name() const final { return info_.name; }
  void set_pair(const stereo::StereoPair& pair) final {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    CUDA_CHECK_THROW(cudaStreamSynchronize(stream_->get()));
    outputs_.reset();
    upload_pair(pair);
  }
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
  virtual void upload_pair(const stereo::StereoPair& pair) = 0;
  cudaStream_t stream() const { return stream_->get(); }

  // A run's CUDA-event times: ms the compute, ms_total the upload of the pair, the compute and
  // the map's way out.
  struct RunTimes {
    float ms = 0, total = 0;
  };
  // Queues upload(s), compute(s), then the map (w x h floats at map() on the device, read once
  // compute is queued) into out, or download(s) into the host when out is null; waits for them.
  template <class Upload, class Compute, class Map, class Download>
  RunTimes timed_run(Upload&& upload, Compute&& compute, Map&& map, int w, int h, Surface* out, Download&& download) {
    const cudaStream_t s = stream();
    CUDA_CHECK_THROW(cudaEventRecord(events_[0]->get(), s));
    upload(s);
    CUDA_CHECK_THROW(cudaEventRecord(events_[1]->get(), s));
    compute(s);
    CUDA_CHECK_THROW(cudaEventRecord(events_[2]->get(), s));
    outputs_.set_map(map(), w, h);
    if (out) outputs_.map_to_surface(*out, s);
    else download(s);
    CUDA_CHECK_THROW(cudaEventRecord(events_[3]->get(), s));
    CUDA_CHECK_THROW(cudaEventSynchronize(events_[3]->get()));
    RunTimes t;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t.ms, events_[1]->get(), events_[2]->get()));
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t.total, events_[0]->get(), events_[3]->get()));
    return t;
  }
  int device_;
  DeviceInfo info_;
  std::unique_ptr<Stream> stream_;
  StereoDeviceOutputs outputs_;

 private:
  std::unique_ptr<Event> events_[4];  // before the upload, after it, after the compute, after the output
};

}  // namespace lb::cuda::detail
