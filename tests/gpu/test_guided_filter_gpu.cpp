// The CUDA guided filter on a volume (kernels/guided_filter.cu) against a brute-force double
// version written here from He et al.'s definition (clipped box windows): random guides and
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

using namespace lb;
using lb::cuda::detail::DeviceBuffer;

namespace {
std::vector<double> box_mean(const std::vector<double>& v, int w, int h, int r) {
  std::vector<double> out(v.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double s = 0;
      int n = 0;
      for (int yy = std::max(0, y - r); yy <= std::min(h - 1, y + r); ++yy)
        for (int xx = std::max(0, x - r); xx <= std::min(w - 1, x + r); ++xx, ++n) s += v[yy * w + xx];
      out[y * w + x] = s / n;
    }
  return out;
}
std::vector<double> guided_ref(const std::vector<double>& I, const std::vector<double>& p, int w, int h, int r,
                               double eps) {
  const std::size_t n = I.size();
  std::vector<double> ip(n), ii(n);
  for (std::size_t i = 0; i < n; ++i) ip[i] = I[i] * p[i], ii[i] = I[i] * I[i];
  const auto mi = box_mean(I, w, h, r), mp = box_mean(p, w, h, r), mip = box_mean(ip, w, h, r),
             mii = box_mean(ii, w, h, r);
  std::vector<double> a(n), b(n), q(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = (mip[i] - mi[i] * mp[i]) / (mii[i] - mi[i] * mi[i] + eps);
    b[i] = mp[i] - a[i] * mi[i];
  }
  const auto ma = box_mean(a, w, h, r), mb = box_mean(b, w, h, r);
  for (std::size_t i = 0; i < n; ++i) q[i] = ma[i] * I[i] + mb[i];
  return q;
}
}  // namespace

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
      const std::vector<double> ref = guided_ref(Id, ps, c.w, c.h, c.r, c.eps);
      double d = 0;
      for (std::size_t i = 0; i < plane; ++i) d = std::max(d, std::abs(ref[i] - q[s * plane + i]));
      INFO(c.w << "x" << c.h << " slice " << s << " r=" << c.r << " eps=" << c.eps << ": max |diff| " << d);
      CHECK(d <= 2e-4);
      worst = std::max(worst, d);
    }
  }
  std::printf("guided filter gpu: largest |gpu - double| %.3g\n", worst);
}
