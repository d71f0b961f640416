// evaluation.hpp's disparity scorers against a direct re-implementation of the spec's
// definitions (../shared/specs/evaluation.md: sort for the percentiles, one plain loop per
// metric) on random maps of awkward sizes with unknown truth, masks, and NaN / inf /
// negative estimates; and a map large enough for the binned percentile selection.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "lightbench/evaluation.hpp"
#include "test_util.hpp"

using namespace lb;
using namespace lb::eval;

namespace {

using lbt::kInf;
using lbt::kNaN;

bool invalid(float d) { return std::isnan(d) || std::isinf(d) || d < 0; }

// The definition: sort, index ceil(P/100 n) - 1.
double ref_percentile(std::vector<double> e, int p) {  // p: a whole percent
  if (e.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(e.begin(), e.end());
  const std::size_t k = (static_cast<std::size_t>(p) * e.size() + 99) / 100;  // ceil, in integers
  return e[k - 1];
}

// Middlebury v3 spelled out. The errors the implementation keeps for the percentiles are
// floats, so the reference rounds them the same way (a percentile is one of the errors).
MiddleburyV3 ref_v3(const ImageF& d, const ImageF& g, const ImageU8& m) {
  MiddleburyV3 r;
  std::uint64_t bad[4] = {0, 0, 0, 0}, inv = 0;
  std::vector<double> e;
  double sum = 0, sum2 = 0;
  const double t[4] = {0.5, 1, 2, 4};
  for (std::size_t i = 0; i < g.data.size(); ++i) {
    const float gv = g.data[i], dv = d.data[i];
    if (!std::isfinite(gv) || gv == 0) continue;
    if (!m.empty() && m.data[i * m.channels] != 255) continue;
    ++r.pixels;
    if (invalid(dv)) {
      ++inv;
      for (auto& b : bad) ++b;
      continue;
    }
    const double err = std::fabs(static_cast<double>(dv) - static_cast<double>(gv));
    for (int k = 0; k < 4; ++k) bad[k] += err > t[k];
    sum += err;
    sum2 += err * err;
    e.push_back(static_cast<float>(err));
  }
  const double n = static_cast<double>(r.pixels);
  r.bad050 = 100.0 * bad[0] / n, r.bad100 = 100.0 * bad[1] / n, r.bad200 = 100.0 * bad[2] / n;
  r.bad400 = 100.0 * bad[3] / n, r.invalid = 100.0 * inv / n;
  r.avgerr = sum / e.size(), r.rms = std::sqrt(sum2 / e.size());
  r.a50 = ref_percentile(e, 50), r.a90 = ref_percentile(e, 90), r.a95 = ref_percentile(e, 95);
  r.a99 = ref_percentile(e, 99);
  return r;
}

// Equal, or both NaN (no valid estimate on a tiny map).
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void check_same(const MiddleburyV3& got, const MiddleburyV3& want) {
  CHECK(got.pixels == want.pixels);
  CHECK(same(got.bad050, want.bad050));
  CHECK(same(got.bad100, want.bad100));
  CHECK(same(got.bad200, want.bad200));
  CHECK(same(got.bad400, want.bad400));
  CHECK(same(got.invalid, want.invalid));
  CHECK(same(got.avgerr, want.avgerr));  // same order of summation: bit for bit
  CHECK(same(got.rms, want.rms));
  CHECK(same(got.a50, want.a50));
  CHECK(same(got.a90, want.a90));
  CHECK(same(got.a95, want.a95));
  CHECK(same(got.a99, want.a99));
}

// Truth with inf / NaN / 0 (unknown) and values on a 1/4 grid, so that many errors fall
// exactly on the thresholds; estimates with NaN, +-inf and negatives.
void random_maps(int w, int h, std::uint64_t seed, ImageF& d, ImageF& g, ImageU8& m) {
  std::mt19937_64 rng(seed);
  g = ImageF(w, h, 1);
  d = ImageF(w, h, 1);
  m = ImageU8(w, h, 2);  // two channels: only the first is read
  for (std::size_t i = 0; i < g.data.size(); ++i) {
    const unsigned r = rng() % 20;
    g.data[i] = r == 0 ? kInf : r == 1 ? kNaN : r == 2 ? 0.0f : static_cast<float>(rng() % 400) * 0.25f;
    const unsigned s = rng() % 25;
    const float base = std::isfinite(g.data[i]) ? g.data[i] : 5.0f;
    d.data[i] = s == 0   ? kNaN
                : s == 1 ? kInf
                : s == 2 ? -kInf
                : s == 3 ? -0.75f
                         : base + static_cast<float>(static_cast<int>(rng() % 41) - 20) * 0.25f;
    m.data[2 * i] = static_cast<std::uint8_t>(rng() % 3 == 0 ? 128 : 255);
    m.data[2 * i + 1] = 0;
  }
}

}  // namespace

TEST_CASE("middlebury v3 on random maps: the definition, spelled out") {
  for (const auto& [w, h] : {std::pair{37, 23}, std::pair{1, 1}, std::pair{3, 1}, std::pair{64, 5}, std::pair{101, 77}}) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      ImageF d, g;
      ImageU8 m;
      random_maps(w, h, seed * 1000 + static_cast<std::uint64_t>(w), d, g, m);
      g.data[0] = 2.0f;  // at least one known pixel
      CAPTURE(w);
      CAPTURE(seed);
      check_same(middlebury_v3(d, g, m), ref_v3(d, g, m));
      check_same(middlebury_v3(d, g, ImageU8{}), ref_v3(d, g, ImageU8{}));
    }
  }
}

TEST_CASE("middlebury v3 on a map large enough for the binned percentile selection") {
  // 700x500 = 350k pixels (the binned path starts at 2^18 valid errors); quantised errors
  // put many equal values in one bin and several percentiles in the same bin.
  for (int variant = 0; variant < 3; ++variant) {
    ImageF d, g;
    ImageU8 m;
    random_maps(700, 500, 77 + variant, d, g, m);
    if (variant == 1)  // nearly all errors 0: the first percentiles share the zero bin
      for (std::size_t i = 0; i < d.data.size(); ++i)
        if (i % 50 != 0 && std::isfinite(g.data[i])) d.data[i] = g.data[i];
    if (variant == 2)  // continuous errors: every bin small
      for (std::size_t i = 0; i < d.data.size(); ++i)
        d.data[i] = std::fabs(d.data[i] + 0.001f * static_cast<float>(i % 997));
    CAPTURE(variant);
    check_same(middlebury_v3(d, g, ImageU8{}), ref_v3(d, g, ImageU8{}));
    check_same(middlebury_v3(d, g, m), ref_v3(d, g, m));
  }
}

TEST_CASE("kitti and hci on random maps: the definitions, spelled out") {
  for (const auto& [w, h] : {std::pair{37, 23}, std::pair{40, 31}, std::pair{700, 400}}) {
    ImageF d, g;
    ImageU8 m;
    random_maps(w, h, static_cast<std::uint64_t>(w * h), d, g, m);
    g.data[static_cast<std::size_t>(w) * (h / 2) + w / 2] = 2.0f;
    CAPTURE(w);
    // KITTI: e > 3 and e > 0.05 g, invalid = outlier; fg = obj > 0 (m's first channel).
    std::uint64_t n[3] = {0, 0, 0}, out[3] = {0, 0, 0}, inv = 0;
    for (std::size_t i = 0; i < g.data.size(); ++i) {
      const float gv = g.data[i], dv = d.data[i];
      if (!std::isfinite(gv) || gv == 0) continue;
      const double e = std::fabs(static_cast<double>(dv) - gv);
      const bool o = invalid(dv) || (e > 3 && e > 0.05 * gv);
      const int part = m.data[2 * i] > 0 ? 1 : 2;  // all fg here: 128 and 255 are > 0
      n[0]++, out[0] += o, inv += invalid(dv);
      n[part]++, out[part] += o;
    }
    const KittiD1 k = kitti_d1(d, g);
    CHECK(k.pixels == n[0]);
    CHECK(k.outliers == out[0]);
    CHECK(k.d1 == 100.0 * out[0] / n[0]);
    CHECK(k.invalid == 100.0 * inv / n[0]);
    CHECK(kitti_d1(d, g, m, true).outliers == out[1]);

    // HCI: finite truth outside a 5-pixel border, invalid = not finite (negatives are real).
    const int b = 5;
    std::uint64_t hn = 0, hinv = 0, bad[3] = {0, 0, 0};
    double se = 0;
    std::vector<double> e;
    for (int y = b; y < h - b; ++y)
      for (int x = b; x < w - b; ++x) {
        const float gv = g.at(x, y), dv = d.at(x, y);
        if (!std::isfinite(gv)) continue;
        ++hn;
        if (!std::isfinite(dv)) {
          ++hinv, ++bad[0], ++bad[1], ++bad[2];
          continue;
        }
        const double err = std::fabs(static_cast<double>(dv) - gv);
        bad[0] += err > 0.07, bad[1] += err > 0.03, bad[2] += err > 0.01;
        se += err * err;
        e.push_back(static_cast<float>(err));
      }
    const HciMetrics hm = hci_metrics(d, g, b);
    CHECK(hm.pixels == hn);
    CHECK(hm.invalid == 100.0 * hinv / hn);
    CHECK(hm.badpix_007 == 100.0 * bad[0] / hn);
    CHECK(hm.badpix_003 == 100.0 * bad[1] / hn);
    CHECK(hm.badpix_001 == 100.0 * bad[2] / hn);
    CHECK(hm.mse_x100 == 100.0 * se / e.size());
    CHECK(hm.q25 == 100.0 * ref_percentile(e, 25));
  }
}
