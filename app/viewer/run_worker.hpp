#pragma once
// Runs off the UI thread (issue 20). A runner is not thread-safe, so each runner gets one
// RunWorker: a thread that owns every call into it (set_data, run, synchronize) while the UI
// thread only reads its timing registry (mutex-guarded) and names.
//
// Two phases: on the UI thread an algorithm turns a pane's source into a RunRequest, a
// snapshot holding everything the run needs (the data as a shared_ptr<const>, the parameter
// values, the variant and output names, the pane's run key); the worker executes it with
// nothing but that snapshot. Panes sharing a runner queue on its worker. A newer request for
// the same pane replaces the queued one, and cancels the one in flight: cooperatively (its
// CancelToken is checked in every lb::parallel_for chunk), or, where a run has no such
// points (a CUDA launch sequence), by its result being discarded by the pane.
//
// Results: CPU runs write a HostSurface that the GL thread uploads. CUDA runs write a device
// buffer (lb::gl::make_device_buffer_surface: pitched device memory on the runner's stream);
// the GL thread maps the pane's texture and copies it in (cudaMemcpy2DToArray), so device
// results never cross host memory (docs/VIEWER.md, "Runs off the UI thread").
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "lightbench/algorithm.hpp"
#include "lightbench/cancel.hpp"
#include "lightbench/gl/device_buffer.hpp"
#include "lightbench/surface.hpp"

namespace lb::viewer {

class RunWorker;

// Everything a run needs, taken on the UI thread.
struct RunRequest {
  std::shared_ptr<RunWorker> worker;  // the runner's worker
  std::shared_ptr<const AlgorithmData> data;
  ParamValues values;
  std::string variant;  // as the runner takes it
  std::string output;   // the spec's output name ("disparity" for the viewer's "bp")
  SurfaceFormat format = SurfaceFormat::RGBA8;
  bool device = false;  // CUDA: write a device buffer for the GL thread to copy (interop)
  int part = 0;         // which of the algorithm's specs (stereo: 0 BP, 1 local)
  // Set by the viewer: the pane and the run key the result belongs to.
  int pane = -1;
  std::string key;
};

struct RunResult {
  RunRequest request;
  // The result: in host memory (CPU runs, or no CUDA device), or in a device buffer
  // (request.device); exactly one is set when the run succeeded.
  std::unique_ptr<HostSurface> host;
  std::unique_ptr<gl::DeviceBufferSurface> device;
  nlohmann::json scores = nlohmann::json::object();
  std::string ran;       // the runner's last_variant()
  std::string error;     // one line; empty on success
  bool cancelled = false;
  double ms = 0.0;       // wall time of the run
  std::chrono::steady_clock::time_point finished;  // when the worker finished it
};

// The UI thread's wake-up: every worker rings it when a run finishes, and the frame loop
// waits on it instead of sleeping out a whole frame while runs are in flight, so a result is
// drawn as soon as it is ready (issue 23: slider-to-pixels latency).
void notify_result_ready();
// Waits up to `seconds` for a run finished since the previous call (UI thread); true when one
// did (at once when it already had).
bool wait_for_result(double seconds);

class RunWorker {
 public:
  explicit RunWorker(std::unique_ptr<Runner> runner);
  ~RunWorker();  // cancels what runs and joins
  RunWorker(const RunWorker&) = delete;
  RunWorker& operator=(const RunWorker&) = delete;

  // Queues `r`, replacing a queued request of the same pane and cancelling that pane's run
  // in flight.
  void submit(RunRequest r);
  // Cancels every queued and running request of `pane` (-1: all).
  void cancel(int pane);
  // Finished runs since the last call (cancelled ones included).
  std::vector<RunResult> take_results();
  // Hands a result's surface back after the GL thread copied it: device buffers are reused
  // by later runs and freed on the worker (cudaFree synchronizes the device, which would
  // stall the UI thread while another run is in flight).
  void recycle(std::unique_ptr<gl::DeviceBufferSurface> surface);
  // A run queued or in flight.
  bool busy() const;
  // Seconds the current run has been in flight (0 when idle).
  double running_seconds() const;

  // Thread-safe reads (see above).
  BackendKind kind() const { return kind_; }
  const std::string& device_name() const { return device_; }
  TimingRegistry& timings() { return *timings_; }

 private:
  void loop();

  std::unique_ptr<Runner> runner_;  // touched by the worker thread only
  BackendKind kind_;
  std::string device_;
  TimingRegistry* timings_;
  std::uint64_t data_id_ = 0;  // the data the runner holds (worker thread)

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<RunRequest> queue_;
  std::vector<RunResult> done_;
  std::vector<std::unique_ptr<gl::DeviceBufferSurface>> spare_;  // recycled device buffers (at most a few)
  std::unique_ptr<gl::DeviceBufferSurface> done_surplus_;        // one more, freed by the worker
  bool running_ = false;
  int running_pane_ = -1;
  std::shared_ptr<CancelToken> running_token_;
  std::chrono::steady_clock::time_point running_since_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace lb::viewer
