// Every CUDA depth variant (Original, Sync, NoSync; fused argmin and the window path;
// several launch shapes; surface and host-staging outputs) against lb::depth_cpu, exactly,
// on random raws of awkward sizes and on a generated scene.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "lightbench/backend.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/engines/cuda.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "lightbench/generator.hpp"
#include "plenoptic/plenoptic_depth.hpp"

namespace {

using namespace lb;

struct DepthCase {
  PlenopticGrid g;
  DepthParams p;
  int channels = 3;
};

DepthParams dp(int M, int pmin, int pmax, int lim, int window, float aperture) {
  DepthParams p;
  p.patch = M;
  p.pmin = pmin;
  p.pmax = pmax;
  p.lim = lim;
  p.window = window;
  p.aperture = aperture;
  return p;
}

std::string describe(const DepthCase& c) {
  return "grid " + std::to_string(c.g.nx) + "x" + std::to_string(c.g.ny) + " D=" +
         std::to_string(c.g.pitch) + " M=" + std::to_string(c.p.patch) + " P=" +
         std::to_string(c.p.pmin) + ".." + std::to_string(c.p.pmax) + " lim=" +
         std::to_string(c.p.lim) + " window=" + std::to_string(c.p.window) + " aperture=" +
         std::to_string(c.p.aperture);
}

std::uint64_t mismatches(const ImageF& got, const ImageF& want, std::string* first) {
  if (got.width != want.width || got.height != want.height || got.channels != want.channels) {
    *first = "size " + std::to_string(got.width) + "x" + std::to_string(got.height) + " vs " +
             std::to_string(want.width) + "x" + std::to_string(want.height);
    return ~0ull;
  }
  std::uint64_t n = 0;
  for (int y = 0; y < got.height; ++y)
    for (int x = 0; x < got.width; ++x)
      if (got.at(x, y) != want.at(x, y)) {
        if (n++ == 0)
          *first = std::to_string(x) + "," + std::to_string(y) + ": got " + std::to_string(got.at(x, y)) +
                   " want " + std::to_string(want.at(x, y));
      }
  return n;
}

std::vector<DepthCase> cases() {
  return {
      {{7, 5, 13.3, 0.5, 1.25}, dp(5, 3, 9, 1, 1, 1.0f), 3},
      {{11, 7, 19.4, 1.5, 0.25}, dp(11, 7, 14, 2, 3, 0.8f), 4},
      {{5, 9, 23.75, 0.0, 0.5}, dp(7, 4, 19, 3, 5, 1.5f), 3},
      {{13, 3, 15.5, 2.25, 0.0}, dp(4, 2, 6, 2, 1, 0.6f), 3},
      {{17, 4, 12.0, 0.0, 0.0}, dp(12, 12, 12, 1, 3, 1.2f), 3},
      {{1, 1, 21.5, 0.5, 0.5}, dp(6, 4, 8, 1, 1, 1.0f), 3},  // no neighbour: pmin everywhere
      {{9, 8, 17.6, 0.0, 3.5}, dp(3, 2, 17, 2, 1, 1.0f), 3},  // 16 candidates, P > M
      {{9, 7, 14.25, 0.5, 0.5}, dp(6, 3, 10, 4, 1, 1.0f), 3},  // lim 4: the generic (not unrolled) Original
  };
}

void check_all_variants(PlenopticEngine& gpu, const ImageU8& raw, const DepthCase& c, const ImageF& want,
                        const std::string& what) {
  gpu.set_raw(raw);
  // Shape 4: the Original with the per-sample tests (original_kernel 1) where the default is
  // the neighbour-table kernel (lim <= 3).
  const std::vector<cuda::DepthTuning> shapes = {{}, {64, 2, 3}, {0, 5, 2}, {0, 1, 1}, {96, 0, 0, 1}};
  for (const RenderVariant v : all_render_variants())
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      if (v == RenderVariant::Original ? k == 2 || k == 3 : k == 4) continue;
      cuda::set_depth_tuning(gpu, shapes[k]);
      DepthConfig cfg;
      cfg.variant = v;
      // Host surface (staging path) and an R32F CUDA surface (device writes).
      HostSurface host(SurfaceFormat::R32F);
      gpu.depth(c.g, c.p, cfg, host);
      std::string first;
      const auto bad = mismatches(host.scalar(), want, &first);
      CHECK_MESSAGE(bad == 0, what << " " << to_string(v) << " shape " << k << ": " << bad
                                   << " pixels differ, first " << first);
      if (k == 0) {
        auto surf = cuda::make_cuda_surface(SurfaceFormat::R32F);
        gpu.depth(c.g, c.p, cfg, *surf);
        const auto bad2 = mismatches(cuda::read_back_scalar(*surf), want, &first);
        CHECK_MESSAGE(bad2 == 0, what << " " << to_string(v) << " (CUDA surface): " << bad2
                                      << " pixels differ, first " << first);
      }
    }
  cuda::set_depth_tuning(gpu, {});
}

}  // namespace

TEST_CASE("every depth variant equals the CPU reference on random raws") {
  LB_GPU_TEST_GUARD();
  auto gpu = cuda::make_plenoptic_engine_cuda();
  std::uint64_t seed = 100;
  for (const DepthCase& c : cases()) {
    const ImageU8 raw = test::random_raw(test::raw_extent(c.g.nx, c.g.pitch, c.g.ox, 3),
                                         test::raw_extent(c.g.ny, c.g.pitch, c.g.oy, 2), c.channels, ++seed);
    const ImageF want = depth_cpu(to_rgba(raw), build_depth_tables(c.g, c.p, raw.width, raw.height));
    check_all_variants(*gpu, raw, c, want, describe(c));
  }
}

TEST_CASE("depth variants equal the CPU reference on a generated scene and a constant raw") {
  LB_GPU_TEST_GUARD();
  auto gpu = cuda::make_plenoptic_engine_cuda();
  const GeneratedScene s = generate_scene(generator_preset("small", 2));
  for (int window : {1, 5}) {
    DepthCase c{s.params.grid, dp(11, 7, 14, 2, window, 0.8f), 3};
    const ImageF want = depth_cpu(to_rgba(s.raw), build_depth_tables(c.g, c.p, s.raw.width, s.raw.height));
    check_all_variants(*gpu, s.raw, c, want, "small preset " + describe(c));
    MESSAGE("small preset window " << window << ": " << score_depth(want, s.truth).exact_pct << " % exact");
  }
  // A constant raw: every cost is 0, every pixel ties: the smallest patch size everywhere.
  ImageU8 flat(300, 200, 3, 90);
  DepthCase c{{10, 7, 27.5, 1.0, 2.0}, dp(9, 5, 12, 2, 1, 1.0f), 3};
  const ImageF want = depth_cpu(to_rgba(flat), build_depth_tables(c.g, c.p, flat.width, flat.height));
  for (float v : want.data) REQUIRE(v == 5.0f);
  check_all_variants(*gpu, flat, c, want, "constant raw");
}

TEST_CASE("depth timings are recorded per variant with bytes") {
  LB_GPU_TEST_GUARD();
  auto gpu = cuda::make_plenoptic_engine_cuda();
  const DepthCase c{{11, 7, 19.4, 1.5, 0.25}, dp(11, 7, 14, 2, 1, 0.8f), 3};
  const ImageU8 raw = test::random_raw(220, 140, 3, 9);
  gpu->set_raw(raw);
  HostSurface out(SurfaceFormat::R32F);
  for (const RenderVariant v : all_render_variants()) {
    DepthConfig cfg;
    cfg.variant = v;
    gpu->depth(c.g, c.p, cfg, out);
  }
  gpu->synchronize();
  for (const char* k : {"depth/original", "depth/sync", "depth/nosync"}) {
    const TimingStats st = gpu->timings().stats(k);
    CHECK_MESSAGE(st.count == 1, k);
    CHECK(st.median_gbps > 0.0);
  }
  HostSurface rgba;  // RGBA8: rejected
  CHECK_THROWS_AS(gpu->depth(c.g, c.p, DepthConfig{}, rgba), Error);
  DepthParams bad = c.p;
  bad.window = 2;
  CHECK_THROWS_AS(gpu->depth(c.g, bad, DepthConfig{}, out), Error);
  // An Original kernel that does not exist is one line, and the engine stays usable.
  cuda::set_depth_tuning(*gpu, {0, 0, 0, 2});
  DepthConfig original;
  original.variant = RenderVariant::Original;
  CHECK_THROWS_WITH_AS(gpu->depth(c.g, c.p, original, out), doctest::Contains("original_kernel 2"), Error);
  cuda::set_depth_tuning(*gpu, {});
  CHECK_NOTHROW(gpu->depth(c.g, c.p, original, out));
}
