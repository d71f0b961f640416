// The general-grid (plenoptic-hex) CUDA engine against the CPU reference passes of
// render_hex_cpu.cpp, bit for bit: render over patch sizes / views / rings / lens types,
// depth with windows 1 and 3, all-in-focus, the score and the error map, with every kernel
// variant (original, smem-tables, pruned) and every output kind (CUDA array surface, pitched
// buffer, host staging), on awkward geometries: the hex-small scene, a rotated three-type hexagonal grid with a
// non-integer diameter on an odd 333 x 271 RGBA raw, the rectangular grid through the
// general path (to_mla_geometry) on a gray raw.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "plenoptic_hex/hex_launch.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/engines/cuda.hpp"
#include "plenoptic_hex/plenoptic_hex_engine.hpp"
#include "lightbench/error.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "lightbench/plenoptic_hex.hpp"

namespace {

using namespace lb;

struct HexCase {
  std::string name;
  MlaGeometry g;
  ImageU8 raw;
};

MlaGeometry rotated_three_type() {
  MlaGeometry g;
  g.kind = MlaKind::Hexagonal;
  g.offset = {9.1, 8.6};
  g.diameter = 19.37;
  g.rotation = 0.07;
  g.base_x = {1.0, 0.0};
  g.base_y = {0.5, -0.866025388241};
  g.sub_grid_base = {3.0, -1.732050776482};
  g.types = {{{0.0, 0.0}, 1.0, 3.0}, {{1.0, 0.0}, 2.8, 4.0}, {{-1.0, 0.0}, 3.8, 100.0}};
  g.lens_border = 1.0;
  return g;
}

std::vector<HexCase> cases() {
  std::vector<HexCase> v;
  HexScene s = generate_hex_scene(hex_generator_preset("hex-small"));
  v.push_back({"hex-small (RGB)", s.params.mla, s.raw});
  v.push_back({"rotated 3-type D=19.37 333x271 (RGBA)", rotated_three_type(), test::random_raw(333, 271, 4, 22)});
  PlenopticGrid rect{9, 7, 17.3, 1.25, 0.5};
  v.push_back({"rectangular 9x7 D=17.3 (gray)", to_mla_geometry(rect), test::random_raw(160, 125, 1, 23)});
  return v;
}

std::unique_ptr<Surface> rgba_surface(int kind) {
  if (kind == 0) return cuda::make_cuda_surface(SurfaceFormat::RGBA8);
  if (kind == 1) return cuda::make_cuda_buffer_surface();
  return std::make_unique<HostSurface>(SurfaceFormat::RGBA8);
}
std::unique_ptr<Surface> scalar_surface(int kind) {
  if (kind % 2 == 0) return cuda::make_cuda_surface(SurfaceFormat::R32F);
  return std::make_unique<HostSurface>(SurfaceFormat::R32F);
}

std::uint64_t float_mismatches(const ImageF& got, const ImageF& want, std::string* first) {
  if (!got.same_shape(want)) {
    *first = "size " + std::to_string(got.width) + "x" + std::to_string(got.height) + " vs " +
             std::to_string(want.width) + "x" + std::to_string(want.height);
    return ~0ull;
  }
  std::uint64_t n = 0;
  for (int y = 0; y < got.height; ++y)
    for (int x = 0; x < got.width; ++x) {
      const float a = got.at(x, y, 0), b = want.at(x, y, 0);
      if (a == b || (std::isnan(a) && std::isnan(b))) continue;
      if (n++ == 0)
        *first = std::to_string(x) + "," + std::to_string(y) + ": got " + std::to_string(a) + " want " +
                 std::to_string(b);
    }
  return n;
}

HexTablesHost tables_for(const HexCase& c, int patch, int rings, int lens_types) {
  return build_hex_tables(MlaLayout(c.g), c.raw.width, c.raw.height, patch, rings, lens_types);
}

const char* const kVariants[] = {"original", "smem-tables", "pruned"};

// An integer patch-size truth of the frame: random sizes in pmin..pmax, some pixels without
// truth (0, NaN) to exercise the score's exclusions.
ImageF integer_truth(int w, int h, int pmin, int pmax, std::uint64_t seed) {
  ImageF t(w, h, 1);
  std::mt19937_64 rng(seed);
  for (float& v : t.data) {
    const int r = static_cast<int>(rng() % 20);
    v = r == 0 ? 0.f : r == 1 ? std::numeric_limits<float>::quiet_NaN()
                              : static_cast<float>(pmin + static_cast<int>(rng() % (pmax - pmin + 1)));
  }
  return t;
}

}  // namespace

// No device needed: the "pruned" variant's offset prefix (hex_near_prefix) leaves the CPU
// render (the sub-cell walk) unchanged at every patch size, so walking only the prefix is exact.
TEST_CASE("hex: the pruned variant's offset prefix leaves render_hex unchanged (CPU)") {
  bool pruned_some = false;
  for (const HexCase& c : cases()) {
    const ImageU8 rgba = to_rgba(c.raw);
    const int top = static_cast<int>(std::floor(c.g.diameter)) - 1;
    for (int rings : {0, 1, 2})
      for (int lt : {0, 1})
        for (int P : {3, 5, 8, 11, top}) {
          const HexTablesHost full = tables_for(c, P, rings, lt);
          const cuda::detail::HexNearPrefix pre = cuda::detail::hex_near_prefix(full);
          HexTablesHost cut = full;
          const int n = pre.n[P];
          REQUIRE(n >= 1);
          REQUIRE(n <= full.layout.n_near);
          pruned_some = pruned_some || n < full.layout.n_near;
          cut.layout.near_prefix = n;  // walk near[0, n) instead of the sub-cell lists
          HexRenderParams p;
          p.patch = P;
          p.rings = rings;
          p.lens_types = lt;
          p.sigma = static_cast<float>(c.g.diameter / 4.0);
          p.view_x = 1.5f;
          std::string first;
          const std::uint64_t diff =
              test::count_mismatches(render_hex(rgba, cut, p), render_hex(rgba, full, p), &first);
          CHECK_MESSAGE(diff == 0, c.name << " P=" << P << " rings=" << rings << " lens_types=" << lt << ": "
                                          << first);
        }
  }
  CHECK(pruned_some);
}

TEST_CASE("hex gpu: render is bit-identical to render_hex (patch, view, rings, lens types, outputs)") {
  LB_GPU_TEST_GUARD();
  int k = 0;
  for (const HexCase& c : cases()) {
    auto e = cuda::make_hex_engine_cuda(0);
    e->set_raw(c.raw, c.g);
    const ImageU8 rgba = to_rgba(c.raw);
    const int top = static_cast<int>(std::floor(c.g.diameter)) - 1;
    for (int patch : {5, 8, top}) {
      for (int rings : {0, 1, 2}) {
        for (int lt : {0, 1}) {
          HexRenderParams p;
          p.patch = patch;
          p.rings = rings;
          p.lens_types = lt;
          p.sigma = static_cast<float>(c.g.diameter / (3.0 + k % 3));
          p.view_x = k % 2 ? 2.5f : 0.f;
          p.view_y = k % 3 ? -1.75f : 0.f;
          const HexTablesHost t = tables_for(c, patch, rings, lt);
          const ImageU8 want = render_hex(rgba, t, p);
          const HexConfig cfg{kVariants[k % 3]};
          auto out = rgba_surface((k / 3) % 3);
          e->render(p, cfg, *out);
          const ImageU8 got = cuda::read_back_rgba(*out);
          std::string first;
          INFO(c.name << " M=" << patch << " rings=" << rings << " lens_types=" << lt << " variant=" << cfg.variant
                      << " output=" << (k / 3) % 3);
          const std::uint64_t n = test::count_mismatches(got, want, &first);
          CHECK_MESSAGE(n == 0, first);
          ++k;
        }
      }
    }
    // The timing carries the bytes a render must move: more than its output.
    const std::vector<TimingSample> h = e->timings().history("hex render/original");
    REQUIRE(!h.empty());
    CHECK(h.back().bytes > 0);
    CHECK(e->timings().history("hex render/smem-tables").size() > 0);
    CHECK(e->timings().history("hex render/pruned").size() > 0);
  }
}

TEST_CASE("hex gpu: depth (windows 1 and 3), all-in-focus, score and error map equal the CPU's") {
  LB_GPU_TEST_GUARD();
  int k = 0;
  for (const HexCase& c : cases()) {
    auto e = cuda::make_hex_engine_cuda(0);
    e->set_raw(c.raw, c.g);
    const ImageU8 rgba = to_rgba(c.raw);
    const int top = static_cast<int>(std::floor(c.g.diameter)) - 1;
    for (int window : {1, 3}) {
      for (int rings : {1, 2}) {
        for (int lt : {0, 1}) {
          HexDepthParams d;
          d.patch = 8;
          d.pmin = 4;
          d.pmax = std::min(14, top);
          d.rings = rings;
          d.window = window;
          d.aperture = k % 2 ? 0.6f : 0.8f;
          d.lens_types = lt;
          const HexTablesHost t = tables_for(c, d.patch, d.rings, d.lens_types);
          const ImageF want = depth_hex(rgba, t, d);
          const HexConfig cfg{kVariants[k % 3]};
          auto out = scalar_surface(k);
          e->depth(d, cfg, *out);
          const ImageF got = cuda::read_back_scalar(*out);
          std::string first;
          INFO(c.name << " window=" << window << " rings=" << rings << " lens_types=" << lt
                      << " variant=" << cfg.variant);
          const std::uint64_t n = float_mismatches(got, want, &first);
          CHECK_MESSAGE(n == 0, first);

          // All-in-focus on the depth's tables, the view and sigma of r.
          HexRenderParams r;
          r.view_x = k % 2 ? -1.5f : 0.f;
          r.view_y = 1.25f;
          r.sigma = 4.5f;
          r.patch = 3;  // ignored: the depth's patch, rings and lens types apply
          HexRenderParams rr = r;
          rr.patch = d.patch;
          rr.rings = d.rings;
          rr.lens_types = d.lens_types;
          const ImageU8 aif_want = render_all_in_focus_hex(rgba, t, rr, want);
          auto aif = rgba_surface((k / 2) % 3);
          e->render_all_in_focus(r, cfg, *aif);
          std::string first_aif;
          const std::uint64_t n_aif = test::count_mismatches(cuda::read_back_rgba(*aif), aif_want, &first_aif);
          CHECK_MESSAGE(n_aif == 0, "all-in-focus: " << first_aif);

          // Score: an integer truth (sums exact in any order) is equal to the last bit.
          const ImageF truth = integer_truth(want.width, want.height, d.pmin, d.pmax, 50 + k);
          const DepthScore cs = score_hex_depth(want, truth), gs = e->score_last_depth(truth);
          CHECK(gs.pixels == cs.pixels);
          CHECK(gs.exact_pct == cs.exact_pct);
          CHECK(gs.mae == cs.mae);
          // Error map: |depth - truth| per pixel.
          auto err = scalar_surface(k + 1);
          e->last_depth_error(truth, *err);
          ImageF err_want(truth.width, truth.height, 1);
          for (std::size_t i = 0; i < err_want.data.size(); ++i)
            err_want.data[i] = std::abs(want.data[i] - truth.data[i]);
          std::string first_err;
          const std::uint64_t n_err = float_mismatches(cuda::read_back_scalar(*err), err_want, &first_err);
          CHECK_MESSAGE(n_err == 0, "error map: " << first_err);
          ++k;
        }
      }
    }
    CHECK(!e->timings().history("hex depth/original").empty());
    CHECK(!e->timings().history("hex aif/original").empty());
  }
}

TEST_CASE("hex gpu: all-in-focus of the hex-small truth map; score of a non-integer truth") {
  LB_GPU_TEST_GUARD();
  HexScene s = generate_hex_scene(hex_generator_preset("hex-small"));
  auto e = cuda::make_hex_engine_cuda(0);
  e->set_raw(s.raw, s.params.mla);
  HexDepthParams d;
  d.patch = s.frame.patch;
  d.pmin = 5;
  d.pmax = 12;
  d.window = 3;
  d.lens_types = kLensTypesInFocus;
  HostSurface out(SurfaceFormat::R32F);
  e->depth(d, HexConfig{}, out);
  const HexTablesHost t = build_hex_tables(MlaLayout(s.params.mla), s.raw.width, s.raw.height, d.patch, d.rings,
                                           d.lens_types);
  const ImageF want = depth_hex(to_rgba(s.raw), t, d);
  std::string first;
  const std::uint64_t n = float_mismatches(out.scalar(), want, &first);
  CHECK_MESSAGE(n == 0, first);
  REQUIRE(s.truth.same_shape(want));
  const DepthScore cs = score_hex_depth(want, s.truth), gs = e->score_last_depth(s.truth);
  CHECK(gs.pixels == cs.pixels);
  CHECK(gs.exact_pct == cs.exact_pct);
  CHECK(gs.mae == doctest::Approx(cs.mae).epsilon(1e-12));
  // A shifted truth (x.25 values): the error sum is summed in another order, equal within
  // rounding; the counts stay exact.
  ImageF shifted = s.truth;
  for (float& v : shifted.data) v = v > 0.f ? v + 0.25f : v;
  const DepthScore cs2 = score_hex_depth(want, shifted), gs2 = e->score_last_depth(shifted);
  CHECK(gs2.pixels == cs2.pixels);
  CHECK(gs2.exact_pct == cs2.exact_pct);
  CHECK(gs2.mae == doctest::Approx(cs2.mae).epsilon(1e-12));
}

TEST_CASE("hex gpu: bad input is refused in one line, nothing computed") {
  LB_GPU_TEST_GUARD();
  auto e = cuda::make_hex_engine_cuda(0);
  HostSurface rgba(SurfaceFormat::RGBA8), r32(SurfaceFormat::R32F);
  CHECK_THROWS_AS(e->render(HexRenderParams{}, HexConfig{}, rgba), Error);  // no raw yet
  const MlaGeometry g = rotated_three_type();
  e->set_raw(test::random_raw(120, 90, 3, 5), g);
  CHECK_THROWS_WITH_AS(e->render(HexRenderParams{}, HexConfig{"fastest"}, rgba),
                       doctest::Contains("unknown CUDA variant"), Error);
  CHECK_THROWS_AS(e->render(HexRenderParams{}, HexConfig{}, r32), Error);  // wrong format
  HexRenderParams bad;
  bad.patch = 40;  // > D - 1
  CHECK_THROWS_AS(e->render(bad, HexConfig{}, rgba), Error);
  CHECK_THROWS_WITH_AS(e->render_all_in_focus(HexRenderParams{}, HexConfig{}, rgba),
                       doctest::Contains("no depth map"), Error);
  CHECK_THROWS_AS(e->score_last_depth(ImageF(4, 4, 1)), Error);
  HexDepthParams d;
  d.window = 2;  // even
  CHECK_THROWS_AS(e->depth(d, HexConfig{}, r32), Error);
  d.window = 1;
  e->depth(d, HexConfig{}, r32);
  CHECK_THROWS_WITH_AS(e->score_last_depth(ImageF(4, 4, 1)), doctest::Contains("differ in size"), Error);
  MlaGeometry broken = g;
  broken.diameter = 0.5;
  CHECK_THROWS_AS(e->set_raw(test::random_raw(50, 50, 3, 6), broken), Error);
  CHECK(e->has_raw());  // the old raw stays
}
