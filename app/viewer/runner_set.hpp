#pragma once
// The runners of one algorithm in the viewer: one per backend kind, made on demand from the
// registry, each behind its own RunWorker (run_worker.hpp: the thread that owns every call
// into the runner). Every adapter uses this instead of picking and caching its own engines.
#include <memory>
#include <string>
#include <vector>

#include "backend_pool.hpp"
#include "lightbench/algorithm.hpp"
#include "run_worker.hpp"

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
  // The worker of the slot's backend (made on first use). Throws lb::Error naming why when
  // the slot's backend cannot be had.
  std::shared_ptr<RunWorker> get(BackendPool& pool, BackendSlot slot);
  void timing_sources(std::vector<TimingSource>& out);
  void workers(std::vector<RunWorker*>& out);

 private:
  std::string id_;
  std::shared_ptr<RunWorker> cpu_, cuda_;
};

}  // namespace lb::viewer
