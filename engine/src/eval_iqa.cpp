// Objective image-quality scores against human opinion scores (evaluation.hpp, ../shared/
// specs/evaluation.md): Pearson, Spearman (average ranks), Kendall's tau-b in O(n log n)
// (Knight 1966: a sort by (a, b), then a merge sort by b counting the swaps), the
// five-parameter logistic fitted by Levenberg-Marquardt, correlate() and its JSON.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>

#include "lightbench/evaluation.hpp"

namespace lb::eval {

namespace {

void check_pair(const std::vector<double>& a, const std::vector<double>& b, const char* who, std::size_t min_n) {
  LB_REQUIRE(a.size() == b.size(), std::string(who) + ": " + std::to_string(a.size()) + " values against " +
                                       std::to_string(b.size()));
  LB_REQUIRE(a.size() >= min_n, std::string(who) + ": needs at least " + std::to_string(min_n) + " pairs, got " +
                                    std::to_string(a.size()));
  for (std::size_t i = 0; i < a.size(); ++i)
    LB_REQUIRE(std::isfinite(a[i]) && std::isfinite(b[i]),
               std::string(who) + ": pair " + std::to_string(i) + " is not finite");
}

// z-scores (v - mean) / sd with sd the RMS deviation, safe from overflow and underflow (the
// values are divided by their largest magnitude first: 1e300 or 1e-300 scores work).
// constant: every value equal (then z is empty).
struct Standard {
  std::vector<double> z;
  double mean = 0, sd = 0;
  bool constant = true;
};
Standard standardise(const std::vector<double>& v) {
  Standard s;
  if (std::all_of(v.begin(), v.end(), [&](double x) { return x == v[0]; })) return s;
  const double n = static_cast<double>(v.size());
  double big = 0;
  for (double x : v) big = std::max(big, std::fabs(x));
  double sum = 0;
  for (double x : v) sum += x / big;
  const double m = sum / n;
  double dev = 0;
  for (double x : v) dev = std::max(dev, std::fabs(x / big - m));
  double q = 0;
  for (double x : v) q += ((x / big - m) / dev) * ((x / big - m) / dev);
  const double sd = dev * std::sqrt(q / n);  // of v / big
  s.z.resize(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) s.z[i] = (v[i] / big - m) / sd;
  s.mean = m * big;
  s.sd = sd * big;
  s.constant = false;
  return s;
}

// Pearson's r of checked input: the mean product of the z-scores. Throws when either side
// is constant (no correlation exists).
double pearson_checked(const std::vector<double>& a, const std::vector<double>& b, const char* who) {
  const Standard za = standardise(a), zb = standardise(b);
  LB_REQUIRE(!za.constant && !zb.constant, std::string(who) + ": one of the two series is constant (no correlation)");
  double sab = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sab += za.z[i] * zb.z[i];
  return std::clamp(sab / static_cast<double>(a.size()), -1.0, 1.0);  // rounding may step past +-1
}

// Ranks 1..n, tied values sharing the mean of their ranks.
std::vector<double> average_ranks(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return v[i] < v[j]; });
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1;
    while (j < order.size() && v[order[j]] == v[order[i]]) ++j;
    const double rank = 0.5 * static_cast<double>(i + 1 + j);  // mean of i+1 .. j
    for (std::size_t k = i; k < j; ++k) r[order[k]] = rank;
    i = j;
  }
  return r;
}

// Pairs tied within runs of equal values of a sorted sequence: sum of t (t - 1) / 2.
template <class Eq>
std::uint64_t tied_pairs(std::size_t n, Eq equal) {
  std::uint64_t ties = 0, run = 1;
  for (std::size_t i = 1; i <= n; ++i) {
    if (i < n && equal(i - 1, i)) {
      ++run;
    } else {
      ties += run * (run - 1) / 2;
      run = 1;
    }
  }
  return ties;
}

// Sorts v[lo, hi) ascending and returns the number of swaps an exchange sort would make
// (the discordant pairs once the sequence is ordered by the other variable).
std::uint64_t merge_count(std::vector<double>& v, std::vector<double>& tmp, std::size_t lo, std::size_t hi) {
  if (hi - lo < 2) return 0;
  const std::size_t mid = lo + (hi - lo) / 2;
  std::uint64_t swaps = merge_count(v, tmp, lo, mid) + merge_count(v, tmp, mid, hi);
  std::size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    if (v[j] < v[i]) {
      swaps += mid - i;  // v[j] jumps over every remaining element of the left half
      tmp[k++] = v[j++];
    } else {
      tmp[k++] = v[i++];
    }
  }
  while (i < mid) tmp[k++] = v[i++];
  while (j < hi) tmp[k++] = v[j++];
  std::copy(tmp.begin() + static_cast<std::ptrdiff_t>(lo), tmp.begin() + static_cast<std::ptrdiff_t>(hi),
            v.begin() + static_cast<std::ptrdiff_t>(lo));
  return swaps;
}

}  // namespace

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  check_pair(a, b, "pearson", 2);
  return pearson_checked(a, b, "pearson");
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  check_pair(a, b, "spearman", 2);
  return pearson_checked(average_ranks(a), average_ranks(b), "spearman");
}

double kendall_tau_b(const std::vector<double>& a, const std::vector<double>& b) {
  check_pair(a, b, "kendall", 2);
  const std::size_t n = a.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t i, std::size_t j) { return a[i] < a[j] || (a[i] == a[j] && b[i] < b[j]); });
  std::vector<double> bs(n);
  for (std::size_t i = 0; i < n; ++i) bs[i] = b[order[i]];
  // Ties in a, and joint ties in (a, b), along the order sorted by (a, b).
  const std::uint64_t ta = tied_pairs(n, [&](std::size_t i, std::size_t j) { return a[order[i]] == a[order[j]]; });
  const std::uint64_t tab = tied_pairs(
      n, [&](std::size_t i, std::size_t j) { return a[order[i]] == a[order[j]] && bs[i] == bs[j]; });
  // Within a run of equal a, b is already ascending: the merge sort counts no swap there, so
  // the swaps are exactly the discordant pairs.
  std::vector<double> tmp(n);
  const std::uint64_t discordant = merge_count(bs, tmp, 0, n);
  const std::uint64_t tb = tied_pairs(n, [&](std::size_t i, std::size_t j) { return bs[i] == bs[j]; });
  const std::uint64_t total = static_cast<std::uint64_t>(n) * (n - 1) / 2;
  LB_REQUIRE(total > ta && total > tb, "kendall: one of the two series is constant (no correlation)");
  // concordant - discordant = total - ta - tb + tab - 2 discordant (exact in integers).
  const double num = static_cast<double>(total) - static_cast<double>(ta) - static_cast<double>(tb) +
                     static_cast<double>(tab) - 2.0 * static_cast<double>(discordant);
  const double den = std::sqrt(static_cast<double>(total - ta)) * std::sqrt(static_cast<double>(total - tb));
  return std::clamp(num / den, -1.0, 1.0);
}

// ---- the logistic -------------------------------------------------------------------------
double Logistic5::operator()(double x) const {
  return b[0] * (0.5 - 1.0 / (1.0 + std::exp(b[1] * (x - b[2])))) + b[3] * x + b[4];
}

namespace {

// q and its gradient in the parameters. With s = 1 / (1 + exp(b2 (x - b3))):
// dq/db1 = 1/2 - s, dq/db2 = b1 s (1 - s) (x - b3), dq/db3 = -b1 b2 s (1 - s), dq/db4 = x,
// dq/db5 = 1. (exp overflowing to inf gives s = 0, the right limit.)
double model(const double* c, double x, double* grad) {
  const double s = 1.0 / (1.0 + std::exp(c[1] * (x - c[2])));
  const double ds = s * (1.0 - s);
  grad[0] = 0.5 - s;
  grad[1] = c[0] * ds * (x - c[2]);
  grad[2] = -c[0] * c[1] * ds;
  grad[3] = x;
  grad[4] = 1.0;
  return c[0] * (0.5 - s) + c[3] * x + c[4];
}

double sse(const double* c, const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0, g[5];
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - model(c, x[i], g);
    s += r * r;
  }
  return s;
}

// Solves the 5x5 system A z = v by Gaussian elimination with partial pivoting; false when
// singular.
bool solve5(double A[5][5], double v[5], double z[5]) {
  for (int col = 0; col < 5; ++col) {
    int piv = col;
    for (int r = col + 1; r < 5; ++r)
      if (std::fabs(A[r][col]) > std::fabs(A[piv][col])) piv = r;
    if (!(std::fabs(A[piv][col]) > 0)) return false;
    std::swap(A[piv], A[col]);
    std::swap(v[piv], v[col]);
    for (int r = col + 1; r < 5; ++r) {
      const double f = A[r][col] / A[col][col];
      for (int k = col; k < 5; ++k) A[r][k] -= f * A[col][k];
      v[r] -= f * v[col];
    }
  }
  for (int r = 4; r >= 0; --r) {
    double s = v[r];
    for (int k = r + 1; k < 5; ++k) s -= A[r][k] * z[k];
    z[r] = s / A[r][r];
  }
  for (int k = 0; k < 5; ++k)
    if (!std::isfinite(z[k])) return false;
  return true;
}

struct Fit {
  double c[5];
  double sse;
  bool converged;
};

// Levenberg-Marquardt (Marquardt's scaling: lambda times the diagonal of J^T J) from c0.
// Converged, before the iteration limit: three accepted steps in a row that each lower the
// residual by a relative 1e-10 or less, a vanishing gradient, or no step lowering it at all.
Fit levenberg_marquardt(const double* c0, const std::vector<double>& x, const std::vector<double>& y) {
  Fit f;
  std::copy(c0, c0 + 5, f.c);
  f.sse = sse(f.c, x, y);
  f.converged = false;
  double lambda = 1e-3;
  int flat = 0;  // accepted steps in a row that barely lowered the residual
  for (int it = 0; it < 400 && std::isfinite(f.sse); ++it) {
    double JtJ[5][5] = {}, Jtr[5] = {}, g[5];
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double r = y[i] - model(f.c, x[i], g);
      for (int p = 0; p < 5; ++p) {
        Jtr[p] += g[p] * r;
        for (int q = p; q < 5; ++q) JtJ[p][q] += g[p] * g[q];
      }
    }
    for (int p = 0; p < 5; ++p)
      for (int q = 0; q < p; ++q) JtJ[p][q] = JtJ[q][p];  // symmetric
    double gmax = 0, dmax = 0;
    for (int p = 0; p < 5; ++p) gmax = std::max(gmax, std::fabs(Jtr[p])), dmax = std::max(dmax, JtJ[p][p]);
    if (gmax <= 1e-15 * (1.0 + f.sse)) {
      f.converged = true;
      break;
    }
    bool improved = false;
    while (lambda < 1e16) {
      double A[5][5], v[5], z[5], trial[5];
      for (int p = 0; p < 5; ++p) {
        for (int q = 0; q < 5; ++q) A[p][q] = JtJ[p][q];
        // The floor keeps a direction with no gradient (b1 = 0 makes b2, b3 inert) solvable.
        A[p][p] += lambda * std::max(JtJ[p][p], 1e-12 * (dmax > 0 ? dmax : 1.0));
        v[p] = Jtr[p];
      }
      if (solve5(A, v, z)) {
        for (int p = 0; p < 5; ++p) trial[p] = f.c[p] + z[p];
        const double s = sse(trial, x, y);
        if (std::isfinite(s) && s <= f.sse) {
          const double drop = f.sse - s;
          std::copy(trial, trial + 5, f.c);
          f.sse = s;
          lambda = std::max(lambda / 10.0, 1e-12);
          improved = true;
          flat = drop <= 1e-10 * s ? flat + 1 : 0;
          if (flat >= 3 || s == 0.0) f.converged = true;
          break;
        }
      }
      lambda *= 10.0;
    }
    if (!improved) {  // no step lowers the residual: a minimum to working precision
      f.converged = true;
      break;
    }
    if (f.converged) break;
  }
  return f;
}

double median(std::vector<double> v) {
  const std::size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h), v.end());
  double m = v[h];
  if (v.size() % 2 == 0) m = 0.5 * (m + *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(h)));
  return m;
}

}  // namespace

Logistic5 fit_logistic5(const std::vector<double>& x_in, const std::vector<double>& y_in) {
  check_pair(x_in, y_in, "logistic fit", 5);
  // Fit in standardised units (x' = (x - mx) / sx, y' = (y - my) / sy) so that one set of
  // starts and tolerances suits scores of any scale; the parameters map back exactly.
  const Standard zx = standardise(x_in), zy = standardise(y_in);
  LB_REQUIRE(!zx.constant && !zy.constant, "logistic fit: the scores or the opinion scores are constant");
  const double mx = zx.mean, my = zy.mean, sx = zx.sd, sy = zy.sd;
  LB_REQUIRE(std::isfinite(mx) && std::isfinite(my) && std::isfinite(sx) && std::isfinite(sy),
             "logistic fit: the scores are too large to fit (their mean or spread overflows)");
  const std::vector<double>& x = zx.z;
  const std::vector<double>& y = zy.z;
  double sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sxy += x[i] * y[i];

  // Starts: b1 = the spread of y, b2 of the relation's sign and a few steepnesses (x' has
  // unit spread), b3 = median x, b4 = 0, b5 = mean y (0 here). The lowest residual wins.
  const auto [ylo, yhi] = std::minmax_element(y.begin(), y.end());
  const double sign = sxy < 0 ? -1.0 : 1.0;
  const double x3 = median(x);
  Fit best{{0, 0, 0, 0, 0}, HUGE_VAL, false};
  for (double steep : {1.0, 3.0, 0.3, 10.0}) {
    const double c0[5] = {*yhi - *ylo, sign * steep, x3, 0.0, 0.0};
    const Fit f = levenberg_marquardt(c0, x, y);
    if (f.sse < best.sse) best = f;
  }
  LB_REQUIRE(std::isfinite(best.sse), "logistic fit: no start gave a finite residual");
  const double* c = best.c;
  Logistic5 r;
  r.b[0] = sy * c[0];
  r.b[1] = c[1] / sx;
  r.b[2] = mx + sx * c[2];
  r.b[3] = sy * c[3] / sx;
  r.b[4] = my + sy * (c[4] - c[3] * mx / sx);
  r.converged = best.converged;
  for (double v : r.b) LB_REQUIRE(std::isfinite(v), "logistic fit: the parameters are not finite (scores out of range)");
  return r;
}

IqaCorrelation correlate(const std::vector<double>& objective, const std::vector<double>& mos) {
  check_pair(objective, mos, "correlate", 5);
  const auto [olo, ohi] = std::minmax_element(objective.begin(), objective.end());
  const auto [mlo, mhi] = std::minmax_element(mos.begin(), mos.end());
  LB_REQUIRE(*olo < *ohi, "correlate: every objective score is the same (" + std::to_string(*olo) + ")");
  LB_REQUIRE(*mlo < *mhi, "correlate: every opinion score is the same (" + std::to_string(*mlo) + ")");
  IqaCorrelation c;
  c.n = objective.size();
  c.srocc = spearman(objective, mos);
  c.krocc = kendall_tau_b(objective, mos);
  c.fit = fit_logistic5(objective, mos);
  std::vector<double> mapped(objective.size());
  for (std::size_t i = 0; i < mapped.size(); ++i) mapped[i] = c.fit(objective[i]);
  const auto [plo, phi] = std::minmax_element(mapped.begin(), mapped.end());
  // The fit follows the data, so pearson(mos, fit) is >= 0; the sign of the relation
  // (srocc's) is put back so that a distortion measure reads negative against MOS.
  const double r = *plo < *phi ? pearson(mos, mapped) : 0.0;
  c.plcc = c.srocc < 0 ? -std::fabs(r) : std::fabs(r);
  return c;
}

nlohmann::json to_json(const IqaCorrelation& c) {
  return {{"srocc", c.srocc},
          {"krocc", c.krocc},
          {"plcc", c.plcc},
          {"n", c.n},
          {"logistic", {c.fit.b[0], c.fit.b[1], c.fit.b[2], c.fit.b[3], c.fit.b[4]}},
          {"logistic_converged", c.fit.converged}};
}

}  // namespace lb::eval
