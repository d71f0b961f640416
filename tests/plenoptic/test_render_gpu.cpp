// Every render variant, every Original switch combination and several launch shapes must
// reproduce lb::render_cpu bit for bit, into both device output kinds (surface object and
// pitched buffer), on random raws of awkward layouts. Outputs are poisoned before each run.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "lightbench/backend.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/engines/cuda.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_launch.hpp"
#include "plenoptic/render_tables.hpp"

namespace {

using namespace lb;

std::vector<RenderConfig> original_configs() {
  std::vector<RenderConfig> v;
  for (int bits = 0; bits < 16; ++bits) {
    RenderConfig c;
    c.variant = RenderVariant::Original;
    c.original.rgba_input = bits & 8;
    c.original.vector_store = bits & 4;
    c.original.reciprocal = bits & 2;
    c.original.sync_at_end = bits & 1;
    v.push_back(c);
  }
  return v;
}

struct Run {
  RenderConfig config;
  cuda::KernelTuning tuning;
};

// Original: all 16 switch combinations (default block) plus odd block sizes; Sync/NoSync and
// Tiled (with the reciprocal on and off): chunk lengths that split the grid unevenly and
// (Sync/NoSync) several rows per block.
std::vector<Run> runs_for(const PlenopticGrid& g, bool thorough) {
  std::vector<Run> runs;
  for (const auto& c : original_configs()) runs.push_back({c, {}});
  for (int block : {32, 96, 1000}) {
    RenderConfig c;
    c.variant = RenderVariant::Original;
    c.original.sync_at_end = block == 96;
    runs.push_back({c, {block, 0, 0}});
  }
  std::vector<int> chunks = {0, 1, 2, 3, 5, 7, 11, g.nx, g.nx + 5};
  std::vector<int> rows = {0, 1, 3};
  if (!thorough) {
    chunks = {0, 1, 3};
    rows = {0, 2};
  }
  for (RenderVariant v : {RenderVariant::Sync, RenderVariant::NoSync})
    for (int chunk : chunks)
      for (int r : rows) {
        RenderConfig c;
        c.variant = v;
        c.original.reciprocal = (chunk + r) % 2 == 0;
        cuda::KernelTuning t{0, chunk, r};
        t.direct_loads = v == RenderVariant::NoSync && (chunk + 2 * r) % 3 == 0;  // both paths
        runs.push_back({c, t});
      }
  // Tiled: tile widths that split the grid unevenly, wider than it, of one column; the
  // Original's switches other than the reciprocal do not apply (RGBA input, 4-byte stores).
  for (int chunk : chunks) {
    RenderConfig c;
    c.variant = RenderVariant::Tiled;
    c.original.reciprocal = chunk % 2 == 1;
    c.original.rgba_input = c.original.vector_store = chunk % 3 != 0;
    runs.push_back({c, cuda::KernelTuning{0, chunk, 0}});
  }
  return runs;
}

std::string run_label(const Run& r) {
  std::string s = cuda::variant_label(r.config);
  if (r.config.variant != RenderVariant::Original) s += r.config.original.reciprocal ? " rcp" : " div";
  if (r.tuning.direct_loads) s += " direct";
  s += " block=" + std::to_string(r.tuning.original_block) + " chunk=" +
       std::to_string(r.tuning.chunk) + " rows=" + std::to_string(r.tuning.rows);
  return s;
}

struct Outputs {
  std::unique_ptr<Surface> surface = cuda::make_cuda_surface();
  std::unique_ptr<Surface> pitched = cuda::make_cuda_buffer_surface();
  std::vector<Surface*> all() { return {surface.get(), pitched.get()}; }
};

void poison(Surface& s, int w, int h, std::uint8_t value) {
  s.resize(w, h);
  s.upload_host(ImageU8(w, h, 4, value));
}

// Renders every run into every output and compares with the CPU reference.
void check_all(PlenopticEngine& be, const ImageU8& raw, const PlenopticGrid& g,
               const RenderParams& p, const std::vector<Run>& runs, Outputs& outs) {
  const std::string what = test::describe_case(g, p);
  CAPTURE(what);
  const RenderTablesHost tables = build_render_tables(g, p, raw.width, raw.height);
  const ImageU8 want = render_cpu(to_rgba(raw), tables);
  int n = 0;
  for (const Run& r : runs) {
    cuda::set_kernel_tuning(be, r.tuning);
    for (Surface* s : outs.all()) {
      poison(*s, want.width, want.height, static_cast<std::uint8_t>(0xA5 ^ n++));
      be.render(g, p, r.config, *s);
      const ImageU8 got = cuda::read_back_rgba(*s);
      std::string first;
      const std::uint64_t bad = test::count_mismatches(got, want, &first);
      CHECK_MESSAGE(bad == 0, run_label(r) << " into " << s->transport() << ": " << bad
                                           << " pixels differ, first " << first);
    }
  }
  cuda::set_kernel_tuning(be, {});
}

}  // namespace

TEST_CASE("gpu render: every variant matches render_cpu over patch 7..14 and lim 1..3") {
  LB_GPU_TEST_GUARD();
  auto be = cuda::make_plenoptic_engine_cuda();
  Outputs outs;
  PlenopticGrid g;
  g.nx = 13;
  g.ny = 9;
  g.pitch = 23.75;
  g.ox = 2.6;
  g.oy = 1.3;
  const ImageU8 raw = test::random_raw(test::raw_extent(g.nx, g.pitch, g.ox, 3),
                                       test::raw_extent(g.ny, g.pitch, g.oy, 1), 3, 1234);
  be->set_raw(raw);
  const float views[][2] = {{0.0f, 0.0f}, {-3.5f, 2.25f}, {2.25f, -3.5f}};
  int k = 0;
  for (int patch = 7; patch <= 14; ++patch)
    for (int lim = 1; lim <= 3; ++lim, ++k) {
      RenderParams p;
      p.patch = patch;
      p.lim = lim;
      p.view_x = views[k % 3][0];
      p.view_y = views[k % 3][1];
      p.sigma = k % 2 ? 5.5f : 11.0f;
      check_all(*be, raw, g, p, runs_for(g, k % 4 == 0), outs);
    }
}

TEST_CASE("gpu render: awkward grids, offsets, pitches and edge limits") {
  LB_GPU_TEST_GUARD();
  auto be = cuda::make_plenoptic_engine_cuda();
  Outputs outs;
  struct Case {
    PlenopticGrid g;
    RenderParams p;
    int channels;
  };
  auto grid = [](int nx, int ny, double d, double ox, double oy) {
    PlenopticGrid g;
    g.nx = nx;
    g.ny = ny;
    g.pitch = d;
    g.ox = ox;
    g.oy = oy;
    return g;
  };
  auto params = [](int patch, int lim, float vx, float vy, float sigma) {
    RenderParams p;
    p.patch = patch;
    p.lim = lim;
    p.view_x = vx;
    p.view_y = vy;
    p.sigma = sigma;
    return p;
  };
  const std::vector<Case> cases = {
      {grid(7, 5, 17.3, 0.4, 1.9), params(7, 1, -3.5f, 2.25f, 4.0f), 3},
      {grid(7, 5, 17.3, 0.4, 1.9), params(14, 3, 2.25f, -3.5f, 6.0f), 4},
      {grid(31, 3, 74.75, 3.2, 0.0), params(11, 2, 0.0f, 0.0f, 15.0f), 3},   // seed pitch, lim 2
      {grid(31, 3, 74.75, 3.2, 0.0), params(13, 2, -3.5f, 2.25f, 15.0f), 4},
      {grid(31, 3, 74.75, 0.0, 5.5), params(9, 3, 2.25f, 2.25f, 9.0f), 3},
      {grid(13, 9, 23.75, 0.0, 0.0), params(8, 2, 0.0f, -3.5f, 7.0f), 3},
      {grid(1, 1, 9.5, 0.0, 0.0), params(9, 2, 0.0f, 0.0f, 3.0f), 3},      // single micro-image
      {grid(2, 7, 12.0, 1.0, 1.0), params(12, 1, 1.0f, -1.0f, 2.0f), 4},    // integer D
      {grid(9, 4, 11.0, 0.5, 0.5), params(5, 0, 0.5f, 0.0f, 3.0f), 3},      // lim 0
      {grid(3, 2, 70.0, 0.0, 0.0), params(64, 4, -3.5f, 2.25f, 30.0f), 3}, // 576 threads/row
      {grid(4, 3, 6.0, 0.0, 0.0), params(1, 4, 0.0f, 0.0f, 0.5f), 3},       // M = 1
  };
  std::uint64_t seed = 77;
  for (const Case& c : cases) {
    const ImageU8 raw =
        test::random_raw(test::raw_extent(c.g.nx, c.g.pitch, c.g.ox, static_cast<int>(seed % 3)),
                         test::raw_extent(c.g.ny, c.g.pitch, c.g.oy, static_cast<int>(seed % 2)),
                         c.channels, seed);
    ++seed;
    be->set_raw(raw);
    check_all(*be, raw, c.g, c.p, runs_for(c.g, true), outs);
  }
}

TEST_CASE("gpu render: seed-size workload (96x72 micro-images, D=74.75)") {
  LB_GPU_TEST_GUARD();
  auto be = cuda::make_plenoptic_engine_cuda();
  Outputs outs;
  PlenopticGrid g;
  g.nx = 96;
  g.ny = 72;
  g.pitch = 74.75;
  const ImageU8 raw = test::random_raw(7176, 5382, 3, 2016);
  be->set_raw(raw);
  std::vector<Run> runs;
  for (const auto& c : original_configs())
    if (c.original.rgba_input == c.original.vector_store) runs.push_back({c, {}});
  for (RenderVariant v : {RenderVariant::Sync, RenderVariant::NoSync})
    for (bool direct : {false, true}) {
      if (v == RenderVariant::Sync && direct) continue;  // Sync always loads directly
      RenderConfig c;
      c.variant = v;
      for (cuda::KernelTuning t : {cuda::KernelTuning{}, cuda::KernelTuning{0, 50, 1},
                                   cuda::KernelTuning{0, 96, 4}, cuda::KernelTuning{0, 7, 2}}) {
        t.direct_loads = direct;
        runs.push_back({c, t});
      }
    }
  for (const cuda::KernelTuning& t : {cuda::KernelTuning{}, cuda::KernelTuning{0, 5, 0}, cuda::KernelTuning{0, 13, 0}})
    runs.push_back({RenderConfig{RenderVariant::Tiled, {}}, t});
  RenderParams p;  // M = 11, lim = 2, sigma 15: the seed's parameters
  check_all(*be, raw, g, p, runs, outs);
  RenderParams q;
  q.patch = 14;
  q.lim = 3;
  q.view_x = 2.25f;
  q.view_y = -3.5f;
  q.sigma = 9.0f;
  check_all(*be, raw, g, q, runs, outs);
}

// ---- Which kernel a render runs, and the name it is timed and reported under ----------------

namespace {

// A raw on the device as upload_raw leaves it (padded, 16-byte aligned rows), without memory
// behind it: plan_render reads only its shape, padding and alignment.
cuda::detail::RawDevice planned_raw(int w, int h) {
  using namespace cuda::detail;
  RawDevice r;
  r.width = w;
  r.height = h;
  r.rgb = reinterpret_cast<const std::uint8_t*>(std::uintptr_t{0x100000});
  r.rgb_pitch = static_cast<std::size_t>(w) * 3;
  r.rgba = reinterpret_cast<const std::uint32_t*>(std::uintptr_t{0x200000} + kRawPadLeft * 4);
  r.rgba_pitch = (static_cast<std::size_t>(w + kRawPadLeft + kRawPadRight) * 4 + 511) / 512 * 512;
  r.rgba_pad_left = kRawPadLeft;
  r.rgba_pad_right = kRawPadRight;
  return r;
}

}  // namespace

TEST_CASE("render plan: the kernel each configuration runs, and its name (no device needed)") {
  using namespace cuda::detail;
  PlenopticGrid g;
  g.nx = 13;
  g.ny = 9;
  g.pitch = 23.75;
  const int rw = test::raw_extent(g.nx, g.pitch, g.ox, 3), rh = test::raw_extent(g.ny, g.pitch, g.oy, 1);
  RenderParams p2;  // lim 2: the staged NoSync's
  p2.patch = 11;
  p2.lim = 2;
  RenderParams p3 = p2;
  p3.lim = 3;
  const RenderLayout L2 = build_render_tables(g, p2, rw, rh).layout, L3 = build_render_tables(g, p3, rw, rh).layout;
  const RawDevice raw = planned_raw(rw, rh);
  RawDevice unpadded = raw, unaligned = raw;
  unpadded.rgba_pad_left = 0;
  unaligned.rgba += 1;
  const RenderDeviceLimits hopper{9, 227 * 1024}, ampere{8, 163 * 1024}, small{9, 1024};
  cuda::KernelTuning direct;
  direct.direct_loads = true;
  auto plan = [](const RenderLayout& L, RenderVariant v, const RawDevice& r, const RenderDeviceLimits& d,
                 const cuda::KernelTuning& t = {}) { return plan_render(L, r, RenderConfig{v, {}}, t, d); };

  CHECK(plan(L2, RenderVariant::Original, raw, hopper) == RenderKernel::Original);
  CHECK(plan(L2, RenderVariant::Sync, raw, hopper) == RenderKernel::Sync);
  // Tiled: wherever a tile fits and the raw is padded and aligned; else the Original.
  CHECK(plan(L2, RenderVariant::Tiled, raw, hopper) == RenderKernel::Tiled);
  CHECK(plan(L3, RenderVariant::Tiled, raw, ampere) == RenderKernel::Tiled);
  CHECK(plan(L2, RenderVariant::Tiled, raw, small) == RenderKernel::Original);
  CHECK(plan(L2, RenderVariant::Tiled, unpadded, hopper) == RenderKernel::Original);
  CHECK(plan(L2, RenderVariant::Tiled, unaligned, hopper) == RenderKernel::Original);
  // NoSync: staged at lim 2 on sm_90+ with a padded, aligned raw; else direct loads.
  CHECK(plan(L2, RenderVariant::NoSync, raw, hopper) == RenderKernel::NoSyncStaged);
  CHECK(plan(L2, RenderVariant::NoSync, raw, ampere) == RenderKernel::NoSyncDirect);
  CHECK(plan(L3, RenderVariant::NoSync, raw, hopper) == RenderKernel::NoSyncDirect);
  CHECK(plan(L2, RenderVariant::NoSync, raw, small) == RenderKernel::NoSyncDirect);
  CHECK(plan(L2, RenderVariant::NoSync, unpadded, hopper) == RenderKernel::NoSyncDirect);
  CHECK(plan(L2, RenderVariant::NoSync, raw, hopper, direct) == RenderKernel::NoSyncDirect);
  CHECK(plan(L2, RenderVariant::NoSync, raw, RenderDeviceLimits{9, 227 * 1024, false}) == RenderKernel::NoSyncDirect);

  // Names: the configuration's where it ran the kernel asked for, else "<asked>-><ran>".
  const RenderConfig tiled{RenderVariant::Tiled, {}}, nosync{RenderVariant::NoSync, {}};
  CHECK(render_kernel_name(tiled, {}, RenderKernel::Tiled) == "render/tiled");
  CHECK(render_kernel_name(tiled, {}, RenderKernel::Original) == "render/tiled->original");
  CHECK(render_fallback(tiled, {}, RenderKernel::Tiled).empty());
  CHECK(render_fallback(tiled, {}, RenderKernel::Original) == "original");
  CHECK(render_kernel_name(nosync, {}, RenderKernel::NoSyncStaged) == "render/nosync");
  CHECK(render_kernel_name(nosync, {}, RenderKernel::NoSyncDirect) == "render/nosync->direct");
  CHECK(render_kernel_name(nosync, direct, RenderKernel::NoSyncDirect) == "render/nosync");  // asked for
  CHECK(render_kernel_name(RenderConfig{RenderVariant::Original, {}}, {}, RenderKernel::Original) ==
        "render/original");
  CHECK(render_kernel_name(RenderConfig{RenderVariant::Sync, {}}, {}, RenderKernel::Sync) == "render/sync");
}

TEST_CASE("gpu render: the timing name and last_render_fallback name the kernel that ran") {
  LB_GPU_TEST_GUARD();
  auto be = cuda::make_plenoptic_engine_cuda();
  PlenopticGrid g;
  g.nx = 13;
  g.ny = 9;
  g.pitch = 23.75;
  g.ox = 2.6;
  g.oy = 1.3;
  const ImageU8 raw = test::random_raw(test::raw_extent(g.nx, g.pitch, g.ox, 3),
                                       test::raw_extent(g.ny, g.pitch, g.oy, 1), 3, 4040);
  be->set_raw(raw);
  RenderParams p2;
  p2.patch = 11;
  p2.lim = 2;
  RenderParams p3 = p2;
  p3.lim = 3;
  const bool hopper = cuda::detail::render_device_limits().nosync_staged_built;  // sm_90+, its body built
  auto surf = cuda::make_cuda_surface();
  auto render = [&](RenderVariant v, const RenderParams& p) {
    be->render(g, p, RenderConfig{v, {}}, *surf);
    const ImageU8 want = render_cpu(to_rgba(raw), build_render_tables(g, p, raw.width, raw.height));
    std::string first;
    CHECK_MESSAGE(test::count_mismatches(cuda::read_back_rgba(*surf), want, &first) == 0, first);
    return be->last_render_fallback();
  };
  // The engine's raw is padded and aligned and a tile fits any GPU of sm_80+: Tiled runs.
  CHECK(render(RenderVariant::Tiled, p2) == "");
  CHECK(render(RenderVariant::Tiled, p3) == "");
  CHECK(render(RenderVariant::NoSync, p2) == (hopper ? "" : "direct"));
  CHECK(render(RenderVariant::NoSync, p3) == "direct");  // the staged kernel is lim 2 only
  CHECK(render(RenderVariant::Original, p3) == "");
  be->synchronize();
  const TimingRegistry& t = be->timings();
  CHECK(t.stats("render/tiled").count == 2);
  CHECK(t.stats("render/tiled->original").count == 0);
  CHECK(t.stats("render/nosync").count == (hopper ? 1 : 0));
  CHECK(t.stats("render/nosync->direct").count == (hopper ? 1 : 2));
  CHECK(t.stats("render/original").count == 1);
}
