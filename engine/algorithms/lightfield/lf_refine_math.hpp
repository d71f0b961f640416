#pragma once
// Per-pixel arithmetic of the light-field depth refinement (issue 12), shared by the CPU
// reference (lf_refine_cpu.cpp) and the CUDA kernels (kernels/lightfield/lf_refine.cu) (LB_HD).
#include <cmath>

#include "lightfield/cae_math.hpp"
#include "lightbench/hd.hpp"
#include "lightfield/refocus_math.hpp"
#include "lightbench/rounded_math.hpp"

namespace lb::lfr {

// Min-max normalisation of one pixel's costs to [0, 1] (the published CAE pipeline's first
// step after the cost); a flat curve (max == min) becomes all 0.
LB_HD float normalized(float c, float mn, float mx) { return mx > mn ? (c - mn) / (mx - mn) : 0.0f; }

// The guide of the filter: the centre view's luma (ITU-R 601) in [0, 1].
LB_HD float guide_gray(float r, float g, float b) { return (0.299f * r + 0.587f * g + 0.114f * b) / 255.0f; }

// Sub-pixel offset of the minimum of the parabola through (-1, cm), (0, c0), (+1, cp), in
// [-0.5, 0.5]; 0 where the curve is not convex there (a flat or inverted neighbourhood).
LB_HD float parabola_offset(float cm, float c0, float cp) {
  const float den = cm - 2.0f * c0 + cp;
  if (!(den > 0.0f)) return 0.0f;
  const float o = 0.5f * (cm - cp) / den;
  return o < -0.5f ? -0.5f : o > 0.5f ? 0.5f : o;
}

// Sub-pixel vertex of the least-squares quadratic through five costs at labels -2..2 around
// a window centre, relative to it (for t = -2..2: sum t^2 = 10, sum t^4 = 34, so the vertex
// is -0.7 sum(t c) / (sum(t^2 c) - 2 sum(c))). False where the fit is not convex.
LB_HD bool lsq5_vertex(float cm2, float cm1, float c0, float cp1, float cp2, float& vertex) {
  const float sc = cm2 + cm1 + c0 + cp1 + cp2;
  const float st = 2.0f * (cp2 - cm2) + (cp1 - cm1);
  const float st2 = 4.0f * (cm2 + cp2) + (cm1 + cp1);
  const float den = st2 - 2.0f * sc;
  if (!(den > 0.0f)) return false;
  vertex = -0.7f * st / den;
  return true;
}

// The winner's sub-pixel offset in labels on a curve at(a), a = 0 .. labels - 1 (best: its
// first minimum). wide (and 5 labels or more): the vertex of the least-squares quadratic
// through the 5 costs around the winner (the window shifted inward at the ends of the
// range), clamped to [-1, 1]: the filtered curves are smooth but not parabolic near their
// minimum (the defocus cue's is nearly a V), and a 3-point parabola there pulls the estimate
// towards the integer label. Else the 3-point parabola (0 at the ends of the range).
template <class At>
LB_HD float subpixel_offset(const At& at, int labels, int best, bool wide) {
  if (wide && labels >= 5) {
    const int c = best < 2 ? 2 : best > labels - 3 ? labels - 3 : best;
    float v = 0.0f;
    if (!lsq5_vertex(at(c - 2), at(c - 1), at(c), at(c + 1), at(c + 2), v)) return 0.0f;
    const float o = v + static_cast<float>(c - best);
    return o < -1.0f ? -1.0f : o > 1.0f ? 1.0f : o;
  }
  if (best <= 0 || best >= labels - 1) return 0.0f;
  return parabola_offset(at(best - 1), at(best), at(best + 1));
}

// Disparity of a (fractional) label: labels spread dmin .. dmax evenly (cae label_disparity).
LB_HD float label_to_disparity(float dmin, float dmax, int labels, float label) {
  return labels > 1 ? dmin + label * (dmax - dmin) / static_cast<float>(labels - 1) : dmin;
}

// Confidence in [0, 1] from the (normalised, filtered) cost curve: 1 - c_min / c_second,
// c_second the smallest cost more than one label away from the winner (the peak ratio, with
// the winner's own flanks left out). No such label or c_second <= 0: 0.
LB_HD float confidence(float cmin, float csecond) {
  if (!(csecond > 0.0f) || !std::isfinite(csecond)) return 0.0f;
  const float r = 1.0f - cmin / csecond;
  return r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
}

// Weight of a neighbour in the guided weighted median: exp(-|dI|^2 / (2 sigma^2)) on the
// guide's [0, 1] scale, |dI|^2 summed over the guide's channels (d2).
LB_HD float median_weight(float d2, float sigma) { return expf(-d2 / (2.0f * sigma * sigma)); }

// The raw defocus cost of centre-view pixel (x, y) at disparity d: the mean over RGB of
// |refocused - centre| on 0..255, the refocused value being the mean over the aperture's
// views of the bilinear sample at the sheared position (refocus_math.hpp's geometry: shear
// by kShearSign (u - uc) d, clamp to the view, lerp the rows then between them), in float
// with once-rounded operations (rounded_math.hpp) in a fixed order (views v outer, u inner): the same
// bits on the CPU and the GPU. The position and the lerps are the CAE kernels' own fmas
// (cae_common.cuh's shear_pos and lerp_level_bits before the rounding), so that the exact
// CAE kernels exact_chan and exact_stash sum the very samples they count and write this cost in the same
// pass (kernels/lightfield/cae_exact_chan.cu, cae_exact_stash.cu). (Float, not refocus_sums' double: the GPU's double rate made
// the volume the refinement's slowest step; sums of at most 225 samples of 0..255 keep
// float's relative error below 1e-5.) rows.row(u, v, py) returns row py of view (u, v),
// indexable by px to a refocus::Rgb8 (any storage layout): each view's two rows are located
// once, not once per tap (the kernel is issue-bound; ncu, docs/perf/h100/).
template <class Rows>
LB_HD float defocus_raw(const Rows& rows, int w, int h, const refocus::Aperture& ap, float d, int x, int y,
                        const refocus::Rgb8& centre) {
  float acc[3] = {0.0f, 0.0f, 0.0f};
  const float wmax = static_cast<float>(w - 1), hmax = static_cast<float>(h - 1);
  for (int v = ap.v0; v <= ap.v1; ++v) {
    float sy = rnd::fma(static_cast<float>(cae::kShearSign * (v - ap.vc)), d, static_cast<float>(y));
    sy = sy < 0.0f ? 0.0f : (hmax < sy ? hmax : sy);
    const int y0 = static_cast<int>(sy), y1 = y0 + 1 < h - 1 ? y0 + 1 : h - 1;
    const float fy = rnd::sub(sy, static_cast<float>(y0));
    for (int u = ap.u0; u <= ap.u1; ++u) {
      float sx = rnd::fma(static_cast<float>(cae::kShearSign * (u - ap.uc)), d, static_cast<float>(x));
      sx = sx < 0.0f ? 0.0f : (wmax < sx ? wmax : sx);
      const int x0 = static_cast<int>(sx), x1 = x0 + 1 < w - 1 ? x0 + 1 : w - 1;
      const float fx = rnd::sub(sx, static_cast<float>(x0));
      const auto r0 = rows.row(u, v, y0), r1 = rows.row(u, v, y1);
      const auto a = r0[x0], b = r0[x1], c = r1[x0], e = r1[x1];  // Rgb8 or float texels, same values
      auto lerp2 = [&](float pa, float pb, float pc, float pe) {
        const float top = rnd::fma(fx, rnd::sub(pb, pa), pa);
        const float bot = rnd::fma(fx, rnd::sub(pe, pc), pc);
        return rnd::fma(fy, rnd::sub(bot, top), top);
      };
      acc[0] = rnd::add(acc[0], lerp2(a.r, b.r, c.r, e.r));
      acc[1] = rnd::add(acc[1], lerp2(a.g, b.g, c.g, e.g));
      acc[2] = rnd::add(acc[2], lerp2(a.b, b.b, c.b, e.b));
    }
  }
  const float n = static_cast<float>(ap.n);
  auto dev = [&](float s, int c) {
    const float q = rnd::sub(rnd::div(s, n), static_cast<float>(c));
    return q < 0.0f ? -q : q;
  };
  return rnd::div(rnd::add(rnd::add(dev(acc[0], centre.r), dev(acc[1], centre.g)), dev(acc[2], centre.b)), 3.0f);
}

// Confidence fusion of the two filtered cues (LfCueFusion::Confidence): each pixel weighs
// each cue by how clearly its filtered curve singles out one depth. A curve's confidence is
// its normalised gap (c_second - c_min) / (c_max - c_min) in [0, 1], c_second the smallest
// cost more than kFusionGap labels from the first minimum (the winner's own flanks left
// out); flat, or no label that far: 0.
constexpr int kFusionGap = 2;
LB_HD float fusion_confidence(float mn, float mx, float second) {
  if (!(mx > mn) || !(second <= mx)) return 0.0f;  // flat, or no second (INFINITY)
  const float g = rnd::div(rnd::sub(second, mn), rnd::sub(mx, mn));
  return g < 0.0f ? 0.0f : g > 1.0f ? 1.0f : g;
}
// One pixel's curve over the labels (at(a), a = 0 .. labels - 1): its minimum and maximum
// (the normalisation's range).
template <class At>
LB_HD void curve_range(const At& at, int labels, float& mn, float& mx) {
  mn = mx = at(0);
  for (int a = 1; a < labels; ++a) {
    const float c = at(a);
    mn = c < mn ? c : mn;
    mx = c > mx ? c : mx;
  }
}

// The same curve's winner (first minimum) and the smallest cost more than `gap` labels from
// it (INFINITY if none): the WTA's confidence (gap 1) and the fusion's (kFusionGap).
struct CurveStats {
  int best;
  float min, max, second;
};
template <class At>
LB_HD CurveStats curve_stats(const At& at, int labels, int gap) {
  CurveStats s{0, at(0), at(0), INFINITY};
  for (int a = 1; a < labels; ++a) {
    const float c = at(a);
    if (c < s.min) s.min = c, s.best = a;
    if (c > s.max) s.max = c;
  }
  for (int a = 0; a < labels; ++a)
    if (a < s.best - gap || a > s.best + gap) {
      const float c = at(a);
      s.second = c < s.second ? c : s.second;
    }
  return s;
}
// The defocus cue's share of the fused cost: prior w times its squared confidence against
// (1 - w) times the CAE cue's, w where neither is confident (so w = 0 and w = 1 still mean
// "CAE alone" and "defocus alone").
LB_HD float fusion_weight(float conf_cae, float conf_defocus, float w) {
  const float num = rnd::mul(w, rnd::mul(conf_defocus, conf_defocus));
  const float den = rnd::add(num, rnd::mul(rnd::sub(1.0f, w), rnd::mul(conf_cae, conf_cae)));
  return den > 0.0f ? rnd::div(num, den) : w;
}

// The blended data cost (1 - w) c + w d of two normalised costs, rounded the same on both
// sides (on the device each step explicitly, so nvcc cannot contract it into an FMA).
LB_HD float blend(float c, float d, float w) { return rnd::add(rnd::mul(rnd::sub(1.0f, w), c), rnd::mul(w, d)); }

// Semi-global aggregation (lf_refine.hpp's aggregate step), the graph-cut stand-in:
// along each of 4 scanline directions, L(p, a) = C(p, a) + min(L(q, a), min(L(q, a - 1),
// L(q, a + 1)) + P1, m + P2') - m, q the previous pixel on the line, m = min_a L(q, a); the
// aggregated cost is the sum of the 4 paths. P2' = P2 / (1 + dI / edge): a colour edge
// between q and p (dI, the mean absolute difference of the guide's channels on [0, 1])
// lowers the price of a depth jump there. Every step is once-rounded float (rounded_math),
// so the CPU and the GPU give the same bits.
constexpr int kSgmPaths = 4;
// The weight of a pixel's curve in the weighted semi-global data term: its confidence, the
// normalised gap of fusion_confidence (kFusionGap labels; 0 for a flat curve).
template <class At>
LB_HD float sgm_data_weight(const At& at, int labels) {
  const CurveStats s = curve_stats(at, labels, kFusionGap);
  return fusion_confidence(s.min, s.max, s.second);
}
// The guide difference dI of two pixels (channels gc, guide values a[c], b[c]).
template <class A, class B>
LB_HD float sgm_guide_diff(const A& a, const B& b, int gc) {
  float s = 0.0f;
  for (int c = 0; c < gc; ++c) {
    const float d = rnd::sub(a(c), b(c));
    s = rnd::add(s, d < 0.0f ? -d : d);
  }
  return rnd::div(s, static_cast<float>(gc));
}
LB_HD float sgm_jump_penalty(float p2, float diff, float edge) {
  return rnd::div(p2, rnd::add(1.0f, rnd::div(diff, edge)));
}
// One label's step: c its cost at p; prev, prev_lo, prev_hi L(q, a), L(q, a - 1), L(q, a + 1)
// (INFINITY beyond the range); m the minimum of L(q, .).
LB_HD float sgm_step(float c, float prev, float prev_lo, float prev_hi, float m, float p1, float p2) {
  const float nb = rnd::add(prev_lo < prev_hi ? prev_lo : prev_hi, p1);
  const float jump = rnd::add(m, p2);
  float best = prev < nb ? prev : nb;
  best = best < jump ? best : jump;
  return rnd::sub(rnd::add(c, best), m);
}

}  // namespace lb::lfr
