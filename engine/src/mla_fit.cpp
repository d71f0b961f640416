// The micro-lens grid's phase fitted to a raw (fit_mla_offset, mla_geometry.hpp): a calibration
// file's offset may refer to another crop of the sensor (the R42 crop's does, docs/DESIGN.md),
// while the pitch, bases and types still hold.
#include <algorithm>
#include <cmath>
#include <vector>

#include "lightbench/error.hpp"
#include "lightbench/mla_geometry.hpp"

namespace lb {

namespace {

struct Gray {
  int w = 0, h = 0;
  std::vector<float> v;
  float at(int x, int y) const { return v[static_cast<std::size_t>(y) * w + x]; }
  // Sum of |central differences| over the 3 x 3 window at the nearest pixel (needs 2 px margin).
  float grad(double x, double y) const {
    const int cx = static_cast<int>(std::floor(x + 0.5)), cy = static_cast<int>(std::floor(y + 0.5));
    float s = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int X = cx + dx, Y = cy + dy;
        s += std::abs(at(X + 1, Y) - at(X - 1, Y)) + std::abs(at(X, Y + 1) - at(X, Y - 1));
      }
    return s;
  }
  bool inside(double x, double y) const { return x >= 3 && y >= 3 && x <= w - 4 && y <= h - 4; }
};

}  // namespace

MlaFitResult fit_mla_offset_scored(const MlaGeometry& g, const ImageU8& raw) {
  LB_REQUIRE(!raw.empty() && raw.channels >= 1, "grid fit: the raw is empty");
  const MlaLayout base(g, "grid fit");
  Gray img;
  img.w = raw.width;
  img.h = raw.height;
  img.v.resize(raw.pixels());
  for (int y = 0; y < raw.height; ++y)
    for (int x = 0; x < raw.width; ++x) {
      float s = 0;
      for (int c = 0; c < std::min(raw.channels, 3); ++c) s += raw.at(x, y, c);
      img.v[static_cast<std::size_t>(y) * raw.width + x] = s;
    }
  // The lattice indices looked at: those of the lenses inside the raw, strided to <= 2000.
  std::vector<MlaLens> lenses = base.lenses_in(raw.width, raw.height);
  LB_REQUIRE(!lenses.empty(), "grid fit: no whole lens inside the " + std::to_string(raw.width) + "x" +
                                  std::to_string(raw.height) + " raw");
  if (lenses.size() > 2000) {
    std::vector<MlaLens> some;
    const double step = static_cast<double>(lenses.size()) / 2000.0;
    for (int k = 0; k < 2000; ++k) some.push_back(lenses[static_cast<std::size_t>(k * step)]);
    lenses.swap(some);
  }
  // Sample points around a lens centre: a ring where the micro-image ends (0.9 and 1.0 of the
  // radius: vignetting's steepest fall-off, the border to the next micro-image) scores +, the
  // inside (up to 0.6 of the radius) scores -. Symmetric, so a wrong phase always loses some
  // of the ring to the inside of a lens.
  const double R = g.diameter / 2.0;
  std::vector<MlaVec> ring, inner;
  for (double rf : {0.9, 1.0})
    for (int k = 0; k < 24; ++k) {
      const double t = 2.0 * M_PI * (k + 0.5 * (rf == 1.0)) / 24.0;
      ring.push_back({rf * R * std::cos(t), rf * R * std::sin(t)});
    }
  for (double rf : {0.0, 0.3, 0.6})
    for (int k = 0; k < (rf == 0.0 ? 1 : 12); ++k) {
      const double t = 2.0 * M_PI * k / 12.0;
      inner.push_back({rf * R * std::cos(t), rf * R * std::sin(t)});
    }
  const MlaVec c00 = base.centre(0, 0);
  auto contrast = [&](double ox, double oy) {
    double sum = 0;
    int n = 0;
    for (const MlaLens& l : lenses) {
      const double cx = l.cx - c00.x + ox, cy = l.cy - c00.y + oy;
      if (!img.inside(cx - R - 1, cy - R - 1) || !img.inside(cx + R + 1, cy + R + 1)) continue;
      double r = 0, in = 0;
      for (const MlaVec& p : ring) r += img.grad(cx + p.x, cy + p.y);
      for (const MlaVec& p : inner) in += img.grad(cx + p.x, cy + p.y);
      sum += r / ring.size() - in / inner.size();
      ++n;
    }
    return n > 0 ? sum / n : -1e30;
  };
  // Coarse: one lattice cell of phases around the given offset, about 1 px apart.
  const MlaVec ex = base.centre(1, 0), ey = base.centre(0, 1);
  const double ax = ex.x - c00.x, ay = ex.y - c00.y, bx = ey.x - c00.x, by = ey.y - c00.y;
  const int steps = static_cast<int>(std::ceil(g.diameter));
  double best = -1e300, bo_x = g.offset.x, bo_y = g.offset.y;
  for (int q = 0; q < steps; ++q)
    for (int p = 0; p < steps; ++p) {
      const double a = -0.5 + (p + 0.5) / steps, b = -0.5 + (q + 0.5) / steps;
      const double ox = g.offset.x + a * ax + b * bx, oy = g.offset.y + a * ay + b * by;
      const double s = contrast(ox, oy);
      if (s > best) best = s, bo_x = ox, bo_y = oy;
    }
  // Refine: 0.25 px over +-1 px, then 0.05 px over +-0.25 px.
  for (const double step : {0.25, 0.05}) {
    const double cx = bo_x, cy = bo_y;
    for (int dy = -4; dy <= 4; ++dy)
      for (int dx = -4; dx <= 4; ++dx) {
        const double ox = cx + dx * step, oy = cy + dy * step;
        const double s = contrast(ox, oy);
        if (s > best) best = s, bo_x = ox, bo_y = oy;
      }
  }
  MlaFitResult out;
  out.geometry = g;
  out.geometry.offset = {bo_x, bo_y};
  out.contrast_given = contrast(g.offset.x, g.offset.y);  // the same lenses, the given phase
  out.contrast_fitted = best;
  return out;
}

MlaGeometry fit_mla_offset(const MlaGeometry& g, const ImageU8& raw) {
  return fit_mla_offset_scored(g, raw).geometry;
}

}  // namespace lb
