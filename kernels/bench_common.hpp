#pragma once
// Internal to lb_kernels: what the benchmarks (bench.cpp, bench_depth.cpp, bench_cae.cpp)
// share: the device check and info, the raw/grid part of the workload line, and the timing
// loop (warm-up, optional L2 flush before each launch, one CUDA event pair per launch).
#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

#include "cuda_util.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb::cuda::detail {

// Throws "<what>: <why>" unless CUDA is usable and `device` exists; selects the device and
// returns its description.
DeviceInfo bench_device(const std::string& what, int device);

// "raw WxH, grid NXxNY D=.. offset (ox,oy)", the start of the plenoptic workload lines.
std::string raw_grid_workload(int raw_w, int raw_h, const PlenopticGrid& grid);
// Shortest decimal text of v ("13.3", "0.5").
std::string bench_num(double v);

// Times launches on `stream` with CUDA events. flush_l2: evicts the L2 before each timed
// launch (outside its event pair) with a buffer of twice the L2, at least 64 MiB.
class LaunchTimer {
 public:
  LaunchTimer(cudaStream_t stream, int warmup, int reps, bool flush_l2, int l2_bytes);
  // warmup launches, then reps launches each between its own event pair, collected at the
  // end; the per-launch times in ms, in launch order.
  std::vector<double> time(const std::function<void()>& launch);
  // The same with a wall-clock budget: each launch is waited for, and the loop stops once
  // more than max_seconds have passed and at least min_reps were timed.
  std::vector<double> time_budget(const std::function<void()>& launch, double max_seconds, int min_reps);

 private:
  void flush();
  cudaStream_t s_;
  int warmup_, reps_;
  bool flush_;
  std::size_t flush_bytes_ = 0;
  DeviceBuffer buf_, sink_;
  std::vector<Event> starts_, stops_;
};

}  // namespace lb::cuda::detail
