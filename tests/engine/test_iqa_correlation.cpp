// Objective scores against human scores (evaluation.hpp): Pearson, Spearman with tied
// ranks, Kendall's tau-b, the five-parameter logistic and correlate(), against values worked
// out by hand (the examples of scipy.stats' documentation, recomputed below) and brute force.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lightbench/evaluation.hpp"

using namespace lb;
using namespace lb::eval;

namespace {

// Kendall's tau-b by its definition over all pairs, O(n^2).
double brute_tau_b(const std::vector<double>& a, const std::vector<double>& b) {
  double c = 0, d = 0, ta = 0, tb = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      const double s = (a[i] - a[j]) * (b[i] - b[j]);
      if (a[i] == a[j] && b[i] == b[j]) continue;  // tied on both: in neither denominator term
      if (a[i] == a[j]) ++ta;
      else if (b[i] == b[j]) ++tb;
      else if (s > 0) ++c;
      else ++d;
    }
  // n0 - n1 = pairs not tied in a = c + d + tb; n0 - n2 = c + d + ta.
  return (c - d) / std::sqrt((c + d + tb) * (c + d + ta));
}

void check_one_line_error(const std::vector<double>& x, const std::vector<double>& y, const char* what) {
  try {
    (void)correlate(x, y);
    FAIL("no error for " << what);
  } catch (const Error& e) {
    const std::string m = e.what();
    CHECK(m.find('\n') == std::string::npos);
    CHECK(m.find("correlate") != std::string::npos);
  }
}

}  // namespace

TEST_CASE("pearson and spearman by hand, ties by average ranks") {
  // a dev -2 -1 0 1 2, b = 2 4 5 4 5 dev -2 0 1 0 1: r = 6 / sqrt(10 * 6).
  CHECK(pearson({1, 2, 3, 4, 5}, {2, 4, 5, 4, 5}) == doctest::Approx(6.0 / std::sqrt(60.0)).epsilon(1e-14));
  CHECK(pearson({1, 2, 3}, {6, 4, 2}) == doctest::Approx(-1.0));
  // scipy.stats.spearmanr([1,2,3,4,5], [5,6,7,8,7]) = 0.8207826816681233: ranks of b are
  // 1 2 3.5 5 3.5 (the two 7s share (3 + 4) / 2), dev -2 -1 .5 2 .5 against -2 -1 0 1 2:
  // r = 8 / sqrt(10 * 9.5).
  CHECK(spearman({1, 2, 3, 4, 5}, {5, 6, 7, 8, 7}) == doctest::Approx(8.0 / std::sqrt(95.0)).epsilon(1e-14));
  CHECK(spearman({1, 2, 3, 4, 5}, {5, 6, 7, 8, 7}) == doctest::Approx(0.8207826816681233).epsilon(1e-14));
  // No ties: 1 - 6 sum d^2 / (n (n^2 - 1)); ranks of b: 2 1 4 3 5, d^2 sum 4: 1 - 24 / 120.
  CHECK(spearman({10, 20, 30, 40, 50}, {0.2, 0.1, 0.9, 0.3, 1.0}) == doctest::Approx(0.8));
  // Monotone but not linear: spearman 1, pearson below 1.
  CHECK(spearman({1, 2, 3, 4}, {1, 10, 100, 1000}) == doctest::Approx(1.0));
  CHECK(pearson({1, 2, 3, 4}, {1, 10, 100, 1000}) < 0.9);
  // Any scale: the sums of squares of 1e300 or 1e-300 scores would overflow or underflow.
  CHECK(pearson({1e300, 2e300, 3e300, 4e300, 5e300}, {2, 4, 5, 4, 5}) == doctest::Approx(6.0 / std::sqrt(60.0)));
  CHECK(pearson({1e-300, 2e-300, 3e-300, 4e-300, 5e-300}, {2, 4, 5, 4, 5}) == doctest::Approx(6.0 / std::sqrt(60.0)));
  CHECK_THROWS_AS(pearson({1, 2}, {1, 2, 3}), Error);
  CHECK_THROWS_AS(pearson({1}, {1}), Error);
  CHECK_THROWS_WITH_AS(pearson({1, 1, 1}, {1, 2, 3}), doctest::Contains("constant"), Error);
  CHECK_THROWS_WITH_AS(spearman({1, 2, std::nan("")}, {1, 2, 3}), doctest::Contains("not finite"), Error);
}

TEST_CASE("kendall tau-b by hand and against all pairs") {
  // scipy.stats.kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) = -0.47140452079103173.
  // Pairs: concordant (0,4) (3,4); discordant (0,1) (0,2) (1,2) (1,3) (2,3) (2,4); (0,3)
  // tied in both, (1,4) tied in a only. n0 = 10, n1 = 2 (ties in a), n2 = 1 (in b):
  // (2 - 6) / sqrt((10 - 2) (10 - 1)) = -4 / sqrt(72).
  const std::vector<double> x1 = {12, 2, 1, 12, 2}, x2 = {1, 4, 7, 1, 0};
  CHECK(kendall_tau_b(x1, x2) == doctest::Approx(-4.0 / std::sqrt(72.0)).epsilon(1e-14));
  CHECK(kendall_tau_b(x1, x2) == doctest::Approx(-0.47140452079103173).epsilon(1e-14));
  CHECK(kendall_tau_b(x2, x1) == doctest::Approx(-4.0 / std::sqrt(72.0)).epsilon(1e-14));  // symmetric
  // No ties: 5 concordant of 6 less 1 discordant over 6.
  CHECK(kendall_tau_b({1, 2, 3, 4}, {1, 3, 2, 4}) == doctest::Approx(4.0 / 6.0));
  CHECK(kendall_tau_b({1, 2, 3, 4}, {4, 3, 2, 1}) == doctest::Approx(-1.0));
  CHECK_THROWS_WITH_AS(kendall_tau_b({2, 2, 2}, {1, 2, 3}), doctest::Contains("constant"), Error);
  // Random, with many ties on both sides and odd sizes: the O(n log n) count is exact.
  std::mt19937 rng(5);
  for (int n : {2, 3, 17, 200, 1001}) {
    std::vector<double> a(n), b(n);
    for (int i = 0; i < n; ++i) {
      a[i] = static_cast<double>(rng() % 7);
      b[i] = static_cast<double>(rng() % 5) + (i % 3 == 0 ? 0.5 * a[i] : 0.0);
    }
    a[0] = 0, a[1] = 1, b[0] = 0, b[1] = 1;  // not constant
    CAPTURE(n);
    CHECK(kendall_tau_b(a, b) == doctest::Approx(brute_tau_b(a, b)).epsilon(1e-12));
  }
}

TEST_CASE("logistic5: the fit recovers known parameters from q(x) + tiny noise") {
  struct Case {
    double b[5];
    double x0, x1;
  };
  // Increasing (a PSNR-like score), and decreasing (a distortion such as MAD, 0..200).
  for (const Case c : {Case{{3.0, 1.5, 4.0, 0.05, 2.0}, 0.0, 10.0}, Case{{4.0, -0.06, 80.0, -0.002, 5.0}, 0.0, 200.0},
                       Case{{-2.0, 8.0, 0.5, 0.3, 0.0}, 0.0, 1.0}}) {
    Logistic5 want;
    for (int k = 0; k < 5; ++k) want.b[k] = c.b[k];
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> ux(c.x0, c.x1);
    std::normal_distribution<double> noise(0.0, 1e-7);
    std::vector<double> x(300), y(300);
    for (int i = 0; i < 300; ++i) x[i] = ux(rng), y[i] = want(x[i]) + noise(rng);
    const Logistic5 f = fit_logistic5(x, y);
    CAPTURE(c.b[1]);
    CHECK(f.converged);
    // (b1, b2) and (-b1, -b2) give the same curve: compare in want's orientation.
    const double s = f.b[0] * c.b[0] < 0 ? -1.0 : 1.0;
    const double got[5] = {s * f.b[0], s * f.b[1], f.b[2], f.b[3], f.b[4]};
    for (int k = 0; k < 5; ++k) {
      CAPTURE(k);
      CAPTURE(got[k]);
      CHECK(std::fabs(got[k] - c.b[k]) <= 1e-4 * std::max(std::fabs(c.b[k]), 1e-2));  // relative (b5 = 0: 1e-6)
    }
    for (double xv = c.x0; xv <= c.x1; xv += (c.x1 - c.x0) / 16) CHECK(f(xv) == doctest::Approx(want(xv)).epsilon(1e-5));
  }
  // q by its formula: b1 (1/2 - 1 / (1 + exp(b2 (x - b3)))) + b4 x + b5; at x = b3 the
  // logistic term is 0.
  Logistic5 q;
  q.b[0] = 2, q.b[1] = 1, q.b[2] = 3, q.b[3] = 0.5, q.b[4] = 1;
  CHECK(q(3.0) == doctest::Approx(2.5));
  CHECK(q(3.0 + std::log(3.0)) == doctest::Approx(2 * (0.5 - 0.25) + 0.5 * (3.0 + std::log(3.0)) + 1));
  CHECK(std::isfinite(q(1e6)));   // exp overflows to inf: the limit, not NaN
  CHECK(std::isfinite(q(-1e6)));
  CHECK_THROWS_AS(fit_logistic5({1, 2, 3, 4}, {1, 2, 3, 4}), Error);  // fewer than 5
}

TEST_CASE("correlate: signed values, JSON keys, refusals in one line") {
  // A distortion measure (higher = worse) against MOS: all three correlations negative.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> ux(0.0, 150.0);
  std::normal_distribution<double> noise(0.0, 0.15);
  std::vector<double> mad(400), mos(400);
  for (int i = 0; i < 400; ++i) {
    mad[i] = ux(rng);
    mos[i] = 7.0 - 6.0 / (1.0 + std::exp(-0.05 * (mad[i] - 70.0))) + noise(rng);
  }
  const IqaCorrelation c = correlate(mad, mos);
  CHECK(c.n == 400);
  CHECK(c.srocc < -0.9);
  CHECK(c.krocc < -0.7);
  CHECK(c.plcc < -0.95);
  CHECK(c.srocc == doctest::Approx(spearman(mad, mos)));
  CHECK(c.krocc == doctest::Approx(kendall_tau_b(mad, mos)));
  std::vector<double> mapped(400);
  for (int i = 0; i < 400; ++i) mapped[i] = c.fit(mad[i]);
  CHECK(-c.plcc == doctest::Approx(pearson(mos, mapped)));
  // The logistic beats a straight line on a logistic relation.
  CHECK(-c.plcc > -pearson(mad, mos));
  // The increasing mirror: same magnitudes, positive.
  std::vector<double> neg(400);
  for (int i = 0; i < 400; ++i) neg[i] = -mad[i];
  const IqaCorrelation p = correlate(neg, mos);
  CHECK(p.srocc == doctest::Approx(-c.srocc));
  CHECK(p.plcc == doctest::Approx(-c.plcc).epsilon(1e-6));

  const nlohmann::json j = to_json(c);
  for (const char* k : {"srocc", "krocc", "plcc", "n", "logistic", "logistic_converged"}) CHECK(j.contains(k));
  CHECK(j["logistic"].size() == 5);
  CHECK(j["n"] == 400);
  CHECK(j["plcc"].get<double>() == c.plcc);

  // Tiny and huge scores are fitted like any other (standardised first).
  for (double scale : {1e-300, 1e300}) {
    std::vector<double> tiny(400);
    for (int i = 0; i < 400; ++i) tiny[i] = mad[i] * scale;
    const IqaCorrelation t = correlate(tiny, mos);
    CAPTURE(scale);
    CHECK(t.srocc == c.srocc);
    CHECK(t.plcc == doctest::Approx(c.plcc).epsilon(1e-6));
  }

  check_one_line_error({1, 2, 3, 4}, {1, 2, 3, 4}, "4 pairs");
  check_one_line_error({1, 2, 3, 4, 5}, {1, 2, 3, 4}, "mismatched sizes");
  check_one_line_error({2, 2, 2, 2, 2}, {1, 2, 3, 4, 5}, "constant objective scores");
  check_one_line_error({1, 2, 3, 4, 5}, {3, 3, 3, 3, 3}, "constant MOS");
  check_one_line_error({1, 2, std::numeric_limits<double>::infinity(), 4, 5}, {1, 2, 3, 4, 5}, "an infinite score");
  check_one_line_error({1, 2, 3, 4, 5}, {1, 2, std::nan(""), 4, 5}, "a NaN MOS");
}
