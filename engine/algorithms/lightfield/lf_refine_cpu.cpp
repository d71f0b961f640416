// CPU reference of the light-field depth refinement (lightfield/lf_refine.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "lightfield/cae_math.hpp"
#include "lightfield/lightfield_engine.hpp"
#include "lightbench/error.hpp"
#include "lightfield/guided_filter_cpu.hpp"
#include "lightfield/lf_refine.hpp"
#include "lightfield/lf_refine_math.hpp"
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

// The ranges are describe()'s, the one declaration (check_ranges): the CLI, the viewer's
// sliders and this check cannot disagree (they did: gf_radius 0..40 there, 0..256 here; the
// radii and passes now take the wider bounds the kernels are tested at, e.g. a radius of 100).
void validate(const LfRefineParams& p) {
  LfRefineParams q = p;
  check_ranges(describe(q));
}

std::vector<ParamInfo> describe(LfRefineParams& p) {
  using K = ParamInfo::Kind;
  return {
      {"defocus_weight", "defocus weight",
       "weight of the defocus cost (|refocus - centre|) blended with the CAE cost; 0: CAE alone", K::Float,
       &p.defocus_weight, 0.0, 1.0},
      {"defocus_radius", "defocus window", "radius of the defocus cost's box window (px)", K::Int, &p.defocus_radius,
       0, 32},
      {"fusion_confidence", "confidence fusion",
       "filter the CAE and defocus costs apart and fuse them per pixel by their curves' confidence (off: a fixed "
       "blend before one filter)",
       K::Bool, &p.confidence_fusion, 0, 1},
      {"defocus_filter_radius", "defocus filter",
       "confidence fusion: guided filter radius of the defocus cost (px)", K::Int, &p.defocus_filter_radius, 0, 256},
      {"subpixel_wide", "5-point sub-pixel fit",
       "sub-pixel offset from the least-squares quadratic through 5 labels around the winner (off: the 3-point "
       "parabola)",
       K::Bool, &p.subpixel_wide, 0, 1},
      {"gf_color", "colour guide", "guide the filter and the median by the centre view's colour (off: its gray)",
       K::Bool, &p.color_guide, 0, 1},
      {"gf_radius", "filter radius", "guided filter window radius on every label slice (px)", K::Int, &p.radius, 0, 256},
      {"gf_eps", "filter eps", "guided filter regulariser (guide on [0, 1]): larger smooths across weak edges",
       K::Float, &p.eps, 1e-7, 1e-1},
      {"semi_global", "semi-global",
       "aggregate the fused costs along 4 scanline paths before the WTA (the graph-cut stand-in)", K::Bool,
       &p.semi_global, 0, 1},
      {"sgm_weighted", "SGM weighted",
       "semi-global: weigh each pixel's costs by its confidence, so unsure pixels follow their neighbours", K::Bool,
       &p.sgm_weighted, 0, 1},
      {"sgm_p1", "SGM P1", "semi-global: price of a one-label step between neighbours (fused cost scale [0, 1])",
       K::Float, &p.sgm_p1, 0.0, 1.0},
      {"sgm_p2", "SGM P2", "semi-global: price of a larger depth jump", K::Float, &p.sgm_p2, 0.0, 10.0},
      {"sgm_edge", "SGM edge", "semi-global: guide difference at which the jump price halves", K::Float,
       &p.sgm_edge, 0.001, 0.5},
      {"median_radius", "median radius", "full: window radius of the guided, confidence-weighted median", K::Int,
       &p.median_radius, 0, 32},
      {"median_sigma", "median sigma", "full: guide difference at which a neighbour's weight falls to 0.61",
       K::Float, &p.median_sigma, 0.005, 1.0},
      {"median_iterations", "median passes", "full: weighted-median iterations", K::Int, &p.median_iterations, 0, 16},
  };
}

std::uint64_t lf_refine_host_bytes(const LfRefineParams& rp, const CaeParams& p, int w, int h) {
  const std::uint64_t n = std::uint64_t(w) * std::uint64_t(h), A = std::uint64_t(std::max(p.labels, 1));
  const std::uint64_t defocus = rp.defocus_weight > 0.0f ? 4 * n * A + 8 * n * std::uint64_t(default_thread_count()) : 0;
  // Each filtering worker holds its slice, the output and the filter's box tables (about 20
  // double planes for the colour guide, 10 for gray); the guide (3 planes); 4 output maps.
  const std::uint64_t per_worker = (rp.color_guide ? 20 : 10) * 8 * n;
  // The semi-global step's sum volume (its per-line state is small).
  const std::uint64_t sgm = rp.semi_global ? 4 * n * A + 4 * n : 0;  // the sum, the data term's weights
  return defocus + sgm + per_worker * std::uint64_t(default_thread_count()) + 3 * 8 * n + 4 * 4 * n;
}

std::uint64_t lf_refine_device_bytes(const LfRefineParams& rp, const CaeParams& p, int w, int h) {
  const std::uint64_t n = std::uint64_t(w) * std::uint64_t(h), vol = n * std::uint64_t(std::max(p.labels, 1));
  // The filtered volume (+ the defocus one), the filter's scratch (kernels/lightfield/guided_filter.hpp:
  // gray 4 volumes + 2 planes, colour 8 volumes + 9 planes), the guide planes, 4 maps.
  // The semi-global step's 4 path volumes reuse the filter's scratch (at least 4 volumes).
  const std::uint64_t scratch = rp.color_guide ? 4 * (std::max<std::uint64_t>(8 * vol, 9 * n) + 9 * n)
                                               : 4 * (4 * vol + 2 * n);
  // With the defocus cost: its volume and the window's views in float (16 bytes a pixel).
  const std::uint64_t views = std::uint64_t(std::max(p.views, 1)) * std::uint64_t(std::max(p.views, 1));
  const std::uint64_t defocus = rp.defocus_weight > 0.0f ? 4 * vol + 16 * n * views : 0;
  // The guide's statistics for both filters, computed beside the CAE pass (colour 9 planes a
  // filter, gray 2).
  const std::uint64_t stats = 4 * n * 2 * (rp.color_guide ? 9 : 2);
  return 4 * vol + defocus + scratch + stats + 4 * n * ((rp.color_guide ? 3 : 1) + 4);
}

ImageF lf_refine_guide(const ImageU8& view, const CaeRoi& roi, bool color) {
  LB_REQUIRE(view.channels >= 1, "refine: empty centre view");
  ImageF g(roi.w, roi.h, color ? 3 : 1);
  for (int y = 0; y < roi.h; ++y)
    for (int x = 0; x < roi.w; ++x) {
      const std::uint8_t* px =
          &view.data[(static_cast<std::size_t>(y + roi.y) * view.width + (x + roi.x)) * view.channels];
      const std::uint8_t r = px[0], gr = view.channels >= 3 ? px[1] : px[0], b = view.channels >= 3 ? px[2] : px[0];
      float* o = &g.data[(static_cast<std::size_t>(y) * roi.w + x) * g.channels];
      if (color)
        o[0] = r / 255.0f, o[1] = gr / 255.0f, o[2] = b / 255.0f;
      else
        o[0] = lfr::guide_gray(r, gr, b);
    }
  return g;
}

std::vector<float> defocus_cost_cpu(const LightField4D& lf, const CaeParams& p, const CaeRoi& roi_in, int radius,
                                    int threads) {
  validate(p, lf);
  const CaeRoi roi = resolve_roi(roi_in, lf.width, lf.height);
  const std::size_t n = static_cast<std::size_t>(roi.w) * roi.h;
  std::vector<float> out(n * static_cast<std::size_t>(p.labels));
  const refocus::Aperture ap = refocus::aperture(lf.nu, lf.nv, p.views / 2);
  const ImageU8& c = lf.centre();
  // Views by rows (lfr::defocus_raw's access).
  struct Rows {
    const LightField4D& lf;
    struct Row {
      const std::uint8_t* p;
      int ch;
      refocus::Rgb8 operator[](int px) const {
        const std::uint8_t* q = p + static_cast<std::size_t>(px) * ch;
        return refocus::Rgb8{q[0], q[1], q[2]};
      }
    };
    Row row(int u, int v, int py) const {
      const ImageU8& im = lf.view(u, v);
      return Row{&im.data[static_cast<std::size_t>(py) * im.width * im.channels], im.channels};
    }
  } rows{lf};
  parallel_for(
      p.labels,
      [&](int a) {
        const float d = cae::label_disparity(p.dmin, p.dmax, p.labels, a);
        std::vector<double> raw(n);
        for (int y = 0; y < roi.h; ++y)
          for (int x = 0; x < roi.w; ++x) {
            const std::uint8_t* cp = &c.data[(static_cast<std::size_t>(y + roi.y) * lf.width + x + roi.x) * c.channels];
            raw[static_cast<std::size_t>(y) * roi.w + x] = lfr::defocus_raw(rows, lf.width, lf.height, ap, d, x + roi.x,
                                                                            y + roi.y, refocus::Rgb8{cp[0], cp[1], cp[2]});
          }
        float* o = &out[a * n];
        if (radius == 0) {  // the raw term itself (an integral image would round it)
          for (std::size_t i = 0; i < n; ++i) o[i] = static_cast<float>(raw[i]);
          return;
        }
        const BoxMean box(raw, roi.w, roi.h, radius);
        for (int y = 0; y < roi.h; ++y)
          for (int x = 0; x < roi.w; ++x) o[static_cast<std::size_t>(y) * roi.w + x] = static_cast<float>(box.at(x, y));
      },
      threads);
  return out;
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

std::vector<float> semi_global_cpu(const std::vector<float>& cost, int w, int h, int labels, const ImageF& guide,
                                   float p1, float p2, float edge, bool weighted, int threads) {
  const std::size_t n = static_cast<std::size_t>(w) * h;
  LB_REQUIRE(w > 0 && h > 0 && labels >= 1 && cost.size() == n * static_cast<std::size_t>(labels),
             "semi-global: the cost volume does not match the region and label count");
  LB_REQUIRE(guide.width == w && guide.height == h && guide.channels >= 1,
             "semi-global: the guide does not match the region");
  // The weighted data term's per-pixel weights (a plane, as on the device), applied as each
  // path reads a cost.
  std::vector<float> weight;
  if (weighted) {
    weight.resize(n);
    parallel_for(
        h,
        [&](int y) {
          for (int x = 0; x < w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * w + x;
            weight[i] = lfr::sgm_data_weight([&](int a) { return cost[a * n + i]; }, labels);
          }
        },
        threads);
  }
  std::vector<float> sum(cost.size());
  const int gc = guide.channels;
  // Path k: lines of pixels (line, step) -> index; x-paths run along rows.
  for (int k = 0; k < lfr::kSgmPaths; ++k) {
    const bool along_x = k < 2, forward = k % 2 == 0;
    const int lines = along_x ? h : w, steps = along_x ? w : h;
    parallel_for(
        lines,
        [&](int line) {
          std::vector<float> prev(labels), cur(labels);
          float m = 0.0f;
          std::size_t q = 0;
          for (int s = 0; s < steps; ++s) {
            const int t = forward ? s : steps - 1 - s;
            const std::size_t i = along_x ? static_cast<std::size_t>(line) * w + t : static_cast<std::size_t>(t) * w + line;
            float jump = 0.0f;
            if (s > 0) {
              const float* gi = &guide.data[i * gc];
              const float* gq = &guide.data[q * gc];
              jump = lfr::sgm_jump_penalty(p2, lfr::sgm_guide_diff([&](int c) { return gi[c]; },
                                                                   [&](int c) { return gq[c]; }, gc),
                                           edge);
            }
            float mn = INFINITY;
            for (int a = 0; a < labels; ++a) {
              const float c = weighted ? rnd::mul(cost[a * n + i], weight[i]) : cost[a * n + i];
              cur[a] = s == 0 ? c
                              : lfr::sgm_step(c, prev[a], a > 0 ? prev[a - 1] : INFINITY,
                                              a + 1 < labels ? prev[a + 1] : INFINITY, m, p1, jump);
              mn = cur[a] < mn ? cur[a] : mn;
            }
            for (int a = 0; a < labels; ++a) {
              float& o = sum[a * n + i];
              o = k == 0 ? cur[a] : rnd::add(o, cur[a]);
            }
            std::swap(prev, cur);
            m = mn;
            q = i;
          }
        },
        threads);
  }
  return sum;
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
          const int gc = guide.channels;
          const float* gi = &guide.data[(static_cast<std::size_t>(y) * w + x) * gc];
          double total = 0;
          for (int yy = std::max(0, y - radius); yy <= std::min(h - 1, y + radius); ++yy)
            for (int xx = std::max(0, x - radius); xx <= std::min(w - 1, x + radius); ++xx) {
              const std::size_t j = static_cast<std::size_t>(yy) * w + xx;
              float d2 = 0;
              for (int c = 0; c < gc; ++c) {
                const float d = gi[c] - guide.data[j * gc + c];
                d2 += d * d;
              }
              const float wt = lfr::median_weight(d2, sigma) * std::max(conf.data[j], 1e-3f);
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
                                const LfRefineParams& p, std::vector<float>* defocus, int threads) {
  validate(p);
  LB_REQUIRE(p.mode != LfRefineMode::None, "refine: mode none has nothing to refine");
  const int A = cae.labels;
  const std::size_t n = static_cast<std::size_t>(w) * h;
  LB_REQUIRE(w > 0 && h > 0 && cost.size() == n * static_cast<std::size_t>(A),
             "refine: the cost volume does not match the region and label count");
  LB_REQUIRE(guide.width == w && guide.height == h && guide.channels == (p.color_guide ? 3 : 1),
             "refine: the guide does not match the region");
  const bool blend = p.defocus_weight > 0.0f;
  const bool fuse = blend && p.confidence_fusion;
  LB_REQUIRE(!blend || (defocus && defocus->size() == cost.size()),
             "refine: the defocus cost volume does not match the region and label count");
  LfRefineResult r;
  double t = now_ms();
  // Each pixel's curve min-max normalised in place.
  auto range = [&](const std::vector<float>& v, std::size_t i, float& mn, float& mx) {
    lfr::curve_range([&](int a) { return v[a * n + i]; }, A, mn, mx);
  };
  auto normalize = [&](std::vector<float>& v, std::size_t i) {
    float mn, mx;
    range(v, i, mn, mx);
    for (int a = 0; a < A; ++a) v[a * n + i] = lfr::normalized(v[a * n + i], mn, mx);
  };
  parallel_for(
      h,
      [&](int y) {
        for (int x = 0; x < w; ++x) {
          const std::size_t i = static_cast<std::size_t>(y) * w + x;
          normalize(cost, i);
          if (fuse) normalize(*defocus, i);
          if (!blend || fuse) continue;
          const std::vector<float>& D = *defocus;
          float dn, dx;
          range(D, i, dn, dx);
          for (int a = 0; a < A; ++a)
            cost[a * n + i] = lfr::blend(cost[a * n + i], lfr::normalized(D[a * n + i], dn, dx), p.defocus_weight);
        }
      },
      threads);
  r.normalize_ms = now_ms() - t;
  t = now_ms();
  // The guide as planes [channel][y][x] in double.
  std::vector<double> I(guide.data.size());
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < guide.channels; ++c) I[c * n + i] = guide.data[i * guide.channels + c];
  auto filter = [&](std::vector<float>& v, int radius) {
    parallel_for(
        A,
        [&](int a) {
          const std::vector<double> slice(v.begin() + a * n, v.begin() + (a + 1) * n);
          const std::vector<double> q = p.color_guide ? guided_filter_rgb_cpu(I, slice, w, h, radius, p.eps)
                                                      : guided_filter_cpu(I, slice, w, h, radius, p.eps);
          for (std::size_t i = 0; i < n; ++i) v[a * n + i] = static_cast<float>(q[i]);
        },
        threads);
  };
  filter(cost, p.radius);
  if (fuse) filter(*defocus, p.defocus_filter_radius);
  r.filter_ms = now_ms() - t;
  if (fuse) {
    t = now_ms();
    const std::vector<float>& D = *defocus;
    parallel_for(
        h,
        [&](int y) {
          for (int x = 0; x < w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * w + x;
            const lfr::CurveStats c = lfr::curve_stats([&](int a) { return cost[a * n + i]; }, A, lfr::kFusionGap);
            const lfr::CurveStats d = lfr::curve_stats([&](int a) { return D[a * n + i]; }, A, lfr::kFusionGap);
            const float wd = lfr::fusion_weight(lfr::fusion_confidence(c.min, c.max, c.second),
                                                lfr::fusion_confidence(d.min, d.max, d.second), p.defocus_weight);
            for (int a = 0; a < A; ++a)
              cost[a * n + i] =
                  lfr::blend(lfr::normalized(cost[a * n + i], c.min, c.max), lfr::normalized(D[a * n + i], d.min, d.max), wd);
          }
        },
        threads);
    r.fuse_ms = now_ms() - t;
  }
  // The semi-global step decides the labels; the confidence stays the fused curve's (the
  // aggregated curve's peak ratio mostly measures the paths' agreement, and weighted the
  // median worse on antinous: docs/PERFORMANCE.md).
  std::vector<float> aggregated;
  if (p.semi_global) {
    t = now_ms();
    aggregated = semi_global_cpu(cost, w, h, A, guide, p.sgm_p1, p.sgm_p2, p.sgm_edge, p.sgm_weighted, threads);
    r.aggregate_ms = now_ms() - t;
  }
  const std::vector<float>& decide = p.semi_global ? aggregated : cost;
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
          const auto at = [&](int a) { return decide[a * n + i]; };
          const lfr::CurveStats c = lfr::curve_stats(at, A, 1);
          const float off = sub ? lfr::subpixel_offset(at, A, c.best, p.subpixel_wide) : 0.0f;
          r.filtered.data[i] = lfr::label_to_disparity(cae.dmin, cae.dmax, A, static_cast<float>(c.best));
          r.refined.data[i] = lfr::label_to_disparity(cae.dmin, cae.dmax, A, static_cast<float>(c.best) + off);
          const lfr::CurveStats f = p.semi_global ? lfr::curve_stats([&](int a) { return cost[a * n + i]; }, A, 1) : c;
          r.confidence.data[i] = lfr::confidence(f.min, f.second);
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

LfRefineResult run_refined(LightFieldEngine& est, const LightField4D& lf, const CaeParams& p,
                           const std::string& variant, CaeRunOptions o, const LfRefineParams& rp, const ImageF& guide,
                           LfDepthResult* raw, bool* on_device) {
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
  std::vector<float> defocus;
  double t = now_ms();
  if (rp.defocus_weight > 0.0f) defocus = defocus_cost_cpu(lf, p, raw->roi, rp.defocus_radius);
  const double defocus_ms = now_ms() - t;
  r = refine_depth_cpu(raw->cost, raw->roi.w, raw->roi.h, p, guide, rp, &defocus);
  r.defocus_ms = defocus_ms;
  raw->cost.clear();
  // The host steps in the estimator's timings, under the names its refine_device gives the
  // device steps (the viewer's timings table and the CLI's report read them).
  TimingRegistry& steps = est.timings();
  if (rp.defocus_weight > 0.0f) steps.record("lfdepth/refine/defocus cost", r.defocus_ms);
  steps.record("lfdepth/refine/normalize", r.normalize_ms);
  steps.record("lfdepth/refine/guided filter", r.filter_ms);
  if (rp.defocus_weight > 0.0f && rp.confidence_fusion) steps.record("lfdepth/refine/fuse", r.fuse_ms);
  if (rp.semi_global) steps.record("lfdepth/refine/semi-global", r.aggregate_ms);
  steps.record("lfdepth/refine/wta + subpixel", r.wta_ms);
  if (rp.mode == LfRefineMode::Full) steps.record("lfdepth/refine/weighted median", r.median_ms);
  return r;
}

}  // namespace lb
