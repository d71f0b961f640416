// CUDA MAD: every local-statistics variant against the CPU statistics on random data of
// awkward sizes, and the whole metric (each variant) against the CPU reference / the
// spec's values.
//
// Tolerances (float vs double): std within 1e-4 relative (+1e-6 absolute); skewness and
// kurtosis within 2e-3 absolute (+1e-3 relative): on random data these are O(1) and float
// rounding of 256-sample sums bounds the error well below. The metric: within 0.1 %
// relative of the CPU reference (spec).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "shared_data.hpp"
#include "gpu_test_util.hpp"
#include "lightbench/distort.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightbench/image_io.hpp"
#include "mad/mad.hpp"
#include "mad/mad_cuda.hpp"
#include "mad/mad_math.hpp"

using namespace lb;

TEST_CASE("mad gpu: local-statistics variants vs the CPU statistics (random, odd sizes)") {
  LB_GPU_TEST_GUARD();
  struct Size {
    int w, h, planes;
  };
  const Size sizes[] = {{16, 16, 1}, {37, 53, 3}, {131, 67, 2}, {300, 171, 4}, {517, 389, 2}};
  std::mt19937 rng(5);
  for (const Size& sz : sizes) {
    std::vector<float> planes(static_cast<std::size_t>(sz.w) * sz.h * sz.planes);
    std::uniform_real_distribution<float> u(0.f, 50.f);
    for (std::size_t i = 0; i < planes.size(); ++i)  // varied texture; some flat areas
      planes[i] = (i / 97) % 5 == 0 ? 7.f : u(rng) * u(rng) / 50.f;
    for (const std::string& v : cuda::mad_stats_variants()) {
      CAPTURE(v);
      CAPTURE(sz.w);
      CAPTURE(sz.h);
      const auto got = cuda::mad_block_stats_cuda(planes, sz.w, sz.h, sz.planes, v);
      REQUIRE(got.size() == static_cast<std::size_t>(sz.planes));
      int bad = 0;
      for (int p = 0; p < sz.planes; ++p) {
        const auto want =
            mad_cpu_detail::block_stats(planes.data() + static_cast<std::size_t>(p) * sz.w * sz.h, sz.w, sz.h);
        REQUIRE(got[p].size() == want.size());
        for (std::size_t b = 0; b < want.size(); ++b) {
          const auto& g = got[p][b];
          const auto& w = want[b];
          const bool ok = std::fabs(g.std - w.std) <= 1e-4 * std::fabs(w.std) + 1e-6 &&
                          std::fabs(g.skew - w.skew) <= 2e-3 + 1e-3 * std::fabs(w.skew) &&
                          std::fabs(g.kurt - w.kurt) <= 2e-3 + 1e-3 * std::fabs(w.kurt);
          if (!ok && bad++ < 3)
            MESSAGE("plane " << p << " block " << b << ": got " << g.std << " " << g.skew << " " << g.kurt
                             << " want " << w.std << " " << w.skew << " " << w.kurt);
        }
      }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("mad gpu: whole metric, every variant, vs the CPU reference (synthetic, odd size)") {
  LB_GPU_TEST_GUARD();
  ImageU8 ref(203, 141, 1);
  for (int y = 0; y < ref.height; ++y)
    for (int x = 0; x < ref.width; ++x)
      ref.at(x, y) = static_cast<std::uint8_t>(128 + 70 * std::sin(x * 0.11) * std::cos(y * 0.07) +
                                               ((x / 13 + y / 11) % 2) * 30 - 15);
  const ImageD r = mad_gray(ref), d = mad_gray(distort_noise(distort_blur(ref, 1.0), 6, 2));
  const MadResult want = mad_cpu(r, d);
  auto gpu = cuda::make_mad_engine_cuda();
  for (const std::string& v : gpu->variants()) {
    CAPTURE(v);
    const MadResult got = gpu->run(r, d, v);
    MESSAGE(v << ": MAD " << got.mad << " (cpu " << want.mad << "), " << got.ms << " ms");
    CHECK(got.width == 202);
    CHECK(got.cropped_odd);
    CHECK(got.d_detect == doctest::Approx(want.d_detect).epsilon(1e-3));
    CHECK(got.d_appear == doctest::Approx(want.d_appear).epsilon(1e-3));
    CHECK(got.mad == doctest::Approx(want.mad).epsilon(1e-3));
    REQUIRE(got.hi.width == 202);
    CHECK(got.lo.at(50, 50) == doctest::Approx(want.lo.at(50, 50)).epsilon(1e-2));
  }
  // identical images: 0
  const MadResult z = gpu->run(r, r);
  CHECK(z.mad == 0);
  CHECK(z.d_appear == 0);
  CHECK(gpu->timings().stats("mad/stats/fused").count >= 1);
}

TEST_CASE("mad gpu: the spec's reference values on the iqa pairs (0.1 %)") {
  LB_GPU_TEST_GUARD();
  const std::string dir = lb_shared_data_dir() + "/iqa";
  if (!std::filesystem::exists(dir + "/I03_ref.bmp")) {
    MESSAGE("SKIPPED: " << dir << " not present");
    return;
  }
  struct Ref {
    const char* id;
    double mad, d_detect, d_appear;
  };
  const Ref refs[] = {{"I03", 152.7177, 204110.41, 6.4921}, {"I04", 0, 0, 0.3236}, {"I06", 0, 0, 0.1974}};
  auto gpu = cuda::make_mad_engine_cuda();
  auto c2c = cuda::make_mad_engine_cuda(0, {true, 0});
  for (const Ref& rf : refs) {
    const ImageD r = mad_gray(load_image(dir + "/" + rf.id + "_ref.bmp"));
    const ImageD d = mad_gray(load_image(dir + "/" + rf.id + "_dist.bmp"));
    for (const std::string& v : gpu->variants()) {
      CAPTURE(rf.id);
      CAPTURE(v);
      const MadResult m = gpu->run(r, d, v);
      MESSAGE(rf.id << " " << v << ": MAD " << m.mad << " d_detect " << m.d_detect << " d_appear " << m.d_appear
                    << " (" << m.ms << " ms)");
      CHECK(m.mad == doctest::Approx(rf.mad).epsilon(1e-3));
      CHECK(m.d_detect == doctest::Approx(rf.d_detect).epsilon(1e-3));
      CHECK(m.d_appear == doctest::Approx(rf.d_appear).epsilon(1e-3));
      if (rf.mad == 0) {  // I04, I06: every block's masking is 0 by a wide margin, exactly 0
        CHECK(m.d_detect == 0);
        CHECK(m.mad == 0);
      }
    }
    // The previous pipeline (c2c) beside the default (r2c): the same scores to float rounding.
    const MadResult now = gpu->run(r, d), before = c2c->run(r, d);
    MESSAGE(rf.id << " r2c vs c2c: MAD " << now.mad << " / " << before.mad << ", d_detect " << now.d_detect << " / "
                  << before.d_detect << ", d_appear " << now.d_appear << " / " << before.d_appear << " (spec "
                  << rf.mad << ")");
    CHECK(now.mad == doctest::Approx(before.mad).epsilon(1e-4));
    CHECK(now.d_appear == doctest::Approx(before.d_appear).epsilon(1e-4));
  }
}
