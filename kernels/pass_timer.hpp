#pragma once
// Internal to lb_kernels: CUDA-event timing of queued passes without waiting for them, shared
// by the CUDA engines that time every launch (plenoptic, general-grid plenoptic). A pass is
// bracketed by two events on the stream; collect() records the finished ones into a
// TimingRegistry, oldest first (wait: all of them), and recycles their events. The backlog is
// bounded: past kMaxPending a new pass first waits for the old ones.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/timing.hpp"

namespace lb::cuda::detail {

class PassTimer {
 public:
  explicit PassTimer(TimingRegistry& timings) : timings_(timings) {}
  PassTimer(const PassTimer&) = delete;
  PassTimer& operator=(const PassTimer&) = delete;

  // enqueue() queues the pass on s; its time is recorded under name with `bytes` moved.
  template <class F>
  void timed(const std::string& name, std::uint64_t bytes, cudaStream_t s, F&& enqueue) {
    timed_as(bytes, s, [&] {
      std::forward<F>(enqueue)();
      return name;
    });
  }
  // The same, the pass named by what enqueue() returns (the kernel it ran, known once queued).
  template <class F>
  void timed_as(std::uint64_t bytes, cudaStream_t s, F&& enqueue) {
    if (pending_.size() >= kMaxPending) collect(true);  // bound the backlog
    Pending p;
    p.bytes = bytes;
    p.start = take_event();
    p.stop = take_event();
    CUDA_CHECK_THROW(cudaEventRecord(p.start->get(), s));
    p.name = std::forward<F>(enqueue)();
    CUDA_CHECK_THROW(cudaEventRecord(p.stop->get(), s));
    pending_.push_back(std::move(p));
  }

  // Records the timings of finished passes, oldest first; with wait, of all of them.
  void collect(bool wait) {
    while (!pending_.empty()) {
      Pending& p = pending_.front();
      if (wait) {
        CUDA_CHECK_THROW(cudaEventSynchronize(p.stop->get()));
      } else {
        const cudaError_t q = cudaEventQuery(p.stop->get());
        if (q == cudaErrorNotReady) return;
        CUDA_CHECK_THROW(q);
      }
      float ms = 0.0f;
      CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, p.start->get(), p.stop->get()));
      timings_.record(p.name, static_cast<double>(ms), p.bytes);
      free_events_.push_back(std::move(p.start));
      free_events_.push_back(std::move(p.stop));
      pending_.pop_front();
    }
  }

  // Forgets the queued passes unrecorded (the owner has synchronised its stream, or is going).
  void drop() { pending_.clear(); }

 private:
  struct Pending {
    std::string name;
    std::uint64_t bytes = 0;
    std::unique_ptr<Event> start, stop;
  };
  std::unique_ptr<Event> take_event() {
    if (free_events_.empty()) return std::make_unique<Event>();
    auto e = std::move(free_events_.back());
    free_events_.pop_back();
    return e;
  }
  static constexpr std::size_t kMaxPending = 64;
  TimingRegistry& timings_;
  std::deque<Pending> pending_;
  std::vector<std::unique_ptr<Event>> free_events_;
};

}  // namespace lb::cuda::detail
