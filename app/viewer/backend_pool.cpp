#include "backend_pool.hpp"

#include "lightbench/parallel.hpp"
#include "lightbench/runners.hpp"

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
    selected_ = builtin_registry().choose(request, &reason_);
  } catch (const std::exception& e) {
    startup_error_ = std::string("CUDA backend unusable, using the CPU: ") + e.what();
    selected_ = BackendKind::Cpu;
    reason_ = "CPU: " + std::string(e.what());
  }
  if (selected_ == BackendKind::Cuda) cuda_state_ = 1;
}

std::string BackendPool::device_name() const {
  if (selected_ == BackendKind::Cuda) return builtin_registry().cuda_device();
  return "CPU reference (" + std::to_string(default_thread_count()) + " threads)";
}

bool BackendPool::cuda_possible(std::string* why) {
  if (cuda_state_ == 0) cuda_state_ = builtin_registry().cuda_available(&cuda_why_) ? 1 : -1;
  if (why) *why = cuda_why_;
  return cuda_state_ > 0;
}

void BackendPool::cuda_failed(const std::string& why) {
  cuda_state_ = -1;
  cuda_why_ = why;
}

std::optional<BackendKind> BackendPool::kind_of(BackendSlot slot, std::string* why) {
  switch (slot) {
    case BackendSlot::Selected: return selected_;
    case BackendSlot::Cpu: return BackendKind::Cpu;
    case BackendSlot::Cuda:
      if (cuda_possible(why)) return BackendKind::Cuda;
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace lb::viewer
