#pragma once
// Data opened off the UI thread (issue 40): a light-field folder of many views, a stereo data
// set, a raw image, an image pair. Every data section owns one DataLoader; opening starts a
// load on the loader's thread and returns at once. Meanwhile the previous data stays shown and
// usable, and the panel shows the load's stage with a Cancel button (draw()). The work runs
// with an lb::CancelToken and an lb::ProgressSink installed on its thread (cancel.hpp,
// progress.hpp: load_lightfield checks one and reports to the other between views). What it
// returns is applied on the UI thread when the viewer polls (poll(): every section, every
// frame): that installs the new data (a new shared_ptr<const AlgorithmData>) and its textures.
// A failed load keeps the old data and says why in one line; a cancelled or superseded load
// is dropped.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "lightbench/cancel.hpp"
#include "viewer_types.hpp"

namespace lb::viewer {

class DataLoader {
 public:
  // On the UI thread once the load finished: installs what the work made (textures, the new
  // data) and may ask more of the viewer (req.hand_over; req.replaced is set before the call).
  // A throw keeps the old data and is reported as the load's error.
  using Apply = std::function<void(DataRequest& req)>;
  // On the loader's thread, with a cancel token and a progress sink installed: reads the files
  // and returns what applies them. It must not touch the section's state (only its copies).
  using Work = std::function<Apply()>;

  DataLoader() = default;
  ~DataLoader();  // cancels the load in flight and joins
  DataLoader(const DataLoader&) = delete;
  DataLoader& operator=(const DataLoader&) = delete;

  // Starts `work`; `what` names it in the panel ("light field 'dir'"). A load in flight is
  // cancelled and its result dropped.
  void start(std::string what, Work work);
  // Cancels the load in flight (its result is dropped; the old data stays).
  void cancel();
  // A load queued, in flight, or finished and not yet applied.
  bool busy() const;

  struct Status {
    std::string what;
    double fraction = -1.0;  // negative: unknown
    std::string stage;
    double seconds = 0.0;    // since start()
  };
  Status status() const;

  struct Outcome {
    bool finished = false;  // a load finished since the last poll (applied, or failed)
    bool applied = false;   // ... and its data is in place
    std::string error;      // one line; empty when applied
  };
  // UI thread, every frame: applies a finished load (Apply with `req`).
  Outcome poll(DataRequest& req);

  // The last load's error (one line) or cancel note, until the next start(); empty: none.
  const std::string& error() const { return error_; }
  const std::string& note() const { return note_; }
  // The panel's line: while busy, "loading <what>", the stage on a progress bar and Cancel;
  // after a failure its red line; after a cancel a grey note. Returns true when Cancel was
  // clicked.
  bool draw();

  // Tests (--load-delay-ms): every progress report sleeps this long (cancellable), so a small
  // folder loads slowly enough to watch the window draw meanwhile.
  static void set_test_delay_ms(int ms);

 private:
  struct Job;
  void loop();

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::shared_ptr<Job> pending_, running_;
  std::unique_ptr<Outcome> done_outcome_;
  Apply done_apply_;
  std::uint64_t generation_ = 0;  // the latest start(); older results are dropped
  bool stop_ = false;
  std::thread thread_;  // started by the first start()
  std::string error_, note_;  // UI thread
};

}  // namespace lb::viewer
