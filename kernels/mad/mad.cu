// CUDA MAD evaluator: the whole metric on the device in float (mad/mad_cuda.hpp).
// Per image size one pipeline (kernels/mad/mad_pipeline.hpp: r2c by default, c2c the previous
// one) keeps its cuFFT plans, filter tables and buffers resident; a call uploads the two
// images from pinned memory, runs, and reads back two sums. Stage times (CUDA events) go to
// timings() as "mad/stage/<stage>" with the bytes each stage must move.
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/engines/cuda.hpp"
#include "mad/mad_engine.hpp"
#include "mad/mad_cuda.hpp"
#include "mad/mad_math.hpp"
#include "mad/mad_launch.hpp"
#include "mad/mad_pipeline.hpp"
#include "surface_write.hpp"

namespace lb::cuda {

namespace {

using detail::DeviceBuffer;
using detail::MadPipeline;
using detail::MadStageClock;
using detail::MadStatsKernel;
using detail::Stream;

// The old timing groups of either pipeline's stages: 0 "mad/csf", 1 "mad/detect", 2
// "mad/gabor", 3 "mad/stats/<variant>", -1 none (upload, combine).
int legacy_group(const char* stage) {
  static const char* const names[][4] = {{"lum", "fwd", "csf_fwd", "csf_inv"},
                                         {"detect", "", "", ""},
                                         {"gabor_fwd", "gabor_mul", "gabor_inv", ""},
                                         {"stats", "", "", ""}};
  for (int g = 0; g < 4; ++g)
    for (const char* c : names[g])
      if (*c && std::strcmp(stage, c) == 0) return g;
  return -1;
}

class MadCuda final : public MadEngine {
 public:
  MadCuda(int device, const MadPipelineOptions& p) : device_(device), popt_(p) {
    info_ = device_info(device);
    if (!info_.available) throw Error("CUDA MAD: " + info_.why);
    if (p.batch_planes != 0 && (p.batch_planes < 2 || p.batch_planes % 2 != 0 || 40 % p.batch_planes != 0))
      throw Error("CUDA MAD: responses per inverse batch must be 0 (auto) or an even divisor of 40, not " +
                  std::to_string(p.batch_planes));
    if (p.c2c && p.callbacks) throw Error("CUDA MAD: cuFFT callbacks are an option of the r2c pipeline, not of c2c");
    CUDA_CHECK_THROW(cudaSetDevice(device));
    stream_ = std::make_unique<Stream>();
    clock_ = std::make_unique<MadStageClock>();
  }
  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string device_name() const override { return info_.describe(); }
  std::vector<std::string> variants() const override { return mad_stats_variants(); }
  std::string default_variant() const override { return "fused"; }

  MadResult run(const ImageD& ref, const ImageD& dst, const std::string& variant_in, const MadOptions& o) override {
    const std::string variant = variant_in.empty() ? default_variant() : variant_in;
    const MadStatsKernel sk = detail::parse_mad_stats_kernel(variant);
    int w = 0, h = 0;
    validate_mad_input(ref, dst, o, &w, &h);
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const cudaStream_t s = stream_->get();
    MadPipeline& p = state(w, h);
    const std::size_t n = static_cast<std::size_t>(w) * h;
    float* host = p.host_input();  // pinned: the upload is asynchronous
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        host[static_cast<std::size_t>(y) * w + x] = static_cast<float>(ref.at(x, y));
        host[n + static_cast<std::size_t>(y) * w + x] = static_cast<float>(dst.at(x, y));
      }
    double sums[2] = {0, 0};
    p.run(sk, o.eight_bit, *clock_, s, sums);

    MadResult r;
    r.width = w;
    r.height = h;
    r.cropped_odd = w != ref.width || h != ref.height;
    r.variant = variant;
    const double count = static_cast<double>(mad::crop_hi(w) - mad::crop_lo() + 1) * (mad::crop_hi(h) - mad::crop_lo() + 1);
    r.d_detect = 200.0 * std::sqrt(sums[0] / count);
    r.d_appear = std::sqrt(sums[1] / count);
    r.mad = mad::combine(r.d_detect, r.d_appear);
    // "mad/total" is the metric on the device: from the end of the upload to the sums read back.
    clock_->collect();
    double group_ms[4] = {0, 0, 0, 0};
    std::uint64_t stats_bytes = 0;
    for (int i = 0; i < clock_->stages(); ++i) {
      const char* name = clock_->name(i);
      timings_.record(std::string("mad/stage/") + name, clock_->ms(i), clock_->bytes(i));
      const int g = legacy_group(name);
      if (g >= 0) group_ms[g] += clock_->ms(i);
      if (g == 3) stats_bytes += clock_->bytes(i);
    }
    timings_.record("mad/csf", group_ms[0]);
    timings_.record("mad/detect", group_ms[1]);
    timings_.record("mad/gabor", group_ms[2]);
    timings_.record("mad/stats/" + variant, group_ms[3], stats_bytes);
    r.ms = clock_->ms_from("upload");
    timings_.record("mad/total", r.ms);
    last_launches_ = p.launches();
    if (o.keep_maps) {
      std::vector<float> buf(n);
      for (int k = 0; k < 2; ++k) {
        CUDA_CHECK_THROW(cudaMemcpy(buf.data(), k == 0 ? p.hi() : p.lo(), n * sizeof(float), cudaMemcpyDeviceToHost));
        ImageD& m = k == 0 ? r.hi : r.lo;
        m.reset(w, h, 1);
        std::copy(buf.begin(), buf.end(), m.data.begin());
      }
    }
    return r;
  }
  int last_launches() const { return last_launches_; }
  std::string pipeline_name(int w, int h) { return state(w, h).describe(); }

  // The HI / LO maps stay on the device (run_keep downloads none); map_to_surface writes
  // them straight into the surface (a registered GL texture: CUDA-GL interop).
  MadResult run_keep(const ImageD& ref, const ImageD& dst, const std::string& variant, const MadOptions& o) override {
    MadOptions device_only = o;
    device_only.keep_maps = false;
    last_ = run(ref, dst, variant, device_only);
    last_state_ = &state(last_.width, last_.height);
    has_last_ = true;
    return last_;
  }
  void map_to_surface(bool hi, Surface& out) override {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    detail::write_surface_r32f(out, map_plane(hi), stream_->get(), &staging_);
  }
  // Sorted on the device (a copy; radix sort), one value read back.
  float map_quantile(bool hi, double q) override {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const detail::DeviceFloatPlane m = map_plane(hi);
    const std::size_t n = static_cast<std::size_t>(m.width) * m.height;
    const cudaStream_t s = stream_->get();
    thrust::device_vector<float> v(thrust::device_pointer_cast(m.ptr), thrust::device_pointer_cast(m.ptr) + n);
    thrust::sort(thrust::cuda::par.on(s), v.begin(), v.end());
    const std::size_t k = std::min(n - 1, static_cast<std::size_t>(static_cast<double>(n) * q));
    float x = 0;
    CUDA_CHECK_THROW(cudaMemcpyAsync(&x, thrust::raw_pointer_cast(v.data()) + k, 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    return x;
  }

 private:
  detail::DeviceFloatPlane map_plane(bool hi) const {
    LB_REQUIRE(has_last_ && last_state_ != nullptr, "MAD: no maps computed yet");
    detail::DeviceFloatPlane p;
    p.ptr = const_cast<float*>(hi ? last_state_->hi() : last_state_->lo());
    p.width = last_.width;
    p.height = last_.height;
    p.pitch = static_cast<std::size_t>(p.width) * 4;
    return p;
  }
  const MadPipeline* last_state_ = nullptr;  // the buffers of the last run_keep
  detail::PitchedBuffer staging_;
  MadPipeline& state(int w, int h) {
    const auto key = std::make_pair(w, h);
    auto it = states_.find(key);
    if (it == states_.end()) {
      if (states_.size() >= 3) {  // a few sizes resident at a time
        states_.clear();
        last_state_ = nullptr;
        has_last_ = false;
      }
      const cudaStream_t s = stream_->get();
      it = states_
               .emplace(key, popt_.c2c ? detail::make_mad_pipeline_c2c(w, h, s)
                                       : detail::make_mad_pipeline_r2c(w, h, popt_.batch_planes, popt_.callbacks, popt_.inverse, s))
               .first;
    }
    return *it->second;
  }
  int device_;
  MadPipelineOptions popt_;
  DeviceInfo info_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<MadStageClock> clock_;  // created after the device checks
  int last_launches_ = 0;
  std::map<std::pair<int, int>, std::unique_ptr<MadPipeline>> states_;
};

}  // namespace

std::vector<std::string> mad_stats_variants() { return {"gather", "shared", "shared_nc", "fused"}; }

std::unique_ptr<MadEngine> make_mad_engine_cuda(int device) { return std::make_unique<MadCuda>(device, MadPipelineOptions{}); }

std::unique_ptr<MadEngine> make_mad_engine_cuda(int device, const MadPipelineOptions& p) {
  return std::make_unique<MadCuda>(device, p);
}

MadPipelineInfo mad_pipeline_info(MadEngine& e, int w, int h) {
  auto* m = dynamic_cast<MadCuda*>(&e);
  LB_REQUIRE(m != nullptr, "mad_pipeline_info: not a CUDA MAD engine");
  MadPipelineInfo i;
  i.describe = m->pipeline_name(w & ~1, h & ~1);
  i.launches = m->last_launches();
  return i;
}

std::vector<std::vector<mad_cpu_detail::BlockStatsD>> mad_block_stats_cuda(const std::vector<float>& planes, int w,
                                                                            int h, int nplanes,
                                                                            const std::string& variant) {
  const MadStatsKernel k = detail::parse_mad_stats_kernel(variant);
  LB_REQUIRE(w >= 16 && h >= 16 && nplanes >= 1 && planes.size() == static_cast<std::size_t>(w) * h * nplanes,
             "mad statistics: planes must hold nplanes x w x h floats (w, h >= 16)");
  const DeviceInfo info = device_info(0);
  if (!info.available) throw Error("CUDA MAD statistics: " + info.why);
  const std::size_t nb = static_cast<std::size_t>(mad::block_count(w)) * mad::block_count(h);
  DeviceBuffer in(planes.size() * sizeof(float)), out(nplanes * nb * 3 * sizeof(float));
  CUDA_CHECK_THROW(cudaMemcpy(in.get(), planes.data(), planes.size() * sizeof(float), cudaMemcpyHostToDevice));
  detail::launch_mad_block_stats(k, in.as<float>(), nullptr, 1.f, w, h, nplanes, out.as<float>(), nullptr);
  std::vector<float> host(nplanes * nb * 3);
  CUDA_CHECK_THROW(cudaMemcpy(host.data(), out.get(), host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<std::vector<mad_cpu_detail::BlockStatsD>> res(nplanes, std::vector<mad_cpu_detail::BlockStatsD>(nb));
  for (int p = 0; p < nplanes; ++p)
    for (std::size_t b = 0; b < nb; ++b) {
      const float* v = host.data() + (p * nb + b) * 3;
      res[p][b] = {v[0], v[1], v[2]};
    }
  return res;
}

}  // namespace lb::cuda
