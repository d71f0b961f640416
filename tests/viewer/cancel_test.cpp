// lb::parallel_for's cooperative cancellation (lightbench/cancel.hpp), which the viewer's run
// workers use to stop a superseded CPU run within a chunk of rows.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "lightbench/cancel.hpp"
#include "lightbench/parallel.hpp"

TEST_CASE("without a token every index runs") {
  std::atomic<int> n{0};
  lb::parallel_for(1000, [&](int) { ++n; }, 2);
  CHECK(n == 1000);
}

TEST_CASE("a token set before the call stops it at once; the caller sees lb::Cancelled") {
  lb::CancelToken token;
  token.cancel();
  lb::ScopedCancelToken scope(&token);
  std::atomic<int> n{0};
  for (int threads : {1, 2, 4}) CHECK_THROWS_AS(lb::parallel_for(100, [&](int) { ++n; }, threads), lb::Cancelled);
  CHECK(n == 0);
  CHECK_THROWS_AS(lb::throw_if_cancelled(), lb::Cancelled);
}

TEST_CASE("a token set from another thread stops a long run within a chunk, nested calls included") {
  lb::CancelToken token;
  std::atomic<int> n{0};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    token.cancel();
  });
  {
    lb::ScopedCancelToken scope(&token);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(lb::parallel_for(
                        100000,
                        [&](int) {
                          // A nested call on a helper thread sees the token too.
                          lb::parallel_for(2, [&](int) { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }, 1);
                          ++n;
                        },
                        2),
                    lb::Cancelled);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  }
  canceller.join();
  CHECK(n > 0);
  CHECK(n < 100000);
  CHECK(lb::current_cancel_token() == nullptr);  // the scope restored "none"
}
