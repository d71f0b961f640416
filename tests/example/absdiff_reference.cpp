// The example's "reference" variant: one pixel after another.
#include "absdiff.hpp"

namespace lb::example {

void absdiff_reference(const ImagePairData& d, const AbsDiffParams& p, ImageF& diff) {
  for (std::size_t i = 0; i < diff.data.size(); ++i) diff.data[i] = absdiff_pixel(d, p, i);
}

}  // namespace lb::example
