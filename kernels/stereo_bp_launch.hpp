#pragma once
// Internal to lb_kernels: BP stereo device data and launchers (kernels/stereo_bp.cu), used
// by the CUDA matcher, the auto-tuner (stereo_bp_tune.cpp) and the benchmark.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_util.hpp"
#include "lightbench/stereo_bp.hpp"
#include "lightbench/stereo_cuda.hpp"

namespace lb::cuda::detail {

enum class BpStore { Local, Registers, Shared, Hybrid };

// Where the message array lives and the launch shape of the message kernel.
struct BpConfig {
  BpStore store = BpStore::Registers;
  int reg = 0, shared = 0;  // hybrid split (values); shared variant: shared = L
  int block_x = 32, block_y = 4;
  std::string describe() const;  // "registers<16> 32x4", "hybrid R=12 S=20 local=0 32x2", ...
};

// Register-array instantiations: of the registers variant (L) and of the hybrid (R).
const std::vector<int>& bp_register_instances();
const std::vector<int>& bp_hybrid_reg_instances();
// The largest hybrid R instance <= r.
int bp_hybrid_reg_floor(int r);
// Resolves a variant name for L: "local", "registers" (falls back to local when L has no
// instance; *fallback set), "shared", "hybrid:R,S". Plain "hybrid" needs the tuner: returns
// false. Throws lb::Error for an unknown name.
bool bp_parse_variant(const std::string& name, int L, BpConfig* cfg, bool* fallback);
// Makes a config valid for L (R floored to an instance, S clamped, shared bytes fitting
// the device). Returns the note of what changed ("" if nothing).
std::string bp_fit_config(BpConfig& c, int L, std::size_t max_shared_bytes);

// The pair and every buffer on the device; allocated once per (size, channels, L, levels).
class BpDevice {
 public:
  BpDevice();
  ~BpDevice();
  BpDevice(const BpDevice&) = delete;
  BpDevice& operator=(const BpDevice&) = delete;

  // Copies the pair into pinned host memory (not timed).
  void set_pair(const stereo::StereoPair& pair);
  bool has_pair() const { return w_ > 0; }
  int width() const { return w_; }
  int height() const { return h_; }
  // Upload the pair (pinned -> device) on s.
  void upload(cudaStream_t s);
  // The whole computation on the device (pair already uploaded), into the device map.
  void compute(const stereo::BpParams& p, const BpConfig& c, cudaStream_t s);
  // Download of the map into pinned memory on s; host_map() valid after a sync.
  void download(cudaStream_t s);
  void copy_map(ImageF& out) const;
  // The map on the device (width() x height() floats, dense), valid after compute().
  const float* device_map() const { return static_cast<const float*>(d_map_.get()); }
  std::size_t max_shared_bytes() const { return max_shared_; }
  std::uint64_t pair_bytes() const { return in_bytes_; }

 private:
  void ensure(const stereo::BpParams& p);
  int w_ = 0, h_ = 0, cl_ = 0, cr_ = 0;
  std::size_t in_bytes_ = 0;
  unsigned char* h_in_ = nullptr;  // pinned
  float* h_out_ = nullptr;         // pinned
  std::size_t h_in_cap_ = 0, h_out_cap_ = 0;
  DeviceBuffer d_in_, d_gray_, d_tmp_, d_data_, d_msg_, d_map_;
  std::size_t max_shared_ = 48 * 1024;
};

// Runs `runs` computes with config c (after one warm-up) and returns the median ms (CUDA
// events); < 0 when the launch fails (the error is cleared).
double bp_time_config(BpDevice& dev, const stereo::BpParams& p, const BpConfig& c, int runs, cudaStream_t s);

// Auto-tuner (stereo_bp_tune.cpp): the best hybrid config for (device, size, L), from the
// memory cache, the file cache, or a search on dev's pair.
BpTuneResult bp_autotune(BpDevice& dev, const stereo::BpParams& p, const std::string& device_name,
                         cudaStream_t s);

}  // namespace lb::cuda::detail
