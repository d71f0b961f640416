// What `bench <id> --cold-l2 --floor` asks of the CUDA side (scripts/gpu-check's budget table
// reads it): the registry's L2 eviction hook, and the plenoptic CUDA runner's render floor,
// its two rows timed with the bytes they move, on a generated scene. No runner without a
// floor claims one.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "gpu_test_util.hpp"
#include "lightbench/algorithm.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/scene_file.hpp"
#include "lightbench/surface.hpp"

using namespace lb;

TEST_CASE("bench hooks gpu: L2 eviction; the plenoptic render floor's rows; no floor elsewhere") {
  LB_GPU_TEST_GUARD();
  const AlgorithmRegistry& reg = builtin_registry();
  REQUIRE(static_cast<bool>(reg.cuda_hooks().flush_l2));
  reg.cuda_hooks().flush_l2(0);
  reg.cuda_hooks().flush_l2(0);  // the buffer is made once and reused

  auto data = std::make_shared<PlenopticData>();
  data->scene = to_scene(generate_scene(generator_preset("tiny", 3)), "tiny");
  std::unique_ptr<Runner> r = reg.make_runner("plenoptic", BackendKind::Cuda, 0);
  r->set_data(data);
  const ParamValues values = complete_params(reg.get("plenoptic"), *data, {});
  CHECK_FALSE(r->time_floor(values, "depth"));  // the render's only
  for (int k = 0; k < 3; ++k) REQUIRE(r->time_floor(values, "view"));
  r->synchronize();
  const auto rows = r->timings().kernels();
  REQUIRE(rows.size() == 2);
  for (const std::string& row : rows) {
    INFO(row);
    CHECK(row.rfind("floor/", 0) == 0);
    const TimingStats s = r->timings().stats(row);
    CHECK(s.count == 3);
    CHECK(s.median_ms > 0.0);
    CHECK(s.median_gbps > 0.0);  // bytes recorded
  }
  // A render after the floor still renders (the floor leaves the engine's state alone).
  HostSurface out(SurfaceFormat::RGBA8);
  r->run(values, "tiled", "view", out);
  r->synchronize();
  CHECK(out.width() > 0);

  std::unique_ptr<Runner> mad = reg.make_runner("mad", BackendKind::Cuda, 0);
  CHECK_FALSE(mad->time_floor({}, "hi"));
}
