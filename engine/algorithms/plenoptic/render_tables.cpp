#include "plenoptic/render_tables.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace lb {

std::uint32_t quantised_gaussian(double d, double sigma) {
  const double v = std::round(256.0 * std::exp(-(d * d) / (2.0 * sigma * sigma)));
  // Never zero: every existing neighbour keeps a little weight, so the weight sum of an
  // output pixel is never 0 (the main micro-image always exists).
  return static_cast<std::uint32_t>(std::clamp(v, 1.0, 256.0));
}

namespace {

// floor(origin + n*D + (D - M)/2 + 0.5): the nearest-pixel rule applied once per
// micro-image column (or row); the integer offsets a - i*M are added later.
std::vector<int> starts(int count, double origin, double pitch, int patch) {
  std::vector<int> s(count);
  for (int n = 0; n < count; ++n)
    s[n] = static_cast<int>(std::floor(origin + n * pitch + (pitch - patch) / 2.0 + 0.5));
  return s;
}

// Weight factor for table index k = a - i*M + lim*M, i.e. offset a - i*M from the patch.
// The distance to the micro-image centre is (c + a - i*M) - s - (D - 1)/2 with
// c = (D - M)/2, which is a - i*M - s - (M - 1)/2: independent of D.
std::vector<std::uint32_t> weights(int patch, int lim, double shift, double sigma) {
  std::vector<std::uint32_t> w((2 * lim + 1) * patch);
  for (int k = 0; k < static_cast<int>(w.size()); ++k) {
    const double offset = k - lim * patch;  // a - i*M
    w[k] = quantised_gaussian(offset - shift - (patch - 1) / 2.0, sigma);
  }
  return w;
}

}  // namespace

RenderTablesHost build_render_tables(const PlenopticGrid& g, const RenderParams& p, int raw_w,
                                     int raw_h) {
  validate(g, raw_w, raw_h);
  validate(p, g);
  RenderTablesHost t;
  t.layout = RenderLayout{g.nx, g.ny, p.patch, p.lim, raw_w, raw_h,
                          render_width(g, p), render_height(g, p)};
  t.col_start = starts(g.nx, g.ox, g.pitch, p.patch);
  t.row_start = starts(g.ny, g.oy, g.pitch, p.patch);
  t.wx = weights(p.patch, p.lim, p.view_x, p.sigma);
  t.wy = weights(p.patch, p.lim, p.view_y, p.sigma);
  return t;
}

namespace {
std::uint64_t touched(const std::vector<int>& start, int count, int patch, int lim, int size) {
  std::vector<char> hit(size, 0);
  for (int o = 0; o < count; ++o)
    for (int i = -lim; i <= lim; ++i) {
      const int m = o + i;
      if (m < 0 || m >= count) continue;
      for (int a = 0; a < patch; ++a) hit[sample_coord(start[m], a, i, patch, size)] = 1;
    }
  std::uint64_t n = 0;
  for (char h : hit) n += h;
  return n;
}
}  // namespace

std::uint64_t render_touched_pixels(const RenderTablesHost& t) {
  const auto& L = t.layout;
  return touched(t.col_start, L.grid_nx, L.patch, L.lim, L.raw_w) *
         touched(t.row_start, L.grid_ny, L.patch, L.lim, L.raw_h);
}

}  // namespace lb
