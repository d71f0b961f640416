// CPU reference of the light-field depth refinement (lightbench/lf_refine.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "lightbench/error.hpp"
#include "lightbench/guided_filter_cpu.hpp"
#include "lightbench/lf_refine.hpp"
#include "lightbench/lf_refine_math.hpp"
#include "lightbench/parallel.hpp"

namespace lb {

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

const char* to_string(LfRefineMode m) {
  switch (m) {
    case LfRefineMode::None: return "none";
    case LfRefineMode::Filter: return "filter";
    case LfRefineMode::Subpixel: return "subpixel";
    case LfRefineMode::Full: return "full";
  }
  return "?";
}

LfRefineMode parse_lf_refine_mode(const std::string& s) {
  for (LfRefineMode m : {LfRefineMode::None, LfRefineMode::Filter, LfRefineMode::Subpixel, LfRefineMode::Full})
    if (s == to_string(m)) return m;
  throw Error("--refine '" + s + "': use none, filter, subpixel or full");
}

void validate(const LfRefineParams& p) {
  LB_REQUIRE(p.radius >= 0 && p.radius <= 256, "--gf-radius (refine radius): must be in 0..256, got " + std::to_string(p.radius));
  LB_REQUIRE(std::isfinite(p.eps) && p.eps > 0.0f && p.eps <= 100.0f,
             "--gf-eps (refine eps): must be in (0, 100], got " + std::to_string(p.eps));
  LB_REQUIRE(p.median_radius >= 0 && p.median_radius <= 32,
             "--median-radius: must be in 0..32, got " + std::to_string(p.median_radius));
  LB_REQUIRE(std::isfinite(p.median_sigma) && p.median_sigma > 0.0f && p.median_sigma <= 10.0f,
             "--median-sigma: must be in (0, 10], got " + std::to_string(p.median_sigma));
  LB_REQUIRE(p.median_iterations >= 0 && p.median_iterations <= 16,
             "--median-iterations: must be in 0..16, got " + std::to_string(p.median_iterations));
}

std::vector<ParamInfo> describe(LfRefineParams& p) {
  using K = ParamInfo::Kind;
  return {
      {"gf_radius", "filter radius", "guided filter window radius on every label slice (px)", K::Int, &p.radius, 0, 40},
      {"gf_eps", "filter eps", "guided filter regulariser (guide gray on [0, 1]): larger smooths across edges",
       K::Float, &p.eps, 1e-6, 1e-1},
      {"median_radius", "median radius", "full: window radius of the guided, confidence-weighted median", K::Int,
       &p.median_radius, 0, 20},
      {"median_sigma", "median sigma", "full: guide difference at which a neighbour's weight falls to 0.61",
       K::Float, &p.median_sigma, 0.005, 1.0},
      {"median_iterations", "median passes", "full: weighted-median iterations", K::Int, &p.median_iterations, 0, 8},
  };
}

ImageF lf_refine_guide(const ImageU8& view, const CaeRoi& roi) {
  LB_REQUIRE(view.channels >= 1, "refine: empty centre view");
  ImageF g(roi.w, roi.h, 1);
  for (int y = 0; y < roi.h; ++y)
    for (int x = 0; x < roi.w; ++x) {
      const std::uint8_t* px =
          &view.data[(static_cast<std::size_t>(y + roi.y) * view.width + (x + roi.x)) * view.channels];
      g.data[static_cast<std::size_t>(y) * roi.w + x] =
          view.channels >= 3 ? lfr::guide_gray(px[0], px[1], px[2]) : lfr::guide_gray(px[0], px[0], px[0]);
    }
  return g;
}

std::vector<double> guided_filter_cpu(const std::vector<double>& I, const std::vector<double>& p, int w, int h, int r,
                                      double eps) {
  const std::size_t n = static_cast<std::size_t>(w) * h;
  std::vector<double> ip(n), ii(n);
  for (std::size_t i = 0; i < n; ++i) ip[i] = I[i] * p[i], ii[i] = I[i] * I[i];
  const BoxMean bi(I, w, h, r), bp(p, w, h, r), bip(ip, w, h, r), bii(ii, w, h, r);
  std::vector<double> a(n), b(n), q(n);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      const double mi = bi.at(x, y), mp = bp.at(x, y);
      a[i] = (bip.at(x, y) - mi * mp) / (bii.at(x, y) - mi * mi + eps);
      b[i] = mp - a[i] * mi;
    }
  const BoxMean ba(a, w, h, r), bb(b, w, h, r);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      q[i] = ba.at(x, y) * I[i] + bb.at(x, y);
    }
  return q;
}

ImageF weighted_median_cpu(const ImageF& disp, const ImageF& conf, const ImageF& guide, int radius, float sigma,
                           int threads) {
  const int w = disp.width, h = disp.height;
  ImageF out(w, h, 1);
  parallel_for(
      h,
      [&](int y) {
        std::vector<std::pair<float, float>> win;
        for (int x = 0; x < w; ++x) {
          win.clear();
          const float gi = guide.data[static_cast<std::size_t>(y) * w + x];
          double total = 0;
          for (int yy = std::max(0, y - radius); yy <= std::min(h - 1, y + radius); ++yy)
            for (int xx = std::max(0, x - radius); xx <= std::min(w - 1, x + radius); ++xx) {
              const std::size_t j = static_cast<std::size_t>(yy) * w + xx;
              const float wt = lfr::median_weight(gi, guide.data[j], sigma) * std::max(conf.data[j], 1e-3f);
              win.emplace_back(disp.data[j], wt);
              total += wt;
            }
          std::sort(win.begin(), win.end());
          double acc = 0;
          float m = win.back().first;
          for (const auto& [v, wt] : win) {
            acc += wt;
            if (acc >= 0.5 * total) {
              m = v;
              break;
            }
          }
          out.data[static_cast<std::size_t>(y) * w + x] = m;
        }
      },
      threads);
  return out;
}

LfRefineResult refine_depth_cpu(std::vector<float>& cost, int w, int h, const CaeParams& cae, const ImageF& guide,
                                const LfRefineParams& p, int threads) {
  validate(p);
  LB_REQUIRE(p.mode != LfRefineMode::None, "refine: mode none has nothing to refine");
  const int A = cae.labels;
  const std::size_t n = static_cast<std::size_t>(w) * h;
  LB_REQUIRE(w > 0 && h > 0 && cost.size() == n * static_cast<std::size_t>(A),
             "refine: the cost volume does not match the region and label count");
  LB_REQUIRE(guide.width == w && guide.height == h, "refine: the guide does not match the region");
  LfRefineResult r;
  double t = now_ms();
  parallel_for(
      h,
      [&](int y) {
        for (int x = 0; x < w; ++x) {
          const std::size_t i = static_cast<std::size_t>(y) * w + x;
          float mn = cost[i], mx = cost[i];
          for (int a = 1; a < A; ++a) mn = std::min(mn, cost[a * n + i]), mx = std::max(mx, cost[a * n + i]);
          for (int a = 0; a < A; ++a) cost[a * n + i] = lfr::normalized(cost[a * n + i], mn, mx);
        }
      },
      threads);
  r.normalize_ms = now_ms() - t;
  t = now_ms();
  const std::vector<double> I(guide.data.begin(), guide.data.end());
  parallel_for(
      A,
      [&](int a) {
        const std::vector<double> slice(cost.begin() + a * n, cost.begin() + (a + 1) * n);
        const std::vector<double> q = guided_filter_cpu(I, slice, w, h, p.radius, p.eps);
        for (std::size_t i = 0; i < n; ++i) cost[a * n + i] = static_cast<float>(q[i]);
      },
      threads);
  r.filter_ms = now_ms() - t;
  t = now_ms();
  r.filtered = ImageF(w, h, 1);
  r.refined = ImageF(w, h, 1);
  r.confidence = ImageF(w, h, 1);
  const bool sub = p.mode == LfRefineMode::Subpixel || p.mode == LfRefineMode::Full;
  parallel_for(
      h,
      [&](int y) {
        for (int x = 0; x < w; ++x) {
          const std::size_t i = static_cast<std::size_t>(y) * w + x;
          int best = 0;
          float bc = cost[i];
          for (int a = 1; a < A; ++a)
            if (cost[a * n + i] < bc) bc = cost[a * n + i], best = a;
          float off = 0;
          if (sub && best > 0 && best < A - 1) off = lfr::parabola_offset(cost[(best - 1) * n + i], bc, cost[(best + 1) * n + i]);
          float second = INFINITY;
          for (int a = 0; a < A; ++a)
            if (a < best - 1 || a > best + 1) second = std::min(second, cost[a * n + i]);
          r.filtered.data[i] = lfr::label_to_disparity(cae.dmin, cae.dmax, A, static_cast<float>(best));
          r.refined.data[i] = lfr::label_to_disparity(cae.dmin, cae.dmax, A, static_cast<float>(best) + off);
          r.confidence.data[i] = lfr::confidence(bc, second);
        }
      },
      threads);
  r.wta_ms = now_ms() - t;
  if (p.mode == LfRefineMode::Full) {
    t = now_ms();
    for (int k = 0; k < p.median_iterations; ++k)
      r.refined = weighted_median_cpu(r.refined, r.confidence, guide, p.median_radius, p.median_sigma, threads);
    r.median_ms = now_ms() - t;
  }
  if (p.mode == LfRefineMode::Filter) r.refined = r.filtered;
  return r;
}

LfRefineResult run_refined(LightFieldDepthEstimator& est, const CaeParams& p, const std::string& variant,
                           CaeRunOptions o, const LfRefineParams& rp, const ImageF& guide, LfDepthResult* raw,
                           bool* on_device) {
  validate(rp);
  LB_REQUIRE(raw != nullptr, "run_refined: no place for the raw result");
  LfRefineResult r;
  if (est.refine_device(p, variant, o, rp, guide, raw, &r)) {
    if (on_device) *on_device = true;
    return r;
  }
  if (on_device) *on_device = false;
  o.keep_cost = true;
  *raw = est.run(p, variant, o);
  r = refine_depth_cpu(raw->cost, raw->roi.w, raw->roi.h, p, guide, rp);
  raw->cost.clear();
  return r;
}

}  // namespace lb
