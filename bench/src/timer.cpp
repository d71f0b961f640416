// The benchmarks' timing helper (timer.hpp).
#include "timer.hpp"

#include <algorithm>
#include <chrono>

#include "cuda_check.cuh"
#include "bench_kernels.hpp"  // launch_l2_flush

namespace lb::bench::detail {

LaunchTimer::LaunchTimer(cudaStream_t stream, const TimerOptions& options, int l2_bytes)
    : s_(stream), o_(options), sink_(16) {
  o_.warmup = std::max(0, o_.warmup);
  o_.reps = std::max(1, o_.reps);
  o_.min_reps = std::clamp(o_.min_reps, 1, o_.reps);
  if (o_.flush_l2) {
    flush_bytes_ = std::max<std::size_t>(64u << 20, 2u * static_cast<std::size_t>(std::max(0, l2_bytes))) / 16 * 16;
    buf_.allocate(flush_bytes_);
    CUDA_CHECK_THROW(cudaMemset(buf_.get(), 0x3c, flush_bytes_));
  }
  starts_.resize(static_cast<std::size_t>(o_.reps));
  stops_.resize(static_cast<std::size_t>(o_.reps));
}

void LaunchTimer::flush() {
  if (o_.flush_l2) launch_l2_flush(buf_.get(), flush_bytes_, sink_.as<unsigned>(), s_);
}

std::vector<double> LaunchTimer::time(const std::function<void()>& run) {
  for (int i = 0; i < o_.warmup; ++i) run();
  CUDA_CHECK_THROW(cudaStreamSynchronize(s_));  // the budget starts with the timed runs
  return o_.wait_each || o_.max_seconds > 0 ? time_waiting(run) : time_queued(run);
}

// Every run queued back to back, the events read at the end.
std::vector<double> LaunchTimer::time_queued(const std::function<void()>& run) {
  for (std::size_t i = 0; i < starts_.size(); ++i) {
    flush();
    CUDA_CHECK_THROW(cudaEventRecord(starts_[i].get(), s_));
    run();
    CUDA_CHECK_THROW(cudaEventRecord(stops_[i].get(), s_));
  }
  CUDA_CHECK_THROW(cudaStreamSynchronize(s_));
  std::vector<double> ms;
  for (std::size_t i = 0; i < starts_.size(); ++i) {
    float t = 0.0f;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t, starts_[i].get(), stops_[i].get()));
    ms.push_back(static_cast<double>(t));
  }
  return ms;
}

// Each run waited for (and the loop stopped at the budget, if any).
std::vector<double> LaunchTimer::time_waiting(const std::function<void()>& run) {
  std::vector<double> ms;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < starts_.size(); ++i) {
    flush();
    CUDA_CHECK_THROW(cudaEventRecord(starts_[i].get(), s_));
    run();
    CUDA_CHECK_THROW(cudaEventRecord(stops_[i].get(), s_));
    CUDA_CHECK_THROW(cudaEventSynchronize(stops_[i].get()));
    float t = 0.0f;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t, starts_[i].get(), stops_[i].get()));
    ms.push_back(static_cast<double>(t));
    if (o_.max_seconds > 0 && ms.size() >= static_cast<std::size_t>(o_.min_reps) &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > o_.max_seconds)
      break;
  }
  return ms;
}

}  // namespace lb::bench::detail
