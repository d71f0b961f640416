// lb::FastDiv (lightbench/fast_div.hpp), the division the MAD column FFT and the Tiled render
// use on the device, against / on the host: exhaustive over the ranges the kernels divide
// (every quotient of the Tiled render: j < 2^20 by a patch size 1..64; the column FFT's
// j < 2^16 by the products of radices), then the edges of its range (j up to 2^31 - 1) and
// random divisors up to 2^31 - 1. The device's __umulhi is the host's 64-bit product's high word.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>

#include "lightbench/fast_div.hpp"

using lb::FastDiv;
using lb::fast_div;

namespace {

// The first j in [lo, hi) where FastDiv differs from /, or -1.
long long first_wrong(int d, long long lo, long long hi) {
  const FastDiv f = fast_div(d);
  for (long long j = lo; j < hi; ++j)
    if (f.div(static_cast<int>(j)) != static_cast<int>(j) / d) return j;
  return -1;
}

}  // namespace

TEST_CASE("fast_div: every j < 2^20 by 1..64 (the Tiled render's outputs by the patch size)") {
  for (int d = 1; d <= 64; ++d) {
    INFO("d = " << d);
    CHECK(first_wrong(d, 0, 1 << 20) == -1);
  }
}

TEST_CASE("fast_div: every j < 2^16 by 65..2048 (the column FFT's butterflies by the stage products)") {
  for (int d = 65; d <= 2048; ++d) {
    INFO("d = " << d);
    CHECK(first_wrong(d, 0, 1 << 16) == -1);
  }
}

TEST_CASE("fast_div: the top of the range and awkward divisors") {
  const long long top = (1ll << 31);
  for (int k = 0; k <= 30; ++k) {
    for (int delta = -1; delta <= 1; ++delta) {
      const long long d = (1ll << k) + delta;
      if (d < 1 || d >= top) continue;
      INFO("d = " << d);
      CHECK(first_wrong(static_cast<int>(d), 0, 4096) == -1);
      CHECK(first_wrong(static_cast<int>(d), top - 4096, top) == -1);
      CHECK(first_wrong(static_cast<int>(d), d * 3 - 2048 > 0 ? d * 3 - 2048 : 0, std::min(top, d * 3 + 2048)) == -1);
    }
  }
  CHECK(first_wrong(2147483647, top - 4096, top) == -1);
  CHECK(fast_div(1).div(2147483647) == 2147483647);
  CHECK(fast_div(2147483647).div(2147483647) == 1);
}

TEST_CASE("fast_div: random divisors and numerators below 2^31") {
  std::mt19937_64 rng(40);
  std::uniform_int_distribution<int> any(0, 2147483647), div(1, 2147483647);
  std::uniform_int_distribution<int> shift(0, 30);
  for (int i = 0; i < 20000; ++i) {
    const int d = i % 2 ? div(rng) : std::max(1, div(rng) >> shift(rng));
    const FastDiv f = fast_div(d);
    for (int k = 0; k < 64; ++k) {
      const int j = any(rng) >> (k % 31);
      if (f.div(j) != j / d) {
        FAIL_CHECK("d = " << d << ", j = " << j << ": " << f.div(j) << " != " << j / d);
        return;
      }
    }
  }
}
