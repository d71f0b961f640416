#pragma once
// Stereo matching: the types shared by both methods (hierarchical belief propagation,
// ../shared/specs/stereo-bp.md; center-biased local windows, ../shared/specs/stereo-local.md)
// and the interface their CPU references and CUDA kernels implement.
//
// Conventions (both specs): rectified pair, the left image is the reference; disparity d in
// [0, ndisp-1] means left(x, y) matches right(x - d, y). Disparity maps are float images
// (1 channel) so that ground truth with a scale factor and PFM round-trip unchanged.
#include <memory>
#include <string>
#include <vector>

#include "lightbench/backend.hpp"  // BackendKind
#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"  // ParamInfo
#include "lightbench/timing.hpp"

namespace lb::stereo {

// A rectified pair as 8-bit images of equal size (1 or 3 channels; RGBA is reduced to RGB
// by the loader). Each method converts as its spec says (BP: gray; local: RGB mean).
struct StereoPair {
  ImageU8 left, right;
  std::string name;  // for reports ("tsukuba", or the left file's stem)
};

// Middlebury ground truth: disparity (0 = unknown, never counted) and the three masks
// (255 = counted). Any mask may be empty: then every pixel with known truth is counted.
struct StereoGroundTruth {
  ImageF disparity;
  ImageU8 mask_nonocc, mask_all, mask_disc;
  bool empty() const { return disparity.empty(); }
};

enum class StereoMethod { Bp, Local };
const char* to_string(StereoMethod m);
StereoMethod parse_stereo_method(const std::string& s);  // bp | local (any case)

struct StereoResult {
  ImageF disparity;        // width x height, integer-valued disparities as float
  std::string variant;     // what ran ("reference", "registers", "phase5", ...)
  double ms = 0.0;         // compute only (GPU: CUDA events, data on the device)
  double ms_total = 0.0;   // including the upload of the pair and the download of the map
  std::string tuning;      // what the auto-tuner chose / tried, when it ran (else empty)
};

// One interface per method for the CPU reference and the CUDA kernels (the pattern of
// LightFieldDepthEstimator in cae.hpp). The pair is handed over once and stays resident.
template <class Params>
class StereoMatcher {
 public:
  virtual ~StereoMatcher() = default;
  virtual BackendKind kind() const = 0;
  virtual std::string device_name() const = 0;
  virtual void set_pair(const StereoPair& pair) = 0;
  virtual bool has_pair() const = 0;
  virtual std::vector<std::string> variants() const = 0;
  virtual std::string default_variant() const = 0;
  // variant "" picks default_variant(); an unknown variant throws lb::Error naming it and
  // the known ones.
  virtual StereoResult run(const Params& p, const std::string& variant = "") = 0;
  TimingRegistry& timings() { return timings_; }

 protected:
  TimingRegistry timings_;
};

}  // namespace lb::stereo
