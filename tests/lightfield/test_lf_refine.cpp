// The light-field depth refinement's CPU reference (lightfield/lf_refine.hpp): the guided
// filter against a brute-force double version on awkward sizes (radius larger than the
// image, a constant guide, a single row), the weighted median on small cases, the
// refinement's edge cases (one label, a flat volume), and end to end on a synthetic light
// field of a slanted plane, where the parabola's sub-pixel disparity must beat the
// winner-takes-all labels' quantisation error.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "lightfield/cae.hpp"
#include "lightfield/cae_math.hpp"
#include "lightbench/error.hpp"
#include "lightfield/lf_refine.hpp"
#include "lightfield/lf_refine_math.hpp"

using namespace lb;

namespace {
std::vector<double> brute_box(const std::vector<double>& v, int w, int h, int r) {
  std::vector<double> o(v.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double s = 0;
      int n = 0;
      for (int yy = std::max(0, y - r); yy <= std::min(h - 1, y + r); ++yy)
        for (int xx = std::max(0, x - r); xx <= std::min(w - 1, x + r); ++xx, ++n) s += v[yy * w + xx];
      o[y * w + x] = s / n;
    }
  return o;
}
std::vector<double> brute_guided(const std::vector<double>& I, const std::vector<double>& p, int w, int h, int r,
                                 double eps) {
  const std::size_t n = I.size();
  std::vector<double> ip(n), ii(n), a(n), b(n), q(n);
  for (std::size_t i = 0; i < n; ++i) ip[i] = I[i] * p[i], ii[i] = I[i] * I[i];
  const auto mi = brute_box(I, w, h, r), mp = brute_box(p, w, h, r), mip = brute_box(ip, w, h, r),
             mii = brute_box(ii, w, h, r);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = (mip[i] - mi[i] * mp[i]) / (mii[i] - mi[i] * mi[i] + eps);
    b[i] = mp[i] - a[i] * mi[i];
  }
  const auto ma = brute_box(a, w, h, r), mb = brute_box(b, w, h, r);
  for (std::size_t i = 0; i < n; ++i) q[i] = ma[i] * I[i] + mb[i];
  return q;
}

// A slanted plane, d(x) = d0 + k x, seen by nu x nv views: view pixel x shows the centre
// position cx with x = cx + kShearSign * d(cx) * (u - uc) (solved exactly: d is linear),
// bilinear from a smooth random texture.
LightField4D slanted_plane_lightfield(int w, int h, int n, float d0, float k, unsigned seed) {
  const int tw = w + 64, th = h + 64, m = 32;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u8(0, 255);
  std::vector<float> tex(static_cast<std::size_t>(tw) * th * 3);
  for (auto& v : tex) v = static_cast<float>(u8(rng));
  for (int pass = 0; pass < 2; ++pass) {  // two 3x3 box passes: texture with some correlation
    std::vector<float> t2 = tex;
    for (int y = 1; y < th - 1; ++y)
      for (int x = 1; x < tw - 1; ++x)
        for (int c = 0; c < 3; ++c) {
          float s = 0;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) s += tex[((y + dy) * tw + x + dx) * 3 + c];
          t2[(y * tw + x) * 3 + c] = s / 9;
        }
    tex = t2;
  }
  auto sample = [&](double x, double y, int c) {
    x = std::clamp(x + m, 0.0, tw - 1.001);
    y = std::clamp(y + m, 0.0, th - 1.001);
    const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
    const double fx = x - x0, fy = y - y0;
    auto t = [&](int xx, int yy) { return static_cast<double>(tex[(yy * tw + xx) * 3 + c]); };
    return (1 - fy) * ((1 - fx) * t(x0, y0) + fx * t(x0 + 1, y0)) + fy * ((1 - fx) * t(x0, y0 + 1) + fx * t(x0 + 1, y0 + 1));
  };
  LightField4D lf;
  lf.nu = lf.nv = n;
  lf.width = w;
  lf.height = h;
  lf.layout = "memory";
  lf.source = "synthetic slanted plane";
  const double S = cae::kShearSign;
  for (int v = 0; v < n; ++v)
    for (int u = 0; u < n; ++u) {
      ImageU8 img(w, h, 3);
      const double du = u - n / 2, dv = v - n / 2;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const double cx = (x - S * d0 * du) / (1 + S * k * du);
          const double d = d0 + k * cx;
          const double cy = y - S * d * dv;
          for (int c = 0; c < 3; ++c)
            img.at(x, y, c) = static_cast<std::uint8_t>(std::clamp(std::lround(sample(cx, cy, c)), 0l, 255l));
        }
      lf.views.push_back(std::move(img));
    }
  lf.gt = ImageF(w, h, 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) lf.gt.at(x, y) = d0 + k * static_cast<float>(x);
  return lf;
}
}  // namespace

TEST_CASE("lf refine: the guided filter equals the brute-force definition") {
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  struct C {
    int w, h, r;
    double eps;
    bool flat;
  };
  for (const C c : {C{17, 11, 2, 1e-4, false}, C{9, 5, 20, 1e-3, false}, C{31, 1, 3, 1e-4, false},
                    C{12, 12, 4, 1e-4, true}, C{23, 19, 0, 1e-2, false}}) {
    std::vector<double> I(static_cast<std::size_t>(c.w) * c.h), p(I.size());
    for (auto& v : I) v = c.flat ? 0.25 : u(rng);
    for (auto& v : p) v = u(rng);
    const auto got = guided_filter_cpu(I, p, c.w, c.h, c.r, c.eps);
    const auto want = brute_guided(I, p, c.w, c.h, c.r, c.eps);
    double d = 0;
    for (std::size_t i = 0; i < I.size(); ++i) d = std::max(d, std::abs(got[i] - want[i]));
    INFO(c.w << "x" << c.h << " r=" << c.r);
    CHECK(d < 1e-9);
  }
}

TEST_CASE("lf refine: math helpers") {
  CHECK(lfr::normalized(3.0f, 3.0f, 3.0f) == 0.0f);
  CHECK(lfr::normalized(2.0f, 1.0f, 5.0f) == doctest::Approx(0.25f));
  CHECK(lfr::parabola_offset(1.0f, 0.0f, 1.0f) == 0.0f);            // symmetric
  CHECK(lfr::parabola_offset(2.0f, 0.0f, 1.0f) == doctest::Approx(1.0f / 6.0f));
  CHECK(lfr::parabola_offset(0.0f, 1.0f, 0.0f) == 0.0f);            // not convex
  CHECK(lfr::parabola_offset(1.0f, 1.0f, 1.0f) == 0.0f);            // flat
  CHECK(lfr::parabola_offset(100.0f, 0.0f, -99.0f) == 0.5f);        // clamped
  // The 5-point least-squares fit recovers a quadratic's vertex exactly, and stays within a
  // label of the winner.
  for (const float v : {-0.9f, -0.4f, 0.0f, 0.3f, 0.8f}) {
    float c[9];
    for (int a = 0; a < 9; ++a) c[a] = 2.0f + 0.5f * (a - 4 - v) * (a - 4 - v);
    const int best = std::abs(v) > 0.5f ? (v > 0 ? 5 : 3) : 4;
    const float o = lfr::subpixel_offset([&](int a) { return c[a]; }, 9, best, true);
    CHECK(best + o == doctest::Approx(4.0f + v).epsilon(1e-5));
  }
  float vx = 0;
  CHECK_FALSE(lfr::lsq5_vertex(0.0f, 1.0f, 2.0f, 1.0f, 0.0f, vx));  // concave
  CHECK_FALSE(lfr::lsq5_vertex(1.0f, 1.0f, 1.0f, 1.0f, 1.0f, vx));  // flat
  {
    const float ramp[7] = {6.0f, 5.0f, 4.0f, 3.0f, 2.0f, 1.0f, 0.0f};  // the minimum at the end
    CHECK(lfr::subpixel_offset([&](int a) { return ramp[a]; }, 7, 6, true) == 0.0f);   // not convex: 0
    CHECK(lfr::subpixel_offset([&](int a) { return ramp[a]; }, 7, 6, false) == 0.0f);  // at the end: 0
    const float v4[4] = {3.0f, 1.0f, 2.0f, 4.0f};  // fewer than 5 labels: the parabola
    CHECK(lfr::subpixel_offset([&](int a) { return v4[a]; }, 4, 1, true) == lfr::parabola_offset(3.0f, 1.0f, 2.0f));
    const float far[7] = {9.0f, 9.0f, 0.0f, 9.0f, 9.0f, -20.0f, 9.0f};  // a wild fit is clamped
    const float o = lfr::subpixel_offset([&](int a) { return far[a]; }, 7, 2, true);
    CHECK(o >= -1.0f);
    CHECK(o <= 1.0f);
  }
  CHECK(lfr::confidence(0.0f, 1.0f) == 1.0f);
  CHECK(lfr::confidence(0.5f, 1.0f) == doctest::Approx(0.5f));
  CHECK(lfr::confidence(0.0f, INFINITY) == 0.0f);
  CHECK(lfr::confidence(0.0f, 0.0f) == 0.0f);
  // Fusion: the normalised gap, and the defocus share.
  CHECK(lfr::fusion_confidence(1.0f, 1.0f, 1.0f) == 0.0f);         // flat
  CHECK(lfr::fusion_confidence(0.0f, 2.0f, INFINITY) == 0.0f);     // no label far enough
  CHECK(lfr::fusion_confidence(1.0f, 3.0f, 2.0f) == 0.5f);
  CHECK(lfr::fusion_confidence(1.0f, 3.0f, 3.0f) == 1.0f);
  CHECK(lfr::fusion_weight(0.0f, 0.0f, 0.3f) == 0.3f);             // neither sure: the prior
  CHECK(lfr::fusion_weight(0.5f, 0.0f, 0.5f) == 0.0f);             // only CAE sure
  CHECK(lfr::fusion_weight(0.0f, 0.5f, 0.5f) == 1.0f);             // only defocus sure
  CHECK(lfr::fusion_weight(0.2f, 0.4f, 0.5f) == doctest::Approx(0.8f));  // 0.16 / (0.16 + 0.04)
  CHECK(lfr::fusion_weight(0.4f, 0.4f, 0.25f) == doctest::Approx(0.25f));
  CHECK(lfr::fusion_weight(0.9f, 0.1f, 1.0f) == 1.0f);             // w = 1: defocus alone
  CHECK(lfr::fusion_weight(0.1f, 0.9f, 0.0f) == 0.0f);             // w = 0: CAE alone
  const float curve[7] = {5.0f, 1.0f, 0.5f, 3.0f, 4.0f, 2.0f, 6.0f};
  const auto at = [&](int a) { return curve[a]; };
  const lfr::CurveStats st = lfr::curve_stats(at, 7, lfr::kFusionGap);
  CHECK(st.best == 2);
  CHECK(st.min == 0.5f);
  CHECK(st.max == 6.0f);
  CHECK(st.second == 2.0f);  // labels 0..4 are within 2 of the winner (2)
  CHECK(lfr::curve_stats(at, 7, 1).second == 2.0f);  // gap 1: labels 1..3 left out
  CHECK(lfr::curve_stats(at, 3, lfr::kFusionGap).second == INFINITY);
  float mn = 0, mx = 0;
  lfr::curve_range(at, 7, mn, mx);
  CHECK(mn == 0.5f);
  CHECK(mx == 6.0f);
}

// Confidence fusion: a cue whose curve picks nothing (a constant defocus volume) gets no
// share, so the result is the CAE cue's alone.
TEST_CASE("lf refine: confidence fusion ignores a flat cue") {
  const LightField4D lf = slanted_plane_lightfield(37, 23, 5, 0.4f, 0.01f, 7u);
  CaeParams cae;
  cae.views = 5;
  cae.labels = 13;
  cae.dmin = -1.5f;
  cae.dmax = 1.5f;
  cae.method = CaeMethod::Exact;
  CaeRunOptions o;
  o.keep_cost = true;
  const CaeRoi roi{0, 0, lf.width, lf.height};
  LfRefineParams p;
  p.mode = LfRefineMode::Subpixel;
  p.radius = 3;
  // Without the semi-global step: the fused curve is the CAE cue renormalised to [0, 1],
  // the CAE-only curve is not, and the step's fixed P1 / P2 price the two scales apart.
  p.semi_global = false;
  const ImageF guide = lf_refine_guide(lf.centre(), roi, p.color_guide);
  LfDepthResult raw = cae_depth_cpu(lf, cae, o);
  std::vector<float> cost = raw.cost;
  std::vector<float> flat(cost.size(), 4.0f);
  const LfRefineResult fused = refine_depth_cpu(cost, lf.width, lf.height, cae, guide, p, &flat);
  LfRefineParams alone = p;
  alone.defocus_weight = 0;
  const LfRefineResult cae_only = refine_depth_cpu(raw.cost, lf.width, lf.height, cae, guide, alone);
  CHECK(fused.filtered.data == cae_only.filtered.data);
  double worst = 0;
  for (std::size_t i = 0; i < fused.refined.data.size(); ++i)
    worst = std::max(worst, static_cast<double>(std::abs(fused.refined.data[i] - cae_only.refined.data[i])));
  CHECK(worst < 1e-4);  // the renormalised curve's parabola, rounded differently
}

TEST_CASE("lf refine: weighted median removes an outlier and keeps a constant map") {
  ImageF d(9, 7, 1), conf(9, 7, 1), g(9, 7, 1);
  std::fill(d.data.begin(), d.data.end(), 1.5f);
  std::fill(conf.data.begin(), conf.data.end(), 1.0f);
  std::fill(g.data.begin(), g.data.end(), 0.5f);
  CHECK(weighted_median_cpu(d, conf, g, 2, 0.1f).data == d.data);
  d.at(4, 3) = 9.0f;
  conf.at(4, 3) = 0.01f;
  const ImageF m = weighted_median_cpu(d, conf, g, 1, 0.1f);
  CHECK(m.at(4, 3) == 1.5f);
}

TEST_CASE("lf refine: edge cases and parameter errors") {
  CaeParams cae;
  cae.labels = 2;
  for (const bool color : {false, true})
    for (const float wdef : {0.0f, 0.5f})
    for (const bool fusion : {false, true}) {
      ImageF guide(5, 3, color ? 3 : 1);
      std::fill(guide.data.begin(), guide.data.end(), 0.3f);
      std::vector<float> flat(5 * 3 * 2, 7.0f);
      std::vector<float> flat_defocus(flat.size(), 2.0f);
      LfRefineParams p;
      p.mode = LfRefineMode::Full;
      p.radius = 40;  // larger than the image
      p.defocus_filter_radius = 60;  // larger than the image too
      p.color_guide = color;
      p.defocus_weight = wdef;
      p.confidence_fusion = fusion;
      const LfRefineResult r = refine_depth_cpu(flat, 5, 3, cae, guide, p, &flat_defocus);
      for (float v : r.refined.data) CHECK(v == cae.dmin);  // a flat curve: the first label
      for (float v : r.confidence.data) CHECK(v == 0.0f);
      std::vector<float> wrong(10, 0.0f);
      CHECK_THROWS_AS(refine_depth_cpu(wrong, 5, 3, cae, guide, p, &flat_defocus), Error);
      ImageF other(5, 3, color ? 1 : 3);  // a guide of the wrong kind
      CHECK_THROWS_AS(refine_depth_cpu(flat, 5, 3, cae, other, p, &flat_defocus), Error);
      if (wdef > 0) CHECK_THROWS_AS(refine_depth_cpu(flat, 5, 3, cae, guide, p, nullptr), Error);
    }
  ImageF guide(5, 3, 1);
  std::vector<float> flat(5 * 3 * 2, 7.0f);
  LfRefineParams p;
  p.color_guide = false;
  p.defocus_weight = 0;
  LfRefineParams bad;
  bad.eps = -1;
  CHECK_THROWS_AS(validate(bad), Error);
  bad = {};
  bad.radius = -2;
  CHECK_THROWS_AS(validate(bad), Error);
  bad = {};
  bad.median_sigma = std::nanf("");
  CHECK_THROWS_AS(validate(bad), Error);
  bad = {};
  bad.defocus_weight = 1.5f;
  CHECK_THROWS_AS(validate(bad), Error);
  bad = {};
  bad.defocus_radius = -1;
  CHECK_THROWS_AS(validate(bad), Error);
  bad = {};
  bad.defocus_filter_radius = 257;
  CHECK_THROWS_AS(validate(bad), Error);
  CHECK_THROWS_AS(parse_lf_refine_mode("graphcut"), Error);
  p.mode = LfRefineMode::None;
  CHECK_THROWS_AS(refine_depth_cpu(flat, 5, 3, cae, guide, p), Error);
}

TEST_CASE("lf refine: on a slanted plane the sub-pixel map beats WTA's quantisation") {
  const LightField4D lf = slanted_plane_lightfield(96, 64, 5, -1.0f, 0.02f, 3u);
  CaeParams cae;
  cae.views = 5;
  cae.labels = 21;
  cae.dmin = -1.5f;
  cae.dmax = 1.5f;  // label step 0.15 px: quantisation RMS 0.043
  cae.method = CaeMethod::Exact;
  CaeRunOptions o;
  o.keep_cost = true;
  const CaeRoi roi{0, 0, lf.width, lf.height};
  auto mse = [&](const ImageF& d) {
    double s = 0;
    int n = 0;
    for (int y = 8; y < lf.height - 8; ++y)
      for (int x = 8; x < lf.width - 8; ++x, ++n) {
        const double e = d.at(x, y) - lf.gt.at(x, y);
        s += e * e;
      }
    return s / n;
  };
  for (const bool color : {false, true})
    for (const float wdef : {0.0f, 0.3f, 0.5f}) {
      LfDepthResult raw = cae_depth_cpu(lf, cae, o);
      LfRefineParams p;
      p.mode = LfRefineMode::Subpixel;
      p.radius = 4;
      p.color_guide = color;
      p.defocus_weight = wdef;
      p.confidence_fusion = wdef == 0.5f;  // 0.3: the fixed blend
      p.subpixel_wide = !(color && wdef == 0.3f);  // one case with the 3-point parabola
      p.semi_global = wdef != 0.3f;                 // the fixed blend's cases without the semi-global step
      std::vector<float> defocus = defocus_cost_cpu(lf, cae, roi, p.defocus_radius);
      const LfRefineResult r =
          refine_depth_cpu(raw.cost, lf.width, lf.height, cae, lf_refine_guide(lf.centre(), roi, color), p, &defocus);
      const double m_raw = mse(raw.disparity), m_wta = mse(r.filtered), m_sub = mse(r.refined);
      MESSAGE("slanted plane MSE (" << std::string(color ? "rgb" : "gray") << " guide, defocus weight " << wdef
                                    << std::string(p.confidence_fusion ? " confidence fusion" : " fixed")
                                    << std::string(p.subpixel_wide ? ", 5-point fit" : ", parabola")
                                    << std::string(p.semi_global ? ", semi-global" : "") << "): raw WTA "
                                    << m_raw << ", filtered WTA " << m_wta << ", sub-pixel " << m_sub);
      CHECK(m_sub * 2.0 <= m_wta);  // at least 2x below the labels' quantisation error
      CHECK(m_wta < 0.01);          // the filtered labels are right (quantisation only: 0.0019)
    }
}

// The defocus cost: its raw term is smallest at the true label on a textured fronto-parallel
// plane, and the box mean is the clipped window mean of the raw term (radius 0).
TEST_CASE("lf refine: defocus cost finds a plane's label and box-filters like the definition") {
  const LightField4D lf = slanted_plane_lightfield(41, 29, 5, 0.6f, 0.0f, 11u);  // d = 0.6: label 7 of 11
  CaeParams cae;
  cae.views = 5;
  cae.labels = 11;
  cae.dmin = -1.5f;
  cae.dmax = 1.5f;
  const CaeRoi roi{3, 2, 33, 21};  // a region: samples still come from the whole views
  const std::vector<float> raw = defocus_cost_cpu(lf, cae, roi, 0);
  const std::size_t n = static_cast<std::size_t>(roi.w) * roi.h;
  std::size_t right = 0;
  for (std::size_t i = 0; i < n; ++i) {
    int best = 0;
    for (int a = 1; a < cae.labels; ++a)
      if (raw[a * n + i] < raw[best * n + i]) best = a;
    right += best == 7;
  }
  MESSAGE("defocus WTA at the plane's label: " << right << " of " << n);
  CHECK(right * 10 >= n * 9);
  for (const int r : {1, 3, 40}) {
    const std::vector<float> box = defocus_cost_cpu(lf, cae, roi, r);
    for (int a : {0, 7, 10}) {
      const std::vector<double> slice(raw.begin() + a * n, raw.begin() + (a + 1) * n);
      const std::vector<double> ref = brute_box(slice, roi.w, roi.h, r);
      double worst = 0;
      for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(ref[i] - box[a * n + i]) / (1 + ref[i]));
      CHECK(worst < 1e-6);
    }
  }
  // The full view's region equals the region's run (the samples come from the whole views).
  const std::vector<float> full = defocus_cost_cpu(lf, cae, {}, 0);
  CHECK(full[7 * 41 * 29 + 5 * 41 + 9] == raw[7 * n + 3 * roi.w + 6]);
}

namespace {
// The semi-global recurrence written out plainly in double (the definition semi_global_cpu
// rounds in float): 4 paths, each L(p, a) = C(p, a) + min(L(q, a), L(q, a +- 1) + P1,
// min L(q) + P2 / (1 + dI / edge)) - min L(q), summed.
std::vector<double> brute_semi_global(const std::vector<float>& C, int w, int h, int A, const ImageF& g, double p1,
                                      double p2, double edge) {
  const std::size_t n = static_cast<std::size_t>(w) * h;
  std::vector<double> S(C.size(), 0.0);
  const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
  for (int k = 0; k < 4; ++k) {
    std::vector<double> L(C.size());
    // Visit pixels in the path's order: previous pixel (x - dx, y - dy) done first.
    for (int yi = 0; yi < h; ++yi)
      for (int xi = 0; xi < w; ++xi) {
        const int x = dx[k] < 0 ? w - 1 - xi : xi, y = dy[k] < 0 ? h - 1 - yi : yi;
        const int qx = x - dx[k], qy = y - dy[k];
        const std::size_t i = static_cast<std::size_t>(y) * w + x;
        if (qx < 0 || qy < 0 || qx >= w || qy >= h) {
          for (int a = 0; a < A; ++a) L[a * n + i] = C[a * n + i];
          continue;
        }
        const std::size_t q = static_cast<std::size_t>(qy) * w + qx;
        double m = INFINITY, diff = 0;
        for (int a = 0; a < A; ++a) m = std::min(m, L[a * n + q]);
        for (int c = 0; c < g.channels; ++c) diff += std::abs(double(g.data[i * g.channels + c]) - g.data[q * g.channels + c]);
        const double jump = p2 / (1 + diff / g.channels / edge);
        for (int a = 0; a < A; ++a) {
          double best = std::min(L[a * n + q], m + jump);
          if (a > 0) best = std::min(best, L[(a - 1) * n + q] + p1);
          if (a + 1 < A) best = std::min(best, L[(a + 1) * n + q] + p1);
          L[a * n + i] = C[a * n + i] + best - m;
        }
      }
    for (std::size_t j = 0; j < S.size(); ++j) S[j] += L[j];
  }
  return S;
}
// The weighted data term written out: each pixel's curve times (c_second - c_min) / (c_max -
// c_min), c_second the smallest cost more than 2 labels from the first minimum (0 when flat
// or when no label is that far).
std::vector<float> brute_weighted(const std::vector<float>& C, std::size_t n, int A) {
  std::vector<float> out(C.size());
  for (std::size_t i = 0; i < n; ++i) {
    int best = 0;
    float mn = C[i], mx = C[i], second = INFINITY;
    for (int a = 1; a < A; ++a) {
      const float c = C[a * n + i];
      if (c < mn) mn = c, best = a;
      mx = std::max(mx, c);
    }
    for (int a = 0; a < A; ++a)
      if (std::abs(a - best) > 2) second = std::min(second, C[a * n + i]);
    const float wt = mx > mn && second <= mx ? std::clamp((second - mn) / (mx - mn), 0.0f, 1.0f) : 0.0f;
    for (int a = 0; a < A; ++a) out[a * n + i] = C[a * n + i] * wt;
  }
  return out;
}
int wta_label(const std::vector<float>& v, std::size_t n, int A, std::size_t i) {
  int best = 0;
  for (int a = 1; a < A; ++a)
    if (v[a * n + i] < v[best * n + i]) best = a;
  return best;
}
}  // namespace

TEST_CASE("lf refine: semi-global aggregation against its definition, an outlier, a colour edge, unsure pixels") {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f);
  // Random volumes of awkward sizes (a single row / column, one label), both guides.
  struct Case { int w, h, A, gc; };
  for (const Case c : {Case{13, 7, 9, 1}, Case{11, 6, 5, 3}, Case{17, 1, 4, 3}, Case{1, 9, 3, 1}, Case{6, 5, 1, 1}}) {
    const std::size_t n = static_cast<std::size_t>(c.w) * c.h;
    std::vector<float> C(n * c.A);
    for (auto& v : C) v = u01(rng);
    ImageF g(c.w, c.h, c.gc);
    for (auto& v : g.data) v = u01(rng) < 0.7f ? 0.4f : u01(rng);  // flat patches and edges
    for (const float p1 : {0.0f, 0.1f})
      for (const float p2 : {0.0f, 3.0f}) {
        for (const bool weighted : {false, true}) {
          const std::vector<float> got = semi_global_cpu(C, c.w, c.h, c.A, g, p1, p2, 0.01f, weighted, 2);
          const std::vector<double> ref =
              brute_semi_global(weighted ? brute_weighted(C, n, c.A) : C, c.w, c.h, c.A, g, p1, p2, 0.01);
          double worst = 0;
          for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - ref[i]));
          INFO(c.w << "x" << c.h << " L=" << c.A << " gc=" << c.gc << " P1 " << p1 << " P2 " << p2
                   << (weighted ? " weighted" : ""));
          CHECK(worst < 1e-4);  // float against double: a few ulps of values below ~ 4 (w + h)
        }
      }
  }
  // One pixel whose curve prefers label 15 in a field that prefers label 5: the paths vote it
  // back; with P1 = P2 = 0 every path is the cost itself and nothing changes.
  const int w = 15, h = 9, A = 21;
  const std::size_t n = static_cast<std::size_t>(w) * h;
  std::vector<float> C(n * A);
  for (std::size_t i = 0; i < n; ++i)
    for (int a = 0; a < A; ++a) C[a * n + i] = std::abs(a - (i == 4 * w + 6 ? 15 : 5)) / float(A);
  ImageF flat(w, h, 3);
  std::fill(flat.data.begin(), flat.data.end(), 0.5f);
  CHECK(wta_label(semi_global_cpu(C, w, h, A, flat, 0.1f, 3.0f, 0.01f), n, A, 4 * w + 6) == 5);
  CHECK(wta_label(semi_global_cpu(C, w, h, A, flat, 0.0f, 0.0f, 0.01f), n, A, 4 * w + 6) == 15);
  // Two halves at labels 3 and 12, split at x = 7: with a colour edge there the jump is cheap
  // and every pixel keeps its own label; without it the paths may carry a label a few pixels
  // past the boundary, but the halves' interiors keep theirs.
  for (std::size_t i = 0; i < n; ++i)
    for (int a = 0; a < A; ++a) C[a * n + i] = std::abs(a - (i % w < 7 ? 3 : 12)) / float(A);
  ImageF edge = flat;
  for (std::size_t i = 0; i < n; ++i)
    if (i % w >= 7) edge.data[i * 3 + 1] = 0.9f;
  const std::vector<float> se = semi_global_cpu(C, w, h, A, edge, 0.1f, 3.0f, 0.01f);
  const std::vector<float> sf = semi_global_cpu(C, w, h, A, flat, 0.1f, 3.0f, 0.01f);
  for (std::size_t i = 0; i < n; ++i) {
    const int want = i % w < 7 ? 3 : 12;
    CHECK(wta_label(se, n, A, i) == want);
    if (i % w < 3 || i % w > 10) CHECK(wta_label(sf, n, A, i) == want);
  }
  // A wide band of unsure pixels (their curves: 0 at label 15, 0.05 at label 5, 1 elsewhere:
  // confidence 0.05) in a field sure of label 5. Unweighted, 30 px of 0.05 outweigh one jump
  // (P2 1) and the band's middle takes label 15; weighted, the band follows its neighbours.
  {
    const int bw = 101, bh = 5;
    const std::size_t bn = static_cast<std::size_t>(bw) * bh;
    std::vector<float> B(bn * A);
    for (std::size_t i = 0; i < bn; ++i)
      for (int a = 0; a < A; ++a) {
        const bool band = i % bw >= 20 && i % bw <= 80;
        B[a * bn + i] = band ? (a == 15 ? 0.0f : a == 5 ? 0.05f : 1.0f) : std::abs(a - 5) / float(A);
      }
    ImageF bg(bw, bh, 3);
    std::fill(bg.data.begin(), bg.data.end(), 0.5f);
    const std::size_t mid = 2 * bw + 50;
    CHECK(wta_label(semi_global_cpu(B, bw, bh, A, bg, 0.02f, 1.0f, 0.005f, false), bn, A, mid) == 15);
    CHECK(wta_label(semi_global_cpu(B, bw, bh, A, bg, 0.02f, 1.0f, 0.005f, true), bn, A, mid) == 5);
  }
  // Errors name the problem.
  CHECK_THROWS_AS(semi_global_cpu(C, w, h + 1, A, flat, 0.1f, 3.0f, 0.01f), Error);
  CHECK_THROWS_AS(semi_global_cpu(C, w, h, A, ImageF(w, h + 1, 1), 0.1f, 3.0f, 0.01f), Error);
  LfRefineParams bad;
  bad.sgm_p1 = -0.1f;
  CHECK_THROWS_AS(validate(bad), Error);
  bad = {};
  bad.sgm_p2 = std::nanf("");
  CHECK_THROWS_AS(validate(bad), Error);
  bad = {};
  bad.sgm_edge = 0.0f;
  CHECK_THROWS_AS(validate(bad), Error);
}
