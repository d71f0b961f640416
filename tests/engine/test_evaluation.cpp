// Disparity scorers of evaluation.hpp (../shared/specs/evaluation.md) against values computed
// by hand on tiny crafted maps, and against a direct re-implementation of the definitions
// on random maps of awkward sizes with NaN / inf / negative estimates.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lightbench/evaluation.hpp"
#include "lightbench/hci_metrics.hpp"
#include "test_util.hpp"

using namespace lb;
using namespace lb::eval;

namespace {

using lbt::kInf;
using lbt::kNaN;

ImageF image(int w, int h, const std::vector<float>& v) {
  ImageF m(w, h, 1);
  m.data = v;
  return m;
}
ImageU8 mask(int w, int h, const std::vector<std::uint8_t>& v) {
  ImageU8 m(w, h, 1);
  m.data = v;
  return m;
}

// A 4x3 Middlebury case. Truth: inf and 0 unknown. Errors 0.5, 1, 2, 4 (exactly at the
// thresholds: not bad there, strict), 0, 4.25, 0.25; estimates NaN, -1 and inf invalid.
struct V3Case {
  ImageF g = image(4, 3, {10, 10, 10, 10,  //
                          10, kInf, 0, 10,  //
                          20, 20, 20, 20});
  ImageF d = image(4, 3, {10.5f, 11, 12, 14,  //
                          kNaN, 5, 7, -1,      //
                          20, 24.25f, kInf, 20.25f});
  // nonocc: (0,2) no truth (0), (3,2) occluded (128).
  ImageU8 nonocc = mask(4, 3, {255, 255, 255, 255, 255, 255, 255, 255, 0, 255, 255, 128});
  ImageU8 all = mask(4, 3, {255, 255, 255, 255, 255, 255, 255, 255, 0, 255, 255, 255});
};

}  // namespace

TEST_CASE("percentile: index ceil(P/100 n) - 1 of the sorted values") {
  std::vector<float> v = {7, 3, 10, 1, 9, 2, 8, 4, 6, 5};  // 1..10 shuffled
  CHECK(percentile(v, 50) == 5);    // ceil(5) - 1 = 4
  CHECK(percentile(v, 90) == 9);    // ceil(9) - 1 = 8 (0.9 * 10 must not round up to 10)
  CHECK(percentile(v, 95) == 10);   // ceil(9.5) - 1 = 9
  CHECK(percentile(v, 25) == 3);    // ceil(2.5) - 1 = 2
  CHECK(percentile(v, 10) == 1);    // ceil(1) - 1 = 0
  CHECK(percentile(v, 10.5) == 2);  // ceil(1.05) - 1 = 1
  CHECK(percentile(v, 100) == 10);
  std::vector<float> w(20);
  for (int i = 0; i < 20; ++i) w[i] = static_cast<float>(20 - i);
  CHECK(percentile(w, 95) == 19);  // 0.95 * 20 = 19 exactly: index 18
  std::vector<float> h(100);
  for (int i = 0; i < 100; ++i) h[i] = static_cast<float>((i * 37) % 100);
  CHECK(percentile(h, 99) == 98);
  CHECK(percentile(h, 1) == 0);
  std::vector<float> one = {0.25f};
  CHECK(percentile(one, 50) == 0.25f);
  std::vector<float> none;
  CHECK_THROWS_AS(percentile(none, 50), Error);
  CHECK_THROWS_AS(percentile(v, 0), Error);
  CHECK_THROWS_AS(percentile(v, 101), Error);
  std::vector<float> nan = {1, kNaN};
  CHECK_THROWS_WITH_AS(percentile(nan, 50), doctest::Contains("NaN"), Error);
}

TEST_CASE("middlebury v3: every metric by hand, masks, unknown truth, invalid estimates") {
  const V3Case c;
  // No mask: the 10 known pixels; invalid (0,1) NaN, (3,1) -1, (2,2) inf.
  const MiddleburyV3 a = middlebury_v3(c.d, c.g, ImageU8{});
  CHECK(a.pixels == 10);
  CHECK(a.invalid == doctest::Approx(30.0));
  CHECK(a.bad050 == doctest::Approx(70.0));  // 1, 2, 4, 4.25 + 3 invalid
  CHECK(a.bad100 == doctest::Approx(60.0));  // 2, 4, 4.25 + 3
  CHECK(a.bad200 == doctest::Approx(50.0));  // 4, 4.25 + 3
  CHECK(a.bad400 == doctest::Approx(40.0));  // 4.25 + 3
  CHECK(a.avgerr == doctest::Approx(12.0 / 7));  // valid: 0, .25, .5, 1, 2, 4, 4.25
  CHECK(a.rms == doctest::Approx(std::sqrt(39.375 / 7)));
  CHECK(a.a50 == 1.0);   // ceil(3.5) - 1 = 3
  CHECK(a.a90 == 4.25);  // ceil(6.3) - 1 = 6
  CHECK(a.a95 == 4.25);
  CHECK(a.a99 == 4.25);

  // nonocc: (0,2) (e 0) and (3,2) (e 0.25) leave; 8 pixels, 5 valid.
  const MiddleburyV3 n = middlebury_v3(c.d, c.g, c.nonocc);
  CHECK(n.pixels == 8);
  CHECK(n.invalid == doctest::Approx(37.5));
  CHECK(n.bad050 == doctest::Approx(87.5));
  CHECK(n.bad100 == doctest::Approx(75.0));
  CHECK(n.bad200 == doctest::Approx(62.5));
  CHECK(n.bad400 == doctest::Approx(50.0));
  CHECK(n.avgerr == doctest::Approx(2.35));
  CHECK(n.rms == doctest::Approx(std::sqrt(39.3125 / 5)));
  CHECK(n.a50 == 2.0);  // .5 1 2 4 4.25: ceil(2.5) - 1 = 2
  CHECK(n.a90 == 4.25);

  // Nothing valid: the statistics of the valid estimates are NaN, not 0.
  const MiddleburyV3 z = middlebury_v3(ImageF(4, 3, 1, kNaN), c.g, ImageU8{});
  CHECK(z.pixels == 10);
  CHECK(z.invalid == 100.0);
  CHECK(z.bad050 == 100.0);
  CHECK(std::isnan(z.avgerr));
  CHECK(std::isnan(z.rms));
  CHECK(std::isnan(z.a50));
}

TEST_CASE("evaluate: Middlebury v3 and 2003 protocols, keys and values") {
  const V3Case c;
  Truth t;
  t.protocol = Protocol::MiddleburyV3;
  t.stereo.disparity = c.g;
  t.stereo.mask_nonocc = c.nonocc;
  t.stereo.mask_all = c.all;
  const nlohmann::json j = evaluate(c.d, t);
  REQUIRE(j.size() == 2);
  for (const char* k : {"bad050", "bad100", "bad200", "bad400", "invalid", "avgerr", "rms", "a50", "a90", "a95", "a99",
                        "pixels"}) {
    CHECK(j["nonocc"].contains(k));
    CHECK(j["all"].contains(k));
  }
  CHECK(j["nonocc"].size() == 12);
  CHECK(j["nonocc"]["bad100"].get<double>() == doctest::Approx(75.0));
  // all: 9 pixels ((0,2) has no truth in the mask), valid errors .25 .5 1 2 4 4.25.
  CHECK(j["all"]["pixels"] == 9);
  CHECK(j["all"]["bad050"].get<double>() == doctest::Approx(700.0 / 9));
  CHECK(j["all"]["bad400"].get<double>() == doctest::Approx(400.0 / 9));
  CHECK(j["all"]["avgerr"].get<double>() == doctest::Approx(2.0));
  CHECK(j["all"]["a50"].get<double>() == 1.0);   // ceil(3) - 1 = 2
  CHECK(j["all"]["a90"].get<double>() == 4.25);  // ceil(5.4) - 1 = 5

  // 2003: score_stereo at threshold 1, the invalid estimates counted as bad.
  t.protocol = Protocol::Middlebury2003;
  const nlohmann::json o = evaluate(c.d, t);
  CHECK(o["nonocc"]["bad100"].get<double>() == doctest::Approx(75.0));
  CHECK(o["all"]["bad100"].get<double>() == doctest::Approx(600.0 / 9));
  CHECK(o["disc"]["bad100"].get<double>() == doctest::Approx(60.0));  // empty disc mask: all 10 known
  CHECK(o["disc"]["pixels"] == 10);
  CHECK(o["nonocc"].size() == 2);
  const stereo::StereoScore s = stereo::score_stereo(c.d, t.stereo, 1.0);
  CHECK(s.nonocc.bad == 6);  // the runners' score is the same rule
}

TEST_CASE("evaluate: refuses mismatched sizes and a truth with nothing to evaluate, in one line") {
  const V3Case c;
  auto one_line = [](const Truth& t, const ImageF& d, const char* what) {
    try {
      (void)evaluate(d, t);
      FAIL("no error for " << what);
    } catch (const Error& e) {
      const std::string m = e.what();
      CHECK(m.find('\n') == std::string::npos);
      CHECK(!m.empty());
    }
  };
  for (Protocol p : {Protocol::Middlebury2003, Protocol::MiddleburyV3, Protocol::Kitti, Protocol::Hci}) {
    CAPTURE(to_string(p));
    Truth t;
    t.protocol = p;
    t.border = 0;
    t.stereo.disparity = c.g;
    one_line(t, ImageF(3, 3, 1, 1.0f), "a smaller map");
    one_line(t, ImageF(4, 3, 3, 1.0f), "a 3-channel map");
    one_line(Truth{p, {}, {}, 0}, c.d, "no truth");
    Truth unknown = t;
    unknown.stereo.disparity = ImageF(4, 3, 1, p == Protocol::Hci ? kNaN : 0.0f);
    one_line(unknown, c.d, "an unknown truth");
    if (p != Protocol::Hci) {
      Truth bad_mask = t;
      bad_mask.stereo.mask_all = ImageU8(4, 2, 1, 255);
      one_line(bad_mask, c.d, "a mask of another size");
      Truth empty_mask = t;
      empty_mask.stereo.mask_all = ImageU8(4, 3, 1, 0);  // selects nothing
      one_line(empty_mask, c.d, "a mask selecting nothing");
    } else {
      Truth border = t;
      border.border = 2;  // 4x3 minus a 2-pixel border: nothing left
      one_line(border, c.d, "a border covering the image");
    }
  }
  Truth k;
  k.protocol = Protocol::Kitti;
  k.stereo.disparity = c.g;
  k.obj_map = ImageU8(2, 2, 1, 1);
  CHECK_THROWS_WITH_AS(evaluate(c.d, k), doctest::Contains("obj_map"), Error);
  CHECK(std::string(to_string(Protocol::MiddleburyV3)) == "middlebury-v3");
  CHECK(std::string(to_string(Protocol::Kitti)) == "kitti");
}

namespace {
// A 5x2 KITTI case. Truth 0 = unknown. Outliers: (0,0) e 3.5 > 3 and > 0.5; (2,0) e 6 > 3
// and > 5; (1,1) NaN; (2,1) e 3.5 > 0.2; (3,1) -1. Not: (1,0) e 4 > 3 but not > 5 % of 100;
// (3,0) e = 3 exactly (strict) though > 5 % of 20; (4,0) e 4 = 5 % of 80 exactly; (4,1) e 0.
struct KittiCase {
  ImageF g = image(5, 2, {10, 100, 100, 20, 80,  //
                          0, 50, 4, 60, 30});
  ImageF d = image(5, 2, {13.5f, 104, 106, 23, 84,  //
                          5, kNaN, 7.5f, -1, 30});
  ImageU8 noc = mask(5, 2, {255, 255, 0, 255, 255, 255, 255, 255, 0, 255});  // (2,0), (3,1) occluded
  ImageU8 obj = mask(5, 2, {7, 7, 7, 0, 0, 7, 7, 0, 0, 0});                   // fg: (0..2,0), (0..1,1)
};
}  // namespace

TEST_CASE("kitti: 3 px AND 5 % outliers, invalid estimates, fg / bg split, by hand") {
  const KittiCase c;
  const KittiD1 all = kitti_d1(c.d, c.g);
  CHECK(all.pixels == 9);
  CHECK(all.outliers == 5);
  CHECK(all.d1 == doctest::Approx(500.0 / 9));
  CHECK(all.invalid == doctest::Approx(200.0 / 9));
  const KittiD1 fg = kitti_d1(c.d, c.g, c.obj, true);
  CHECK(fg.pixels == 4);  // (0,1) is fg but of unknown truth
  CHECK(fg.outliers == 3);
  CHECK(fg.d1 == doctest::Approx(75.0));
  const KittiD1 bg = kitti_d1(c.d, c.g, c.obj, false);
  CHECK(bg.pixels == 5);
  CHECK(bg.d1 == doctest::Approx(40.0));
  CHECK(bg.invalid == doctest::Approx(20.0));
  const KittiD1 nofg = kitti_d1(c.d, c.g, ImageU8(5, 2, 1, 0), true);
  CHECK(nofg.pixels == 0);
  CHECK(std::isnan(nofg.d1));

  Truth t;
  t.protocol = Protocol::Kitti;
  t.stereo.disparity = c.g;
  t.stereo.mask_nonocc = c.noc;
  t.obj_map = c.obj;
  const nlohmann::json j = evaluate(c.d, t);
  CHECK(j["occ"]["d1_all"].get<double>() == doctest::Approx(500.0 / 9));
  CHECK(j["occ"]["d1_fg"].get<double>() == doctest::Approx(75.0));
  CHECK(j["occ"]["d1_bg"].get<double>() == doctest::Approx(40.0));
  CHECK(j["occ"]["pixels"] == 9);
  CHECK(j["noc"]["pixels"] == 7);
  CHECK(j["noc"]["d1_all"].get<double>() == doctest::Approx(300.0 / 7));  // (0,0), (1,1), (2,1)
  CHECK(j["noc"]["d1_fg"].get<double>() == doctest::Approx(200.0 / 3));   // (0,0), (1,0), (1,1)
  CHECK(j["noc"]["d1_bg"].get<double>() == doctest::Approx(25.0));        // (3,0), (4,0), (2,1), (4,1)
  CHECK(j["noc"]["invalid"].get<double>() == doctest::Approx(100.0 / 7));
  CHECK(j["noc"].size() == 5);
  // Without obj_map: no fg / bg keys. With an empty split: null, not 0.
  t.obj_map = {};
  const nlohmann::json k = evaluate(c.d, t);
  CHECK(k["noc"].size() == 3);
  CHECK_FALSE(k["noc"].contains("d1_fg"));
  t.obj_map = ImageU8(5, 2, 1, 0);
  const nlohmann::json e = evaluate(c.d, t);
  CHECK(e["occ"]["d1_fg"].is_null());
  CHECK(e["occ"]["d1_bg"].get<double>() == doctest::Approx(500.0 / 9));
  CHECK(e.dump().find("null") != std::string::npos);
}

TEST_CASE("hci: border, signed and zero truth, invalid estimates, q25, by hand") {
  // 7x6, border 2: the inner 3x2 (x 2..4, y 2..3). Errors 1/16, 1/8, 1/64, -, NaN, 1/128.
  ImageF g(7, 6, 1, 1.0f), d(7, 6, 1, 9.0f);  // the border is wrong everywhere: cropped
  const float gi[6] = {0.0f, -1.0f, 0.5f, kNaN, 1.0f, 2.0f};
  const float di[6] = {0.0625f, -1.125f, 0.515625f, 3.0f, kNaN, 2.0078125f};
  for (int i = 0; i < 6; ++i) {
    g.at(2 + i % 3, 2 + i / 3) = gi[i];
    d.at(2 + i % 3, 2 + i / 3) = di[i];
  }
  const HciMetrics h = hci_metrics(d, g, 2);
  CHECK(h.pixels == 5);  // the NaN truth is not evaluated; 0 and -1 are known
  CHECK(h.invalid == doctest::Approx(20.0));
  CHECK(h.badpix_007 == doctest::Approx(40.0));  // 1/8, NaN
  CHECK(h.badpix_003 == doctest::Approx(60.0));  // 1/16, 1/8, NaN
  CHECK(h.badpix_001 == doctest::Approx(80.0));  // 1/16, 1/8, 1/64, NaN
  const double se = 0.0625 * 0.0625 + 0.125 * 0.125 + 0.015625 * 0.015625 + 0.0078125 * 0.0078125;
  CHECK(h.mse_x100 == doctest::Approx(100.0 * se / 4));  // the 4 valid estimates
  CHECK(h.q25 == doctest::Approx(0.78125));               // 100 * sorted[ceil(1) - 1]
  // The runners' HCI score is the same rule.
  const HciScore r = hci_score(d, g, 2);
  CHECK(r.pixels == 5);
  CHECK(r.invalid == 1);
  CHECK(r.badpix_001 == h.badpix_001);
  CHECK(r.mse_x100 == h.mse_x100);
  CHECK(hci_badpix(d, g, 0.07, 2) == doctest::Approx(40.0));

  Truth t;
  t.protocol = Protocol::Hci;
  t.stereo.disparity = g;
  t.border = 2;
  const nlohmann::json j = evaluate(d, t);
  REQUIRE(j.contains("all"));
  CHECK(j["all"].size() == 7);
  CHECK(j["all"]["q25"].get<double>() == doctest::Approx(0.78125));
  CHECK(j["all"]["pixels"] == 5);
  t.border = 0;  // the border's 9 vs 1 errors now count
  CHECK(evaluate(d, t)["all"]["pixels"] == 41);
  CHECK_THROWS_AS(hci_metrics(d, g, -1), Error);
}
