#pragma once
// Shift-and-add refocus of a 4D light field, per output pixel, shared by the CPU reference
// (lb::refocus_cpu, engine/src/lightfield.cpp) and the CUDA kernel (kernels/
// lightfield_refocus.cu) through LB_HD, so both produce the same bytes.
//
// Exactness: every floating-point step is one explicitly rounded IEEE double operation in a
// fixed order (views v outer, u inner; channels independent), so the two sides compute the
// same bits:
//   * on the device each +, -, *, / is __dadd_rn / __dsub_rn / __dmul_rn / __ddiv_rn, which
//     nvcc never contracts into an FMA (a plain `a + b * c` would become fma(b, c, a) and
//     round once instead of twice);
//   * on the host they are plain operators: the host build targets baseline x86-64 (no FMA
//     instructions, see CMakeLists.txt), so GCC cannot contract them either. A host build
//     with -march=native (FMA) must add -ffp-contract=off for the engine.
//   * floor, the clamps and the int conversions are exact on both sides.
// The sum over views is exact-order, not exact-value: the bytes match because the order
// matches, so keep one thread per pixel walking views in this order.
#include <cmath>
#include <cstdint>

#include "lightfield/cae_math.hpp"
#include "lightbench/hd.hpp"
#include "lightbench/rounded_math.hpp"

namespace lb::refocus {

// Once-rounded double operations (rounded_math.hpp).
using rnd::add;
using rnd::div;
using rnd::mul;
using rnd::sub;
LB_HD double floor_d(double a) {
#if defined(__CUDA_ARCH__)
  return floor(a);
#else
  return std::floor(a);
#endif
}
// std::clamp's definition (lo when v < lo, hi when hi < v), spelled out for the device.
LB_HD double clamp_d(double v, double lo, double hi) { return v < lo ? lo : (hi < v ? hi : v); }

// The views that take part: |u - uc| <= r and |v - vc| <= r, clamped to the grid; n views.
struct Aperture {
  int u0 = 0, u1 = -1, v0 = 0, v1 = -1;  // inclusive
  int uc = 0, vc = 0;                    // centre view (nu / 2, nv / 2)
  double n = 0;                          // number of views, as the divisor
};
LB_HD Aperture aperture(int nu, int nv, int radius) {
  Aperture a;
  a.uc = nu / 2;
  a.vc = nv / 2;
  a.u0 = a.uc - radius < 0 ? 0 : a.uc - radius;
  a.u1 = a.uc + radius > nu - 1 ? nu - 1 : a.uc + radius;
  a.v0 = a.vc - radius < 0 ? 0 : a.vc - radius;
  a.v1 = a.vc + radius > nv - 1 ? nv - 1 : a.vc + radius;
  a.n = static_cast<double>((a.u1 - a.u0 + 1) * (a.v1 - a.v0 + 1));
  return a;
}

// Where centre-view coordinate p (x or y) is sampled in a view `offset` views from the
// centre along that axis: p + kShearSign * offset * d (lightfield.hpp's convention).
LB_HD double shear(int p, int offset, float disparity) {
  return add(static_cast<double>(p), mul(static_cast<double>(cae::kShearSign * offset), static_cast<double>(disparity)));
}

// Bilinear footprint of a position clamped to a w x h image.
struct Tap {
  int x0, x1, y0, y1;
  double fx, fy;
};
LB_HD Tap bilinear_tap(double x, double y, int w, int h) {
  x = clamp_d(x, 0.0, static_cast<double>(w - 1));
  y = clamp_d(y, 0.0, static_cast<double>(h - 1));
  Tap t;
  t.x0 = static_cast<int>(x);
  t.y0 = static_cast<int>(y);
  t.x1 = t.x0 + 1 < w - 1 ? t.x0 + 1 : w - 1;
  t.y1 = t.y0 + 1 < h - 1 ? t.y0 + 1 : h - 1;
  t.fx = sub(x, static_cast<double>(t.x0));
  t.fy = sub(y, static_cast<double>(t.y0));
  return t;
}
// a = (x0, y0), b = (x1, y0), c = (x0, y1), d = (x1, y1): lerp the rows, then between them.
LB_HD double bilinear(const Tap& t, double a, double b, double c, double d) {
  const double top = add(a, mul(t.fx, sub(b, a)));
  const double bot = add(c, mul(t.fx, sub(d, c)));
  return add(top, mul(t.fy, sub(bot, top)));
}

// Mean of the accumulated samples, rounded half up, clamped to a byte.
LB_HD std::uint8_t round_mean(double acc, double n) {
  return static_cast<std::uint8_t>(clamp_d(floor_d(add(div(acc, n), 0.5)), 0.0, 255.0));
}

struct Rgb8 {
  std::uint8_t r, g, b;
};

// The sums over the aperture's views of the bilinear samples of output pixel (x, y) of the
// w x h refocused image at disparity d, per channel, in the fixed order (v outer, u inner).
// fetch(u, v, px, py) returns view (u, v)'s pixel (px, py) as Rgb8 (any storage layout).
template <class Fetch>
LB_HD void refocus_sums(const Fetch& fetch, int w, int h, const Aperture& ap, float disparity, int x, int y,
                        double acc[3]) {
  acc[0] = acc[1] = acc[2] = 0.0;
  for (int v = ap.v0; v <= ap.v1; ++v) {
    const double sy = shear(y, v - ap.vc, disparity);
    for (int u = ap.u0; u <= ap.u1; ++u) {
      const double sx = shear(x, u - ap.uc, disparity);
      const Tap t = bilinear_tap(sx, sy, w, h);
      const Rgb8 a = fetch(u, v, t.x0, t.y0), b = fetch(u, v, t.x1, t.y0);
      const Rgb8 c = fetch(u, v, t.x0, t.y1), d = fetch(u, v, t.x1, t.y1);
      acc[0] = add(acc[0], bilinear(t, a.r, b.r, c.r, d.r));
      acc[1] = add(acc[1], bilinear(t, a.g, b.g, c.g, d.g));
      acc[2] = add(acc[2], bilinear(t, a.b, b.b, c.b, d.b));
    }
  }
}

// One output pixel: the mean of refocus_sums, rounded half up.
template <class Fetch>
LB_HD Rgb8 refocus_pixel(const Fetch& fetch, int w, int h, const Aperture& ap, float disparity, int x, int y) {
  double acc[3];
  refocus_sums(fetch, w, h, ap, disparity, x, y, acc);
  return Rgb8{round_mean(acc[0], ap.n), round_mean(acc[1], ap.n), round_mean(acc[2], ap.n)};
}

}  // namespace lb::refocus
