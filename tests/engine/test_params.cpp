#include <doctest/doctest.h>

#include <cmath>

#include "lightbench/plenoptic_params.hpp"
#include "plenoptic/render_tables.hpp"
#include "lightbench/error.hpp"

using namespace lb;

TEST_CASE("grid validation names the problem") {
  const PlenopticGrid g{10, 8, 20.5, 1.0, 2.0};
  CHECK_NOTHROW(validate(g, 206, 166));
  CHECK_THROWS_WITH_AS(validate(g, 200, 166), doctest::Contains("needs 206x166"), Error);
  CHECK_THROWS_WITH_AS(validate(PlenopticGrid{0, 8, 20.5, 0, 0}, 500, 500),
                       doctest::Contains("at least 1x1"), Error);
  CHECK_THROWS_WITH_AS(validate(PlenopticGrid{4, 4, 1.0, 0, 0}, 500, 500),
                       doctest::Contains("pitch"), Error);
  CHECK_THROWS_WITH_AS(validate(PlenopticGrid{4, 4, 10, -1, 0}, 500, 500),
                       doctest::Contains("offset"), Error);
  CHECK_THROWS_AS(validate(PlenopticGrid{4, 4, std::nan(""), 0, 0}, 500, 500), Error);
}

TEST_CASE("render parameter validation") {
  const PlenopticGrid g{10, 8, 20.5, 0, 0};
  RenderParams p = default_render_params(g);
  CHECK(p.patch == 11);
  CHECK(p.sigma == doctest::Approx(4.1));
  CHECK_NOTHROW(validate(p, g));
  RenderParams bad = p;
  bad.patch = 0;
  CHECK_THROWS_WITH_AS(validate(bad, g), doctest::Contains("patch: must be in 1..20, got 0"), Error);
  bad = p;
  bad.patch = 21;  // larger than the pitch
  CHECK_THROWS_WITH_AS(validate(bad, g), doctest::Contains("patch: must be in 1..20, got 21"), Error);
  bad = p;
  bad.lim = kMaxLim + 1;
  CHECK_THROWS_WITH_AS(validate(bad, g), doctest::Contains("lim: must be in"), Error);
  bad = p;
  bad.sigma = 0.0f;
  CHECK_THROWS_WITH_AS(validate(bad, g), doctest::Contains("sigma: must be in 0.5..20.5"), Error);
  bad.sigma = 21.0f;  // the table's max is the pitch (this check once allowed 1000)
  CHECK_THROWS_WITH_AS(validate(bad, g), doctest::Contains("sigma: must be in 0.5..20.5"), Error);
  bad.sigma = std::nanf("");
  CHECK_THROWS_WITH_AS(validate(bad, g), doctest::Contains("sigma"), Error);
  bad = p;
  bad.view_x = 11.0f;  // more than D/2
  CHECK_THROWS_WITH_AS(validate(bad, g), doctest::Contains("view_x: must be in -10.25..10.25"), Error);
}

TEST_CASE("variant names parse both ways") {
  for (auto v : all_render_variants()) CHECK(parse_render_variant(to_string(v)) == v);
  CHECK(parse_render_variant("NoSync") == RenderVariant::NoSync);
  CHECK_THROWS_WITH_AS(parse_render_variant("fast"), doctest::Contains("'fast'"), Error);
}

TEST_CASE("describe() binds the live parameters with grid-dependent ranges") {
  const PlenopticGrid g{10, 8, 20.5, 0, 0};
  RenderParams p;
  auto info = describe(p, g);
  REQUIRE(info.size() == 5);
  CHECK(info[0].name == "patch");
  CHECK(std::get<int*>(info[0].value) == &p.patch);
  CHECK(info[0].max == 20);
  CHECK(info[1].max == doctest::Approx(10.25));
}

TEST_CASE("ParamInfo: typed get/set clamp to the range, round ints, and report changes") {
  const PlenopticGrid g{10, 8, 20.5, 0, 0};
  RenderParams p;
  auto info = describe(p, g);
  const ParamInfo* patch = find_param(info, "patch");
  REQUIRE(patch);
  CHECK(patch->set(7.6));
  CHECK(p.patch == 8);
  CHECK_FALSE(patch->set(8.2));  // rounds to the same value
  patch->set(1e9);
  CHECK(p.patch == 20);  // clamped to the grid's maximum
  patch->set(std::nan(""));
  CHECK(p.patch == 20);  // NaN leaves it
  const ParamInfo* vx = find_param(info, "view_x");
  REQUIRE(vx);
  vx->set(-3.25);
  CHECK(p.view_x == doctest::Approx(-3.25));
  bool flag = false;
  const ParamInfo b{"flag", "flag", "", ParamInfo::Kind::Bool, &flag, 0, 1};
  CHECK(b.set(1));
  CHECK(flag);
  CHECK(b.get() == 1.0);
  const ParamValues v = read_values(info);
  CHECK(v.at("patch") == 20);
  RenderParams q;
  apply_values(describe(q, g), {{"patch", 5}, {"unknown", 1}});
  CHECK(q.patch == 5);
  CHECK_THROWS_WITH_AS(apply_values(describe(q, g), {{"patch", 99}}), doctest::Contains("'patch' = 99"), Error);
}

TEST_CASE("render tables: nearest-pixel starts and quantised separable weights") {
  const PlenopticGrid g{3, 2, 10.5, 0.25, 0.0};
  RenderParams p;
  p.patch = 4;
  p.lim = 1;
  p.sigma = 3.0f;
  const auto t = build_render_tables(g, p, 32, 21);
  // floor(0.25 + n*10.5 + (10.5-4)/2 + 0.5) = floor(4 + 10.5 n)
  CHECK(t.col_start == std::vector<int>{4, 14, 25});
  CHECK(t.row_start == std::vector<int>{3, 14});  // floor(3.75 + 10.5 n)
  REQUIRE(t.wx.size() == 12);
  // Offsets a - i*M - (M-1)/2 are symmetric about the table's centre when unshifted.
  for (std::size_t k = 0; k < t.wx.size(); ++k) CHECK(t.wx[k] == t.wx[t.wx.size() - 1 - k]);
  CHECK(quantised_gaussian(0.0, 3.0) == 256);
  CHECK(quantised_gaussian(100.0, 3.0) == 1);  // never zero
  CHECK(t.wx[4 + 1] == quantised_gaussian(-0.5, 3.0));  // a=1, i=0: 1 - 1.5
  // Every output pixel reads its columns from existing micro-images only.
  CHECK(render_touched_pixels(t) > 0);
}

TEST_CASE("check_ranges: a float field at its table's bounds is accepted (bounds compared as floats)") {
  float eps = 0.1f, sigma = 0.005f;  // 0.1f > 0.1 and 0.005f < 0.005 as doubles
  std::vector<lb::ParamInfo> t(2);
  t[0].name = "gf_eps";
  t[0].kind = lb::ParamInfo::Kind::Float;
  t[0].value = &eps;
  t[0].min = 1e-6;
  t[0].max = 0.1;
  t[1].name = "median_sigma";
  t[1].kind = lb::ParamInfo::Kind::Float;
  t[1].value = &sigma;
  t[1].min = 0.005;
  t[1].max = 1.0;
  CHECK_NOTHROW(lb::check_ranges(t));
  eps = 0.1001f;
  CHECK_THROWS_WITH_AS(lb::check_ranges(t), doctest::Contains("gf_eps: must be in"), lb::Error);
  eps = 0.1f;
  sigma = 0.0049f;
  CHECK_THROWS_WITH_AS(lb::check_ranges(t), doctest::Contains("median_sigma"), lb::Error);
}
