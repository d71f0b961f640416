// The CUDA engine of belief-propagation stereo: the pair stays resident on the device
// (BpDevice, stereo_bp.cu), a run resolves its variant (auto-tuned or named) into a BpConfig,
// queues the pyramid and writes the map from device memory (StereoDeviceOutputs), timed
// with CUDA events.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightbench/engines/stereo.hpp"
#include "lightbench/memory_budget.hpp"
#include "stereo_bp/stereo_cuda.hpp"
#include "stereo_bp/stereo_bp_launch.hpp"
#include "stereo_device_outputs.hpp"

namespace lb::cuda {

// ---------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------
std::vector<std::string> bp_stereo_variants() {
  return {"auto", "auto:float", "warp", "warp-fp16", "warp-bf16", "registers", "hybrid", "shared", "local"};
}
std::vector<int> bp_register_counts() { return detail::bp_register_instances(); }
std::vector<int> bp_warp_lane_counts(int ndisp) { return detail::bp_warp_lane_options(ndisp); }

namespace {

using namespace detail;

class CudaBpStereo final : public DeviceStereoEngine<stereo::BpParams> {
 public:
  explicit CudaBpStereo(int device) : DeviceStereoEngine(device, "CUDA BP stereo") {
    dev_ = std::make_unique<BpDevice>();
  }
  bool has_pair() const override { return dev_->has_pair(); }
  std::vector<std::string> variants() const override { return bp_stereo_variants(); }
  std::string default_variant() const override { return "auto"; }
 private:
  void upload_pair(const stereo::StereoPair& pair) override { dev_->set_pair(pair); }
  // out == nullptr: download the map into the result; else write it into out from the device.
  stereo::StereoResult run_impl(const stereo::BpParams& p, const std::string& variant_in, Surface* out) override {
    LB_REQUIRE(has_pair(), "stereo bp: no stereo pair loaded");
    stereo::validate(p);
    LB_REQUIRE(p.ndisp <= dev_->width(), "ndisp: " + std::to_string(p.ndisp) +
                                             " disparities exceed the image width " + std::to_string(dev_->width()));
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const std::string variant = variant_in.empty() ? default_variant() : variant_in;
    const cudaStream_t s = stream_->get();
    stereo::StereoResult r;
    BpConfig c;
    bool fallback = false;
    const bool named = bp_parse_variant(variant, p.ndisp, &c, &fallback);
    const bool sixteen_only = !fits_float_messages(p, variant, named, c);
    if (!named) {
      dev_->upload(s);
      if (bp_is_auto(variant)) {
        const BpTuneResult t = bp_autotune_any(*dev_, p, info_.name, variant == "auto:float", s, sixteen_only);
        c = bp_config_of(t.best, p.ndisp);
        r.tuning = t.describe();
      } else {
        const BpTuneResult t = bp_autotune(*dev_, p, info_.name, s);
        c.store = BpStore::Hybrid;
        c.reg = t.best.reg;
        c.shared = t.best.shared;
        c.block_x = t.best.block_x;
        c.block_y = t.best.block_y;
        r.tuning = t.describe();
      }
    }
    const std::string note = bp_fit_config(c, p.ndisp, dev_->max_shared_bytes());
    const std::string resolved = fallback ? "registers->local (no instance for L=" + std::to_string(p.ndisp) + ")" : c.name();
    r.variant = bp_is_auto(variant) ? variant + " -> " + resolved : resolved;
    if (fallback) {
      std::string why = "registers: no instance for L=";
      why += std::to_string(p.ndisp);
      why += " (instances 16, 20, 21, 32, 48, 60, 64, 128; an array of 256 values per thread exceeds the "
             "255-register limit), ran local; the warp variant serves every L";
      if (!r.tuning.empty()) r.tuning += "; ";
      r.tuning += why;
    }
    if (!note.empty()) r.tuning += (r.tuning.empty() ? "" : "; ") + ("adjusted " + note);
    if (sixteen_only)
      r.tuning += std::string(r.tuning.empty() ? "" : "; ") + "16-bit messages: float ones need " +
                  format_bytes(stereo::bp_device_bytes(p, dev_->width(), dev_->height(), 4)) + " of device memory, " +
                  format_bytes(available_bytes()) + " available";
    const RunTimes t = timed_run([&](cudaStream_t q) { dev_->upload(q); },
                                 [&](cudaStream_t q) { dev_->compute(p, c, q); },
                                 [&] { return dev_->device_map(); }, dev_->width(), dev_->height(), out,
                                 [&](cudaStream_t q) { dev_->download(q); });
    const float ms = t.ms, total = t.total;
    if (!out) dev_->copy_map(r.disparity);
    r.ms = ms;
    r.ms_total = total;
    const std::string key = fallback ? "local" : c.store == BpStore::Hybrid ? "hybrid" : c.name();
    const std::uint64_t px = static_cast<std::uint64_t>(dev_->width()) * dev_->height();
    timings_.record("stereo/bp/" + key, ms, px * p.ndisp * 4 * 5);
    timings_.record("stereo/bp/" + key + (out ? "/total (to surface)" : "/total"), total, dev_->pair_bytes() + px * 4);
    return r;
  }

  // Device memory this run may take: the device's free memory plus what dev_ holds already,
  // within the process's limit (--max-device-memory) where one is set.
  std::uint64_t available_bytes() const {
    std::uint64_t free_b = 0, total_b = 0;
    std::string why;
    if (!device_memory(&free_b, &total_b, &why)) throw Error("stereo-bp: " + why);
    const std::uint64_t held = dev_->held_bytes();
    std::uint64_t avail = free_b + held;
    if (const std::uint64_t limit = max_device_memory()) {
      const std::uint64_t others = detail::device_bytes_in_use().load() - std::min(held, detail::device_bytes_in_use().load());
      avail = std::min(avail, limit > others ? limit - others : 0);
    }
    return avail;
  }
  // Whether the run's messages may be float (before anything is allocated). Past the memory:
  // auto takes 16-bit messages (returns false); a variant whose messages do not fit, and a run
  // that fits in no form, are refused in one line naming the sizes.
  bool fits_float_messages(const stereo::BpParams& p, const std::string& variant, bool named,
                           const BpConfig& c) const {
    const int w = dev_->width(), h = dev_->height();
    const std::uint64_t need32 = stereo::bp_device_bytes(p, w, h, 4), need16 = stereo::bp_device_bytes(p, w, h, 2);
    const std::uint64_t avail = available_bytes();
    if (need32 <= avail) return true;
    const std::string size = std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(p.ndisp);
    const bool sixteen = named && c.store == BpStore::Warp && c.msg != BpMsgType::F32;
    if (sixteen && need16 <= avail) return true;
    if (need16 > avail)
      throw Error("stereo-bp: " + size + " needs " + format_bytes(need16) + " of device memory even with 16-bit " +
                  "messages, " + format_bytes(avail) + " available (fewer disparities or a smaller pair)");
    if (variant == "auto") return false;
    throw Error("stereo-bp: --variant " + variant + " at " + size + " needs " + format_bytes(need32) +
                " of device memory (float messages), " + format_bytes(avail) +
                " available; 16-bit messages fit: --variant auto, warp-fp16 or warp-bf16");
  }

  std::unique_ptr<BpDevice> dev_;
};

}  // namespace

std::unique_ptr<stereo::StereoEngine<stereo::BpParams>> make_stereo_bp_engine_cuda(int device) {
  return std::make_unique<CudaBpStereo>(device);
}

}  // namespace lb::cuda
