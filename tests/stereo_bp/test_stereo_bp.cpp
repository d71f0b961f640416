// Belief-propagation stereo, CPU: synthetic pairs with known disparity, the fast reference
// against the straightforward O(L^2) version, parameters, and Middlebury regressions.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>

#include "shared_data.hpp"
#include "lightbench/engines/stereo.hpp"
#include "stereo_bp/stereo_bp.hpp"
#include "stereo_bp/stereo_bp_math.hpp"
#include "stereo_bp/stereo_bp_planes.hpp"
#include <cstring>
#include "lightbench/stereo_io.hpp"
#include "lightbench/stereo_metrics.hpp"
#include "test_util.hpp"

using namespace lb;
using namespace lb::stereo;

namespace {
int count_differing(const ImageF& a, const ImageF& b) {
  int n = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) n += a.data[i] != b.data[i];
  return n;
}
}  // namespace

TEST_CASE("bp cpu: a shifted random-texture plane comes out at its disparity") {
  for (const int d : {0, 5, 11}) {
    for (const int ch : {1, 3}) {
      const StereoPair pair = synthetic_plane_pair(67, 45, d, 100u + static_cast<unsigned>(d), ch);
      BpParams p;
      p.ndisp = 16;
      const ImageF r = bp_stereo_cpu(pair, p, 2);
      int bad = 0;
      // The left band x < d has no match in the right image.
      for (int y = 0; y < r.height; ++y)
        for (int x = d + 2; x < r.width; ++x) bad += r.at(x, y) != static_cast<float>(d);
      INFO("d=" << d << " channels=" << ch);
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("bp cpu: two planes at known disparities") {
  ImageF gt;
  const StereoPair pair = synthetic_two_plane_pair(96, 64, 3, 10, 7u, &gt);
  BpParams p;
  p.ndisp = 16;
  const ImageF r = bp_stereo_cpu(pair, p, 2);
  int bad = 0, counted = 0;
  const int x0 = 96 / 4, x1 = 96 - 96 / 4, y0 = 64 / 4, y1 = 64 - 64 / 4;
  for (int y = 0; y < 64; ++y)
    for (int x = 12; x < 96; ++x) {
      // Skip a band around the front rectangle's edges (occlusions, discontinuities).
      const bool near_x = (x >= x0 - 10 && x <= x0 + 3) || (x >= x1 - 3 && x <= x1 + 3);
      const bool near_y = (y >= y0 - 2 && y <= y0 + 2) || (y >= y1 - 2 && y <= y1 + 2);
      if (near_x || near_y) continue;
      ++counted;
      bad += r.at(x, y) != gt.at(x, y);
    }
  INFO(bad << " of " << counted);
  CHECK(bad <= counted / 200);
  CHECK(r.at(48, 32) == 10.0f);
  CHECK(r.at(85, 5) == 3.0f);
}

// The fast reference (distance transform, multithreaded) against the straightforward version.
// Tolerance: the distance transform adds 1.0f step by step where the straightforward version
// adds |d - d'| once, so message values may differ in the last bits and a near-tie in the
// final argmin may flip; on these inputs the maps are identical (the test allows 0.5 %).
TEST_CASE("bp cpu: fast reference == straightforward O(L^2) version on small inputs") {
  struct Case {
    int w, h, L, levels, iters;
    float sigma;
    bool random;
  };
  for (const Case c : {Case{23, 17, 8, 3, 5, 0.7f, true}, Case{31, 20, 12, 2, 7, 0.0f, true},
                       Case{40, 29, 16, 4, 5, 1.0f, false}, Case{17, 9, 5, 1, 10, 0.7f, false},
                       // past 256 disparities (the tree sum's 10th level; 1024 in the tree-sum test)
                       Case{293, 2, 290, 1, 1, 0.0f, true}}) {
    const StereoPair pair = c.random ? StereoPair{lbt::random_image(c.w, c.h, 3, static_cast<std::uint32_t>(c.w)),
                                                  lbt::random_image(c.w, c.h, 3, static_cast<std::uint32_t>(c.h)), "r"}
                                     : synthetic_two_plane_pair(c.w, c.h, 1, 4, 3u);
    BpParams p;
    p.ndisp = c.L;
    p.levels = c.levels;
    p.iterations = c.iters;
    p.sigma = c.sigma;
    const ImageF fast = bp_stereo_cpu(pair, p, 2), naive = bp_stereo_naive(pair, p);
    const int diff = count_differing(fast, naive);
    std::printf("bp cpu fast vs straightforward %dx%d L=%d: %d differing pixels\n", c.w, c.h, c.L, diff);
    INFO(c.w << "x" << c.h << " L=" << c.L << ": " << diff << " differing pixels");
    CHECK(diff * 200 <= c.w * c.h);
    // Thread count does not change the result.
    CHECK(count_differing(fast, bp_stereo_cpu(pair, p, 1)) == 0);
  }
}

TEST_CASE("bp params: validation errors name the parameter; describe binds all seven") {
  BpParams p;
  CHECK_NOTHROW(validate(p));
  auto fails = [](BpParams q, const char* name) {
    try {
      validate(q);
    } catch (const Error& e) {
      return std::string(e.what()).find(name) != std::string::npos;
    }
    return false;
  };
  BpParams q = p;
  q.levels = 0;
  CHECK(fails(q, "levels"));
  q = p;
  q.ndisp = 1;
  CHECK(fails(q, "ndisp"));
  q = p;
  q.ndisp = kBpMaxDisp + 1;
  CHECK(fails(q, "ndisp"));
  q = p;
  q.lambda = -1;
  CHECK(fails(q, "lambda"));
  q = p;
  q.tau_disc = 0;
  CHECK(fails(q, "tau_disc"));
  q = p;
  q.tau_data = std::nanf("");
  CHECK(fails(q, "tau_data"));
  q = p;
  q.sigma = -0.5f;
  CHECK(fails(q, "sigma"));
  q = p;
  q.iterations = -1;
  CHECK(fails(q, "iterations"));
  // The reference's own settings at 256 disparities (tau_disc = ndisp / 7.5 = 34.13) and up to
  // 1024 disparities; the width of the pair bounds ndisp (and tau_disc with it).
  q = p;
  q.ndisp = 256;
  q.tau_disc = 256.0f / 7.5f;
  CHECK_NOTHROW(validate(q));
  q.ndisp = kBpMaxDisp;
  q.tau_disc = kBpMaxDisp / 7.5f;
  CHECK_NOTHROW(validate(q));
  const StereoPair narrow{lbt::random_image(300, 4, 3, 1u), lbt::random_image(300, 4, 3, 2u), "n"};
  q.ndisp = 300;
  CHECK_NOTHROW(validate(q, narrow));
  q.ndisp = 301;
  CHECK_THROWS_WITH_AS(validate(q, narrow), doctest::Contains("ndisp"), Error);
  {
    BpParams r;
    const auto wide = describe(r, 2964);
    CHECK(find_param(wide, "ndisp")->max == kBpMaxDisp);
    CHECK(find_param(wide, "tau_disc")->max == kBpMaxDisp);
    const auto small = describe(r, 300);
    CHECK(find_param(small, "ndisp")->max == 300);
    CHECK(find_param(small, "tau_disc")->max == 300);
  }
  const auto info = describe(p);
  CHECK(info.size() == 7);
  for (const auto& i : info) CHECK(i.bound());
  const StereoPair small = synthetic_plane_pair(10, 8, 1, 1u);
  p.ndisp = 16;
  CHECK_THROWS_AS(validate(p, small), Error);
}

TEST_CASE("bp cpu matcher: interface, variant check, timings") {
  auto m = make_stereo_bp_engine_cpu(2);
  CHECK_FALSE(m->has_pair());
  CHECK_THROWS_AS(m->run(BpParams{}), Error);
  m->set_pair(synthetic_plane_pair(40, 30, 3, 4u));
  BpParams p;
  p.ndisp = 8;
  p.levels = 3;
  const StereoResult r = m->run(p);
  CHECK(r.variant == "reference");
  CHECK(r.disparity.at(30, 15) == 3.0f);
  CHECK(m->timings().stats("stereo/bp/cpu").count == 1);
  CHECK_THROWS_AS(m->run(p, "registers"), Error);
}

// Middlebury regressions on the CPU path (skipped without ../shared/data). The original FH
// algorithm reports roughly 2-4 % bad nonocc on Tsukuba; thresholds sit a little above the
// values this implementation measures (printed), so a regression fails. Measured with the
// defaults (K 5, T 5, lambda 0.07, tau 15 / 1.7, sigma 0.7): Tsukuba (L 16) 1.97 / 3.81 /
// 10.59 %, Venus (L 20) 1.31 / 2.92 / 16.06 % (nonocc / all / disc).
TEST_CASE("bp cpu: Tsukuba and Venus accuracy (regression thresholds)") {
  struct Scene {
    const char* name;
    int ndisp;
    double max_nonocc, max_all, max_disc;
  };
  for (const Scene s : {Scene{"tsukuba", 16, 2.5, 4.5, 12.0}, Scene{"venus", 20, 1.8, 3.5, 18.0}}) {
    const std::string dir = lb_shared_data_dir() + "/stereo/" + s.name;
    if (!std::filesystem::exists(dir)) {
      MESSAGE("SKIPPED: no Middlebury data at " << dir);
      continue;
    }
    const StereoScene sc = load_stereo_scene(dir);
    BpParams p;
    p.ndisp = s.ndisp;
    const auto t0 = std::chrono::steady_clock::now();
    const ImageF d = bp_stereo_cpu(sc.pair, p, 2);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const StereoScore score = score_stereo(d, sc.gt);
    std::printf("bp cpu %s (L=%d, 2 threads, %.0f ms): bad1 nonocc %.2f %%  all %.2f %%  disc %.2f %%\n", s.name,
                s.ndisp, ms, score.nonocc.percent, score.all.percent, score.disc.percent);
    CAPTURE(s.name);
    CHECK(score.nonocc.percent <= s.max_nonocc);
    CHECK(score.all.percent <= s.max_all);
    CHECK(score.disc.percent <= s.max_disc);
  }
}

// The message code the CUDA variants run (bpm::message) with every storage split: registers
// (R), shared slice (S, interleaved with a stride), local rest; and the registers variant
// with L fixed at compile time. The order of float operations does not depend on the split,
// so the messages must be bit-identical to the all-local run (what the CPU reference uses).
namespace {
template <int R, int LC>
std::vector<float> run_message(const std::vector<float>& h, int S, float tau) {
  const int L = static_cast<int>(h.size());
  std::vector<float> out(h.size(), -1.0f), sh(static_cast<std::size_t>(S > 0 ? S : 1) * 3, 0.0f);
  bpm::message<R, LC>([&](int d) { return h[static_cast<std::size_t>(d)]; },
                      [&](int d, float v) { out[static_cast<std::size_t>(d)] = v; }, L, S, sh.data() + 1, 3, tau);
  return out;
}
template <int R>
void check_splits(const std::vector<float>& h, float tau) {
  const int L = static_cast<int>(h.size());
  if (R > L) return;
  const std::vector<float> ref = run_message<0, 0>(h, 0, tau);
  for (const int S : {0, 1, (L - R) / 2, L - R}) {
    if (S > L - R) continue;  // registers + shared never exceed L (ASan caught S = 1 at R = L)
    INFO("L=" << L << " R=" << R << " S=" << S);
    CHECK(run_message<R, 0>(h, S, tau) == ref);
  }
}
}  // namespace

TEST_CASE("bp message: every registers / shared / local split gives identical bits") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-3.0f, 9.0f);
  for (const int L : {2, 5, 16, 20, 21, 33, 64}) {
    std::vector<float> h(static_cast<std::size_t>(L));
    for (auto& v : h) v = u(rng);
    check_splits<0>(h, 1.7f);
    check_splits<4>(h, 1.7f);
    check_splits<12>(h, 1.7f);
    check_splits<16>(h, 2.5f);
    check_splits<48>(h, 1.7f);
    const std::vector<float> ref = run_message<0, 0>(h, 0, 1.7f);
    if (L == 16) CHECK(run_message<16, 16>(h, 0, 1.7f) == ref);
    if (L == 20) CHECK(run_message<20, 20>(h, 0, 1.7f) == ref);
    if (L == 21) CHECK(run_message<21, 21>(h, 0, 1.7f) == ref);
    if (L == 64) CHECK(run_message<64, 64>(h, 0, 1.7f) == ref);
    // Against the definition: min_d' h(d') + min(|d - d'|, tau), minus the mean.
    std::vector<float> m(h.size());
    double mean = 0;
    for (int d = 0; d < L; ++d) {
      float best = INFINITY;
      for (int e = 0; e < L; ++e) best = std::min(best, h[static_cast<std::size_t>(e)] + std::min(float(std::abs(d - e)), 1.7f));
      m[static_cast<std::size_t>(d)] = best;
      mean += best;
    }
    mean /= L;
    for (int d = 0; d < L; ++d) CHECK(ref[static_cast<std::size_t>(d)] == doctest::Approx(m[static_cast<std::size_t>(d)] - mean).epsilon(1e-5));
  }
}

// The CUDA pipeline's per-pixel functions (stereo_bp_planes.hpp) run serially on the host in
// the kernels' order and layout (as BpDevice::compute in kernels/stereo_bp/stereo_bp.cu launches them):
// the maps must equal the CPU reference bit for bit, for each storage variant.
namespace {
template <int R, int LC>
ImageF planar_emulation(const StereoPair& pair, const BpParams& p, int S) {
  const int w = pair.left.width, h = pair.left.height, L = p.ndisp;
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  std::vector<unsigned char> in(pair.left.data.size() + pair.right.data.size());
  std::memcpy(in.data(), pair.left.data.data(), pair.left.data.size());
  std::memcpy(in.data() + pair.left.data.size(), pair.right.data.data(), pair.right.data.size());
  const std::vector<float> taps = bp_gaussian_taps(p.sigma);
  const int n = static_cast<int>(taps.size());
  std::vector<float> gray(2 * plane), tmp(2 * plane);
  for (int z = 0; z < 2; ++z) {
    const unsigned char* img = z == 0 ? in.data() : in.data() + plane * static_cast<std::size_t>(pair.left.channels);
    const int ch = z == 0 ? pair.left.channels : pair.right.channels;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        (n == 1 ? gray : tmp)[z * plane + static_cast<std::size_t>(y) * w + x] = bpp::gray_h(img, ch, w, x, y, taps.data(), n);
  }
  if (n > 1)
    for (int z = 0; z < 2; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          gray[z * plane + static_cast<std::size_t>(y) * w + x] = bpp::smooth_v(tmp.data() + z * plane, w, h, x, y, taps.data(), n);
  std::vector<int> W{w}, H{h};
  std::vector<std::size_t> off{0};
  for (int k = 1; k < p.levels; ++k) {
    off.push_back(off.back() + static_cast<std::size_t>(W.back()) * H.back() * L);
    W.push_back((W.back() + 1) / 2);
    H.push_back((H.back() + 1) / 2);
  }
  std::vector<float> D(off.back() + static_cast<std::size_t>(W.back()) * H.back() * L, -7.0f);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) bpp::cost0(gray.data(), w, h, L, p.lambda, p.tau_data, D.data(), x, y);
  for (int k = 1; k < p.levels; ++k)
    for (int y = 0; y < H[k]; ++y)
      for (int x = 0; x < W[k]; ++x)
        bpp::pyramid(D.data() + off[k - 1], W[k - 1], H[k - 1], D.data() + off[k], W[k], H[k], L, x, y);
  const std::size_t set = 4 * plane * L;
  std::vector<float> msg(2 * set, 123.0f);  // garbage: what is not written must not be read
  const int threads = 4;                    // pretend blocks of 4 threads: interleaved slices
  std::vector<float> sh(static_cast<std::size_t>(S > 0 ? S : 1) * threads, 0.0f);
  for (int k = p.levels - 1; k >= 0; --k) {
    float* m = msg.data() + (k % 2) * set;
    const std::size_t pl = static_cast<std::size_t>(W[k]) * H[k];
    if (k == p.levels - 1)
      std::fill(m, m + 4 * pl * L, 0.0f);
    else
      for (int y = 0; y < H[k]; ++y)
        for (int x = 0; x < W[k]; ++x)
          bpp::copy_down(msg.data() + ((k + 1) % 2) * set, W[k + 1], H[k + 1], m, W[k], H[k], L, x, y);
    bpp::MsgArgs a{W[k], H[k], L, S, 0, pl, D.data() + off[k], m, p.tau_disc};
    for (int t = 0; t < p.iterations; ++t) {
      a.parity = t & 1;
      for (int y = 0; y < H[k]; ++y)
        for (int i = 0; i < (W[k] + 1) / 2; ++i) {
          int x = 0;
          if (bpp::active_pixel(a, i, y, &x)) bpp::send_messages<R, LC>(a, x, y, sh.data() + i % threads, threads);
        }
    }
  }
  ImageF out(w, h, 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out.at(x, y) = static_cast<float>(bpp::wta(D.data(), msg.data(), w, h, L, x, y));
  return out;
}
}  // namespace

TEST_CASE("bp planes: the CUDA pipeline's per-pixel steps, run on the host, equal the CPU reference") {
  struct Case {
    int w, h, ch;
    float sigma;
    int levels;
    bool random;
  };
  for (const Case c : {Case{37, 23, 3, 0.7f, 4, true}, Case{41, 30, 1, 0.0f, 3, false}, Case{29, 17, 3, 1.3f, 5, false}}) {
    const StereoPair pair = c.random ? StereoPair{lbt::random_image(c.w, c.h, c.ch, 11u), lbt::random_image(c.w, c.h, c.ch, 12u), "r"}
                                     : synthetic_two_plane_pair(c.w, c.h, 2, 9, 4u, nullptr, c.ch);
    BpParams p;
    p.ndisp = 16;
    p.levels = c.levels;
    p.sigma = c.sigma;
    const ImageF ref = bp_stereo_cpu(pair, p, 2);
    INFO(c.w << "x" << c.h);
    CHECK(count_differing(planar_emulation<0, 0>(pair, p, 0), ref) == 0);    // local
    CHECK(count_differing(planar_emulation<0, 0>(pair, p, 16), ref) == 0);   // shared
    CHECK(count_differing(planar_emulation<16, 16>(pair, p, 0), ref) == 0);  // registers
    CHECK(count_differing(planar_emulation<4, 0>(pair, p, 5), ref) == 0);   // hybrid 4 / 5 / 7
    CHECK(count_differing(planar_emulation<12, 0>(pair, p, 4), ref) == 0);  // hybrid 12 / 4 / 0
  }
}

// The message against its definition by brute force: min over d' of h(d') + min(|d - d'|,
// tau), minus its mean. The scan form rounds differently (keys h - d' and f1 + d), so within a
// few ulps of the largest key.
TEST_CASE("bp message: equals the truncated-linear min-convolution minus its mean") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-4.0f, 30.0f);
  for (const int L : {1, 2, 3, 7, 16, 21, 64, 100, 256}) {
    for (const float tau : {0.5f, 1.7f, 8.5f, 1e6f}) {
      std::vector<float> h(static_cast<std::size_t>(L));
      for (auto& v : h) v = u(rng);
      const std::vector<float> got = run_message<0, 0>(h, 0, tau);
      std::vector<double> want(h.size());
      double mean = 0;
      for (int d = 0; d < L; ++d) {
        double m = 1e300;
        for (int e = 0; e < L; ++e) m = std::min(m, double(h[e]) + std::min(double(std::abs(d - e)), double(tau)));
        want[d] = m;
        mean += m;
      }
      mean /= L;
      INFO("L=" << L << " tau=" << tau);
      for (int d = 0; d < L; ++d) CHECK(std::abs(got[d] - (want[d] - mean)) <= 1e-4 * (1 + 2 * L / 64.0));
    }
  }
}

// TreeSum (fed from the last value down, the padding pushed up front) is the perfect pairwise
// tree over the values padded with zeros: what the warp variant computes lane by lane.
namespace {
float pairwise(const std::vector<float>& v, std::size_t lo, std::size_t n) {
  if (n == 1) return lo < v.size() ? v[lo] : 0.0f;
  return pairwise(v, lo, n / 2) + pairwise(v, lo + n / 2, n / 2);
}
}  // namespace

TEST_CASE("bp message: the tree sum is the padded perfect pairwise tree") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-5.0f, 5.0f);
  for (int L = 1; L <= bpm::kMaxDisp; L += (L < 40 ? 1 : L < 256 ? 37 : 97)) {
    std::vector<float> v(static_cast<std::size_t>(L));
    for (auto& x : v) x = u(rng) * (1.0f + static_cast<float>(L % 7) * 1e3f);
    bpm::TreeSum ts(bpm::tree_span(L) - static_cast<unsigned>(L));
    for (int d = L - 1; d >= 0; --d) ts.push(v[static_cast<std::size_t>(d)]);
    INFO("L=" << L);
    CHECK(ts.total() == pairwise(v, 0, bpm::tree_span(L)));
  }
}
