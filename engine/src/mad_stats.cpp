// MAD block statistics (spec 1.3 / 2.2) on the CPU, double, two-pass like MATLAB's
// std / skewness / kurtosis (mean first, then sums of centred powers).
#include <cmath>

#include "lightbench/mad.hpp"
#include "lightbench/mad_math.hpp"

namespace lb::mad_cpu_detail {

namespace {
template <class In>
std::vector<BlockStatsD> block_stats_impl(const In* img, int w, int h) {
  const int nbx = mad::block_count(w), nby = mad::block_count(h);
  std::vector<BlockStatsD> out(static_cast<std::size_t>(nbx) * nby);
  constexpr int B = mad::kBlock;
  for (int by = 0; by < nby; ++by) {
    for (int bx = 0; bx < nbx; ++bx) {
      const In* p = img + static_cast<std::size_t>(by * mad::kStride) * w + bx * mad::kStride;
      double sum = 0;
      for (int y = 0; y < B; ++y)
        for (int x = 0; x < B; ++x) sum += static_cast<double>(p[static_cast<std::size_t>(y) * w + x]);
      const double mean = sum / (B * B);
      double m2 = 0, m3 = 0, m4 = 0;
      for (int y = 0; y < B; ++y)
        for (int x = 0; x < B; ++x) {
          const double d = static_cast<double>(p[static_cast<std::size_t>(y) * w + x]) - mean;
          const double d2 = d * d;
          m2 += d2;
          m3 += d2 * d;
          m4 += d2 * d2;
        }
      const mad::BlockStats<double> s = mad::stats_from_central<double>(B * B, m2, m3, m4);
      out[static_cast<std::size_t>(by) * nbx + bx] = {s.std, s.skew, s.kurt};
    }
  }
  return out;
}
}  // namespace

std::vector<BlockStatsD> block_stats(const double* img, int w, int h) { return block_stats_impl(img, w, h); }
std::vector<BlockStatsD> block_stats(const float* img, int w, int h) { return block_stats_impl(img, w, h); }

}  // namespace lb::mad_cpu_detail
