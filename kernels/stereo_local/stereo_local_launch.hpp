#pragma once
// Internal to lb_kernels: device state and the launcher of the local stereo variants
// (kernels/stereo_local/stereo_local_pipeline.cu), shared by the CUDA engine and the benchmark.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "cuda_util.hpp"
#include "lightbench/image.hpp"
#include "stereo_local/stereo_local.hpp"
#include "stereo_local/stereo_local_math.hpp"

namespace lb::cuda::detail {

enum class LocalKernel { Phase2, Phase3, Phase4, Phase5, Fused, Fused2 };
LocalKernel parse_local_kernel(const std::string& name);  // throws lb::Error naming the known ones
const char* local_kernel_name(LocalKernel k);
// The kernels variant v runs for k on a device with smem_optin bytes of shared memory per block
// (opt-in): v, but fused2 runs the fused kernels where its packed kernel does not apply (a radius
// without an instance, variable windows, lane sums past 16 bits, too little shared memory).
LocalKernel local_kernel_run(const stereo::local::KernelParams& k, LocalKernel v, int smem_optin);

// Global-memory bytes a compute pass of variant v moves at least (every plane read and
// written once; cache reuse of neighbouring rows / columns not counted twice): the images,
// the uint4 planes [group][y][x] between the kernels, the packed WTA results and the map.
std::uint64_t local_pass_bytes(int width, int height, const stereo::local::KernelParams& k, bool lr_check,
                               LocalKernel v);

// Page-locked host memory (for timed uploads / downloads).
class PinnedHost {
 public:
  PinnedHost() = default;
  ~PinnedHost();
  PinnedHost(const PinnedHost&) = delete;
  PinnedHost& operator=(const PinnedHost&) = delete;
  void reserve(std::size_t bytes);
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// The pair (RGBA8, host pinned and device) and the working buffers of the pipelines.
class LocalDeviceState {
 public:
  // Converts to RGBA into pinned host memory and uploads (synchronously on s).
  void set_pair(const stereo::StereoPair& pair, cudaStream_t s);
  bool empty() const { return width == 0; }
  // Queues the upload of the pinned host copy (for ms_total).
  void upload(cudaStream_t s);
  // Queues the whole computation for the resident pair: disparity (float) into disp.
  void compute(const stereo::local::KernelParams& k, bool lr_check, LocalKernel v, cudaStream_t s);
  // Queues the download of disp into the pinned host buffer; host_disp() after a sync.
  void download(cudaStream_t s);
  const float* host_disp() const { return static_cast<const float*>(host_disp_.get()); }
  // What compute(k, ..., v, ...) runs on this device (local_kernel_run).
  LocalKernel kernel_run(const stereo::local::KernelParams& k, LocalKernel v) const {
    return local_kernel_run(k, v, smem_optin_);
  }

  int width = 0, height = 0;
  DeviceBuffer left, right;   // uchar4
  DeviceBuffer work[6];       // uint4 [group][y][x] planes of the phase pipelines
  DeviceBuffer packed;        // uint64 x 2 planes (left / right reference)
  DeviceBuffer ints;          // int x 2 planes (left-right check)
  DeviceBuffer disp;          // float

 private:
  void aggregate(const stereo::local::KernelParams& k, LocalKernel v, int dir, std::uint64_t* out, cudaStream_t s);
  PinnedHost host_left_, host_right_, host_disp_;
  int sm_count_ = 0;
  int smem_optin_ = 0;  // shared memory per block with opt-in (fused2's packed kernel needs up to 91 KiB)
};

}  // namespace lb::cuda::detail
