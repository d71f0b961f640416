#pragma once
// Integer division by a divisor known before the loop that divides by it (LB_HD): j / d for
// 0 <= j < 2^31 and d >= 1 in three instructions on the device (multiply-high, add, shift;
// Granlund & Montgomery's round-up multiplier). Made once, on the host or outside the loop,
// by fast_div(d); exact for every such j (tests/engine/test_fast_div.cpp checks it against /).
// Used by the MAD column FFT (kernels/mad/mad_colfft.cu) and the Tiled render
// (kernels/plenoptic/render_tiled.cu).
#include <cstdint>

#include "lightbench/hd.hpp"

namespace lb {

struct FastDiv {
  std::uint32_t mul;  // floor(2^32 (2^shift - d) / d) + 1 (< 2^32)
  int shift;          // ceil(log2 d)
  LB_HD int div(int j) const {
    const std::uint32_t u = static_cast<std::uint32_t>(j);
#if defined(__CUDA_ARCH__)
    const std::uint32_t hi = __umulhi(mul, u);
#else
    const std::uint32_t hi = static_cast<std::uint32_t>((static_cast<std::uint64_t>(mul) * u) >> 32);
#endif
    return static_cast<int>((hi + u) >> shift);  // hi <= u < 2^31: no overflow
  }
};

// The multiplier and shift for a divisor d >= 1.
LB_HD FastDiv fast_div(int d) {
  int sh = 0;
  while ((1ll << sh) < d) ++sh;
  return {static_cast<std::uint32_t>(((1ull << 32) * ((1ull << sh) - static_cast<unsigned>(d))) / d + 1), sh};
}

}  // namespace lb
