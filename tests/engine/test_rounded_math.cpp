// lb::rnd::fma on the host (lightbench/rounded_math.hpp): the round-to-odd emulation must be
// the correctly rounded fused multiply-add, bit for bit, since the defocus cost's CPU
// reference and the CUDA kernels (which use the hardware fma) must agree on every sample.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "lightbench/rounded_math.hpp"

namespace {
std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
}  // namespace

TEST_CASE("rnd::fma equals std::fma bit for bit (random floats, near-ties, the samples' shapes)") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f);
  std::uniform_int_distribution<std::uint32_t> any(0u, 0xFFFFFFFFu);
  std::size_t checked = 0, differ = 0, inexact_plain = 0;
  auto check = [&](float a, float b, float c) {
    const float want = std::fma(a, b, c);
    if (!std::isfinite(want) || std::fabs(want) < FLT_MIN) return;  // normal finite results only
    ++checked;
    differ += bits(lb::rnd::fma(a, b, c)) != bits(want);
    // The naive double sum rounds twice: shows the cases exercise the hard path.
    inexact_plain += bits(static_cast<float>(static_cast<double>(a) * b + c)) != bits(want);
  };
  for (int i = 0; i < 400000; ++i) {
    // The defocus sample's shapes: fraction x (integer difference) + integer, and the
    // vertical lerp fy * (bot - top) + top of two arbitrary values in [0, 255].
    const float fx = u01(rng), top = 255.0f * u01(rng), bot = 255.0f * u01(rng);
    check(fx, std::floor(511.0f * u01(rng)) - 255.0f, std::floor(256.0f * u01(rng)));
    check(fx, bot - top, top);
    // Positions: x + (-du) d.
    check(static_cast<float>(static_cast<int>(any(rng) % 15) - 7), 6.0f * u01(rng) - 3.0f,
          std::floor(4096.0f * u01(rng)));
    // Arbitrary finite bit patterns within a modest exponent range.
    const float a = from_bits((any(rng) & 0x807FFFFFu) | ((100u + any(rng) % 56u) << 23));
    const float b = from_bits((any(rng) & 0x807FFFFFu) | ((100u + any(rng) % 56u) << 23));
    const float c = from_bits((any(rng) & 0x807FFFFFu) | ((100u + any(rng) % 56u) << 23));
    check(a, b, c);
    // Near-cancellation: c close to -a b.
    check(a, b, -static_cast<float>(static_cast<double>(a) * b));
  }
  // Where the double sum rounds twice: a b + c lies just above 1 + 2^-24, the double sum is
  // that tie exactly, and ties-to-even gives 1 instead of the correct 1 + 2^-23 (found by a
  // search with exact rationals).
  check(0x1.ae634ap+0f, 0x1.308b3ep-25f, 1.0f);
  check(0x1.ad9910p+0f, 0x1.311a9ap-25f, 1.0f);
  check(0x1.f88d3ap+0f, 0x1.03c776p-25f, 1.0f);
  CHECK(lb::rnd::fma(0x1.ae634ap+0f, 0x1.308b3ep-25f, 1.0f) == 0x1.000002p+0f);
  MESSAGE(checked << " cases, " << inexact_plain << " where the double sum rounded twice differs");
  CHECK(checked > 1500000);
  CHECK(inexact_plain > 0);
  CHECK(differ == 0);
}
