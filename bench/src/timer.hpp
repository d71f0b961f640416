#pragma once
// The one timing helper of every benchmark: CUDA events around each timed run on the
// bench's stream, after untimed warm-up runs, optionally on a cold L2 (a scratch buffer of
// twice the L2, at least 64 MiB, is overwritten before each timed run, outside its event
// pair), many runs, optionally within a wall-clock budget. Internal to lb_bench.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "cuda_util.hpp"

namespace lb::bench::detail {

struct TimerOptions {
  int warmup = 10;         // untimed runs first
  int reps = 100;          // timed runs, each between its own event pair
  bool flush_l2 = false;   // evict the L2 before each timed run
  // Each run waited for before the next is queued: its time then includes the host's launch
  // gaps, as a single run of a multi-kernel pipeline sees them (bench stereo, as the matcher
  // times itself). Otherwise the runs are queued back to back and read at the end.
  bool wait_each = false;
  // > 0: wait_each, and timing stops once more than max_seconds have passed and at least
  // min_reps runs were timed.
  double max_seconds = 0;
  int min_reps = 5;
};

class LaunchTimer {
 public:
  // l2_bytes: the device's L2 size (DeviceInfo::l2_bytes), for the flush buffer.
  LaunchTimer(cudaStream_t stream, const TimerOptions& options, int l2_bytes);
  // The per-run times in ms, in run order. `run` enqueues its work on the stream.
  std::vector<double> time(const std::function<void()>& run);
  const TimerOptions& options() const { return o_; }

 private:
  void flush();
  std::vector<double> time_queued(const std::function<void()>& run);
  std::vector<double> time_waiting(const std::function<void()>& run);
  cudaStream_t s_;
  TimerOptions o_;
  std::size_t flush_bytes_ = 0;
  cuda::detail::DeviceBuffer buf_, sink_;
  std::vector<cuda::detail::Event> starts_, stops_;
};

}  // namespace lb::bench::detail
