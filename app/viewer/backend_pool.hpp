#pragma once
// Which backend each pane slot stands for: the one chosen at start-up (--backend, with its
// reason), or CPU / CUDA explicitly (e.g. GPU vs CPU side by side). The runners themselves
// belong to the algorithms (RunnerSet); this only decides the kind and says why.
#include <optional>
#include <string>

#include "lightbench/backend.hpp"

namespace lb::viewer {

enum class BackendSlot { Selected, Cpu, Cuda };
const char* to_string(BackendSlot s);

class BackendPool {
 public:
  // Never throws: an explicit --backend cuda that cannot work falls back to the CPU and the
  // reason is kept in startup_error().
  explicit BackendPool(BackendRequest request);

  BackendKind selected() const { return selected_; }
  const std::string& reason() const { return reason_; }
  const std::string& startup_error() const { return startup_error_; }
  // "CPU reference (N threads)" or the CUDA device's one-line description.
  std::string device_name() const;

  // The kind of backend a slot stands for; nullopt when CUDA cannot be had (*why says why).
  std::optional<BackendKind> kind_of(BackendSlot slot, std::string* why);
  bool cuda_possible(std::string* why);
  // A runner failed to start on CUDA: later requests say why instead of retrying.
  void cuda_failed(const std::string& why);

 private:
  BackendKind selected_ = BackendKind::Cpu;
  std::string reason_, startup_error_;
  int cuda_state_ = 0;  // 0 unknown, 1 usable, -1 not
  std::string cuda_why_;
};

}  // namespace lb::viewer
