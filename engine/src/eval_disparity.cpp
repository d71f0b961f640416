// Disparity maps scored by a benchmark's protocol (evaluation.hpp, ../shared/specs/
// evaluation.md): Middlebury v3, KITTI D1, HCI, the percentile rule and evaluate().
// The per-pixel predicates (known truth, invalid estimate, e = |d - g|, bad, KITTI outlier)
// are stereo_score_math.hpp's and hci_math.hpp's, the ones the runners' scores and the CUDA
// scorer use: one definition each.
//
// Speed: one pass per mask writes the valid errors into one float buffer; the percentiles
// are then successive selections on the part above the previous one (no sort).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "lightbench/evaluation.hpp"
#include "lightbench/hci_math.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/stereo_score_math.hpp"

namespace lb::eval {

namespace sc = stereo::scoring;

const char* to_string(Protocol p) {
  switch (p) {
    case Protocol::Middlebury2003: return "middlebury2003";
    case Protocol::MiddleburyV3: return "middlebury-v3";
    case Protocol::Kitti: return "kitti";
    case Protocol::Hci: return "hci";
  }
  return "unknown";
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string size_of(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

void check_map(const ImageF& d, const ImageF& g, const char* who) {
  LB_REQUIRE(!g.empty() && g.channels == 1, std::string(who) + ": the truth must be one non-empty channel");
  LB_REQUIRE(!d.empty() && d.channels == 1, std::string(who) + ": the disparity map must be one non-empty channel");
  LB_REQUIRE(d.width == g.width && d.height == g.height, std::string(who) + ": the disparity map is " +
                                                             size_of(d.width, d.height) + " but the truth is " +
                                                             size_of(g.width, g.height));
}

void check_mask(const ImageU8& m, const ImageF& g, const char* who, const char* what) {
  LB_REQUIRE(m.empty() || (m.width == g.width && m.height == g.height),
             std::string(who) + ": " + what + " is " + size_of(m.width, m.height) + " but the truth is " +
                 size_of(g.width, g.height));
}

double percent(std::uint64_t k, std::uint64_t n) {
  return n ? 100.0 * static_cast<double>(k) / static_cast<double>(n) : kNaN;
}

// Index of the P-th percentile among n values: ceil(P/100 n) - 1. p * n is exact (an integer
// times a small integer), and a quotient that is not an integer lies >= 1/100 from one, so
// the division's rounding cannot move the ceiling (n < 2^40).
std::size_t percentile_index(double p, std::size_t n) {
  const double k = std::ceil(p * static_cast<double>(n) / 100.0);
  if (k < 1.0) return 0;
  return std::min(static_cast<std::size_t>(k) - 1, n - 1);
}

void check_p(double p) {
  LB_REQUIRE(p > 0.0 && p <= 100.0, "percentile: P must be in (0, 100], got " + std::to_string(p));
}

// The k-th smallest of v[0..n) for each of the ascending ranks ks[0..count), by successive
// selections, each on the part above the previous one (whose elements are all >= it).
void select_successive(float* v, std::size_t n, const std::size_t* ks, float* out, int count) {
  std::size_t lo = 0;
  for (int i = 0; i < count; ++i) {
    if (i == 0 || ks[i] != ks[i - 1]) {
      std::nth_element(v + lo, v + ks[i], v + n);
      lo = ks[i] + 1;
    }
    out[i] = v[ks[i]];
  }
}

// The same selections for a large n: the errors are >= 0 floats, whose bit patterns sort
// like their values, so one histogram of the top 16 bits finds the bin holding each rank;
// only those bins' elements are gathered and selected (nth_element) at the rank left inside
// the bin. Two sequential passes instead of nth_element over the whole buffer: evaluate()
// of a 2964x1988 v3 map went from 148 to 73 ms on one core (bench/eval, lb_bench_eval).
void select_binned(const float* v, std::size_t n, const std::size_t* ks, float* out, int count) {
  constexpr int kBins = 1 << 16;
  const auto key = [](float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u >> 16;
  };
  std::vector<std::uint32_t> hist(kBins, 0);
  for (std::size_t i = 0; i < n; ++i) ++hist[key(v[i])];
  std::uint32_t bin[4] = {0, 0, 0, 0};
  std::size_t below[4] = {0, 0, 0, 0};
  std::size_t acc = 0;
  int t = 0;
  for (std::uint32_t b = 0; b < static_cast<std::uint32_t>(kBins) && t < count; ++b) {
    while (t < count && ks[t] < acc + hist[b]) bin[t] = b, below[t] = acc, ++t;
    acc += hist[b];
  }
  // slot[bin] = 1 + the first target of that bin (which holds its elements), 0 for the rest:
  // one table look-up per element, the branch almost always not taken.
  std::vector<std::uint8_t> slot(kBins, 0);
  std::vector<float> part[4];
  std::size_t fill[4] = {0, 0, 0, 0};
  for (int i = 0; i < count; ++i)
    if (i == 0 || bin[i] != bin[i - 1]) {
      slot[bin[i]] = static_cast<std::uint8_t>(i + 1);
      part[i].resize(hist[bin[i]]);
    }
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t o = slot[key(v[i])];
    if (o != 0) part[o - 1][fill[o - 1]++] = v[i];
  }
  for (int i = 0, owner = 0; i < count; ++i) {
    if (i > 0 && bin[i] != bin[i - 1]) owner = i;
    std::vector<float>& p = part[owner];
    const auto r = static_cast<std::ptrdiff_t>(ks[i] - below[i]);
    std::nth_element(p.begin(), p.begin() + r, p.end());  // earlier ranks of the bin: still exact
    out[i] = p[static_cast<std::size_t>(r)];
  }
}

// Percentiles ps[0] <= ps[1] <= ... (at most 4) of v[0..n) (>= 0 values) into out, NaN when
// n = 0. v may be reordered.
void percentiles(float* v, std::size_t n, const double* ps, double* out, int count) {
  std::size_t ks[4];
  float got[4];
  for (int i = 0; i < count; ++i) {
    check_p(ps[i]);
    if (n == 0) out[i] = kNaN;
    else ks[i] = percentile_index(ps[i], n);
  }
  if (n == 0) return;
  if (n < (std::size_t{1} << 18)) select_successive(v, n, ks, got, count);
  else select_binned(v, n, ks, got, count);
  for (int i = 0; i < count; ++i) out[i] = static_cast<double>(got[i]);
}

// A float buffer without the zero fill (written before it is read).
std::unique_ptr<float[]> buffer(std::size_t n) { return std::unique_ptr<float[]>(new float[n > 0 ? n : 1]); }

}  // namespace

double percentile(std::vector<float>& values, double p) {
  check_p(p);
  LB_REQUIRE(!values.empty(), "percentile: no value");
  for (float v : values) LB_REQUIRE(!std::isnan(v), "percentile: a value is NaN (no order)");
  float out = 0;
  const std::size_t k = percentile_index(p, values.size());
  select_successive(values.data(), values.size(), &k, &out, 1);
  return static_cast<double>(out);
}

// ---- Middlebury v3 ----------------------------------------------------------------------
MiddleburyV3 middlebury_v3(const ImageF& d, const ImageF& g, const ImageU8& mask) {
  check_map(d, g, "middlebury v3");
  check_mask(mask, g, "middlebury v3", "the mask");
  const std::size_t total = g.pixels();
  const float* dp = d.data.data();
  const float* gp = g.data.data();
  const std::uint8_t* mp = mask.empty() ? nullptr : mask.data.data();
  const std::size_t mc = mask.empty() ? 0 : static_cast<std::size_t>(mask.channels);
  const std::unique_ptr<float[]> err = buffer(total);
  std::uint64_t n = 0, bad[4] = {0, 0, 0, 0}, valid = 0;
  double sum = 0.0, sum2 = 0.0;
  for (std::size_t i = 0; i < total; ++i) {
    if (mp && !sc::selected(mp[i * mc])) continue;
    const float gv = gp[i];
    if (!sc::known(gv)) continue;
    const float dv = dp[i];
    ++n;
    // wrong() is the runners' bad-pixel rule (an invalid estimate is bad at every threshold).
    bad[0] += sc::wrong(dv, gv, 0.5);
    bad[1] += sc::wrong(dv, gv, 1.0);
    bad[2] += sc::wrong(dv, gv, 2.0);
    bad[3] += sc::wrong(dv, gv, 4.0);
    if (sc::invalid(dv)) continue;
    const double e = sc::abs_error(dv, gv);
    sum += e;
    sum2 += e * e;
    err[valid++] = static_cast<float>(e);
  }
  MiddleburyV3 r;
  r.pixels = n;
  r.bad050 = percent(bad[0], n);
  r.bad100 = percent(bad[1], n);
  r.bad200 = percent(bad[2], n);
  r.bad400 = percent(bad[3], n);
  r.invalid = percent(n - valid, n);
  r.avgerr = valid ? sum / static_cast<double>(valid) : kNaN;
  r.rms = valid ? std::sqrt(sum2 / static_cast<double>(valid)) : kNaN;
  const double ps[4] = {50, 90, 95, 99};
  double a[4];
  percentiles(err.get(), valid, ps, a, 4);
  r.a50 = a[0], r.a90 = a[1], r.a95 = a[2], r.a99 = a[3];
  return r;
}

// ---- KITTI ------------------------------------------------------------------------------
namespace {

struct KittiCounts {
  std::uint64_t pixels = 0, outliers = 0, invalid = 0;
  void add(bool outlier, bool inv) {
    ++pixels;
    outliers += outlier;
    invalid += inv;
  }
  KittiD1 finish() const {
    KittiD1 k;
    k.pixels = pixels;
    k.outliers = outliers;
    k.d1 = percent(outliers, pixels);
    k.invalid = percent(invalid, pixels);
    return k;
  }
};

// One pass over the known truth inside `region` (255 = counted; empty = every pixel): every
// pixel, and when obj_map is given its foreground (> 0) and background (== 0).
void kitti_pass(const ImageF& d, const ImageF& g, const ImageU8& region, const ImageU8& obj, KittiCounts& all,
                KittiCounts& fg, KittiCounts& bg) {
  const std::size_t rc = region.empty() ? 0 : static_cast<std::size_t>(region.channels);
  const std::size_t oc = obj.empty() ? 0 : static_cast<std::size_t>(obj.channels);
  for (std::size_t i = 0; i < g.pixels(); ++i) {
    if (rc && !sc::selected(region.data[i * rc])) continue;
    const float gv = g.data[i];
    if (!sc::known(gv)) continue;
    const float dv = d.data[i];
    const bool out = sc::kitti_outlier(dv, gv), inv = sc::invalid(dv);
    all.add(out, inv);
    if (oc) (obj.data[i * oc] > 0 ? fg : bg).add(out, inv);
  }
}

}  // namespace

KittiD1 kitti_d1(const ImageF& d, const ImageF& g, const ImageU8& select, bool foreground) {
  check_map(d, g, "kitti");
  check_mask(select, g, "kitti", "the object map");
  KittiCounts all, fg, bg;
  kitti_pass(d, g, ImageU8{}, select, all, fg, bg);
  if (select.empty()) return all.finish();
  return (foreground ? fg : bg).finish();
}

// ---- HCI --------------------------------------------------------------------------------
HciMetrics hci_metrics(const ImageF& d, const ImageF& g, int border) {
  check_map(d, g, "hci");
  LB_REQUIRE(border >= 0, "hci: border must be >= 0, got " + std::to_string(border));
  // hci::accumulate is the runners' (and the CUDA scorer's) rule; the valid errors are kept
  // for the quartile.
  hci::Sums sums;
  const std::unique_ptr<float[]> err = buffer(g.pixels());
  std::size_t valid = 0;
  for (int y = border; y < g.height - border; ++y)
    for (int x = border; x < g.width - border; ++x) {
      const float dv = d.at(x, y), gv = g.at(x, y);
      hci::accumulate(sums, dv, gv);
      if (hci::finite(gv) && !hci::invalid(dv)) err[valid++] = static_cast<float>(hci::abs_error(dv, gv));
    }
  const HciScore s = hci::finish(sums, border);  // throws when nothing was evaluated
  HciMetrics r;
  r.pixels = s.pixels;
  r.badpix_007 = s.badpix_007;
  r.badpix_003 = s.badpix_003;
  r.badpix_001 = s.badpix_001;
  r.mse_x100 = s.mse_x100;
  r.invalid = percent(s.invalid, s.pixels);
  const double p25 = 25.0;
  double q = kNaN;
  percentiles(err.get(), valid, &p25, &q, 1);
  r.q25 = 100.0 * q;
  return r;
}

// ---- evaluate ---------------------------------------------------------------------------
namespace {

// A value, or null for NaN (a statistic over no pixel): explicit in the document itself,
// not only in its text (nlohmann keeps a NaN number and writes it as null).
nlohmann::json num(double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

nlohmann::json to_json(const MiddleburyV3& m) {
  return {{"bad050", num(m.bad050)}, {"bad100", num(m.bad100)}, {"bad200", num(m.bad200)},
          {"bad400", num(m.bad400)}, {"invalid", num(m.invalid)}, {"avgerr", num(m.avgerr)},
          {"rms", num(m.rms)},       {"a50", num(m.a50)},         {"a90", num(m.a90)},
          {"a95", num(m.a95)},       {"a99", num(m.a99)},         {"pixels", m.pixels}};
}

nlohmann::json to_json(const stereo::BadPixels& b) { return {{"bad100", b.percent}, {"pixels", b.pixels}}; }

nlohmann::json kitti_json(const ImageF& d, const ImageF& g, const ImageU8& region, const ImageU8& obj) {
  KittiCounts all, fg, bg;
  kitti_pass(d, g, region, obj, all, fg, bg);
  const KittiD1 a = all.finish();
  nlohmann::json j = {{"d1_all", num(a.d1)}};
  if (!obj.empty()) {
    j["d1_bg"] = num(bg.finish().d1);
    j["d1_fg"] = num(fg.finish().d1);
  }
  j["invalid"] = num(a.invalid);
  j["pixels"] = a.pixels;
  return j;
}

nlohmann::json hci_json(const HciMetrics& h) {
  return {{"badpix_007", num(h.badpix_007)}, {"badpix_003", num(h.badpix_003)},
          {"badpix_001", num(h.badpix_001)}, {"mse_x100", num(h.mse_x100)},
          {"q25", num(h.q25)},               {"invalid", num(h.invalid)},
          {"pixels", h.pixels}};
}

// The stereo truth's size checks: map and every mask of the truth's size.
void check_stereo(const ImageF& d, const Truth& t, const char* who) {
  const stereo::StereoGroundTruth& s = t.stereo;
  LB_REQUIRE(!s.empty(), std::string(who) + ": no ground truth");
  check_map(d, s.disparity, who);
  check_mask(s.mask_nonocc, s.disparity, who, "mask nonocc");
  check_mask(s.mask_all, s.disparity, who, "mask all");
  check_mask(s.mask_disc, s.disparity, who, "mask disc");
}

}  // namespace

nlohmann::json evaluate(const ImageF& d, const Truth& truth) {
  const stereo::StereoGroundTruth& s = truth.stereo;
  switch (truth.protocol) {
    case Protocol::Middlebury2003: {
      check_stereo(d, truth, "evaluate middlebury2003");
      stereo::require_scorable(s);
      const stereo::StereoScore r = stereo::score_stereo(d, s, 1.0);  // the runners' score
      return {{"nonocc", to_json(r.nonocc)}, {"all", to_json(r.all)}, {"disc", to_json(r.disc)}};
    }
    case Protocol::MiddleburyV3: {
      check_stereo(d, truth, "evaluate middlebury-v3");
      stereo::require_scorable(s);
      return {{"nonocc", to_json(middlebury_v3(d, s.disparity, s.mask_nonocc))},
              {"all", to_json(middlebury_v3(d, s.disparity, s.mask_all))}};
    }
    case Protocol::Kitti: {
      check_stereo(d, truth, "evaluate kitti");
      check_mask(truth.obj_map, s.disparity, "evaluate kitti", "obj_map");
      stereo::require_scorable(s);
      return {{"noc", kitti_json(d, s.disparity, s.mask_nonocc, truth.obj_map)},
              {"occ", kitti_json(d, s.disparity, s.mask_all, truth.obj_map)}};
    }
    case Protocol::Hci: {
      LB_REQUIRE(!s.empty(), "evaluate hci: no ground truth");
      check_map(d, s.disparity, "evaluate hci");
      hci_require_truth(s.disparity, 0, 0, s.disparity.width, s.disparity.height, truth.border);
      return {{"all", hci_json(hci_metrics(d, s.disparity, truth.border))}};
    }
  }
  throw Error("evaluate: unknown protocol");
}

}  // namespace lb::eval
