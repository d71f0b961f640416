#pragma once
// The runners of one algorithm in the viewer: one per backend kind, made on demand from the
// registry and given the algorithm's data when it changes. Every adapter uses this instead of
// picking and caching its own engines.
#include <memory>
#include <string>
#include <vector>

#include "backend_pool.hpp"
#include "lightbench/algorithm.hpp"

namespace lb::viewer {

// A timing registry the panel's table lists, with the backend it belongs to.
struct TimingSource {
  std::string prefix;  // "CUDA" / "CPU"
  std::string device;  // for the tooltip
  TimingRegistry* registry;
};

class RunnerSet {
 public:
  explicit RunnerSet(std::string algorithm_id);
  const AlgorithmSpec& spec() const;
  // The runner for the slot's backend holding `data` (set_data when the data id changed).
  // Throws lb::Error naming why when the slot's backend cannot be had.
  Runner& get(BackendPool& pool, BackendSlot slot, const std::shared_ptr<const AlgorithmData>& data);
  void timing_sources(std::vector<TimingSource>& out);
  void synchronize();

 private:
  std::string id_;
  std::unique_ptr<Runner> cpu_, cuda_;
  std::uint64_t cpu_data_ = 0, cuda_data_ = 0;
};

}  // namespace lb::viewer
