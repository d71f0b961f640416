// The CUDA backend as the front ends use it: selection, surfaces of each kind, the table
// cache, raw replacement, timings, errors (the benchmark: test_bench_gpu.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "gpu_test_util.hpp"
#include "lightbench/engines/cuda.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "lightbench/engines/select_backend.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/backend.hpp"
#include "lightbench/cuda_api.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_launch.hpp"
#include "plenoptic/render_tables.hpp"

namespace {

using namespace lb;

PlenopticGrid small_grid() {
  PlenopticGrid g;
  g.nx = 11;
  g.ny = 7;
  g.pitch = 19.4;
  g.ox = 1.5;
  g.oy = 0.25;
  return g;
}

ImageU8 reference(const ImageU8& raw, const PlenopticGrid& g, const RenderParams& p) {
  return render_cpu(to_rgba(raw), build_render_tables(g, p, raw.width, raw.height));
}

void expect_exact(const ImageU8& got, const ImageU8& want, const std::string& what) {
  std::string first;
  const auto bad = test::count_mismatches(got, want, &first);
  CHECK_MESSAGE(bad == 0, what << ": " << bad << " pixels differ, first " << first);
}

}  // namespace

TEST_CASE("backend selection reports why") {
  std::string why;
  const bool have = cuda_available(&why);
  BackendChoice auto_choice = select_backend(BackendRequest::Auto);
  REQUIRE(auto_choice.backend);
  MESSAGE("backend auto: " << auto_choice.reason);
  BackendChoice cpu = select_backend(BackendRequest::Cpu);
  CHECK(cpu.backend->kind() == BackendKind::Cpu);
  if (!have) {
    CHECK(!why.empty());
    CHECK(auto_choice.backend->kind() == BackendKind::Cpu);
    CHECK(auto_choice.reason.rfind("CPU: ", 0) == 0);
    CHECK_THROWS_AS(select_backend(BackendRequest::Cuda), Error);
    CHECK_FALSE(cuda::device_info().available);
    if (test::gpu_required()) FAIL("LB_REQUIRE_GPU=1 but no usable CUDA device: " << why);
    MESSAGE(test::skip_message(why) << " (CUDA part of this test)");
    return;
  }
  CHECK(auto_choice.backend->kind() == BackendKind::Cuda);
  CHECK(auto_choice.reason.rfind("CUDA: ", 0) == 0);
  CHECK(auto_choice.reason.find("(sm_") != std::string::npos);
  BackendChoice forced = select_backend(BackendRequest::Cuda);
  CHECK(forced.backend->kind() == BackendKind::Cuda);
  const cuda::DeviceInfo d = cuda::device_info();
  CHECK(d.available);
  CHECK(d.sm_count > 0);
  MESSAGE("device: " << d.describe());
}

TEST_CASE("gpu backend: host-surface fallback, table cache, raw replacement, timings") {
  LB_GPU_TEST_GUARD();
  auto be = cuda::make_plenoptic_engine_cuda();
  CHECK(be->kind() == BackendKind::Cuda);
  CHECK_FALSE(be->has_raw());
  const PlenopticGrid g = small_grid();
  const ImageU8 raw = test::random_raw(test::raw_extent(g.nx, g.pitch, g.ox, 2),
                                       test::raw_extent(g.ny, g.pitch, g.oy, 2), 3, 99);
  be->set_raw(raw);
  CHECK(be->raw_width() == raw.width);
  CHECK(be->raw_height() == raw.height);

  RenderParams p1;
  p1.patch = 9;
  p1.lim = 2;
  p1.sigma = 6.0f;
  RenderParams p2 = p1;
  p2.patch = 12;
  p2.lim = 1;
  p2.view_x = -2.5f;
  const ImageU8 want1 = reference(raw, g, p1), want2 = reference(raw, g, p2);

  // Kind::None: rendered on the device, copied back and uploaded.
  HostSurface host;
  RenderConfig cfg;  // NoSync by default
  for (RenderVariant v : all_render_variants()) {
    cfg.variant = v;
    host.resize(want1.width, want1.height);
    host.upload_host(ImageU8(want1.width, want1.height, 4, 0x5a));
    be->render(g, p1, cfg, host);
    expect_exact(host.rgba(), want1, std::string("host surface ") + to_string(v));
  }

  // Parameter changes must rebuild the tables; going back must too (NoSync from here on).
  cfg.variant = RenderVariant::NoSync;
  auto surf = cuda::make_cuda_surface();
  for (const RenderParams* p : {&p1, &p2, &p1, &p2}) {
    be->render(g, *p, cfg, *surf);
    expect_exact(cuda::read_back_rgba(*surf), p == &p1 ? want1 : want2, "table cache");
  }

  // A new raw of another size replaces the old one.
  PlenopticGrid g2 = g;
  g2.nx = 5;
  g2.ny = 9;
  const ImageU8 raw2 = test::random_raw(test::raw_extent(g2.nx, g2.pitch, g2.ox, 0),
                                        test::raw_extent(g2.ny, g2.pitch, g2.oy, 0), 4, 7);
  be->set_raw(raw2);
  be->render(g2, p1, cfg, *surf);
  expect_exact(cuda::read_back_rgba(*surf), reference(raw2, g2, p1), "new raw");

  // Timings: one sample per launch under the name of the kernel that ran, with the bytes it
  // must move. NoSync runs its staged kernel at lim 2 on sm_90+ ("render/nosync"), else its
  // direct loads ("render/nosync->direct": p2's lim 1 everywhere).
  be->synchronize();
  const bool staged = cuda::detail::render_device_limits().nosync_staged_built;
  const std::string nosync_p1 = staged ? "render/nosync" : "render/nosync->direct";
  const auto names = be->timings().kernels();
  CHECK(std::find(names.begin(), names.end(), nosync_p1) != names.end());
  CHECK(std::find(names.begin(), names.end(), "render/nosync->direct") != names.end());
  CHECK(std::find(names.begin(), names.end(), "render/original") != names.end());
  CHECK(std::find(names.begin(), names.end(), "render/sync") != names.end());
  CHECK(std::find(names.begin(), names.end(), "render/tiled") != names.end());
  CHECK(std::find(names.begin(), names.end(), "render/tiled->original") == names.end());
  const TimingStats st = be->timings().stats(nosync_p1);
  // p1: 1 host-surface + 2 table-cache + 1 new-raw renders; p2: 2 table-cache renders.
  CHECK(st.count == (staged ? 4 : 6));
  CHECK(be->timings().stats("render/nosync->direct").count == (staged ? 2 : 6));
  CHECK(st.median_ms > 0.0);
  CHECK(be->last_render_fallback() == (staged ? "" : "direct"));
  const auto tables = build_render_tables(g2, p1, raw2.width, raw2.height);
  const auto hist = be->timings().history(nosync_p1);
  REQUIRE(!hist.empty());
  CHECK(hist.back().bytes == render_touched_pixels(tables) * 4 +
                                 static_cast<std::uint64_t>(tables.layout.out_w) * tables.layout.out_h * 4);
}

TEST_CASE("gpu backend: errors are lb::Error and leave the backend usable") {
  LB_GPU_TEST_GUARD();
  auto be = cuda::make_plenoptic_engine_cuda();
  const PlenopticGrid g = small_grid();
  auto surf = cuda::make_cuda_surface();
  RenderParams p;
  p.patch = 9;
  CHECK_THROWS_AS(be->render(g, p, {}, *surf), Error);  // no raw yet
  const ImageU8 raw = test::random_raw(test::raw_extent(g.nx, g.pitch, g.ox, 0),
                                       test::raw_extent(g.ny, g.pitch, g.oy, 0), 3, 5);
  be->set_raw(raw);
  RenderParams bad = p;
  bad.lim = kMaxLim + 1;
  CHECK_THROWS_AS(be->render(g, bad, {}, *surf), Error);
  bad = p;
  bad.patch = 25;  // larger than D
  CHECK_THROWS_AS(be->render(g, bad, {}, *surf), Error);
  PlenopticGrid too_big = g;
  too_big.nx += 3;
  CHECK_THROWS_AS(be->render(too_big, p, {}, *surf), Error);
  auto scalar = cuda::make_cuda_surface(SurfaceFormat::R32F);
  CHECK_THROWS_AS(be->render(g, p, {}, *scalar), Error);
  CHECK_THROWS_AS(cuda::set_kernel_tuning(*make_plenoptic_engine_cpu(1), {}), Error);
  // Still works.
  be->render(g, p, {}, *surf);
  expect_exact(cuda::read_back_rgba(*surf), reference(raw, g, p), "after errors");

  // R32F surfaces round-trip host data.
  ImageF f(5, 3, 1);
  for (std::size_t i = 0; i < f.data.size(); ++i) f.data[i] = 0.25f * static_cast<float>(i) - 1.0f;
  scalar->upload_host(f);
  CHECK(cuda::read_back_scalar(*scalar).data == f.data);
}
