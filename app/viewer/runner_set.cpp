#include "runner_set.hpp"

#include "lightbench/error.hpp"
#include "lightbench/runners.hpp"

namespace lb::viewer {

RunnerSet::RunnerSet(std::string algorithm_id) : id_(std::move(algorithm_id)) { (void)spec(); }

const AlgorithmSpec& RunnerSet::spec() const { return builtin_registry().get(id_); }

std::shared_ptr<RunWorker> RunnerSet::get(BackendPool& pool, BackendSlot slot) {
  std::string why;
  const auto kind = pool.kind_of(slot, &why);
  LB_REQUIRE(kind.has_value(), "CUDA backend unavailable: " + why);
  const bool cuda = *kind == BackendKind::Cuda;
  auto& w = cuda ? cuda_ : cpu_;
  if (!w) {
    try {
      w = std::make_shared<RunWorker>(builtin_registry().make_runner(id_, *kind));
    } catch (const std::exception& e) {
      if (cuda) pool.cuda_failed(e.what());
      throw;
    }
  }
  return w;
}

void RunnerSet::timing_sources(std::vector<TimingSource>& out) {
  if (cpu_) out.push_back({"CPU", cpu_->device_name(), &cpu_->timings()});
  if (cuda_) out.push_back({"CUDA", cuda_->device_name(), &cuda_->timings()});
}

void RunnerSet::workers(std::vector<RunWorker*>& out) {
  for (auto* w : {cpu_.get(), cuda_.get()})
    if (w) out.push_back(w);
}

}  // namespace lb::viewer
