#pragma once
// The compute backends the viewer uses: the one chosen at start-up (--backend, with its
// reason), plus, on demand, a CPU and a CUDA backend so each pane can pick its own
// (e.g. GPU vs CPU side by side). The scene's raw image is uploaded once per backend.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lightbench/backend.hpp"

namespace lb::viewer {

enum class BackendSlot { Selected, Cpu, Cuda };
const char* to_string(BackendSlot s);

class BackendPool {
 public:
  // Never throws: an explicit --backend cuda that cannot work falls back to the CPU and the
  // reason is kept in startup_error().
  explicit BackendPool(BackendRequest request);

  ComputeBackend& selected() { return *selected_; }
  const std::string& reason() const { return reason_; }
  const std::string& startup_error() const { return startup_error_; }

  // nullptr when that backend cannot be had (*why says why).
  ComputeBackend* get(BackendSlot slot, std::string* why);
  // The kind of backend a slot stands for (algorithms with their own engines, e.g. the
  // light-field depth estimators, create them per kind); nullopt when CUDA cannot be had.
  std::optional<BackendKind> kind_of(BackendSlot slot, std::string* why);
  bool cuda_possible(std::string* why);

  // Uploads the raw once per scene id.
  void ensure_raw(ComputeBackend& b, const ImageU8& raw, std::uint64_t scene_id);

  // Every backend created so far (selected first).
  std::vector<ComputeBackend*> all();
  // Collects timings queued by the previous frame's launches.
  void synchronize_all();

 private:
  struct Entry {
    ComputeBackend* backend;
    std::uint64_t scene_id = 0;
  };
  Entry* entry(ComputeBackend& b);
  std::unique_ptr<ComputeBackend> selected_owned_, cpu_owned_, cuda_owned_;
  ComputeBackend* selected_ = nullptr;
  std::string reason_, startup_error_;
  int cuda_state_ = 0;  // 0 unknown, 1 usable, -1 not
  std::string cuda_why_;
  std::vector<Entry> entries_;
};

}  // namespace lb::viewer
