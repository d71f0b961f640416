// The CUDA engine of center-biased local stereo: the pair stays resident on the device,
// each run queues the pipeline of its variant (stereo_local_pipeline.cu) and writes the map
// from device memory (StereoDeviceOutputs), timed with CUDA events (DeviceStereoEngine::timed_run).
#include <cuda_runtime_api.h>

#include <cstring>
#include <memory>
#include <string>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightbench/engines/stereo.hpp"
#include "stereo_local/stereo_local_cuda.hpp"
#include "stereo_device_outputs.hpp"
#include "stereo_local/stereo_local_launch.hpp"

namespace lb::cuda {

// ---------------------------------------------------------------------------------------
// The CUDA matcher
// ---------------------------------------------------------------------------------------
namespace {

using namespace detail;

class CudaLocalStereo final : public DeviceStereoEngine<stereo::LocalParams> {
 public:
  explicit CudaLocalStereo(int device) : DeviceStereoEngine(device, "CUDA local stereo") {}
  bool has_pair() const override { return !st_.empty(); }
  std::vector<std::string> variants() const override { return stereo::local_variants(); }
  std::string default_variant() const override { return "fused2"; }
 private:
  void upload_pair(const stereo::StereoPair& pair) override { st_.set_pair(pair, stream_->get()); }
  // out == nullptr: download the map into the result; else write it into out from the device.
  stereo::StereoResult run_impl(const stereo::LocalParams& p, const std::string& variant_in, Surface* out) override {
    LB_REQUIRE(has_pair(), "stereo local: no pair loaded");
    const stereo::local::KernelParams k = stereo::local::kernel_params(p);  // validates
    const std::string variant = variant_in.empty() ? default_variant() : variant_in;
    const LocalKernel v = parse_local_kernel(variant);
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const RunTimes t = timed_run([&](cudaStream_t q) { st_.upload(q); },
                                 [&](cudaStream_t q) { st_.compute(k, p.lr_check != 0, v, q); },
                                 [&] { return st_.disp.as<float>(); }, st_.width, st_.height, out,
                                 [&](cudaStream_t q) { st_.download(q); });
    const float ms = t.ms, total = t.total;
    stereo::StereoResult r;
    // The kernels that ran: "fused2->fused" where fused2's packed kernel does not apply.
    const LocalKernel ran = st_.kernel_run(k, v);
    r.variant = ran == v ? variant : variant + "->" + local_kernel_name(ran);
    r.ms = ms;
    r.ms_total = total;
    if (!out) {
      r.disparity = ImageF(st_.width, st_.height, 1);
      std::memcpy(r.disparity.data.data(), st_.host_disp(), r.disparity.size_bytes());
    }
    timings_.record(stereo::local_timing_key(r.variant), ms,
                    local_pass_bytes(st_.width, st_.height, k, p.lr_check != 0, v));
    return r;
  }

  LocalDeviceState st_;
};

}  // namespace

std::unique_ptr<stereo::StereoEngine<stereo::LocalParams>> make_stereo_local_engine_cuda(int device) {
  return std::make_unique<CudaLocalStereo>(device);
}

}  // namespace lb::cuda
