#pragma once
// Internal to lb_kernels: BP stereo device data and launchers (kernels/stereo_bp/stereo_bp.cu), used
// by the CUDA matcher, the auto-tuner (stereo_bp_tune.cpp) and the benchmark.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuda_util.hpp"
#include "stereo_bp/stereo_bp.hpp"
#include "stereo_bp/stereo_cuda.hpp"

namespace lb::cuda::detail {

enum class BpStore { Local, Registers, Shared, Hybrid, Warp };
// Message storage of the warp variant (arithmetic is float in every case).
enum class BpMsgType { F32, F16, BF16 };
const char* bp_msg_type_name(BpMsgType t);  // "float", "fp16", "bf16"
int bp_msg_type_bytes(BpMsgType t);

// Where the message array lives and the launch shape of the message kernel.
struct BpConfig {
  BpStore store = BpStore::Registers;
  int reg = 0, shared = 0;  // hybrid split (values); shared variant: shared = L
  int block_x = 32, block_y = 4;
  BpMsgType msg = BpMsgType::F32;  // warp: storage type
  int lanes = 0;                   // warp: lanes per pixel (0: bp_warp_default_lanes)
  std::string describe() const;    // "registers 32x4", "hybrid R=12 S=20 32x2", "warp-bf16 G=32 K=2"
  std::string name() const;        // the variant name that selects this config: "warp-bf16:32", ...
};

// The warp variant (stereo_bp_warp.cu): K * G values per pixel, K per lane, G lanes;
// K * G = bp_warp_span(L) (the next power of two >= L, at least 4), K <= 8 up to 256
// disparities, K = 16 or 32 with G = 32 past 256.
int bp_warp_span(int L);
std::vector<int> bp_warp_lane_options(int L);  // valid G for L (ascending)
int bp_warp_default_lanes(int L);               // span <= 32: max(4, span / 4), else span / 8
// Data cost, pyramid, message passing and WTA in the warp variant's layout; the data and
// message buffers grow as needed; map: w x h floats on the device.
void bp_warp_run(const float* gray, int w, int h, const stereo::BpParams& p, const BpConfig& c, DeviceBuffer& data,
                 DeviceBuffer& msg, float* map, cudaStream_t s);

// Register-array instantiations: of the registers variant (L) and of the hybrid (R).
const std::vector<int>& bp_register_instances();
const std::vector<int>& bp_hybrid_reg_instances();
// The largest hybrid R instance <= r.
int bp_hybrid_reg_floor(int r);
// Resolves a variant name for L: "local", "registers" (falls back to local when L has no
// instance; *fallback set), "shared", "hybrid:R,S", "warp[-fp16|-bf16][:G]". Plain "hybrid"
// and "auto" (and "auto:float") need the tuner: return false. Throws lb::Error for an
// unknown or invalid name.
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
  // Repeated runs with the same pair size, parameters, config and buffers replay a CUDA graph
  // of the whole launch sequence (captured on the second such run): one launch instead of ~50,
  // which matters at small sizes where the kernels take a few microseconds each.
  void compute(const stereo::BpParams& p, const BpConfig& c, cudaStream_t s);
  // Download of the map into pinned memory on s; host_map() valid after a sync.
  void download(cudaStream_t s);
  void copy_map(ImageF& out) const;
  // The map on the device (width() x height() floats, dense), valid after compute().
  const float* device_map() const { return static_cast<const float*>(d_map_.get()); }
  std::size_t max_shared_bytes() const { return max_shared_; }
  std::uint64_t pair_bytes() const { return in_bytes_; }
  // Device memory this object holds now (its buffers' capacities).
  std::uint64_t held_bytes() const {
    return d_in_.size() + d_gray_.size() + d_tmp_.size() + d_data_.size() + d_msg_.size() + d_map_.size();
  }

 private:
  void ensure(const stereo::BpParams& p);
  int w_ = 0, h_ = 0, cl_ = 0, cr_ = 0;
  std::size_t in_bytes_ = 0;
  unsigned char* h_in_ = nullptr;  // pinned
  float* h_out_ = nullptr;         // pinned
  std::size_t h_in_cap_ = 0, h_out_cap_ = 0;
  DeviceBuffer d_in_, d_gray_, d_tmp_, d_data_, d_msg_, d_map_;
  void launch_all(const stereo::BpParams& p, const BpConfig& c, cudaStream_t s);  // the launch sequence
  std::string graph_key(const stereo::BpParams& p, const BpConfig& c) const;
  void drop_graph();
  std::string last_key_, graph_key_;
  cudaGraphExec_t graph_ = nullptr;
  bool graphs_ok_ = true;  // false after a failed capture (then every run launches directly)
  std::size_t max_shared_ = 48 * 1024;
};

// Runs `runs` computes with config c (after one warm-up) and returns the median ms (CUDA
// events); < 0 when the launch fails (the error is cleared).
// why (optional): the error of a failed launch (e.g. the device memory budget's line).
double bp_time_config(BpDevice& dev, const stereo::BpParams& p, const BpConfig& c, int runs, cudaStream_t s,
                      std::string* why = nullptr);

// Auto-tuner (stereo_bp_tune.cpp): the best hybrid config for (device, size, L), from the
// memory cache, the file cache, or a search on dev's pair.
BpTuneResult bp_autotune(BpDevice& dev, const stereo::BpParams& p, const std::string& device_name,
                         cudaStream_t s);

// "auto" / "auto:float".
bool bp_is_auto(const std::string& name);
// "auto": the fastest of every warp config (message types x lane counts; "auto:float": float
// messages only, the bit-exact ones), registers (when L has an instance) and the seed
// scheme's hybrid split, timed on dev's pair; cached like the hybrid tuner (key prefixed
// "auto|" / "auto:float|"). best.variant names the winner.
// sixteen_only: only the 16-bit message types (warp-fp16 / warp-bf16): what the engine tunes
// when float messages do not fit the device's memory (cached under "auto:16|").
BpTuneResult bp_autotune_any(BpDevice& dev, const stereo::BpParams& p, const std::string& device_name,
                             bool float_only, cudaStream_t s, bool sixteen_only = false);
// The config a tuning candidate names (variant and block shape).
BpConfig bp_config_of(const BpTuneCandidate& c, int L);

}  // namespace lb::cuda::detail
