// MAD block statistics (spec 1.3 / 2.2) on the CPU, double, two-pass like MATLAB's
// std / skewness / kurtosis (mean first, then sums of centred powers).
#include <cmath>

#include "mad/mad.hpp"
#include "mad/mad_math.hpp"

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
      // Four interleaved partial sums per moment (columns x mod 4): independent dependency
      // chains the CPU can pipeline; in double the order does not show in the statistics.
      double s1[4] = {0, 0, 0, 0};
      for (int y = 0; y < B; ++y) {
        const In* row = p + static_cast<std::size_t>(y) * w;
        for (int x = 0; x < B; x += 4)
          for (int k = 0; k < 4; ++k) s1[k] += static_cast<double>(row[x + k]);
      }
      const double mean = (s1[0] + s1[1] + s1[2] + s1[3]) / (B * B);
      double s2[4] = {0, 0, 0, 0}, s3[4] = {0, 0, 0, 0}, s4[4] = {0, 0, 0, 0};
      for (int y = 0; y < B; ++y) {
        const In* row = p + static_cast<std::size_t>(y) * w;
        for (int x = 0; x < B; x += 4)
          for (int k = 0; k < 4; ++k) {
            const double d = static_cast<double>(row[x + k]) - mean;
            const double d2 = d * d;
            s2[k] += d2;
            s3[k] += d2 * d;
            s4[k] += d2 * d2;
          }
      }
      const double m2 = (s2[0] + s2[1]) + (s2[2] + s2[3]);
      const double m3 = (s3[0] + s3[1]) + (s3[2] + s3[3]);
      const double m4 = (s4[0] + s4[1]) + (s4[2] + s4[3]);
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
