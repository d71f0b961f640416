// BP stereo CUDA variants against the CPU reference on random and synthetic pairs of awkward
// sizes. Tolerance (documented in stereo_bp/stereo_cuda.hpp): the kernels perform the CPU
// reference's float operations in the same order (stereo_bp_math.hpp), so the maps are
// expected identical; the spec's bound of <= 0.1 % differing pixels is what is asserted.
// Also: ms / ms_total are timed, the registers fallback is reported, the auto-tuner tries
// candidates, caches its choice (memory and file) and warns rather than fails when it
// cannot write the cache.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <random>

#include "shared_data.hpp"
#include "gpu_test_util.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightbench/memory_budget.hpp"
#include "stereo_bp/stereo_bp.hpp"
#include "stereo_bp/stereo_cuda.hpp"
#include "lightbench/stereo_io.hpp"

using namespace lb;
using namespace lb::stereo;

namespace {
StereoPair random_pair(int w, int h, int ch, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  StereoPair p;
  p.left = ImageU8(w, h, ch);
  p.right = ImageU8(w, h, ch);
  for (auto& v : p.left.data) v = static_cast<std::uint8_t>(rng());
  for (auto& v : p.right.data) v = static_cast<std::uint8_t>(rng());
  return p;
}
std::size_t differing(const ImageF& a, const ImageF& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) n += a.data[i] != b.data[i];
  return n;
}
// One pair of the every-L cases: every float variant (the seed's, warp at every lane count,
// registers where L has an instance) equals the CPU's map exactly; the 16-bit variants differ
// on at most 10 % (random) / 2 % (synthetic) of the pixels.
struct LCase {
  int w, h, L, levels;
  bool random;
};
void check_variants_at_L(stereo::StereoEngine<BpParams>& gpu, const LCase& c, int iterations,
                         const std::vector<std::string>& sixteen) {
  const StereoPair pair = c.random ? random_pair(c.w, c.h, 3, static_cast<std::uint64_t>(c.w * 13 + c.L))
                                   : synthetic_two_plane_pair(c.w, c.h, c.L / 5, c.L - 1, 7u, nullptr, 1);
  BpParams p;
  p.ndisp = c.L;
  p.levels = c.levels;
  p.iterations = iterations;
  p.tau_disc = static_cast<float>(c.L) / 7.5f;  // the reference's own setting
  const ImageF ref = bp_stereo_cpu(pair, p);
  gpu.set_pair(pair);
  std::vector<std::string> exact{"local", "shared", "hybrid:12,4", "auto:float"};
  for (int g : cuda::bp_warp_lane_counts(c.L)) exact.push_back("warp:" + std::to_string(g));
  for (int r : cuda::bp_register_counts())
    if (r == c.L) exact.push_back("registers");
  for (const std::string& v : exact) {
    const StereoResult r = gpu.run(p, v);
    const std::size_t diff = differing(r.disparity, ref);
    INFO(c.w << "x" << c.h << " L=" << c.L << " variant " << v << " (" << r.variant << "): " << diff
             << " differing pixels");
    CHECK(diff == 0);
  }
  for (const std::string& t : sixteen) {
    const StereoResult r = gpu.run(p, t);
    const std::size_t diff = differing(r.disparity, ref);
    std::printf("stereo bp gpu: %dx%d L=%d %s (%s): %zu of %zu pixels differ from the float reference (%s)\n", c.w,
                c.h, c.L, t.c_str(), r.variant.c_str(), diff, ref.pixels(), c.random ? "random" : "synthetic");
    INFO(c.w << "x" << c.h << " L=" << c.L << " variant " << t << " (" << r.variant << ")");
    CHECK(diff * (c.random ? 10 : 50) <= ref.pixels());
  }
}
}  // namespace

TEST_CASE("stereo bp gpu: every variant vs the CPU reference (awkward sizes, random and synthetic)") {
  LB_GPU_TEST_GUARD();
  const std::string cache = lb::test::process_temp_path("lb_bp_tune_test", ".json");
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path(cache);
  auto gpu = cuda::make_stereo_bp_engine_cuda();
  struct Case {
    int w, h, ch, L, levels;
    float sigma;
    bool random;
  };
  for (const Case c : {Case{97, 61, 3, 16, 5, 0.7f, true}, Case{97, 61, 1, 21, 4, 0.0f, false},
                       Case{45, 33, 3, 13, 3, 1.0f, true}, Case{130, 71, 3, 64, 5, 0.7f, false},
                       Case{70, 40, 1, 60, 2, 0.7f, true}}) {
    const StereoPair pair = c.random ? random_pair(c.w, c.h, c.ch, static_cast<std::uint64_t>(c.w * 7 + c.L))
                                     : synthetic_two_plane_pair(c.w, c.h, c.L / 5, c.L - 3, 9u, nullptr, c.ch);
    BpParams p;
    p.ndisp = c.L;
    p.levels = c.levels;
    p.sigma = c.sigma;
    const ImageF ref = bp_stereo_cpu(pair, p);
    gpu->set_pair(pair);
    for (const std::string v : {"local", "registers", "shared", "hybrid", "hybrid:12,4", "hybrid:4,100", "hybrid:0,0"}) {
      const StereoResult r = gpu->run(p, v);
      const std::size_t diff = differing(r.disparity, ref);
      INFO(c.w << "x" << c.h << " L=" << c.L << " variant " << v << " (" << r.variant << "): " << diff
               << " differing pixels; tuning: " << r.tuning);
      CHECK(diff * 1000 <= ref.pixels());
      CHECK(r.ms > 0.0);
      CHECK(r.ms_total >= r.ms);
      if (v == std::string("registers") && c.L == 13) CHECK(r.variant.find("local") != std::string::npos);
    }
  }
  CHECK(gpu->timings().stats("stereo/bp/registers").count > 0);
  CHECK(gpu->timings().stats("stereo/bp/registers/total").count > 0);
  CHECK_THROWS_AS(gpu->run(BpParams{}, "fastest"), Error);
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path("");
}

// Issue 11: every float variant (the seed's four and the warp variant at every lane count)
// gives the CPU's map exactly, at every L the issue names, on random and synthetic pairs of
// awkward sizes; 16-bit messages stay within the documented bound (2 % of the pixels on the
// synthetic pairs, 10 % on random noise, where near-ties abound; docs/PERFORMANCE.md).
TEST_CASE("stereo bp gpu: every L in 2..256, float variants exact, fp16 / bf16 within bounds") {
  LB_GPU_TEST_GUARD();
  const std::string cache = lb::test::process_temp_path("lb_bp_tune_test3", ".json");
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path(cache);
  auto gpu = cuda::make_stereo_bp_engine_cuda();
  for (const LCase c : {LCase{23, 9, 2, 2, true}, LCase{31, 17, 3, 3, false}, LCase{45, 33, 8, 4, true},
                        LCase{97, 61, 16, 5, false}, LCase{61, 29, 21, 3, true}, LCase{77, 41, 33, 4, false},
                        LCase{130, 71, 64, 5, true}, LCase{151, 23, 100, 2, false}, LCase{171, 19, 128, 3, true},
                        LCase{263, 37, 256, 4, false}})
    check_variants_at_L(*gpu, c, 5, {"warp-fp16", "warp-bf16"});
  CHECK_THROWS_AS(gpu->run(BpParams{}, "warp:3"), Error);
  CHECK_THROWS_AS(gpu->run(BpParams{}, "warp-fp8"), Error);
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path("");
}

// Past 256 disparities (Middlebury 2014 / MiddEval3 scenes carry ndisp 290 .. ~800): every
// float variant still equals the CPU reference bit for bit (the pairwise tree has 11 levels, the
// warp variant 16 or 32 values a lane); 16-bit messages within the bounds above.
TEST_CASE("stereo bp gpu: ndisp 290 .. 1024, float variants exact, fp16 / bf16 within bounds") {
  LB_GPU_TEST_GUARD();
  const std::string cache = lb::test::process_temp_path("lb_bp_tune_test_wide", ".json");
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path(cache);
  auto gpu = cuda::make_stereo_bp_engine_cuda();
  for (const LCase c : {LCase{301, 13, 290, 3, true}, LCase{333, 21, 300, 4, false}, LCase{517, 11, 512, 2, true},
                        LCase{611, 9, 513, 3, false}, LCase{853, 7, 800, 3, true}, LCase{1031, 5, 1024, 2, false}}) {
    CHECK(cuda::bp_warp_lane_counts(c.L) == std::vector<int>{32});
    check_variants_at_L(*gpu, c, 4, {"warp-fp16", "warp-bf16", "auto"});
  }
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path("");
}

// Past the device's memory: auto stores 16-bit messages, a float variant is refused in one line
// naming the sizes, and a run that fits in no form is refused before anything is allocated.
TEST_CASE("stereo bp gpu: a device limit makes auto take 16-bit messages and refuses what cannot fit") {
  LB_GPU_TEST_GUARD();
  const std::string cache = lb::test::process_temp_path("lb_bp_tune_test_mem", ".json");
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path(cache);
  const StereoPair pair = random_pair(400, 64, 3, 4242);
  BpParams p;
  p.ndisp = 300;
  p.levels = 3;
  p.iterations = 3;
  const std::uint64_t f32 = bp_device_bytes(p, 400, 64, 4), f16 = bp_device_bytes(p, 400, 64, 2);
  REQUIRE(f16 < f32);
  const ImageF ref = bp_stereo_cpu(pair, p);
  const std::uint64_t base = cuda::device_bytes_counted();  // what others hold (the limit counts it)
  {
    auto gpu = cuda::make_stereo_bp_engine_cuda();
    gpu->set_pair(pair);
    lb::set_max_device_memory((f16 + f32) / 2 + base);
    const StereoResult r = gpu->run(p, "auto");
    INFO(r.variant << " / " << r.tuning);
    CHECK(r.variant.find("16") != std::string::npos);
    CHECK(r.tuning.find("16-bit messages") != std::string::npos);
    CHECK(differing(r.disparity, ref) * 10 <= ref.pixels());
    CHECK_THROWS_WITH_AS(gpu->run(p, "warp"), doctest::Contains("16-bit messages fit"), Error);
    CHECK_THROWS_WITH_AS(gpu->run(p, "local"), doctest::Contains("of device memory"), Error);
    lb::set_max_device_memory(f16 / 2 + base);  // what the engine holds counts as its own
    CHECK_THROWS_WITH_AS(gpu->run(p, "auto"), doctest::Contains("even with 16-bit messages"), Error);
    lb::set_max_device_memory(0);
  }
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path("");
}

TEST_CASE("stereo bp gpu: auto tunes kernels and message types, reports and caches its choice") {
  LB_GPU_TEST_GUARD();
  const std::string cache = lb::test::process_temp_path("lb_bp_tune_test4", ".json");
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path(cache);
  auto gpu = cuda::make_stereo_bp_engine_cuda();
  gpu->set_pair(synthetic_plane_pair(121, 57, 5, 3u, 3));
  BpParams p;
  p.ndisp = 32;
  const StereoResult a = gpu->run(p);  // the default: auto
  INFO(a.variant << "; " << a.tuning);
  CHECK(a.variant.rfind("auto -> ", 0) == 0);
  CHECK(a.tuning.find("warp-bf16") != std::string::npos);  // message types are candidates
  CHECK(a.tuning.find("registers") != std::string::npos);
  const StereoResult b = gpu->run(p, "auto");
  CHECK(b.tuning.find("memory cache") != std::string::npos);
  CHECK(a.variant == b.variant);
  const StereoResult f = gpu->run(p, "auto:float");
  CHECK(f.variant.find("fp16") == std::string::npos);
  CHECK(f.variant.find("bf16") == std::string::npos);
  cuda::set_bp_tune_cache_path(cache);
  const StereoResult c = gpu->run(p, "auto");
  CHECK(c.tuning.find("file cache") != std::string::npos);
  CHECK(c.variant == a.variant);
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path("");
}

TEST_CASE("stereo bp gpu: the auto-tuner reports what it tried and caches the winner") {
  LB_GPU_TEST_GUARD();
  const std::string cache = lb::test::process_temp_path("lb_bp_tune_test2", ".json");
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path(cache);
  auto gpu = cuda::make_stereo_bp_engine_cuda();
  gpu->set_pair(synthetic_plane_pair(101, 57, 5, 3u, 3));
  BpParams p;
  p.ndisp = 20;
  const StereoResult a = gpu->run(p, "hybrid");
  CHECK(a.tuning.find("tried") != std::string::npos);
  CHECK(std::filesystem::exists(cache));
  const StereoResult b = gpu->run(p, "hybrid");
  CHECK(b.tuning.find("memory cache") != std::string::npos);
  CHECK(a.variant == b.variant);
  // A new process would read the file: forget the memory cache by re-pointing to the file.
  cuda::set_bp_tune_cache_path(cache);
  const StereoResult c = gpu->run(p, "hybrid");
  CHECK(c.tuning.find("file cache") != std::string::npos);
  // Unwritable cache: a warning, never a failure.
  cuda::set_bp_tune_cache_path("/proc/lightbench-no/bp_tune.json");
  CHECK_NOTHROW(gpu->run(p, "hybrid"));
  std::filesystem::remove(cache);
  cuda::set_bp_tune_cache_path("");
}

TEST_CASE("stereo bp gpu: Tsukuba on the GPU equals the CPU path (when the data is present)") {
  LB_GPU_TEST_GUARD();
  const std::string dir = lb_shared_data_dir() + "/stereo/tsukuba";
  if (!std::filesystem::exists(dir)) {
    MESSAGE("SKIPPED: no Middlebury data at " << dir);
    return;
  }
  const StereoScene sc = load_stereo_scene(dir);
  BpParams p;
  p.ndisp = 16;
  const ImageF ref = bp_stereo_cpu(sc.pair, p);
  auto gpu = cuda::make_stereo_bp_engine_cuda();
  gpu->set_pair(sc.pair);
  for (const std::string v : {"local", "registers", "shared"}) {
    StereoResult r;
    for (int i = 0; i < 5; ++i) r = gpu->run(p, v);
    std::printf("stereo bp gpu tsukuba %s: %.3f ms compute, %.3f ms with transfers, %zu px differ from the CPU\n",
                v.c_str(), r.ms, r.ms_total, differing(r.disparity, ref));
    CHECK(differing(r.disparity, ref) * 1000 <= ref.pixels());
  }
}
