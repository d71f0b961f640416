#include "runner_set.hpp"

#include <cstdio>

#include "lightbench/error.hpp"
#include "lightbench/runners.hpp"

namespace lb::viewer {

RunnerSet::RunnerSet(std::string algorithm_id) : id_(std::move(algorithm_id)) { (void)spec(); }

const AlgorithmSpec& RunnerSet::spec() const { return builtin_registry().get(id_); }

Runner& RunnerSet::get(BackendPool& pool, BackendSlot slot, const std::shared_ptr<const AlgorithmData>& data) {
  LB_REQUIRE(data != nullptr, spec().name + ": no data loaded");
  std::string why;
  const auto kind = pool.kind_of(slot, &why);
  LB_REQUIRE(kind.has_value(), "CUDA backend unavailable: " + why);
  const bool cuda = *kind == BackendKind::Cuda;
  auto& r = cuda ? cuda_ : cpu_;
  auto& id = cuda ? cuda_data_ : cpu_data_;
  if (!r) {
    try {
      r = builtin_registry().make_runner(id_, *kind);
    } catch (const std::exception& e) {
      if (cuda) pool.cuda_failed(e.what());
      throw;
    }
    id = 0;
  }
  if (id != data->id) {
    id = 0;
    r->set_data(data);  // throws: the runner keeps no data, the next call retries
    id = data->id;
  }
  return *r;
}

void RunnerSet::timing_sources(std::vector<TimingSource>& out) {
  if (cpu_) out.push_back({"CPU", cpu_->device_name(), &cpu_->timings()});
  if (cuda_) out.push_back({"CUDA", cuda_->device_name(), &cuda_->timings()});
}

void RunnerSet::synchronize() {
  for (Runner* r : {cpu_.get(), cuda_.get()}) {
    if (!r) continue;
    try {
      r->synchronize();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "lightbench: synchronize: %s\n", e.what());
    }
  }
}

}  // namespace lb::viewer
