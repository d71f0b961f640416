#pragma once
// Internal to lb_kernels: scoring a disparity estimate that is still on the device against
// ground truth uploaded once, and the error maps into any DeviceTarget or Surface. The
// per-pixel rules are the CPU reference's (hci_math.hpp, stereo_score_math.hpp):
//   * counts (BadPix, bad pixels, evaluated pixels) and the error maps are identical to
//     lb::hci_score_region / lb::hci_error_map / lb::stereo::score_stereo /
//     lb::stereo::stereo_error_map;
//   * MSE x 100 is the same squared errors (bit-identical terms) summed in double in a
//     fixed tree order (deterministic run to run) instead of the CPU's row order. All terms
//     are >= 0, so each sum is within (pixels - 1) * 2^-53 (relative) of the exact sum and
//     |GPU - CPU| <= 2 (pixels + 2) 2^-53 CPU (about 2.2e-11 relative at 10^5 pixels; in
//     practice a few 1e-16). The tests hold it to that bound (lb::hci::mse_tolerance).
// A score downloads a few numbers and synchronises the stream; the maps are enqueued only.
// A truth holder's reduction scratch serves one scoring at a time (one stream).
#include <cuda_runtime_api.h>

#include <cstddef>

#include "cuda_util.hpp"
#include "device_plane.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/stereo_metrics.hpp"
#include "lightbench/surface.hpp"

namespace lb::cuda::detail {

// Reduction scratch: per-block partial sums and the total.
class ScoreScratch {
 public:
  void* get(std::size_t bytes) {
    buf_.reserve(bytes);
    return buf_.get();
  }

 private:
  DeviceBuffer buf_;
};

// ---- HCI light-field benchmark (hci_metrics.hpp) ---------------------------------------
// The full-size ground-truth disparity (one channel).
class DeviceHciTruth {
 public:
  DeviceHciTruth() = default;
  DeviceHciTruth(const ImageF& gt, cudaStream_t s) { upload(gt, s); }
  void upload(const ImageF& gt, cudaStream_t s);  // synchronises s
  bool empty() const { return gt_.empty(); }
  int width() const { return gt_.width(); }
  int height() const { return gt_.height(); }
  DeviceFloatPlane plane() const { return gt_.plane(); }
  ScoreScratch& scratch() const { return scratch_; }

 private:
  DeviceImage<float> gt_;
  mutable ScoreScratch scratch_;
};

// |d - gt| of the region of gt at (ox, oy) of disp's size (0 where not finite) into t (R32F).
void launch_hci_error_map(const DeviceFloatPlane& disp, const DeviceHciTruth& gt, int ox, int oy,
                          const DeviceTarget& t, cudaStream_t s);
bool hci_error_map_to_surface(const DeviceFloatPlane& disp, const DeviceHciTruth& gt, int ox, int oy, Surface& out,
                              cudaStream_t s, PitchedBuffer* staging = nullptr);
// lb::hci_score_region / lb::hci_score (same checks and messages).
HciScore hci_score_region_device(const DeviceFloatPlane& disp, const DeviceHciTruth& gt, int ox, int oy, int border,
                                 cudaStream_t s);
HciScore hci_score_device(const DeviceFloatPlane& disp, const DeviceHciTruth& gt, int border, cudaStream_t s);

// ---- Middlebury stereo (stereo_metrics.hpp) --------------------------------------------
// The truth disparity and the first channel of each evaluation mask (an empty mask stays
// empty: every pixel with known truth).
class DeviceStereoTruth {
 public:
  DeviceStereoTruth() = default;
  DeviceStereoTruth(const stereo::StereoGroundTruth& gt, cudaStream_t s) { upload(gt, s); }
  // lb::Error when gt is empty, not one channel, or a mask's size differs; synchronises s.
  void upload(const stereo::StereoGroundTruth& gt, cudaStream_t s);
  bool empty() const { return disparity_.empty(); }
  int width() const { return disparity_.width(); }
  int height() const { return disparity_.height(); }
  DeviceFloatPlane disparity() const { return disparity_.plane(); }
  // nonocc, all, disc; empty() when the mask is.
  DeviceBytePlane mask(int region) const { return masks_[region].plane(); }
  float finite_max() const { return finite_max_; }  // for the error map's default scale
  ScoreScratch& scratch() const { return scratch_; }

 private:
  DeviceImage<float> disparity_;
  DeviceImage<std::uint8_t> masks_[3];
  float finite_max_ = 0;
  mutable ScoreScratch scratch_;
};

// lb::stereo::stereo_error_map into t (RGBA8, alpha 255).
void launch_stereo_error_map(const DeviceFloatPlane& disp, const DeviceStereoTruth& gt, double threshold,
                             float max_disp, const DeviceTarget& t, cudaStream_t s);
bool stereo_error_map_to_surface(const DeviceFloatPlane& disp, const DeviceStereoTruth& gt, double threshold,
                                 float max_disp, Surface& out, cudaStream_t s, PitchedBuffer* staging = nullptr);
// lb::stereo::score_stereo (same checks and messages).
stereo::StereoScore score_stereo_device(const DeviceFloatPlane& disp, const DeviceStereoTruth& gt, double threshold,
                                        cudaStream_t s);

}  // namespace lb::cuda::detail
