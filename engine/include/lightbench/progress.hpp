#pragma once
// Progress of a long load (a light-field folder of many views), reported to whoever runs it.
// A front end that loads on a worker thread (the viewer's data loader) installs a sink on that
// thread; the loaders call report_progress() between files. Code that installs none (the CLI,
// tests) pays one thread-local read per call. Loaders also call lb::throw_if_cancelled()
// (cancel.hpp) at the same points, so a load stops between two files when it is cancelled.
#include <string>

namespace lb {

class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  // fraction in [0, 1] (negative: unknown), stage: what is being done ("view 12 of 81").
  virtual void progress(double fraction, const std::string& stage) = 0;
};

// Reports to the calling thread's sink (nothing when none is installed).
void report_progress(double fraction, const std::string& stage);

// Installs `sink` on the calling thread for its lifetime (restores the previous one).
class ScopedProgressSink {
 public:
  explicit ScopedProgressSink(ProgressSink* sink);
  ~ScopedProgressSink();
  ScopedProgressSink(const ScopedProgressSink&) = delete;
  ScopedProgressSink& operator=(const ScopedProgressSink&) = delete;

 private:
  ProgressSink* previous_;
};

}  // namespace lb
