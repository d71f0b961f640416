#include "lightbench/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace lb {

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
  if (threads == 1) {
    for (int i = 0; i < n; ++i) body(i);
    return;
  }
  // Dynamic scheduling: workers take the next index, so uneven rows balance.
  std::atomic<int> next{0};
  std::exception_ptr error;
  std::mutex error_mu;
  auto worker = [&] {
    for (int i = next++; i < n; i = next++) {
      try {
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
