#include "lightbench/timing.hpp"

#include <algorithm>

namespace lb {

TimingStats compute_stats(const std::vector<double>& ms, std::uint64_t bytes) {
  TimingStats s;
  if (ms.empty()) return s;
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  s.count = ms.size();
  s.last_ms = ms.back();
  const std::size_t n = sorted.size();
  s.median_ms = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  s.min_ms = sorted.front();
  s.max_ms = sorted.back();
  auto gbps = [bytes](double t) { return t > 0 ? static_cast<double>(bytes) / (t * 1e6) : 0.0; };
  s.last_gbps = gbps(s.last_ms);
  s.median_gbps = gbps(s.median_ms);
  return s;
}

void TimingRegistry::record(const std::string& kernel, double ms, std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& q = samples_[kernel];
  q.push_back({ms, bytes});
  while (q.size() > history_) q.pop_front();
  total_ms_ += ms;
}

double TimingRegistry::total_recorded_ms() const {
  std::lock_guard<std::mutex> lock(mu_);
  return total_ms_;
}

std::vector<std::string> TimingRegistry::kernels() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> names;
  for (const auto& [name, q] : samples_) names.push_back(name);
  return names;
}

std::vector<TimingSample> TimingRegistry::history(const std::string& kernel) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = samples_.find(kernel);
  if (it == samples_.end()) return {};
  return {it->second.begin(), it->second.end()};
}

TimingStats TimingRegistry::stats(const std::string& kernel) const {
  const auto h = history(kernel);
  std::vector<double> ms;
  ms.reserve(h.size());
  for (const auto& s : h) ms.push_back(s.ms);
  // Throughput uses the latest sample's byte count (parameters may have changed).
  return compute_stats(ms, h.empty() ? 0 : h.back().bytes);
}

void TimingRegistry::clear() {
  std::lock_guard<std::mutex> lock(mu_);
  samples_.clear();
}

}  // namespace lb
