#pragma once
// Timing registry: every kernel launch (CUDA events) or CPU pass (steady clock) records a
// sample under its kernel name, with the bytes it must move so throughput can be shown.
// Thread-safe; keeps a bounded history per kernel for the viewer's plot and statistics.
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace lb {

struct TimingSample {
  double ms = 0.0;
  std::uint64_t bytes = 0;  // bytes the kernel must read + write (0: unknown)
};

struct TimingStats {
  std::size_t count = 0;
  double last_ms = 0, median_ms = 0, min_ms = 0, max_ms = 0;
  double last_gbps = 0, median_gbps = 0;  // bytes / median time
};

TimingStats compute_stats(const std::vector<double>& ms, std::uint64_t bytes);

class TimingRegistry {
 public:
  explicit TimingRegistry(std::size_t history = 240) : history_(history) {}
  void record(const std::string& kernel, double ms, std::uint64_t bytes = 0);
  std::vector<std::string> kernels() const;
  std::vector<TimingSample> history(const std::string& kernel) const;
  TimingStats stats(const std::string& kernel) const;
  // The sum of every time ever recorded (kept past the history's length): the difference
  // across a run is that run's recorded compute time (the CLI's `ms`).
  double total_recorded_ms() const;
  void clear();

 private:
  mutable std::mutex mu_;
  std::size_t history_;
  std::map<std::string, std::deque<TimingSample>> samples_;
  double total_ms_ = 0.0;
};

// Steady-clock scope timer for the CPU path.
class ScopedCpuTimer {
 public:
  ScopedCpuTimer(TimingRegistry& reg, std::string kernel, std::uint64_t bytes = 0)
      : reg_(reg), kernel_(std::move(kernel)), bytes_(bytes),
        t0_(std::chrono::steady_clock::now()) {}
  ~ScopedCpuTimer() {
    const auto dt = std::chrono::steady_clock::now() - t0_;
    reg_.record(kernel_, std::chrono::duration<double, std::milli>(dt).count(), bytes_);
  }
  ScopedCpuTimer(const ScopedCpuTimer&) = delete;
  ScopedCpuTimer& operator=(const ScopedCpuTimer&) = delete;

 private:
  TimingRegistry& reg_;
  std::string kernel_;
  std::uint64_t bytes_;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace lb
