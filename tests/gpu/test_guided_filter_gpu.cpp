// The CUDA guided filter on a volume (kernels/guided_filter.cu) against the CPU reference's
// double version (lb::guided_filter_cpu, itself checked against a brute-force definition in
// tests/engine/test_lf_refine.cpp; clipped box windows): random guides and
// volumes of awkward sizes, a radius larger than the image, one slice, a constant guide.
// Tolerance: float running sums and prefix sums against double, |diff| <= 2e-4 on values in
// [0, 1] (the largest seen is printed).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "gpu_test_util.hpp"
#include "guided_filter.hpp"
#include "lightbench/lf_refine.hpp"

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
                       Case{64, 64, 1, 1, 1e-4f, true}, Case{257, 31, 2, 0, 1e-4f, false}}) {
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
    const std::vector<double> Id(I.begin(), I.end());
    for (int s = 0; s < c.slices; ++s) {
      const std::vector<double> ps(p.begin() + s * plane, p.begin() + (s + 1) * plane);
      const std::vector<double> ref = guided_filter_cpu(Id, ps, c.w, c.h, c.r, c.eps);
      double d = 0;
      for (std::size_t i = 0; i < plane; ++i) d = std::max(d, std::abs(ref[i] - q[s * plane + i]));
      INFO(c.w << "x" << c.h << " slice " << s << " r=" << c.r << " eps=" << c.eps << ": max |diff| " << d);
      CHECK(d <= 2e-4);
      worst = std::max(worst, d);
    }
  }
  std::printf("guided filter gpu: largest |gpu - double| %.3g\n", worst);
}
