// The all-in-focus render on the device (PlenopticEngine::render_all_in_focus after depth(),
// and render_all_in_focus_cuda from a host map) against lb::render_all_in_focus, exactly
// (integer math shared through plenoptic_math.hpp / depth_math.hpp), on random raws of
// awkward sizes, random depth maps (every pixel its own patch size, including P < M and
// P > M), and the depth maps the backends compute; surface, buffer and host outputs.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "lightbench/backend.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/engines/cuda.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "plenoptic/plenoptic_depth.hpp"

namespace {

using namespace lb;

struct AifCase {
  PlenopticGrid g;
  DepthParams d;
  RenderParams r;  // view, lim (set to d.lim), sigma
};

AifCase make_case(PlenopticGrid g, int M, int pmin, int pmax, int lim, float vx, float vy, float sigma) {
  AifCase c;
  c.g = g;
  c.d.patch = M;
  c.d.pmin = pmin;
  c.d.pmax = pmax;
  c.d.lim = lim;
  c.r.patch = M;
  c.r.lim = lim;
  c.r.view_x = vx;
  c.r.view_y = vy;
  c.r.sigma = sigma;
  return c;
}

std::vector<AifCase> cases() {
  return {
      make_case({7, 5, 13.3, 0.5, 1.25}, 5, 3, 9, 1, 0.0f, 0.0f, 2.0f),
      make_case({11, 7, 19.4, 1.5, 0.25}, 11, 7, 14, 2, 1.5f, -2.0f, 4.0f),
      make_case({5, 9, 23.75, 0.0, 0.5}, 7, 4, 19, 3, -3.25f, 0.5f, 1.0f),
      make_case({13, 3, 15.5, 2.25, 0.0}, 4, 2, 6, 2, 0.0f, 7.0f, 8.0f),
      make_case({1, 1, 21.5, 0.5, 0.5}, 6, 4, 8, 1, 0.0f, 0.0f, 3.0f),
      make_case({9, 8, 17.6, 0.0, 3.5}, 3, 2, 17, 2, 2.0f, 2.0f, 5.0f),  // P up to 17 > M = 3
  };
}

std::string describe(const AifCase& c) {
  return "grid " + std::to_string(c.g.nx) + "x" + std::to_string(c.g.ny) + " D=" + std::to_string(c.g.pitch) +
         " M=" + std::to_string(c.d.patch) + " P=" + std::to_string(c.d.pmin) + ".." + std::to_string(c.d.pmax) +
         " lim=" + std::to_string(c.d.lim) + " view=" + std::to_string(c.r.view_x) + "," +
         std::to_string(c.r.view_y) + " sigma=" + std::to_string(c.r.sigma);
}

ImageF random_map(const AifCase& c, std::uint64_t seed) {
  ImageF m(depth_width(c.g, c.d), depth_height(c.g, c.d), 1);
  std::mt19937_64 rng(seed);
  for (float& v : m.data) v = static_cast<float>(c.d.pmin + static_cast<int>(rng() % (c.d.pmax - c.d.pmin + 1)));
  return m;
}

}  // namespace

TEST_CASE("aif gpu: random depth maps, bit-exact vs the CPU reference") {
  LB_GPU_TEST_GUARD();
  int k = 0;
  for (const AifCase& c : cases()) {
    const int w = test::raw_extent(c.g.nx, c.g.pitch, c.g.ox, 3 + k);
    const int h = test::raw_extent(c.g.ny, c.g.pitch, c.g.oy, 1 + k);
    const ImageU8 raw = test::random_raw(w, h, k % 2 ? 4 : 3, 100 + static_cast<std::uint64_t>(k));
    const ImageF map = random_map(c, 7 + static_cast<std::uint64_t>(k));
    const ImageU8 want = render_all_in_focus(to_rgba(raw), c.g, c.r, map, c.d.patch);
    const ImageU8 got = cuda::render_all_in_focus_cuda(raw, c.g, c.r, c.d, map);
    std::string first;
    INFO(describe(c));
    CHECK(test::count_mismatches(got, want, &first) == 0);
    INFO(first);
    ++k;
  }
}

TEST_CASE("aif gpu: backend after depth(), surfaces and host staging, vs the CPU backend") {
  LB_GPU_TEST_GUARD();
  auto gpu = cuda::make_plenoptic_engine_cuda();
  auto cpu = make_plenoptic_engine_cpu();
  int k = 0;
  for (const AifCase& c : cases()) {
    const int w = test::raw_extent(c.g.nx, c.g.pitch, c.g.ox, 2);
    const int h = test::raw_extent(c.g.ny, c.g.pitch, c.g.oy, 5);
    const ImageU8 raw = test::random_raw(w, h, 3, 300 + static_cast<std::uint64_t>(k++));
    gpu->set_raw(raw);
    cpu->set_raw(raw);
    DepthConfig cfg;
    HostSurface cd(SurfaceFormat::R32F), ca(SurfaceFormat::RGBA8);
    cpu->depth(c.g, c.d, cfg, cd);
    cpu->render_all_in_focus(c.g, c.r, c.d, ca);
    // The CPU backend's AIF is the reference function on its own map.
    CHECK(ca.rgba().data == render_all_in_focus(to_rgba(raw), c.g, c.r, cd.scalar(), c.d.patch).data);
    INFO(describe(c));
    // Depth into a CUDA surface (the map stays on the device), AIF into each output kind.
    auto dsurf = cuda::make_cuda_surface(SurfaceFormat::R32F);
    gpu->depth(c.g, c.d, cfg, *dsurf);
    CHECK(cuda::read_back_scalar(*dsurf).data == cd.scalar().data);
    auto s1 = cuda::make_cuda_surface(SurfaceFormat::RGBA8);
    auto s2 = cuda::make_cuda_buffer_surface();
    HostSurface s3(SurfaceFormat::RGBA8);
    gpu->render_all_in_focus(c.g, c.r, c.d, *s1);
    gpu->render_all_in_focus(c.g, c.r, c.d, *s2);
    gpu->render_all_in_focus(c.g, c.r, c.d, s3);
    std::string first;
    CHECK(test::count_mismatches(cuda::read_back_rgba(*s1), ca.rgba(), &first) == 0);
    CHECK(test::count_mismatches(cuda::read_back_rgba(*s2), ca.rgba(), &first) == 0);
    CHECK(test::count_mismatches(s3.rgba(), ca.rgba(), &first) == 0);
    INFO(first);
    // Depth into a host surface (staging path) still leaves the map on the device.
    HostSurface gd(SurfaceFormat::R32F), ga(SurfaceFormat::RGBA8);
    gpu->depth(c.g, c.d, cfg, gd);
    CHECK(gd.scalar().data == cd.scalar().data);
    gpu->render_all_in_focus(c.g, c.r, c.d, ga);
    CHECK(ga.rgba().data == ca.rgba().data);
  }
  gpu->synchronize();
  CHECK(gpu->timings().stats("aif/cuda").count > 0);
}

TEST_CASE("aif gpu: errors") {
  LB_GPU_TEST_GUARD();
  const AifCase c = cases()[1];
  const ImageU8 raw = test::random_raw(test::raw_extent(c.g.nx, c.g.pitch, c.g.ox, 0),
                                       test::raw_extent(c.g.ny, c.g.pitch, c.g.oy, 0), 3, 5);
  auto gpu = cuda::make_plenoptic_engine_cuda();
  gpu->set_raw(raw);
  HostSurface a(SurfaceFormat::RGBA8), d(SurfaceFormat::R32F);
  CHECK_THROWS_AS(gpu->render_all_in_focus(c.g, c.r, c.d, a), Error);  // no depth() yet
  gpu->depth(c.g, c.d, DepthConfig{}, d);
  DepthParams other = c.d;
  other.pmax -= 1;
  CHECK_THROWS_AS(gpu->render_all_in_focus(c.g, c.r, other, a), Error);  // different params
  CHECK_THROWS_AS(gpu->render_all_in_focus(c.g, c.r, c.d, d), Error);    // R32F output
  ImageF bad = random_map(c, 1);
  bad.data[3] = static_cast<float>(c.d.pmax + 1);
  CHECK_THROWS_AS(cuda::render_all_in_focus_cuda(raw, c.g, c.r, c.d, bad), Error);
  bad.data[3] = 7.5f;
  CHECK_THROWS_AS(cuda::render_all_in_focus_cuda(raw, c.g, c.r, c.d, bad), Error);
}
