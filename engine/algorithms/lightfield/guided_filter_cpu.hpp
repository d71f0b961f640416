#pragma once
// CPU reference of the guided filter's building blocks (double): the clipped box mean and the
// colour-guide filter (He, Sun & Tang, Eq. 14-16). The gray filter is lb::guided_filter_cpu
// (lightfield/lf_refine.hpp); both use BoxMean, so the two agree on the window convention.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace lb {

// Means over clipped (2r+1)^2 windows from a double integral image: O(1) per pixel. The
// window of (x, y) is [x-r, x+r] x [y-r, y+r] intersected with the image, and its mean
// divides by the pixels inside (N), not by (2r+1)^2. Inline: at() runs once per pixel and
// plane, in the filters' inner loops.
struct BoxMean {
  int w, h, r;
  std::vector<double> S;  // (w+1) x (h+1)
  BoxMean(const std::vector<double>& v, int w_, int h_, int r_) : w(w_), h(h_), r(r_), S((w_ + 1) * (h_ + 1), 0.0) {
    for (int y = 0; y < h; ++y) {
      double row = 0;
      for (int x = 0; x < w; ++x) {
        row += v[static_cast<std::size_t>(y) * w + x];
        S[static_cast<std::size_t>(y + 1) * (w + 1) + x + 1] = S[static_cast<std::size_t>(y) * (w + 1) + x + 1] + row;
      }
    }
  }
  double at(int x, int y) const {
    const int x0 = std::max(0, x - r), x1 = std::min(w - 1, x + r), y0 = std::max(0, y - r), y1 = std::min(h - 1, y + r);
    const auto s = [&](int xx, int yy) { return S[static_cast<std::size_t>(yy) * (w + 1) + xx]; };
    const double sum = s(x1 + 1, y1 + 1) - s(x0, y1 + 1) - s(x1 + 1, y0) + s(x0, y0);
    return sum / (static_cast<double>(x1 - x0 + 1) * (y1 - y0 + 1));
  }
};

// The guided filter of one plane p (h x w) with a colour guide I (3 planes [c][y][x] of
// h x w, each channel in [0, 1]), radius r (clipped windows, as BoxMean), regulariser eps > 0:
//   a = (Sigma + eps U)^-1 cov(I, p), b = mean_p - a . mean_I, q = mean_a . I + mean_b
// (lightfield/guided_filter_math.hpp). Double throughout, O(1) per pixel in r.
std::vector<double> guided_filter_rgb_cpu(const std::vector<double>& I, const std::vector<double>& p, int w, int h,
                                          int r, double eps);

}  // namespace lb
