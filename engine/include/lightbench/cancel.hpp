#pragma once
// Cooperative cancellation of CPU runs. A front end that runs an algorithm off its UI thread
// (the viewer's run workers) installs a CancelToken on the running thread; lb::parallel_for
// checks it before every chunk and throws lb::Cancelled once it is set, so a long CPU run
// (the light-field refinement, a big BP) stops within one chunk of rows when a newer value
// supersedes it. Code that never installs a token (the CLI, tests) pays one thread-local
// read per parallel_for call.
#include <atomic>
#include <exception>

namespace lb {

class CancelToken {
 public:
  void cancel() { flag_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return flag_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> flag_{false};
};

// Thrown by lb::parallel_for (and throw_if_cancelled) once the thread's token is set. Not an
// lb::Error: it is no failure to report, and code catching lb::Error to add context lets it pass.
struct Cancelled final : std::exception {
  const char* what() const noexcept override { return "cancelled"; }
};

// The token of the calling thread (nullptr: none).
const CancelToken* current_cancel_token();
// Throws lb::Cancelled when the calling thread's token is set.
void throw_if_cancelled();

// Installs `token` on the calling thread for its lifetime (restores the previous one).
class ScopedCancelToken {
 public:
  explicit ScopedCancelToken(const CancelToken* token);
  ~ScopedCancelToken();
  ScopedCancelToken(const ScopedCancelToken&) = delete;
  ScopedCancelToken& operator=(const ScopedCancelToken&) = delete;

 private:
  const CancelToken* previous_;
};

}  // namespace lb
