// The CUDA guided filter on a volume (kernels/lightfield/guided_filter.cu) against the CPU reference's
// double version (lb::guided_filter_cpu, itself checked against a brute-force definition in
// tests/lightfield/test_lf_refine.cpp; clipped box windows): random guides and
// volumes of awkward sizes, a radius larger than the image, one slice, a constant guide.
// Tolerance: float running sums and prefix sums against double, |diff| <= 2e-4 on values in
// [0, 1] (the largest seen is printed).
// The colour filter (launch_guided_filter_rgb) the same way against lb::guided_filter_rgb_cpu
// (checked against its brute-force definition in tests/lightfield/test_guided_filter_rgb.cpp), its
// tolerance derived below.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "gpu_test_util.hpp"
#include "lightfield/guided_filter.hpp"
#include "lightbench/error.hpp"
#include "lightfield/guided_filter_cpu.hpp"
#include "lightfield/lf_refine.hpp"

using namespace lb;
using lb::cuda::detail::DeviceBuffer;

TEST_CASE("guided filter gpu: every slice against the double definition (awkward sizes)") {
  LB_GPU_TEST_GUARD();
  struct Case {
    int w, h, slices, r;
    float eps;
    bool flat_guide;
  };
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  double worst = 0;
  for (const Case c : {Case{37, 23, 3, 2, 1e-4f, false}, Case{300, 7, 2, 15, 1e-4f, false},
                       Case{5, 3, 1, 9, 1e-2f, false}, Case{129, 65, 5, 15, 1e-3f, false},
                       Case{64, 64, 1, 1, 1e-4f, true}, Case{257, 31, 2, 0, 1e-4f, false},
                       Case{37, 23, 3, 2, 1e-6f, false}, Case{129, 65, 2, 15, 1e-6f, false}}) {
    const std::size_t plane = static_cast<std::size_t>(c.w) * c.h;
    std::vector<float> I(plane), p(plane * c.slices), q(plane * c.slices);
    for (auto& v : I) v = c.flat_guide ? 0.5f : u(rng);
    for (auto& v : p) v = u(rng);
    DeviceBuffer dI(plane * 4), dp(p.size() * 4), dq(q.size() * 4),
        scratch(cuda::detail::guided_filter_scratch_bytes(c.w, c.h, c.slices));
    CUDA_CHECK_THROW(cudaMemcpy(dI.get(), I.data(), plane * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK_THROW(cudaMemcpy(dp.get(), p.data(), p.size() * 4, cudaMemcpyHostToDevice));
    cuda::detail::launch_guided_filter(dI.as<float>(), c.w, c.h, dp.as<float>(), c.slices, c.r, c.eps, dq.as<float>(),
                                       scratch.as<float>(), nullptr);
    CUDA_CHECK_THROW(cudaDeviceSynchronize());
    CUDA_CHECK_THROW(cudaMemcpy(q.data(), dq.get(), q.size() * 4, cudaMemcpyDeviceToHost));
    // The guide's statistics computed apart (launch_guided_filter_stats) and passed in: the
    // same bits as the call computing them.
    {
      DeviceBuffer st(2 * plane * 4), tmp(2 * plane * 4);
      cuda::detail::launch_guided_filter_stats(dI.as<float>(), 1, c.w, c.h, c.r, c.eps, st.as<float>(), tmp.as<float>(),
                                               nullptr);
      cuda::detail::launch_guided_filter(dI.as<float>(), c.w, c.h, dp.as<float>(), c.slices, c.r, c.eps, dq.as<float>(),
                                         scratch.as<float>(), nullptr, nullptr, nullptr, st.as<float>());
      std::vector<float> q2(q.size());
      CUDA_CHECK_THROW(cudaMemcpy(q2.data(), dq.get(), q2.size() * 4, cudaMemcpyDeviceToHost));
      CHECK(q2 == q);
    }
    const std::vector<double> Id(I.begin(), I.end());
    for (int s = 0; s < c.slices; ++s) {
      const std::vector<double> ps(p.begin() + s * plane, p.begin() + (s + 1) * plane);
      const std::vector<double> ref = guided_filter_cpu(Id, ps, c.w, c.h, c.r, c.eps);
      double d = 0;
      for (std::size_t i = 0; i < plane; ++i) d = std::max(d, std::abs(ref[i] - q[s * plane + i]));
      INFO(c.w << "x" << c.h << " slice " << s << " r=" << c.r << " eps=" << c.eps << ": max |diff| " << d);
      // The rgb test's bound, delta / (2 sqrt(eps)), grows 10x from eps 1e-4 to 1e-6 (the
      // refinement's default).
      CHECK(d <= (c.eps < 1e-5f ? 2e-3 : 2e-4));
      worst = std::max(worst, d);
      std::printf("guided filter gpu %dx%d r=%d eps %.0e slice %d: max |gpu - double| %.3g\n", c.w, c.h, c.r, c.eps, s,
                  d);
    }
  }
  std::printf("guided filter gpu: largest |gpu - double| %.3g\n", worst);
}

namespace {

enum class RgbGuide { Random, Constant, Identical, Correlated, Smooth };

// 3 planes [c][y][x] in [0, 1]. Identical: the three channels equal (Sigma singular, only
// eps keeps it invertible); Correlated: 0.8 * a shared base + 0.2 * noise per channel (nearly
// proportional channels, as in a natural image: Sigma ill-conditioned); Smooth: slow waves plus
// 1% noise (small variances, eps matters).
std::vector<float> rgb_guide(RgbGuide kind, int w, int h, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  std::vector<float> base(plane), I(3 * plane);
  for (auto& v : base) v = u(rng);
  for (int c = 0; c < 3; ++c)
    for (std::size_t i = 0; i < plane; ++i) {
      const float x = static_cast<float>(i % w), y = static_cast<float>(i / w);
      float& v = I[c * plane + i];
      switch (kind) {
        case RgbGuide::Random: v = u(rng); break;
        case RgbGuide::Constant: v = 0.2f + 0.3f * static_cast<float>(c); break;
        case RgbGuide::Identical: v = base[i]; break;
        case RgbGuide::Correlated: v = 0.8f * base[i] + 0.2f * u(rng); break;
        case RgbGuide::Smooth:
          v = 0.5f + 0.4f * std::sin(0.05f * x + 0.9f * static_cast<float>(c)) * std::cos(0.07f * y) + 0.01f * u(rng);
          break;
      }
    }
  return I;
}

}  // namespace

// Tolerance of the colour filter, relative to the magnitude of the result (max |q| over the
// slice, at least 1): 5e-4. Why: the float error starts as the rounding of the box means,
// delta ~ 2^-24 * (the row's prefix sum) / N, up to ~1e-5 at these widths (radius 0 on a
// 257-wide row: prefix sums ~128, N = 1). (Sigma + eps U)^-1 multiplies it by up to 1 / eps
// in a direction where the guide's variance lambda is small, but q only sees a through
// I - mean_I, whose spread there is ~sqrt(lambda): |dq| <~ delta sqrt(lambda) / (lambda + eps)
// <= delta / (2 sqrt(eps)) = 5e-4 at delta = 1e-5, eps = 1e-4, the worst combination; eps
// 1e-3 .. 1e-2 only shrink it, and 1e-6 (the refinement's default) raises it to 5e-3. A float emulation of the kernels (same running sums, same
// block-scan order) on these cases measured at most 2.5e-5 (radius 0) and 1.7e-5 (correlated
// channels, eps 1e-4). Indexing or algebra bugs give errors of order 0.01 .. 1.
TEST_CASE("guided filter rgb gpu: every slice against the double reference (awkward sizes, colour guides)") {
  LB_GPU_TEST_GUARD();
  struct Case {
    int w, h, slices, r;
    float eps;
    RgbGuide guide;
  };
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  double worst = 0;
  for (const Case c :
       {Case{37, 23, 3, 2, 1e-4f, RgbGuide::Random}, Case{300, 7, 2, 15, 1e-4f, RgbGuide::Random},
        Case{5, 3, 1, 9, 1e-2f, RgbGuide::Random}, Case{129, 65, 5, 15, 1e-3f, RgbGuide::Random},
        Case{64, 64, 1, 1, 1e-4f, RgbGuide::Constant}, Case{257, 31, 2, 0, 1e-4f, RgbGuide::Random},
        Case{48, 40, 2, 4, 1e-3f, RgbGuide::Identical}, Case{97, 61, 3, 3, 1e-4f, RgbGuide::Correlated},
        Case{97, 61, 1, 3, 1e-2f, RgbGuide::Correlated}, Case{512, 64, 2, 15, 1e-4f, RgbGuide::Smooth},
        Case{37, 23, 3, 2, 1e-6f, RgbGuide::Random}, Case{257, 31, 2, 0, 1e-6f, RgbGuide::Random},
        Case{97, 61, 3, 3, 1e-6f, RgbGuide::Correlated}, Case{512, 64, 2, 15, 1e-6f, RgbGuide::Smooth},
        // More slices, larger radii (the refinement's are 15 and 2).
        Case{70, 45, 7, 16, 1e-4f, RgbGuide::Random}, Case{67, 41, 7, 17, 1e-4f, RgbGuide::Random},
        Case{33, 95, 11, 20, 1e-3f, RgbGuide::Correlated}}) {
    const std::size_t plane = static_cast<std::size_t>(c.w) * c.h;
    const std::vector<float> I = rgb_guide(c.guide, c.w, c.h, rng);
    std::vector<float> p(plane * c.slices), q(plane * c.slices);
    for (auto& v : p) v = u(rng);
    DeviceBuffer dI(I.size() * 4), dp(p.size() * 4), dq(q.size() * 4),
        scratch(cuda::detail::guided_filter_rgb_scratch_bytes(c.w, c.h, c.slices));
    CUDA_CHECK_THROW(cudaMemcpy(dI.get(), I.data(), I.size() * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK_THROW(cudaMemcpy(dp.get(), p.data(), p.size() * 4, cudaMemcpyHostToDevice));
    cuda::detail::launch_guided_filter_rgb(dI.as<float>(), c.w, c.h, dp.as<float>(), c.slices, c.r, c.eps,
                                           dq.as<float>(), scratch.as<float>(), nullptr);
    CUDA_CHECK_THROW(cudaDeviceSynchronize());
    CUDA_CHECK_THROW(cudaMemcpy(q.data(), dq.get(), q.size() * 4, cudaMemcpyDeviceToHost));
    {  // precomputed statistics: the same bits
      DeviceBuffer st(9 * plane * 4), tmp(9 * plane * 4);
      cuda::detail::launch_guided_filter_stats(dI.as<float>(), 3, c.w, c.h, c.r, c.eps, st.as<float>(), tmp.as<float>(),
                                               nullptr);
      cuda::detail::launch_guided_filter_rgb(dI.as<float>(), c.w, c.h, dp.as<float>(), c.slices, c.r, c.eps,
                                             dq.as<float>(), scratch.as<float>(), nullptr, nullptr, nullptr,
                                             st.as<float>());
      std::vector<float> q2(q.size());
      CUDA_CHECK_THROW(cudaMemcpy(q2.data(), dq.get(), q2.size() * 4, cudaMemcpyDeviceToHost));
      CHECK(q2 == q);
    }
    const std::vector<double> Id(I.begin(), I.end());
    for (int s = 0; s < c.slices; ++s) {
      const std::vector<double> ps(p.begin() + s * plane, p.begin() + (s + 1) * plane);
      const std::vector<double> ref = guided_filter_rgb_cpu(Id, ps, c.w, c.h, c.r, c.eps);
      double d = 0, magnitude = 1;
      for (std::size_t i = 0; i < plane; ++i) {
        d = std::max(d, std::abs(ref[i] - q[s * plane + i]));
        magnitude = std::max(magnitude, std::abs(ref[i]));
      }
      const double rel = d / magnitude;
      INFO(c.w << "x" << c.h << " slice " << s << " r=" << c.r << " eps=" << c.eps << " guide "
                << static_cast<int>(c.guide) << ": max |diff| / magnitude " << rel);
      // delta / (2 sqrt(eps)) with delta 1e-5: 5e-4 at eps 1e-4, 5e-3 at 1e-6 (the refinement's
      // default).
      const double bound = std::max(5e-4, 1e-5 / (2.0 * std::sqrt(static_cast<double>(c.eps))));
      CHECK(rel <= bound);
      if (c.eps < 1e-5f)
        std::printf("guided filter rgb gpu %dx%d r=%d eps %.0e guide %d slice %d: |gpu - double| / magnitude %.3g\n",
                    c.w, c.h, c.r, c.eps, static_cast<int>(c.guide), s, rel);
      worst = std::max(worst, rel);
    }
  }
  std::printf("guided filter rgb gpu: largest |gpu - double| / magnitude %.3g\n", worst);
}

TEST_CASE("guided filter rgb gpu: a row too wide for the device's shared memory throws one line") {
  LB_GPU_TEST_GUARD();
  const int w = 40000, h = 1;  // 9 prefix rows of 40000 floats: 1.4 MB, beyond any device
  DeviceBuffer dI(3 * static_cast<std::size_t>(w) * 4), dp(static_cast<std::size_t>(w) * 4),
      dq(static_cast<std::size_t>(w) * 4), scratch(cuda::detail::guided_filter_rgb_scratch_bytes(w, h, 1));
  std::string msg;
  try {
    cuda::detail::launch_guided_filter_rgb(dI.as<float>(), w, h, dp.as<float>(), 1, 2, 1e-3f, dq.as<float>(),
                                           scratch.as<float>(), nullptr);
  } catch (const Error& e) {
    msg = e.what();
  }
  CHECK(msg.find("cudaDevAttrMaxSharedMemoryPerBlockOptin") != std::string::npos);
  CHECK(msg.find('\n') == std::string::npos);
  CUDA_CHECK_THROW(cudaDeviceSynchronize());  // nothing was queued
}
