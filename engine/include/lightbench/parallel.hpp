#pragma once
// A minimal parallel-for over rows with std::thread (no OpenMP dependency). Chunks are
// interleaved so uneven rows balance; exceptions from workers are rethrown on the caller.
#include <functional>

namespace lb {

// Number of worker threads the CPU path uses: hardware_concurrency, or LB_THREADS.
int default_thread_count();
// Calls body(i) for i in [0, n) on `threads` threads (0: default_thread_count()). With a
// cancel token installed on the calling thread (cancel.hpp) every index first checks it and
// the call throws lb::Cancelled once it is set.
void parallel_for(int n, const std::function<void(int)>& body, int threads = 0);

}  // namespace lb
