// CUDA MAD pipelines (kernels/mad/mad_pipeline.hpp): the r2c pipeline (the default) at awkward
// sizes and every inverse batch size against the CPU reference with the metric's documented
// tolerance (0.1 % relative, test_mad_gpu.cpp), against the previous c2c pipeline (same float
// arithmetic up to FFT rounding: 5e-4 relative on the scores, the maps within 2e-3 of their
// largest value but for a few cells (map_outliers); against the CPU within 1e-2), the launches
// per call, the stage timings, the automatic batch, the cuFFT-callback option, bad options.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "gpu_test_util.hpp"
#include "lightbench/distort.hpp"
#include "lightbench/engines/cuda.hpp"
#include "mad/mad.hpp"
#include "mad/mad_cuda.hpp"
#include "mad/mad_pipeline.hpp"  // kernels/: mad_auto_batch_planes

using namespace lb;

namespace {

ImageU8 textured(int w, int h, int seed) {
  ImageU8 im(w, h, 1);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      im.at(x, y) = static_cast<std::uint8_t>(128 + 60 * std::sin(x * 0.13 + seed) * std::cos(y * 0.09) +
                                              ((x / 11 + y / 7 + seed) % 3) * 20 - 20);
  return im;
}

// max |a - b| over the map, relative to max |b| (0 when both are all zero).
double map_rel_diff(const ImageD& a, const ImageD& b) {
  REQUIRE(a.width == b.width);
  REQUIRE(a.height == b.height);
  double dmax = 0, bmax = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) {
    dmax = std::max(dmax, std::fabs(a.data[i] - b.data[i]));
    bmax = std::max(bmax, std::fabs(b.data[i]));
  }
  return bmax > 0 ? dmax / bmax : dmax;
}

// Pixels where |a - b| > tol * max |b|. The masking has one jump (mean_R >= 0.5, spec 1.4): a
// block whose mean sits within float rounding of 0.5 may switch between two float paths and
// change its 4x4 cell, so the map checks allow a few cells (32 pixels), not a bound on the max.
std::size_t map_outliers(const ImageD& a, const ImageD& b, double tol) {
  REQUIRE(a.data.size() == b.data.size());
  double bmax = 0;
  for (double v : b.data) bmax = std::max(bmax, std::fabs(v));
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) bad += std::fabs(a.data[i] - b.data[i]) > tol * bmax;
  return bad;
}

double rel(double a, double b) { return std::fabs(a - b) / std::max(std::fabs(b), 1e-300); }

}  // namespace

TEST_CASE("mad gpu pipelines: r2c (every batch, column pass and cuFFT 2D) and c2c vs the CPU reference and each other") {
  LB_GPU_TEST_GUARD();
  struct Size {
    int w, h;
  };
  // Heights (rounded down to even) 60 = 6.10, 384 = 6.8.8, 70 = 7.10 (the column pass's
  // radices), 106 = 2.53 (no column pass: cuFFT 2D); odd widths.
  const Size sizes[] = {{97, 61}, {512, 384}, {131, 71}, {75, 107}};
  auto c2c = cuda::make_mad_engine_cuda(0, {true, 0});
  // "batch" -1 / -2: the automatic batch with the column pass forced (at these sizes the
  // automatic choice is cuFFT 2D; 75x107 falls back to it) / with cuFFT 2D forced
  std::vector<std::pair<int, std::unique_ptr<MadEngine>>> r2c;
  for (int b : {0, 2, 10, 40}) r2c.emplace_back(b, cuda::make_mad_engine_cuda(0, {false, b}));
  r2c.emplace_back(-1, cuda::make_mad_engine_cuda(0, {false, 0, false, cuda::MadInverse::ColumnPass}));
  r2c.emplace_back(-2, cuda::make_mad_engine_cuda(0, {false, 10, false, cuda::MadInverse::Cufft2d}));
  for (const Size& sz : sizes) {
    const ImageU8 ref = textured(sz.w, sz.h, 3);
    const ImageD r = mad_gray(ref), d = mad_gray(distort_noise(distort_blur(ref, 1.2), 8, 4));
    for (const bool eight_bit : {true, false}) {
      CAPTURE(sz.w);
      CAPTURE(eight_bit);
      MadOptions o;
      o.eight_bit = eight_bit;
      const MadResult want = mad_cpu(r, d, o);
      REQUIRE(want.d_detect > 0);
      REQUIRE(want.d_appear > 0);
      const MadResult old = c2c->run(r, d, "fused", o);
      CHECK(old.mad == doctest::Approx(want.mad).epsilon(1e-3));
      for (const std::string& v : c2c->variants())
        for (auto& [b, e] : r2c) {
          if (b != 0 && v != "fused") continue;  // every variant on the default, fused on the rest
          CAPTURE(b);
          CAPTURE(v);
          const MadResult got = e->run(r, d, v, o);
          MESSAGE(sz.w << "x" << sz.h << " 8-bit " << eight_bit << " batch " << b << " " << v << ": MAD " << got.mad
                       << " (cpu " << want.mad << ", rel " << rel(got.mad, want.mad) << "; c2c rel "
                       << rel(got.mad, old.mad) << "), maps vs c2c " << map_rel_diff(got.hi, old.hi) << " / "
                       << map_rel_diff(got.lo, old.lo) << ", vs cpu " << map_rel_diff(got.hi, want.hi) << " / "
                       << map_rel_diff(got.lo, want.lo));
          CHECK(got.width == (sz.w & ~1));
          CHECK(got.height == (sz.h & ~1));
          CHECK(got.cropped_odd == (sz.w % 2 == 1 || sz.h % 2 == 1));
          CHECK(got.d_detect == doctest::Approx(want.d_detect).epsilon(1e-3));
          CHECK(got.d_appear == doctest::Approx(want.d_appear).epsilon(1e-3));
          CHECK(got.mad == doctest::Approx(want.mad).epsilon(1e-3));
          CHECK(got.d_detect == doctest::Approx(old.d_detect).epsilon(5e-4));
          CHECK(got.d_appear == doctest::Approx(old.d_appear).epsilon(5e-4));
          CHECK(map_outliers(got.hi, old.hi, 2e-3) <= 32);
          CHECK(map_outliers(got.lo, old.lo, 2e-3) <= 32);
          CHECK(map_outliers(got.hi, want.hi, 1e-2) <= 32);
          CHECK(map_outliers(got.lo, want.lo, 1e-2) <= 32);
        }
    }
    // identical images: exactly 0 on every pipeline
    for (auto& [b, e] : r2c) {
      const MadResult z = e->run(r, r);
      CHECK(z.mad == 0);
      CHECK(z.d_detect == 0);
      CHECK(z.d_appear == 0);
    }
  }
}

TEST_CASE("mad gpu pipelines: launches per call, stage timings, bad batch size") {
  LB_GPU_TEST_GUARD();
  const ImageU8 ref = textured(512, 384, 1);
  const ImageD r = mad_gray(ref), d = mad_gray(distort_blur(ref, 1.0));
  MadOptions o;
  o.keep_maps = false;
  // r2c: lum, R2C, CSF multiply, C2R, detect, 3 per inverse batch (products, C2C, statistics),
  // LO (with the final sums); c2c: 15 (11 kernels, 4 transforms); non-fused statistics add a
  // magnitude pass.
  struct Case {
    cuda::MadPipelineOptions p;
    const char* variant;
    int launches;
  };
  const auto col = cuda::MadInverse::ColumnPass;
  const Case cases[] = {{{false, 40}, "fused", 9},          {{false, 10}, "fused", 18},
                        {{false, 2}, "fused", 66},          {{false, 40}, "shared_nc", 10},
                        {{false, 40, false, col}, "fused", 9}, {{false, 10, false, col}, "shared_nc", 22},
                        {{true, 0}, "fused", 15},           {{true, 0}, "gather", 16}};
  for (const Case& c : cases) {
    CAPTURE(c.p.c2c);
    CAPTURE(c.p.batch_planes);
    CAPTURE(c.variant);
    auto e = cuda::make_mad_engine_cuda(0, c.p);
    const MadResult m = e->run(r, d, c.variant, o);
    const cuda::MadPipelineInfo info = cuda::mad_pipeline_info(*e, 512, 384);
    MESSAGE(info.describe << " " << c.variant << ": " << info.launches << " launches, " << m.ms << " ms");
    CHECK(info.launches == c.launches);
    // The stages add up to the metric's time (the upload is outside it); r2c's detection
    // branch (csf_inv, detect) runs on a second stream beside the others, inside that time.
    double sum = 0, side = 0;
    for (const std::string& k : e->timings().kernels())
      if (k.rfind("mad/stage/", 0) == 0 && k != "mad/stage/upload") {
        const TimingStats st = e->timings().stats(k);
        CHECK(st.count == 1);
        CHECK(e->timings().history(k).back().bytes > 0);
        const bool on_side = !c.p.c2c && (k == "mad/stage/csf_inv" || k == "mad/stage/detect");
        (on_side ? side : sum) += st.last_ms;
      }
    CHECK(sum == doctest::Approx(m.ms).epsilon(1e-3));
    CHECK(side <= m.ms);
    if (!c.p.c2c) CHECK(side > 0.0);
    CHECK(e->timings().stats("mad/stage/detect").count == 1);
    // the column pass (forced here) and the row inverses, else products and 2D inverses
    const bool cp = c.p.inverse == col;
    CHECK(e->timings().stats(cp ? "mad/stage/gabor_row" : "mad/stage/gabor_inv").count == 1);
    CHECK(e->timings().stats(cp ? "mad/stage/gabor_col" : "mad/stage/gabor_mul").count == 1);
    CHECK(e->timings().stats(std::string("mad/stats/") + c.variant).count == 1);
  }
  const auto auto_batch = cuda::mad_pipeline_info(*cuda::make_mad_engine_cuda(), 512, 384);
  MESSAGE("default at 512x384: " << auto_batch.describe);
  CHECK(auto_batch.describe.rfind("r2c", 0) == 0);
  CHECK(auto_batch.describe.find("cuFFT 2D inverses") != std::string::npos);  // 10 planes fit the L2
  auto forced = cuda::make_mad_engine_cuda(0, {false, 0, false, col});
  CHECK(cuda::mad_pipeline_info(*forced, 512, 384).describe.find("fused column pass (4 columns a block, radices 6x8x8)") !=
        std::string::npos);
  // A height with a prime factor past 7 keeps the cuFFT 2D inverses, even when asked.
  CHECK(cuda::mad_pipeline_info(*forced, 76, 106).describe.find("cuFFT 2D inverses") != std::string::npos);
  for (int bad : {-2, 1, 3, 6, 80}) {
    CAPTURE(bad);
    try {
      (void)cuda::make_mad_engine_cuda(0, {false, bad});
      FAIL("no error for batch " << bad);
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("even divisor of 40") != std::string::npos);
    }
  }
}

TEST_CASE("mad gpu pipelines: r2c with cuFFT JIT callbacks vs the CPU reference and plain r2c") {
  LB_GPU_TEST_GUARD();
  auto cb = cuda::make_mad_engine_cuda(0, {false, 0, true});
  auto plain = cuda::make_mad_engine_cuda(0, {false, 40});
  for (const auto& [w, h] : {std::pair<int, int>{97, 61}, {512, 384}}) {
    CAPTURE(w);
    const ImageU8 ref = textured(w, h, 5);
    const ImageD r = mad_gray(ref), d = mad_gray(distort_noise(distort_blur(ref, 0.9), 6, 9));
    const MadResult want = mad_cpu(r, d);
    MadResult got;
    try {
      got = cb->run(r, d);
    } catch (const Error& e) {
      // Only where cuFFT cannot link JIT callbacks (no libnvJitLink): say so loudly.
      const std::string why = e.what();
      MESSAGE("SKIPPED: cuFFT callbacks unavailable: " << why);
      CHECK(why.find("MAD r2c with cuFFT callbacks: ") != std::string::npos);
      return;
    }
    const MadResult base = plain->run(r, d);
    MESSAGE(w << "x" << h << " callbacks: MAD " << got.mad << " (cpu " << want.mad << ", rel "
              << rel(got.mad, want.mad) << "; r2c rel " << rel(got.mad, base.mad) << "), "
              << cuda::mad_pipeline_info(*cb, w, h).launches << " launches, " << got.ms << " ms");
    CHECK(got.d_detect == doctest::Approx(want.d_detect).epsilon(1e-3));
    CHECK(got.d_appear == doctest::Approx(want.d_appear).epsilon(1e-3));
    CHECK(got.mad == doctest::Approx(want.mad).epsilon(1e-3));
    CHECK(got.d_detect == base.d_detect);  // the detection stage is the same kernels
    CHECK(got.d_appear == doctest::Approx(base.d_appear).epsilon(2e-4));
    CHECK(map_outliers(got.lo, base.lo, 2e-3) <= 32);
    CHECK(cuda::mad_pipeline_info(*cb, w, h).launches == 8);
    CHECK(cuda::mad_pipeline_info(*cb, w, h).describe == "r2c, cuFFT callbacks");
    for (const std::string& v : cb->variants()) {  // every statistics variant reads the float maps
      CAPTURE(v);
      CHECK(cb->run(r, d, v).mad == doctest::Approx(want.mad).epsilon(1e-3));
    }
    CHECK(cb->run(r, r).mad == 0);
  }
  try {
    (void)cuda::make_mad_engine_cuda(0, {true, 0, true});
    FAIL("c2c with callbacks accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("option of the r2c pipeline") != std::string::npos);
  }
}

TEST_CASE("mad pipelines: the automatic inverse (host only)") {
  const std::size_t mb = 1u << 20;
  // two complex planes past half the L2: the column pass
  CHECK(cuda::detail::mad_auto_column_pass(1920, 1080, 50 * mb));   // 31.6 MiB > 25
  CHECK(!cuda::detail::mad_auto_column_pass(512, 384, 50 * mb));    // 3 MiB
  CHECK(!cuda::detail::mad_auto_column_pass(1280, 720, 50 * mb));   // 14.1 MiB
  CHECK(!cuda::detail::mad_auto_column_pass(1920, 1080, 128 * mb));
}

TEST_CASE("mad pipelines: the automatic inverse batch (host only)") {
  const std::size_t mb = 1u << 20;
  // 512x384: a complex plane is 1.5 MiB; 10 planes (15 MiB) fit half of a 50 MiB L2, 20 do not.
  CHECK(cuda::detail::mad_auto_batch_planes(512, 384, 50 * mb) == 10);
  CHECK(cuda::detail::mad_auto_batch_planes(512, 512, 50 * mb) == 10);
  CHECK(cuda::detail::mad_auto_batch_planes(96, 60, 50 * mb) == 40);  // all 40 fit
  // 1920x1080: 2 planes (31.6 MiB) overflow half of 50 MiB: one batch of 40, fewest launches;
  // half of 100 MiB holds 2 planes, half of 128 MiB 4 (63.3 MiB).
  CHECK(cuda::detail::mad_auto_batch_planes(1920, 1080, 50 * mb) == 40);
  CHECK(cuda::detail::mad_auto_batch_planes(1920, 1080, 100 * mb) == 2);
  CHECK(cuda::detail::mad_auto_batch_planes(1920, 1080, 128 * mb) == 4);
  CHECK(cuda::detail::mad_auto_batch_planes(1920, 1080, 0) == 40);
}

TEST_CASE("mad column pass: radices (host only)") {
  using cuda::detail::mad_column_radices;
  // every stage one round of the 512 threads (4 columns), then balanced, ascending
  CHECK(mad_column_radices(1080) == std::vector<int>{9, 10, 12});
  CHECK(mad_column_radices(384) == std::vector<int>{6, 8, 8});
  CHECK(mad_column_radices(512) == std::vector<int>{8, 8, 8});
  CHECK(mad_column_radices(70) == std::vector<int>{7, 10});
  CHECK(mad_column_radices(96) == std::vector<int>{8, 12});
  CHECK(mad_column_radices(240) == std::vector<int>{15, 16});
  CHECK(mad_column_radices(16) == std::vector<int>{16});  // one stage beats 4.4
  CHECK(mad_column_radices(2 * 3 * 5 * 7 * 11).empty());
  CHECK(mad_column_radices(2) == std::vector<int>{2});
  CHECK(mad_column_radices(106).empty());  // 2 x 53
  CHECK(mad_column_radices(1).empty());
  CHECK(mad_column_radices(0).empty());
}

// The fused column pass + the row C2C against a double 2D inverse DFT of the same products, on
// random half spectra and filters: every radix, odd widths, both column widths of a block.
TEST_CASE("mad column pass + cuFFT rows vs a double inverse DFT (random, awkward sizes)") {
  LB_GPU_TEST_GUARD();
  using cuda::detail::MadColumnPass;
  struct Size {
    int w, h;
  };
  // heights (radices): 70 (7.10), 96 (8.12), 45 (5.9), 56 (7.8), 2, 81 (9.9), 25 (5.5), 36
  // (6.6), 4, 240 (15.16), 3 (odd: the pass takes any height), 1080 (9.10.12: the 1920x1080
  // workload's, a narrow strip)
  for (const Size sz : {Size{13, 70}, Size{30, 96}, Size{9, 45}, Size{22, 56}, Size{17, 2}, Size{7, 81},
                        Size{11, 25}, Size{5, 36}, Size{19, 4}, Size{7, 240}, Size{9, 3}, Size{6, 1080}}) {
    for (int cols : {4, 8}) {
      CAPTURE(sz.w);
      CAPTURE(sz.h);
      CAPTURE(cols);
      const int w = sz.w, h = sz.h, wh = w / 2 + 1, planes = 4, r0 = 1;
      const std::size_t n = static_cast<std::size_t>(w) * h, nh = static_cast<std::size_t>(h) * wh;
      std::mt19937 rng(static_cast<unsigned>(w * 131 + h + cols));
      std::uniform_real_distribution<float> u(-1.f, 1.f);
      std::vector<float2> half(2 * nh);
      for (float2& v : half) v = float2{u(rng), u(rng)};
      std::vector<float> gabor(20 * n);  // the 20 log-Gabor planes' layout
      for (float& v : gabor) v = u(rng);
      cuda::detail::DeviceBuffer dh(half.size() * sizeof(float2)), dg(gabor.size() * sizeof(float)),
          dr(planes * n * sizeof(float2));
      REQUIRE(cudaMemcpy(dh.get(), half.data(), half.size() * sizeof(float2), cudaMemcpyHostToDevice) == cudaSuccess);
      REQUIRE(cudaMemcpy(dg.get(), gabor.data(), gabor.size() * sizeof(float), cudaMemcpyHostToDevice) ==
              cudaSuccess);
      const auto col = MadColumnPass::make(w, h, dg.as<float>(), nullptr, cols);
      if (!col) {  // two blocks of 8 x 1080 columns do not fit an SM's shared memory
        CHECK((cols == 8 && h == 1080));
        continue;
      }
      const auto rows = cuda::detail::MadFftPlan::rows_c2c(w, h * planes, nullptr);
      col->run(dh.as<float2>(), dr.as<float2>(), r0, planes, nullptr);
      rows->c2c(dr.get(), dr.get(), CUFFT_INVERSE);
      std::vector<float2> got(planes * n);
      REQUIRE(cudaMemcpy(got.data(), dr.get(), got.size() * sizeof(float2), cudaMemcpyDeviceToHost) == cudaSuccess);
      double err = 0, big = 0;
      for (int q = 0; q < planes; ++q) {
        // the full spectrum of image q % 2 (Hermitian extension of the half) times filter r0 + q / 2
        std::vector<std::complex<double>> p(n);
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x) {
            const float2 s = x < wh ? half[(q % 2) * nh + static_cast<std::size_t>(y) * wh + x]
                                    : half[(q % 2) * nh + static_cast<std::size_t>((h - y) % h) * wh + (w - x)];
            const double sy = x < wh ? s.y : -s.y;
            p[static_cast<std::size_t>(y) * w + x] =
                std::complex<double>(s.x, sy) * static_cast<double>(gabor[(r0 + q / 2) * n + y * w + x]);
          }
        // separable double inverse DFT: along x, then along y
        std::vector<std::complex<double>> t(n);
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x) {
            std::complex<double> acc = 0;
            for (int kx = 0; kx < w; ++kx)
              acc += p[static_cast<std::size_t>(y) * w + kx] *
                     std::polar(1.0, 2 * M_PI * static_cast<double>((kx * x) % w) / w);
            t[static_cast<std::size_t>(y) * w + x] = acc;
          }
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x) {
            std::complex<double> acc = 0;
            for (int ky = 0; ky < h; ++ky)
              acc += t[static_cast<std::size_t>(ky) * w + x] *
                     std::polar(1.0, 2 * M_PI * static_cast<double>((static_cast<long>(ky) * y) % h) / h);
            const float2 g = got[q * n + static_cast<std::size_t>(y) * w + x];
            err = std::max(err, std::abs(acc - std::complex<double>(g.x, g.y)));
            big = std::max(big, std::abs(acc));
          }
      }
      MESSAGE(w << "x" << h << " (" << col->describe() << "): max error " << err << " of max " << big);
      CHECK(big > 0);
      CHECK(err <= 2e-6 * big * std::log2(static_cast<double>(n)));  // float FFT rounding
    }
  }
}
