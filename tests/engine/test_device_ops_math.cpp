// The per-pixel math shared by the CPU references and the CUDA building blocks
// (refocus_math.hpp, hci_math.hpp, stereo_score_math.hpp), run serially on the host:
//   * the references that now use it still give the results of the code before it (kept
//     here verbatim as the oracles), bit for bit;
//   * the shared functions driven the way the kernels drive them (the device's view layout,
//     the reduction's block partition and merge tree) give the references' results.
// The GPU itself is tested in tests/gpu/test_device_ops_gpu.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "lightbench/hci_math.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/lightfield.hpp"
#include "lightfield/refocus_math.hpp"
#include "lightbench/stereo_metrics.hpp"
#include "lightbench/stereo_score_math.hpp"
#include "test_util.hpp"
#include "random_scoring_inputs.hpp"

using namespace lb;

namespace {

using lbt::kInf;
using lbt::kNaN;

// ---- the code before the shared headers (oracles) ---------------------------------------
double old_sample_bilinear(const ImageU8& img, double x, double y, int c) {
  x = std::clamp(x, 0.0, static_cast<double>(img.width - 1));
  y = std::clamp(y, 0.0, static_cast<double>(img.height - 1));
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
  const int x1 = std::min(x0 + 1, img.width - 1), y1 = std::min(y0 + 1, img.height - 1);
  const double fx = x - x0, fy = y - y0;
  const double a = img.at(x0, y0, c), b = img.at(x1, y0, c);
  const double cc = img.at(x0, y1, c), d = img.at(x1, y1, c);
  const double top = a + fx * (b - a), bot = cc + fx * (d - cc);
  return top + fy * (bot - top);
}

// The previous refocus_cpu's per-channel sums at (x, y), before rounding.
void old_refocus_sums(const LightField4D& lf, float disparity, int aperture_radius, int x, int y, double acc[3]) {
  const int u0 = std::max(0, lf.uc() - aperture_radius), u1 = std::min(lf.nu - 1, lf.uc() + aperture_radius);
  const int v0 = std::max(0, lf.vc() - aperture_radius), v1 = std::min(lf.nv - 1, lf.vc() + aperture_radius);
  acc[0] = acc[1] = acc[2] = 0;
  for (int v = v0; v <= v1; ++v)
    for (int u = u0; u <= u1; ++u) {
      const double sx = x + cae::kShearSign * static_cast<double>(u - lf.uc()) * disparity;
      const double sy = y + cae::kShearSign * static_cast<double>(v - lf.vc()) * disparity;
      for (int c = 0; c < 3; ++c) acc[c] += old_sample_bilinear(lf.view(u, v), sx, sy, c);
    }
}

ImageU8 old_refocus(const LightField4D& lf, float disparity, int aperture_radius) {
  const int u0 = std::max(0, lf.uc() - aperture_radius), u1 = std::min(lf.nu - 1, lf.uc() + aperture_radius);
  const int v0 = std::max(0, lf.vc() - aperture_radius), v1 = std::min(lf.nv - 1, lf.vc() + aperture_radius);
  const double n = static_cast<double>((u1 - u0 + 1) * (v1 - v0 + 1));
  ImageU8 out(lf.width, lf.height, 3);
  for (int y = 0; y < lf.height; ++y)
    for (int x = 0; x < lf.width; ++x) {
      double acc[3] = {0, 0, 0};
      for (int v = v0; v <= v1; ++v)
        for (int u = u0; u <= u1; ++u) {
          const double sx = x + cae::kShearSign * static_cast<double>(u - lf.uc()) * disparity;
          const double sy = y + cae::kShearSign * static_cast<double>(v - lf.vc()) * disparity;
          for (int c = 0; c < 3; ++c) acc[c] += old_sample_bilinear(lf.view(u, v), sx, sy, c);
        }
      for (int c = 0; c < 3; ++c)
        out.at(x, y, c) = static_cast<std::uint8_t>(std::clamp(std::floor(acc[c] / n + 0.5), 0.0, 255.0));
    }
  return out;
}

HciScore old_hci_score_region(const ImageF& disp, const ImageF& gt, int ox, int oy, int border) {
  HciScore s;
  s.border = border;
  std::size_t b7 = 0, b3 = 0, b1 = 0;
  double se = 0.0;
  for (int y = 0; y < disp.height; ++y) {
    const int gy = oy + y;
    if (gy < border || gy >= gt.height - border) continue;
    for (int x = 0; x < disp.width; ++x) {
      const int gx = ox + x;
      if (gx < border || gx >= gt.width - border) continue;
      const double d = disp.at(x, y), g = gt.at(gx, gy);
      if (!std::isfinite(g)) continue;
      ++s.pixels;
      // Since issue 21 (evaluation.md): a non-finite estimate is bad everywhere, not in the MSE.
      if (!std::isfinite(d)) {
        ++s.invalid, ++b7, ++b3, ++b1;
        continue;
      }
      const double e = std::fabs(d - g);
      b7 += e > 0.07;
      b3 += e > 0.03;
      b1 += e > 0.01;
      se += e * e;
    }
  }
  const double n = static_cast<double>(s.pixels);
  s.badpix_007 = 100.0 * static_cast<double>(b7) / n;
  s.badpix_003 = 100.0 * static_cast<double>(b3) / n;
  s.badpix_001 = 100.0 * static_cast<double>(b1) / n;
  s.mse_x100 = 100.0 * se / static_cast<double>(s.pixels - s.invalid);
  return s;
}

ImageF old_hci_error_map(const ImageF& disp, const ImageF& gt, int ox, int oy) {
  ImageF e(disp.width, disp.height, 1);
  for (int y = 0; y < disp.height; ++y)
    for (int x = 0; x < disp.width; ++x) {
      const double d = disp.at(x, y), g = gt.at(ox + x, oy + y);
      e.at(x, y) = (std::isfinite(d) && std::isfinite(g)) ? static_cast<float>(std::fabs(d - g)) : 0.0f;
    }
  return e;
}

bool old_known(float g) { return std::isfinite(g) && g != 0.0f; }
// Since issue 21 (evaluation.md) a negative estimate is invalid, hence wrong, too.
bool old_wrong(float d, float g, double t) { return !std::isfinite(d) || d < 0 || std::fabs(double(d) - g) > t; }

stereo::BadPixels old_bad_pixels(const ImageF& disp, const ImageF& gt, const ImageU8& mask, double threshold) {
  stereo::BadPixels b;
  const int mc = mask.empty() ? 0 : mask.channels;
  for (std::size_t i = 0; i < disp.pixels(); ++i) {
    if (!old_known(gt.data[i])) continue;
    if (!mask.empty() && mask.data[i * static_cast<std::size_t>(mc)] != 255) continue;
    ++b.pixels;
    b.bad += old_wrong(disp.data[i], gt.data[i], threshold);
  }
  b.percent = b.pixels ? 100.0 * static_cast<double>(b.bad) / static_cast<double>(b.pixels) : 0.0;
  return b;
}

ImageU8 old_stereo_error_map(const ImageF& disp, const stereo::StereoGroundTruth& gt, double threshold,
                             float max_disp) {
  float m = max_disp;
  if (m <= 0.0f)
    for (float v : gt.disparity.data)
      if (std::isfinite(v)) m = std::max(m, v);
  const float k = m > 0.0f ? 255.0f / m : 0.0f;
  ImageU8 out(disp.width, disp.height, 3);
  for (std::size_t i = 0; i < disp.pixels(); ++i) {
    const float d = disp.data[i], g = gt.disparity.data[i];
    const auto gray = static_cast<std::uint8_t>(std::isfinite(d) ? std::clamp(std::lround(d * k), 0L, 255L) : 0L);
    std::uint8_t* o = &out.data[3 * i];
    const bool counted =
        old_known(g) && (gt.mask_all.empty() || gt.mask_all.data[i * gt.mask_all.channels] == 255);
    if (counted && old_wrong(d, g, threshold)) {
      o[0] = 255, o[1] = 0, o[2] = 0;
    } else if (!counted) {
      o[0] = static_cast<std::uint8_t>(gray / 3), o[1] = static_cast<std::uint8_t>(gray / 3),
      o[2] = static_cast<std::uint8_t>(gray / 3 + 40);
    } else {
      o[0] = o[1] = o[2] = gray;
    }
  }
  return out;
}

// ---- random inputs ------------------------------------------------------------------------
LightField4D random_lf(int w, int h, int nu, int nv, std::uint64_t seed) {
  LightField4D lf;
  lf.nu = nu;
  lf.nv = nv;
  lf.width = w;
  lf.height = h;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < nu * nv; ++i) {
    ImageU8 img(w, h, 3);
    for (auto& b : img.data) b = static_cast<std::uint8_t>(rng());
    lf.views.push_back(std::move(img));
  }
  return lf;
}

// Truth in [-2, 2] with NaN / inf sprinkled; the estimate misses it by up to `spread`, with
// its own non-finite values.
void random_hci(int w, int h, int gw, int gh, std::uint64_t seed, float spread, ImageF& disp, ImageF& gt) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> val(-2.0f, 2.0f), noise(-spread, spread);
  gt = ImageF(gw, gh, 1);
  for (auto& g : gt.data) {
    const unsigned r = rng() % 50;
    g = r == 0 ? kNaN : r == 1 ? kInf : r == 2 ? -kInf : val(rng);
  }
  disp = ImageF(w, h, 1);
  for (auto& d : disp.data) d = rng() % 40 == 0 ? kNaN : noise(rng);  // add_truth adds the truth
}

void add_truth(ImageF& disp, const ImageF& gt, int ox, int oy) {
  for (int y = 0; y < disp.height; ++y)
    for (int x = 0; x < disp.width; ++x) {
      const float g = gt.at(ox + x, oy + y);
      if (std::isfinite(g)) disp.at(x, y) += g;
    }
}

bool same_bits(const ImageF& a, const ImageF& b) {
  return a.same_shape(b) && std::memcmp(a.data.data(), b.data.data(), a.size_bytes()) == 0;
}

// The CUDA reduction's partition and merge tree (disparity_score.cu), serially: blocks of
// 256 threads over a grid-stride range, a pairwise tree per block, then one block over the
// partials.
template <class Acc, class Pixel>
Acc tree_reduce(long long n, const Pixel& pixel) {
  constexpr int T = 256;
  const long long want = (n + T - 1) / T;
  const int blocks = static_cast<int>(std::clamp<long long>(want, 1, 1024));
  auto tree = [](std::vector<Acc> v) {
    for (int stride = T / 2; stride > 0; stride /= 2)
      for (int t = 0; t < stride; ++t) merge(v[static_cast<std::size_t>(t)], v[static_cast<std::size_t>(t + stride)]);
    return v[0];
  };
  std::vector<Acc> partials(static_cast<std::size_t>(blocks));
  for (int b = 0; b < blocks; ++b) {
    std::vector<Acc> threads(T);
    for (int t = 0; t < T; ++t)
      for (long long i = static_cast<long long>(b) * T + t; i < n; i += static_cast<long long>(blocks) * T)
        pixel(i, threads[static_cast<std::size_t>(t)]);
    partials[static_cast<std::size_t>(b)] = tree(threads);
  }
  std::vector<Acc> threads(T);
  for (int t = 0; t < T; ++t)
    for (int i = t; i < blocks; i += T) merge(threads[static_cast<std::size_t>(t)], partials[static_cast<std::size_t>(i)]);
  return tree(threads);
}

}  // namespace

TEST_CASE("refocus math: refocus_cpu gives the bytes of the code before the shared header") {
  struct Case {
    int w, h, nu, nv;
  };
  for (const Case c : {Case{1, 1, 1, 1}, Case{7, 5, 3, 3}, Case{13, 4, 4, 3}, Case{33, 17, 5, 5}, Case{2, 9, 9, 9}}) {
    const LightField4D lf = random_lf(c.w, c.h, c.nu, c.nv, static_cast<std::uint64_t>(c.w * 131 + c.nu));
    for (float d : {0.0f, 0.37f, -1.25f, 2.0f, 7.5f, -0.5f})
      for (int r : {0, 1, 2, 100}) {
        CAPTURE(c.w);
        CAPTURE(c.h);
        CAPTURE(c.nu);
        CAPTURE(c.nv);
        CAPTURE(d);
        CAPTURE(r);
        const ImageU8 want = old_refocus(lf, d, r);
        CHECK(refocus_cpu(lf, d, r, 1).data == want.data);
        CHECK(refocus_cpu(lf, d, r, 3).data == want.data);
        // Before rounding too: the shared sums are the previous code's, bit for bit (a
        // reordered or fused operation would show here long before it flips a byte).
        const refocus::Aperture ap = refocus::aperture(lf.nu, lf.nv, r);
        auto fetch = [&lf](int u, int v, int x, int y) {
          const std::uint8_t* p = &lf.view(u, v).at(x, y);
          return refocus::Rgb8{p[0], p[1], p[2]};
        };
        int differ = 0;
        for (int y = 0; y < lf.height; ++y)
          for (int x = 0; x < lf.width; ++x) {
            double got[3], old[3];
            refocus::refocus_sums(fetch, lf.width, lf.height, ap, d, x, y, got);
            old_refocus_sums(lf, d, r, x, y, old);
            differ += std::memcmp(got, old, sizeof got) != 0;
          }
        CHECK(differ == 0);
      }
  }
}

TEST_CASE("refocus math: the kernel's view layout and per-pixel call give refocus_cpu's bytes") {
  // Views as the device holds them: RGBA8, [v][u][y][x], no padding.
  const LightField4D lf = synthetic_two_plane_lightfield(23, 11, 5, 3, -0.8f, 1.3f, 7u, 1);
  const std::size_t plane = static_cast<std::size_t>(lf.width) * lf.height;
  std::vector<std::uint8_t> rgba(plane * lf.views.size() * 4);
  for (std::size_t k = 0; k < lf.views.size(); ++k)
    for (std::size_t i = 0; i < plane; ++i) {
      for (int c = 0; c < 3; ++c) rgba[(k * plane + i) * 4 + c] = lf.views[k].data[i * 3 + c];
      rgba[(k * plane + i) * 4 + 3] = 255;
    }
  auto fetch = [&](int u, int v, int x, int y) {
    const std::uint8_t* p = &rgba[((static_cast<std::size_t>(v) * lf.nu + u) * plane +
                                   static_cast<std::size_t>(y) * lf.width + x) * 4];
    return refocus::Rgb8{p[0], p[1], p[2]};
  };
  for (float d : {-0.8f, 1.3f, 0.25f})
    for (int r : {0, 1, 3}) {
      const ImageU8 want = refocus_cpu(lf, d, r);
      const refocus::Aperture ap = refocus::aperture(lf.nu, lf.nv, r);
      int differ = 0;
      for (int y = 0; y < lf.height; ++y)
        for (int x = 0; x < lf.width; ++x) {
          const refocus::Rgb8 c = refocus::refocus_pixel(fetch, lf.width, lf.height, ap, d, x, y);
          const std::uint8_t* w = &want.at(x, y);
          differ += c.r != w[0] || c.g != w[1] || c.b != w[2];
        }
      CAPTURE(d);
      CAPTURE(r);
      CHECK(differ == 0);
    }
}

TEST_CASE("refocus math: aperture clamps to the grid; rounding is half up") {
  const refocus::Aperture a = refocus::aperture(4, 3, 1);
  CHECK(a.uc == 2);
  CHECK(a.vc == 1);
  CHECK(a.u0 == 1);
  CHECK(a.u1 == 3);
  CHECK(a.v0 == 0);
  CHECK(a.v1 == 2);
  CHECK(a.n == 9.0);
  const refocus::Aperture b = refocus::aperture(4, 3, 100);
  CHECK(b.u0 == 0);
  CHECK(b.u1 == 3);
  CHECK(b.n == 12.0);
  CHECK(refocus::round_mean(5.0, 2.0) == 3);    // 2.5 -> 3
  CHECK(refocus::round_mean(4.99, 2.0) == 2);   // 2.495 -> 2
  CHECK(refocus::round_mean(600.0, 2.0) == 255);
  CHECK(refocus::shear(10, 2, 0.5f) == 9.0);    // kShearSign = -1
}

TEST_CASE("hci math: scores and the error map are the code before the shared header's") {
  struct Case {
    int w, h, gw, gh, ox, oy, border;
  };
  for (const Case c : {Case{1, 1, 1, 1, 0, 0, 0}, Case{37, 21, 37, 21, 0, 0, 3}, Case{40, 30, 71, 55, 9, 20, 15},
                       Case{301, 257, 301, 257, 0, 0, 15}}) {
    for (float spread : {0.0f, 0.05f, 0.3f}) {
      ImageF disp, gt;
      random_hci(c.w, c.h, c.gw, c.gh, static_cast<std::uint64_t>(c.w * 7 + c.ox), spread, disp, gt);
      add_truth(disp, gt, c.ox, c.oy);
      if (c.w == 1) gt.at(0, 0) = 0.5f, disp.at(0, 0) = 0.45f;  // a finite pixel to score
      CAPTURE(c.w);
      CAPTURE(c.ox);
      CAPTURE(spread);
      const HciScore want = old_hci_score_region(disp, gt, c.ox, c.oy, c.border);
      const HciScore got = hci_score_region(disp, gt, c.ox, c.oy, c.border);
      CHECK(got.pixels == want.pixels);
      CHECK(got.invalid == want.invalid);
      CHECK(got.badpix_007 == want.badpix_007);
      CHECK(got.badpix_003 == want.badpix_003);
      CHECK(got.badpix_001 == want.badpix_001);
      CHECK(got.mse_x100 == want.mse_x100);  // same order: bit for bit
      CHECK(same_bits(hci_error_map(disp, gt, c.ox, c.oy), old_hci_error_map(disp, gt, c.ox, c.oy)));

      // The GPU's partition and tree over the same pixels: exact counts, MSE within the bound.
      const hci::Sums s = tree_reduce<hci::Sums>(static_cast<long long>(c.w) * c.h, [&](long long i, hci::Sums& acc) {
        const int x = static_cast<int>(i % c.w), y = static_cast<int>(i / c.w);
        if (hci::inside_border(c.ox + x, c.oy + y, c.gw, c.gh, c.border))
          hci::accumulate(acc, disp.at(x, y), gt.at(c.ox + x, c.oy + y));
      });
      const HciScore tree = hci::finish(s, c.border);
      CHECK(tree.pixels == want.pixels);
      CHECK(tree.badpix_007 == want.badpix_007);
      CHECK(tree.badpix_003 == want.badpix_003);
      CHECK(tree.badpix_001 == want.badpix_001);
      CHECK(std::fabs(tree.mse_x100 - want.mse_x100) <= hci::mse_tolerance(want.mse_x100, want.pixels));
    }
  }
}

TEST_CASE("hci math: error value and border rules") {
  CHECK(hci::error_value(1.5f, 1.0f) == 0.5f);
  CHECK(hci::error_value(kNaN, 1.0f) == 0.0f);
  CHECK(hci::error_value(1.0f, -kInf) == 0.0f);
  CHECK(hci::inside_border(15, 15, 31, 31, 15));
  CHECK_FALSE(hci::inside_border(16, 15, 31, 31, 15));
  CHECK_FALSE(hci::inside_border(14, 15, 31, 31, 15));
  hci::Sums s;
  hci::accumulate(s, 1.0f, kNaN);
  CHECK(s.pixels == 0);
  hci::Sums v;  // an invalid estimate of a known truth: evaluated, bad, not in the MSE
  hci::accumulate(v, kNaN, 1.0f);
  hci::accumulate(v, -kInf, -1.0f);
  hci::accumulate(v, -0.5f, -0.49f);  // negative disparities are real in HCI: valid, e = 0.01
  CHECK(v.pixels == 3);
  CHECK(v.invalid == 2);
  CHECK(v.bad007 == 2);
  CHECK(v.bad001 == 2);  // 0.01 is not > 0.01 (in double from the floats: 0.0099999905)
  const HciScore vs = hci::finish(v, 0);
  CHECK(vs.invalid == 2);
  CHECK(vs.mse_x100 == doctest::Approx(100.0 * 0.01 * 0.01).epsilon(1e-5));
  hci::Sums none;
  hci::accumulate(none, kNaN, 1.0f);
  CHECK(std::isnan(hci::finish(none, 0).mse_x100));  // nothing valid: no MSE, not 0
  CHECK_THROWS_WITH_AS(hci::finish(s, 15), doctest::Contains("no pixel left"), Error);
  CHECK(hci::mse_tolerance(0.0, 1000) == 0.0);
}

namespace {

using lbt::random_estimate;
using lbt::random_stereo;

}  // namespace

TEST_CASE("stereo score math: scores and the error map are the code before the shared header's") {
  struct Case {
    int w, h, mc;
    bool empty;
  };
  for (const Case c : {Case{1, 1, 1, false}, Case{17, 5, 1, false}, Case{33, 31, 3, false}, Case{64, 48, 1, true},
                       Case{300, 257, 4, false}}) {
    const stereo::StereoGroundTruth gt = random_stereo(c.w, c.h, static_cast<std::uint64_t>(c.w + 5 * c.mc), c.mc, c.empty);
    const ImageF disp = random_estimate(gt.disparity, static_cast<std::uint64_t>(c.h));
    for (double t : {1.0, 0.5}) {
      CAPTURE(c.w);
      CAPTURE(t);
      const stereo::StereoScore got = stereo::score_stereo(disp, gt, t);
      const stereo::BadPixels* g3[3] = {&got.nonocc, &got.all, &got.disc};
      const ImageU8* masks[3] = {&gt.mask_nonocc, &gt.mask_all, &gt.mask_disc};
      for (int r = 0; r < 3; ++r) {
        const stereo::BadPixels want = old_bad_pixels(disp, gt.disparity, *masks[r], t);
        CHECK(g3[r]->pixels == want.pixels);
        CHECK(g3[r]->bad == want.bad);
        CHECK(g3[r]->percent == want.percent);
      }
      // The GPU's three regions at once, partition and tree.
      const stereo::scoring::Counts tree = tree_reduce<stereo::scoring::Counts>(
          static_cast<long long>(c.w) * c.h, [&](long long i, stereo::scoring::Counts& acc) {
            const std::size_t k = static_cast<std::size_t>(i);
            bool sel[3];
            for (int r = 0; r < 3; ++r)
              sel[r] = masks[r]->empty() || stereo::scoring::selected(masks[r]->data[k * masks[r]->channels]);
            stereo::scoring::accumulate(acc, disp.data[k], gt.disparity.data[k], sel, t);
          });
      for (int r = 0; r < 3; ++r) {
        const stereo::BadPixels b = stereo::scoring::finish(tree.bad[r], tree.pixels[r]);
        CHECK(b.pixels == g3[r]->pixels);
        CHECK(b.bad == g3[r]->bad);
        CHECK(b.percent == g3[r]->percent);
      }
      for (float max_disp : {0.0f, 15.0f, -3.0f, 0.3f})
        CHECK(stereo::stereo_error_map(disp, gt, t, max_disp).data == old_stereo_error_map(disp, gt, t, max_disp).data);
    }
  }
}

TEST_CASE("stereo score math: the gray level is lround(d * k) clamped, as before") {
  const float ks[] = {0.0f, 1.0f, 255.0f / 15.0f, 17.0f, 1e30f};
  const float ds[] = {0.0f, -0.0f, 0.49999997f, 0.5f, 0.50000006f, 1.5f, 2.5f, 14.99f, 15.0f, 254.5f, 254.49998f,
                      255.0f, 300.0f, -0.5f, -7.0f, 1e-30f, 3.3f, 1e10f};
  for (float k : ks)
    for (float d : ds) {
      const float p = d * k;
      if (!(std::fabs(p) < 9.2e18f)) continue;  // std::lround is undefined there
      const auto want = static_cast<std::uint8_t>(std::clamp(std::lround(p), 0L, 255L));
      CAPTURE(d);
      CAPTURE(k);
      CHECK(stereo::scoring::gray_level(d, k) == want);
    }
  CHECK(stereo::scoring::gray_level(kNaN, 1.0f) == 0);
  CHECK(stereo::scoring::gray_level(kInf, 1.0f) == 0);
  CHECK(stereo::scoring::gray_level(1e30f, 1e30f) == 255);  // d * k = inf: the top, not lround's UB
  CHECK(stereo::scoring::error_scale(0.0f, 12.0f) == 12.0f);
  CHECK(stereo::scoring::error_scale(-3.0f, -kInf) == -3.0f);
  CHECK(stereo::scoring::error_scale(7.0f, 12.0f) == 7.0f);
  CHECK(stereo::scoring::error_gain(0.0f) == 0.0f);
}
