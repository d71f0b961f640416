#include <doctest/doctest.h>

#include <stdexcept>

#include "lightbench/parallel.hpp"
#include "lightbench/timing.hpp"

using namespace lb;

TEST_CASE("timing statistics: median, min, throughput") {
  const auto s = compute_stats({4.0, 1.0, 3.0, 2.0, 10.0}, 2'000'000);
  CHECK(s.count == 5);
  CHECK(s.median_ms == 3.0);
  CHECK(s.min_ms == 1.0);
  CHECK(s.max_ms == 10.0);
  CHECK(s.last_ms == 10.0);
  CHECK(s.median_gbps == doctest::Approx(2e6 / 3e6));
  CHECK(compute_stats({1.0, 3.0}, 0).median_ms == 2.0);
}

TEST_CASE("timing registry keeps a bounded history per kernel") {
  TimingRegistry reg(4);
  for (int i = 0; i < 10; ++i) reg.record("a", i, 100);
  reg.record("b", 1.0);
  CHECK(reg.kernels() == std::vector<std::string>{"a", "b"});
  const auto h = reg.history("a");
  REQUIRE(h.size() == 4);
  CHECK(h.front().ms == 6.0);
  CHECK(reg.stats("a").median_ms == 7.5);
  CHECK(reg.stats("missing").count == 0);
  { ScopedCpuTimer t(reg, "c"); }
  CHECK(reg.stats("c").count == 1);
}

TEST_CASE("parallel_for covers every index once and rethrows worker errors") {
  std::vector<int> hits(1000, 0);
  parallel_for(1000, [&](int i) { hits[i]++; }, 4);
  for (int h : hits) CHECK(h == 1);
  CHECK_THROWS_AS(parallel_for(100, [](int i) { if (i == 57) throw std::runtime_error("x"); }, 3),
                  std::runtime_error);
}
