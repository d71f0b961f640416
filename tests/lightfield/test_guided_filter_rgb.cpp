// The colour guided filter's CPU reference (lb::guided_filter_rgb_cpu) against a brute-force
// per-pixel definition (explicit clipped windows, an explicit 3x3 solve by Gaussian
// elimination, double) on awkward sizes: odd sizes, one row, one column, a radius larger than
// the image, radius 0 (q == p), a constant guide, strongly correlated channels. Then the exact
// relationship with the gray filter when the three channels are identical, and the shared
// 3x3 algebra (lightfield/guided_filter_math.hpp) in double and float.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "lightbench/error.hpp"
#include "lightfield/guided_filter_cpu.hpp"
#include "lightfield/guided_filter_math.hpp"
#include "lightfield/lf_refine.hpp"

using namespace lb;

namespace {

using Plane = std::vector<double>;

// The clipped window of (x, y): [x-r, x+r] x [y-r, y+r] inside the image.
struct Window {
  int x0, x1, y0, y1;
  Window(int x, int y, int w, int h, int r)
      : x0(std::max(0, x - r)), x1(std::min(w - 1, x + r)), y0(std::max(0, y - r)), y1(std::min(h - 1, y + r)) {}
  template <typename F>
  double mean(F value_at) const {
    double s = 0;
    for (int yy = y0; yy <= y1; ++yy)
      for (int xx = x0; xx <= x1; ++xx) s += value_at(xx, yy);
    return s / ((x1 - x0 + 1) * (y1 - y0 + 1));
  }
};

// Solves A x = v (3x3) by Gaussian elimination with partial pivoting: deliberately not the
// adjugate the filter uses.
void solve3(double A[3][3], double v[3], double x[3]) {
  for (int col = 0; col < 3; ++col) {
    int piv = col;
    for (int r = col + 1; r < 3; ++r)
      if (std::abs(A[r][col]) > std::abs(A[piv][col])) piv = r;
    std::swap(A[col], A[piv]);
    std::swap(v[col], v[piv]);
    for (int r = col + 1; r < 3; ++r) {
      const double f = A[r][col] / A[col][col];
      for (int c = col; c < 3; ++c) A[r][c] -= f * A[col][c];
      v[r] -= f * v[col];
    }
  }
  for (int r = 2; r >= 0; --r) {
    double s = v[r];
    for (int c = r + 1; c < 3; ++c) s -= A[r][c] * x[c];
    x[r] = s / A[r][r];
  }
}

// The colour guided filter straight from its definition (He et al., Eq. 14-16), each window
// summed explicitly.
Plane brute_guided_rgb(const Plane& I, const Plane& p, int w, int h, int r, double eps) {
  const std::size_t n = p.size();
  const auto g = [&](int c, int x, int y) { return I[c * n + static_cast<std::size_t>(y) * w + x]; };
  const auto pv = [&](int x, int y) { return p[static_cast<std::size_t>(y) * w + x]; };
  Plane a[3] = {Plane(n), Plane(n), Plane(n)}, b(n), q(n);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const Window win(x, y, w, h, r);
      double mi[3], cov[3], S[3][3];
      const double mp = win.mean(pv);
      for (int i = 0; i < 3; ++i) mi[i] = win.mean([&](int xx, int yy) { return g(i, xx, yy); });
      for (int i = 0; i < 3; ++i) {
        cov[i] = win.mean([&](int xx, int yy) { return g(i, xx, yy) * pv(xx, yy); }) - mi[i] * mp;
        for (int j = 0; j < 3; ++j)
          S[i][j] = win.mean([&](int xx, int yy) { return g(i, xx, yy) * g(j, xx, yy); }) - mi[i] * mi[j] +
                    (i == j ? eps : 0.0);
      }
      double ak[3];
      solve3(S, cov, ak);
      const std::size_t k = static_cast<std::size_t>(y) * w + x;
      for (int c = 0; c < 3; ++c) a[c][k] = ak[c];
      b[k] = mp - (ak[0] * mi[0] + ak[1] * mi[1] + ak[2] * mi[2]);
    }
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const Window win(x, y, w, h, r);
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      double v = win.mean([&](int xx, int yy) { return b[static_cast<std::size_t>(yy) * w + xx]; });
      for (int c = 0; c < 3; ++c)
        v += win.mean([&](int xx, int yy) { return a[c][static_cast<std::size_t>(yy) * w + xx]; }) * g(c, x, y);
      q[i] = v;
    }
  return q;
}

double max_abs_diff(const Plane& u, const Plane& v) {
  double d = 0;
  for (std::size_t i = 0; i < u.size(); ++i) d = std::max(d, std::abs(u[i] - v[i]));
  return d;
}

enum class Guide { Random, Constant, Correlated };

// 3 planes in [0, 1]. Correlated: every channel 0.8 * a shared base + 0.2 * its own noise, the
// nearly proportional channels of a natural image (an ill-conditioned Sigma).
Plane make_guide(Guide kind, std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Plane I(3 * n);
  Plane base(n);
  for (auto& v : base) v = u(rng);
  for (int c = 0; c < 3; ++c)
    for (std::size_t i = 0; i < n; ++i) {
      double& v = I[c * n + i];
      switch (kind) {
        case Guide::Random: v = u(rng); break;
        case Guide::Constant: v = 0.2 + 0.3 * c; break;
        case Guide::Correlated: v = 0.8 * base[i] + 0.2 * u(rng); break;
      }
    }
  return I;
}

}  // namespace

TEST_CASE("guided filter rgb cpu: equals the brute-force definition (awkward sizes)") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  struct C {
    int w, h, r;
    double eps;
    Guide guide;
  };
  for (const C c : {C{17, 11, 2, 1e-4, Guide::Random}, C{9, 5, 20, 1e-3, Guide::Random},
                    C{31, 1, 3, 1e-4, Guide::Random}, C{1, 13, 2, 1e-3, Guide::Random},
                    C{23, 19, 0, 1e-2, Guide::Random}, C{12, 12, 4, 1e-4, Guide::Constant},
                    C{21, 15, 3, 1e-4, Guide::Correlated}, C{13, 7, 1, 1e-2, Guide::Correlated}}) {
    const std::size_t n = static_cast<std::size_t>(c.w) * c.h;
    const Plane I = make_guide(c.guide, n, rng);
    Plane p(n);
    for (auto& v : p) v = u(rng);
    const Plane got = guided_filter_rgb_cpu(I, p, c.w, c.h, c.r, c.eps);
    const double d = max_abs_diff(got, brute_guided_rgb(I, p, c.w, c.h, c.r, c.eps));
    INFO(c.w << "x" << c.h << " r=" << c.r << " eps=" << c.eps << ": max |diff| " << d);
    CHECK(d < 1e-9);
    // Radius 0: every window is one pixel, Sigma = 0 and cov(I, p) = 0, so a = 0, b = p, q = p.
    if (c.r == 0) CHECK(max_abs_diff(got, p) < 1e-12);
  }
}

// Identical channels I = (g, g, g): Sigma = s 1 1^T (s = var g) and cov(I, p) = c 1 (c =
// cov(g, p)). 1 is an eigenvector of Sigma + eps U with eigenvalue 3 s + eps, so
// a = c / (3 s + eps) 1 and a . I = 3 c g / (3 s + eps) = c g / (s + eps / 3): the gray filter
// of g with eps / 3 (b and the means of a and b follow term by term).
TEST_CASE("guided filter rgb cpu: identical channels = the gray filter with eps / 3") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  struct C {
    int w, h, r;
    double eps;
  };
  for (const C c : {C{19, 13, 3, 1e-4}, C{8, 5, 9, 1e-2}, C{27, 3, 1, 1e-3}}) {
    const std::size_t n = static_cast<std::size_t>(c.w) * c.h;
    Plane g(n), p(n), I;
    for (auto& v : g) v = u(rng);
    for (auto& v : p) v = u(rng);
    for (int ch = 0; ch < 3; ++ch) I.insert(I.end(), g.begin(), g.end());
    const double d = max_abs_diff(guided_filter_rgb_cpu(I, p, c.w, c.h, c.r, c.eps),
                                  guided_filter_cpu(g, p, c.w, c.h, c.r, c.eps / 3));
    INFO(c.w << "x" << c.h << " r=" << c.r << " eps=" << c.eps << ": max |diff| " << d);
    CHECK(d < 1e-9);
  }
}

TEST_CASE("guided filter rgb cpu: rejects mismatched sizes and eps <= 0") {
  const Plane I(3 * 6, 0.5), p(6, 0.5);
  CHECK_THROWS_AS(guided_filter_rgb_cpu(I, p, 3, 3, 1, 1e-3), Error);         // p is not 3 x 3
  CHECK_THROWS_AS(guided_filter_rgb_cpu(Plane(6), p, 3, 2, 1, 1e-3), Error);  // one guide plane
  CHECK_THROWS_AS(guided_filter_rgb_cpu(I, p, 3, 2, -1, 1e-3), Error);
  CHECK_THROWS_AS(guided_filter_rgb_cpu(I, p, 3, 2, 1, 0.0), Error);
  CHECK(guided_filter_rgb_cpu(I, p, 3, 2, 1, 1e-3) == p);  // constant input: a = 0, b = p exactly
}

// (Sigma + eps U)^-1 (Sigma + eps U) = U for a covariance built from random samples, in double
// and in float (the GPU's type), including a nearly singular one (proportional channels).
template <typename T>
void check_regularized_inverse(double tol) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (const double mix : {0.0, 0.9, 1.0}) {
    // 9 samples of I with channel c = mix * base + (1 - mix) * noise: its window means.
    T mean_i[gf::kChannels] = {}, mean_products[gf::kProducts] = {};
    for (int s = 0; s < 9; ++s) {
      const double base = u(rng);
      double v[3];
      for (auto& x : v) x = mix * base + (1 - mix) * u(rng);
      for (int c = 0; c < 3; ++c) mean_i[c] += static_cast<T>(v[c] / 9);
      for (int k = 0; k < gf::kProducts; ++k) {
        int i, j;
        gf::product_channels(k, i, j);
        mean_products[k] += static_cast<T>(v[i] * v[j] / 9);
      }
    }
    const T eps = static_cast<T>(1e-2);
    const gf::Sym3<T> sigma = gf::covariance(mean_i, mean_products), inv = gf::regularized_inverse(sigma, eps);
    for (int col = 0; col < 3; ++col) {
      // Column col of (Sigma + eps U), then the inverse times it: column col of U.
      T e[3];
      for (int row = 0; row < 3; ++row) {
        int lo = std::min(row, col), hi = std::max(row, col);
        const int k = lo == 0 ? hi : lo == 1 ? 2 + hi : 5;
        e[row] = sigma.m[k] + (row == col ? eps : T(0));
      }
      T back[3];
      gf::multiply(inv, e, back);
      for (int row = 0; row < 3; ++row) {
        INFO("mix " << mix << " entry (" << row << ", " << col << ")");
        CHECK(std::abs(static_cast<double>(back[row]) - (row == col ? 1.0 : 0.0)) < tol);
      }
    }
  }
}

TEST_CASE("guided filter rgb math: the regularised inverse inverts (double and float)") {
  check_regularized_inverse<double>(1e-12);
  check_regularized_inverse<float>(1e-4);
}
