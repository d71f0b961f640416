#include "lightbench/parallel.hpp"

#include "lightbench/cancel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace lb {

namespace {
thread_local const CancelToken* t_cancel = nullptr;
}  // namespace

const CancelToken* current_cancel_token() { return t_cancel; }

void throw_if_cancelled() {
  if (t_cancel && t_cancel->cancelled()) throw Cancelled();
}

ScopedCancelToken::ScopedCancelToken(const CancelToken* token) : previous_(t_cancel) { t_cancel = token; }
ScopedCancelToken::~ScopedCancelToken() { t_cancel = previous_; }

int default_thread_count() {
  if (const char* env = std::getenv("LB_THREADS")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

void parallel_for(int n, const std::function<void(int)>& body, int threads) {
  if (n <= 0) return;
  if (threads <= 0) threads = default_thread_count();
  threads = std::min(threads, n);
  // The caller's cancel token (cancel.hpp), checked before every chunk on every thread and
  // installed on the helper threads so a nested parallel_for sees it too.
  const CancelToken* token = t_cancel;
  if (threads == 1) {
    for (int i = 0; i < n; ++i) {
      if (token && token->cancelled()) throw Cancelled();
      body(i);
    }
    return;
  }
  // Dynamic scheduling: workers take the next index, so uneven rows balance.
  std::atomic<int> next{0};
  std::exception_ptr error;
  std::mutex error_mu;
  auto worker = [&] {
    ScopedCancelToken scope(token);
    for (int i = next++; i < n; i = next++) {
      try {
        if (token && token->cancelled()) throw Cancelled();
        body(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (!error) error = std::current_exception();
        next = n;  // stop handing out work
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace lb
