// Local stereo CUDA variants against the CPU reference: EXACT (integer arithmetic shared
// through stereo_local/stereo_local_math.hpp), on random pairs of awkward sizes (odd widths,
// ndisp not a multiple of 4, ndisp 1, radius beyond the image, radius 32 = > 48 KiB of
// shared memory in the fused kernel, the fused kernel's compile-time radii, variable
// windows, left-right check, gray input). fused2 packs two disparities' costs and horizontal
// sums into the 16-bit lanes of a word when wsum * 3T <= 0xffff, for the compile-time radii
// without variable windows, and runs the fused kernels otherwise: both sides of that bound.
#include <doctest/doctest.h>

#include <cstdlib>
#include <random>

#include "gpu_test_util.hpp"
#include "lightbench/engines/cuda.hpp"
#include "stereo_local/stereo_local.hpp"
#include "stereo_local/stereo_local_cuda.hpp"
#include "stereo_local/stereo_local_launch.hpp"
#include "stereo_local/stereo_local_math.hpp"

using namespace lb;
using namespace lb::stereo;

namespace {

StereoPair random_pair(int w, int h, int channels, int shift, int levels, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  StereoPair p;
  p.right = ImageU8(w, h, channels);
  for (auto& b : p.right.data) b = static_cast<std::uint8_t>((rng() % levels) * (255 / (levels - 1)));
  p.left = p.right;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < channels; ++c) {
        const int xs = x - shift - (y * 5 / h);  // a few planes at different disparities
        p.left.at(x, y, c) = xs >= 0 ? p.right.at(xs, y, c) : static_cast<std::uint8_t>(rng() & 255);
        if (rng() % 8 == 0) p.left.at(x, y, c) = static_cast<std::uint8_t>(rng() & 255);  // noise
      }
  p.name = "random";
  return p;
}

std::size_t mismatches(const ImageF& got, const std::vector<int>& want, std::string* first) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got.data[i] != static_cast<float>(want[i])) {
      if (n++ == 0)
        *first = std::to_string(i % got.width) + "," + std::to_string(i / got.width) + ": got " +
                 std::to_string(got.data[i]) + " want " + std::to_string(want[i]);
    }
  return n;
}

}  // namespace

TEST_CASE("stereo local gpu: every variant equals the CPU reference exactly") {
  LB_GPU_TEST_GUARD();
  auto gpu = cuda::make_stereo_local_engine_cuda();
  struct Case {
    int w, h, channels, ndisp, radius, vw, lr, levels;
    float gamma;
    int trunc;
  };
  const Case cases[] = {
      {97, 61, 3, 13, 12, 0, 0, 256, 6.0f, 30},   // the default window, ndisp % 4 != 0
      {33, 17, 3, 1, 3, 0, 0, 256, 6.0f, 30},     // one disparity
      {15, 9, 3, 6, 20, 0, 0, 16, 6.0f, 255},     // radius beyond the image
      {71, 45, 1, 10, 5, 0, 0, 256, 3.0f, 20},    // gray
      {64, 40, 3, 16, 7, 1, 0, 8, 4.0f, 40},      // variable windows
      {57, 38, 3, 11, 4, 0, 1, 256, 6.0f, 30},    // left-right check
      {49, 35, 3, 9, 6, 1, 1, 4, 2.0f, 15},       // both, few levels (many ties)
      {131, 77, 3, 37, 32, 0, 0, 256, 10.0f, 60}, // r = 32 (fused: > 48 KiB shared), batches
      {300, 200, 3, 60, 12, 0, 0, 256, 6.0f, 30}, // many tiles, 60 disparities
      {26, 12, 3, 4, 5, 1, 0, 2, 40.0f, 255},     // two levels: exact ties everywhere
      // The fused kernel's compile-time radii (8, 12, 16, 20, 24; others run the generic one)
      {83, 51, 3, 20, 16, 1, 1, 256, 8.0f, 30},   // the defaults' radius, all options
      {45, 70, 1, 7, 8, 0, 0, 256, 3.0f, 30},
      {61, 37, 3, 5, 20, 1, 0, 16, 9.0f, 50},
      {40, 90, 3, 6, 24, 0, 1, 256, 12.0f, 30},
      {450, 375, 3, 60, 16, 0, 0, 256, 8.0f, 30}, // the seed's workload size
      // fused2 (packed pairs: wsum * 3T <= 0xffff, radius 8/12/16/20/24, no variable windows)
      {33, 17, 3, 1, 8, 0, 0, 256, 4.0f, 30},     // one disparity: the pair's second lane unused
      {34, 18, 3, 2, 12, 0, 0, 256, 6.0f, 30},    // one pair
      {15, 9, 3, 6, 20, 0, 0, 16, 6.0f, 30},      // radius beyond the image, packed
      {95, 67, 3, 64, 16, 0, 1, 256, 8.0f, 30},   // 64 disparities, left-right check
      {67, 131, 3, 100, 24, 0, 0, 256, 12.0f, 30},// 100 disparities, r 24 (wsum * 3T = 63180)
      {41, 29, 3, 7, 16, 0, 0, 2, 8.0f, 45},      // wsum * 3T = 64800: lanes near the top
      {41, 29, 3, 7, 16, 0, 0, 2, 8.0f, 46},      // 66240 > 0xffff: the fused fallback
      {70, 66, 3, 9, 11, 0, 0, 256, 6.0f, 30},    // radius without an instance: fallback
      {1952, 1472, 3, 3, 8, 0, 0, 256, 4.0f, 30}, // >= 10 blocks per SM: one batch, no atomics
  };
  int n_packed = 0, n_fallback = 0;  // fused2's two paths
  // scripts/gpu-sanitize sets LB_UNDER_SANITIZER: the 2.9-megapixel case would take minutes there.
  const bool sanitizer = std::getenv("LB_UNDER_SANITIZER") != nullptr;
  for (const Case& c : cases) {
    if (sanitizer && c.w * c.h > 1000000) continue;
    const StereoPair pair = random_pair(c.w, c.h, c.channels, 2, c.levels, static_cast<std::uint64_t>(c.w * 7 + c.ndisp));
    LocalParams p;
    p.ndisp = c.ndisp;
    p.radius = c.radius;
    p.gamma = c.gamma;
    p.truncation = c.trunc;
    p.variable_windows = c.vw;
    p.lr_check = c.lr;
    const std::vector<int> cpu = local_disparity_cpu(pair, p);
    const stereo::local::KernelParams kp = stereo::local::kernel_params(p);
    const bool packed = (c.radius % 4 == 0 && c.radius >= 8 && c.radius <= 24) && !c.vw &&
                        static_cast<std::uint64_t>(kp.wsum) * kp.trunc3 <= 0xffff;
    ++(packed ? n_packed : n_fallback);
    gpu->set_pair(pair);
    for (const std::string& v : local_variants()) {
      const StereoResult r = gpu->run(p, v);
      INFO(c.w << "x" << c.h << "x" << c.channels << " ndisp " << c.ndisp << " r " << c.radius << " vw " << c.vw
               << " lr " << c.lr << " variant " << v);
      REQUIRE(r.disparity.width == c.w);
      REQUIRE(r.disparity.height == c.h);
      std::string first;
      const std::size_t bad = mismatches(r.disparity, cpu, &first);
      INFO("first mismatch " << first);
      CHECK(bad == 0);
      // What ran: fused2 without packing runs the fused kernels and says so.
      CHECK(r.variant == (v == "fused2" && !packed ? std::string("fused2->fused") : v));
    }
  }
  CHECK(n_packed >= (sanitizer ? 9 : 10));
  CHECK(n_fallback >= 5);
}

// Middlebury 2014 / MiddEval3 disparity counts (290 .. 1024): every variant still equals the
// CPU reference exactly (the packed WTA keeps 10 bits of disparity).
TEST_CASE("stereo local gpu: ndisp 290 .. 1024, every variant equals the CPU reference exactly") {
  LB_GPU_TEST_GUARD();
  auto gpu = cuda::make_stereo_local_engine_cuda();
  struct Case {
    int w, h, ndisp, radius, vw, lr;
  };
  for (const Case c : {Case{331, 23, 290, 8, 0, 0}, Case{411, 17, 401, 16, 0, 1}, Case{533, 13, 512, 12, 1, 0},
                       Case{817, 11, 800, 16, 0, 0}, Case{1037, 9, 1024, 8, 1, 1}, Case{301, 19, 1024, 4, 0, 0}}) {
    const StereoPair pair = random_pair(c.w, c.h, 3, 2, 256, static_cast<std::uint64_t>(c.w * 5 + c.ndisp));
    LocalParams p;
    p.ndisp = c.ndisp;
    p.radius = c.radius;
    p.variable_windows = c.vw;
    p.lr_check = c.lr;
    const std::vector<int> cpu = local_disparity_cpu(pair, p);
    gpu->set_pair(pair);
    for (const std::string& v : local_variants()) {
      const StereoResult r = gpu->run(p, v);
      INFO(c.w << "x" << c.h << " ndisp " << c.ndisp << " r " << c.radius << " vw " << c.vw << " lr " << c.lr
               << " variant " << v);
      std::string first;
      const std::size_t bad = mismatches(r.disparity, cpu, &first);
      INFO("first mismatch " << first);
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("stereo local gpu: interface, timings, errors") {
  LB_GPU_TEST_GUARD();
  auto gpu = cuda::make_stereo_local_engine_cuda();
  CHECK(gpu->kind() == BackendKind::Cuda);
  CHECK(gpu->variants() == local_variants());
  CHECK(gpu->default_variant() == "fused2");
  LocalParams p;
  CHECK_THROWS_AS(gpu->run(p), Error);  // no pair
  StereoPair mismatched{ImageU8(10, 10, 3), ImageU8(11, 10, 3), "x"};
  CHECK_THROWS_AS(gpu->set_pair(mismatched), Error);
  const StereoPair pair = random_pair(80, 50, 3, 3, 256, 9);
  gpu->set_pair(pair);
  CHECK(gpu->has_pair());
  CHECK_THROWS_AS(gpu->run(p, "phase9"), Error);
  p.radius = 99;
  CHECK_THROWS_AS(gpu->run(p), Error);
  p.radius = 12;
  const StereoResult r = gpu->run(p);
  CHECK(r.variant == "fused2");
  CHECK(r.ms > 0.0);
  CHECK(r.ms_total >= r.ms);
  CHECK(gpu->timings().stats("stereo/local/fused2").count == 1);
  (void)gpu->run(p, "fused");
  CHECK(gpu->timings().stats("stereo/local/fused").count == 1);
  (void)gpu->run(p, "phase5");
  CHECK(gpu->timings().stats("stereo/local/phase5").count == 1);
  // fused2 where its packed kernel does not apply (radius 10 has no instance) runs the fused
  // kernels, and says so in the result and the timing name.
  p.radius = 10;
  const StereoResult f = gpu->run(p, "fused2");
  CHECK(f.variant == "fused2->fused");
  CHECK(gpu->timings().stats("stereo/local/fused2->fused").count == 1);
  CHECK(gpu->timings().stats("stereo/local/fused2").count == 1);
}

TEST_CASE("stereo local: which kernels fused2 runs (no device needed)") {
  using cuda::detail::LocalKernel;
  using cuda::detail::local_kernel_run;
  const int smem = 227 * 1024;  // H100 / H200 opt-in per block
  LocalParams p;
  p.radius = 12;
  CHECK(local_kernel_run(local::kernel_params(p), LocalKernel::Fused2, smem) == LocalKernel::Fused2);
  CHECK(local_kernel_run(local::kernel_params(p), LocalKernel::Fused2, 0) == LocalKernel::Fused);  // no room
  for (LocalKernel v : {LocalKernel::Phase2, LocalKernel::Phase3, LocalKernel::Phase4, LocalKernel::Phase5,
                        LocalKernel::Fused})
    CHECK(local_kernel_run(local::kernel_params(p), v, 0) == v);
  p.radius = 10;  // no packed instance
  CHECK(local_kernel_run(local::kernel_params(p), LocalKernel::Fused2, smem) == LocalKernel::Fused);
  p.radius = 12;
  p.variable_windows = 1;
  CHECK(local_kernel_run(local::kernel_params(p), LocalKernel::Fused2, smem) == LocalKernel::Fused);
}
