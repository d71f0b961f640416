// The example's "rows" variant: the rows in parallel on the CPU's threads (lb::parallel_for).
// Added as issue 40 asks a variant to be: this file + its row in absdiff_algorithm.cpp.
#include "absdiff.hpp"
#include "lightbench/parallel.hpp"

namespace lb::example {

void absdiff_rows(const ImagePairData& d, const AbsDiffParams& p, ImageF& diff) {
  const std::size_t w = static_cast<std::size_t>(diff.width);
  parallel_for(diff.height, [&](int y) {
    for (std::size_t i = static_cast<std::size_t>(y) * w; i < static_cast<std::size_t>(y + 1) * w; ++i)
      diff.data[i] = absdiff_pixel(d, p, i);
  });
}

}  // namespace lb::example
