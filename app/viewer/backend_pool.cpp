#include "backend_pool.hpp"

#include <cstdio>

#include "lightbench/error.hpp"

namespace lb::viewer {

const char* to_string(BackendSlot s) {
  switch (s) {
    case BackendSlot::Selected: return "selected";
    case BackendSlot::Cpu: return "cpu";
    case BackendSlot::Cuda: return "cuda";
  }
  return "?";
}

BackendPool::BackendPool(BackendRequest request) {
  try {
    BackendChoice c = select_backend(request);
    selected_owned_ = std::move(c.backend);
    reason_ = c.reason;
  } catch (const std::exception& e) {
    startup_error_ = std::string("CUDA backend unusable, using the CPU: ") + e.what();
    selected_owned_ = make_cpu_backend();
    reason_ = "CPU: " + std::string(e.what());
  }
  selected_ = selected_owned_.get();
  entries_.push_back({selected_});
  if (selected_->kind() == BackendKind::Cuda) cuda_state_ = 1;
}

bool BackendPool::cuda_possible(std::string* why) {
  if (cuda_state_ == 0) cuda_state_ = cuda_available(&cuda_why_) ? 1 : -1;
  if (why) *why = cuda_why_;
  return cuda_state_ > 0;
}

ComputeBackend* BackendPool::get(BackendSlot slot, std::string* why) {
  switch (slot) {
    case BackendSlot::Selected: return selected_;
    case BackendSlot::Cpu:
      if (selected_->kind() == BackendKind::Cpu) return selected_;
      if (!cpu_owned_) {
        cpu_owned_ = make_cpu_backend();
        entries_.push_back({cpu_owned_.get()});
      }
      return cpu_owned_.get();
    case BackendSlot::Cuda:
      if (selected_->kind() == BackendKind::Cuda) return selected_;
      if (cuda_owned_) return cuda_owned_.get();
      if (!cuda_possible(why)) return nullptr;
      try {
        BackendChoice c = select_backend(BackendRequest::Cuda);
        cuda_owned_ = std::move(c.backend);
        entries_.push_back({cuda_owned_.get()});
        return cuda_owned_.get();
      } catch (const std::exception& e) {
        cuda_state_ = -1;
        cuda_why_ = e.what();
        if (why) *why = cuda_why_;
        return nullptr;
      }
  }
  return nullptr;
}

std::optional<BackendKind> BackendPool::kind_of(BackendSlot slot, std::string* why) {
  switch (slot) {
    case BackendSlot::Selected: return selected_->kind();
    case BackendSlot::Cpu: return BackendKind::Cpu;
    case BackendSlot::Cuda:
      if (selected_->kind() == BackendKind::Cuda || cuda_possible(why)) return BackendKind::Cuda;
      return std::nullopt;
  }
  return std::nullopt;
}

BackendPool::Entry* BackendPool::entry(ComputeBackend& b) {
  for (auto& e : entries_)
    if (e.backend == &b) return &e;
  return nullptr;
}

void BackendPool::ensure_raw(ComputeBackend& b, const ImageU8& raw, std::uint64_t scene_id) {
  Entry* e = entry(b);
  if (e && e->scene_id == scene_id && b.has_raw()) return;
  b.set_raw(raw);
  if (e) e->scene_id = scene_id;
}

std::vector<ComputeBackend*> BackendPool::all() {
  std::vector<ComputeBackend*> v;
  for (auto& e : entries_) v.push_back(e.backend);
  return v;
}

void BackendPool::synchronize_all() {
  for (auto& e : entries_) {
    try {
      e.backend->synchronize();
    } catch (const std::exception& ex) {
      std::fprintf(stderr, "lightbench: synchronize: %s\n", ex.what());
    }
  }
}

}  // namespace lb::viewer
