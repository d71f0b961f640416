// The general-grid path's per-pixel math and host tables by hand (hex_math.hpp, hex_tables.hpp):
// scene coordinates, lattice rounding, the lens each pixel reads, the multi-focus type masks
// of an R42-like array, spacings and covering radii; then the passes on odd sizes, a rotated
// grid and the rectangular grid, and the parameter checks.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <memory>

#include "lightbench/algorithms.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "hex_test_geometry.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"

using namespace lb;

namespace {

// Every raw pixel holds the identity of its nearest lens: R = i + 100, G = j + 100.
ImageU8 lens_id_raw(const MlaLayout& m, int w, int h) {
  ImageU8 raw(w, h, 4, 255);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const MlaLens l = m.nearest(x, y);
      raw.at(x, y, 0) = static_cast<std::uint8_t>(l.i + 100);
      raw.at(x, y, 1) = static_cast<std::uint8_t>(l.j + 100);
      raw.at(x, y, 2) = 0;
    }
  return raw;
}

struct Fetch {
  const ImageU8* raw;
  void operator()(int X, int Y, std::uint32_t px[3]) const {
    for (int c = 0; c < 3; ++c) px[c] = raw->at(X, Y, c);
  }
};

}  // namespace

TEST_CASE("hex math by hand: scene coordinates, round half up, lattice rounding") {
  CHECK(hex::scene_coord(0.0f, 0, 8) == -0.4375f);  // (2*0 + 1) / 16 - 1/2
  CHECK(hex::scene_coord(0.0f, 7, 8) == 0.4375f);
  CHECK(hex::scene_coord(1.5f, 3, 4) == 1.875f);  // 1.5 + 7/8 - 1/2
  CHECK(hex::round_half_up(0.5f) == 1);
  CHECK(hex::round_half_up(-0.5f) == 0);
  CHECK(hex::round_half_up(-0.51f) == -1);
  const MlaLayout m(lb::test::r42_like());
  const HexTablesHost t = build_hex_tables(m, 360, 300, 8, 1, kLensTypesAll);
  const hex::HexLayout& L = t.layout;
  // Inverse of [(1, 0) (0.5, -0.866)]: a = sx + sy / sqrt 3, b = -2 sy / sqrt 3.
  CHECK(L.ixx == 1.0f);
  CHECK(L.ixy == doctest::Approx(0.57735));
  CHECK(L.iyy == doctest::Approx(-1.1547));
  int i = 0, j = 0;
  hex::lattice_round(L, 1.5f, -0.8660254f, &i, &j);  // lens (1, 1)'s position
  CHECK(i == 1);
  CHECK(j == 1);
  hex::lattice_round(L, 0.2f, 0.1f, &i, &j);  // a = 0.258, b = -0.115
  CHECK(i == 0);
  CHECK(j == 0);
  hex::lattice_round(L, 0.5f, 0.0f, &i, &j);  // a = 0.5 exactly: half up
  CHECK(i == 1);
  CHECK(j == 0);
  // Lens (2, -3): position (0.5, 2.598), type (2 + 3) mod 3 = 2; its raw centre.
  float lx = 0, ly = 0;
  hex::lens_position(L, 2, -3, &lx, &ly);
  CHECK(lx == 0.5f);
  CHECK(ly == doctest::Approx(2.598076));
  CHECK(hex::lens_type(L, t.view(), 2, -3) == 2);
  CHECK(m.type(2, -3) == 2);
  CHECK(hex::lens_type(L, t.view(), 1000, 0) == hex::kNoLens);
  // Patch P maps s to r = o + P s + (D - P) l: at the lens centre s = l, r is the centre.
  int X = 0, Y = 0;
  REQUIRE(hex::raw_pixel(L, 8.0f, lx, ly, lx, ly, &X, &Y));
  CHECK(X == static_cast<int>(std::floor(12.3 + 24 * 0.5 + 0.5)));
  CHECK(Y == static_cast<int>(std::floor(12.7 + 24 * 2.598076 + 0.5)));
  // Half a lens unit right at P = 8: four pixels right.
  REQUIRE(hex::raw_pixel(L, 8.0f, lx + 0.5f, ly, lx, ly, &X, &Y));
  CHECK(X == static_cast<int>(std::floor(12.3 + 12 + 4 + 0.5)));
  CHECK(hex::quotient(7, 2) == 4);  // round half up
  CHECK(hex::quotient(5, 0) == 0);
}

TEST_CASE("hex math: each pixel reads the nearest allowed lens (rings 0, away from cell corners)") {
  const MlaGeometry g = lb::test::r42_like();
  const MlaLayout m(g);
  const ImageU8 raw = lens_id_raw(m, 360, 300);
  // P = 10: v = 2.4, only type 0 in focus (1..3); P = 8: v = 3, types 0 and 1.
  // (In focus at P = 8 allows types 0 and 1: every point lies within 1.05 x their covering
  // radius, 1 lens unit, of two of them, so rings 0 blends everywhere; not checked here.)
  for (const auto& [lens_types, P] : {std::pair{kLensTypesAll, 8}, std::pair{kLensTypesAll, 10},
                                      std::pair{kLensTypesInFocus, 10}}) {
      CAPTURE(lens_types);
      CAPTURE(P);
      const HexTablesHost t = build_hex_tables(m, 360, 300, P, 0, lens_types);
      const hex::HexTables T = t.view();
      const std::uint32_t mask = t.mask_of_patch[static_cast<std::size_t>(P)];
      const float reach = std::sqrt(t.reach2_of_patch[static_cast<std::size_t>(P)]);
      int checked = 0;
      for (float sy = 2.0f; sy < 8.0f; sy += 0.173f)
        for (float sx = 3.0f; sx < 11.0f; sx += 0.191f) {
          // Brute force: the two nearest allowed lenses.
          double d1 = 1e9, d2 = 1e9;
          int bi = 0, bj = 0;
          for (int j = -20; j <= 5; ++j)
            for (int i = -5; i <= 25; ++i) {
              if (!((mask >> m.type(i, j)) & 1u)) continue;
              const double d = std::hypot(sx - (i + 0.5 * j), sy - (-0.8660254037844386 * j));
              if (d < d1) {
                d2 = d1;
                d1 = d;
                bi = i;
                bj = j;
              } else if (d < d2) {
                d2 = d;
              }
            }
          if (d2 < reach + 0.01) continue;  // a corner: blended
          std::uint64_t acc[3], w = 0;
          hex::render_sums(t.layout, T, sx, sy, P, 0.f, 0.f, hex_inv2s2(3.0f), Fetch{&raw}, acc, &w);
          REQUIRE(w > 0);
          CHECK(hex::quotient(acc[0], w) == static_cast<std::uint32_t>(bi + 100));
          CHECK(hex::quotient(acc[1], w) == static_cast<std::uint32_t>(bj + 100));
          ++checked;
        }
      CHECK(checked > 200);
    }
}

TEST_CASE("hex tables: R42-like type masks, spacings and covering radii") {
  const MlaGeometry g = lb::test::r42_like();
  const MlaLayout m(g);
  CHECK(hex_type_mask(g, 12, kLensTypesInFocus) == 0b001u);  // v = 2: type 0 only
  CHECK(hex_type_mask(g, 8, kLensTypesInFocus) == 0b011u);   // v = 3: the overlap of 0 and 1
  CHECK(hex_type_mask(g, 6, kLensTypesInFocus) == 0b110u);   // v = 4: 1 and 2
  CHECK(hex_type_mask(g, 5, kLensTypesInFocus) == 0b100u);   // v = 4.8: type 2
  CHECK(hex_type_mask(g, 30, kLensTypesInFocus) == 0b001u);  // v = 0.8: none; the nearest range
  CHECK(hex_type_mask(g, 8, kLensTypesAll) == 0b111u);
  MlaGeometry open = g;
  open.types[1].depth_min = open.types[1].depth_max = 0.0;  // no range given: sharp everywhere
  CHECK(hex_type_mask(open, 12, kLensTypesInFocus) == 0b011u);
  // Spacing: any two types leave neighbours one lens apart; one type is the sub-grid, sqrt 3.
  CHECK(hex_type_spacing(m, 0b111u) == doctest::Approx(1.0));
  CHECK(hex_type_spacing(m, 0b011u) == doctest::Approx(1.0));
  CHECK(hex_type_spacing(m, 0b001u) == doctest::Approx(std::sqrt(3.0)));
  // Covering radius: spacing / sqrt 3 on a hexagonal lattice (within the 2 % sampling).
  CHECK(hex_covering_radius(m, 0b111u, 1.0) == doctest::Approx(1.0 / std::sqrt(3.0)).epsilon(0.02));
  CHECK(hex_covering_radius(m, 0b001u, std::sqrt(3.0)) == doctest::Approx(1.0).epsilon(0.02));
  // Two types of three: the missing type's centres are 1 lens unit from the others.
  CHECK(hex_covering_radius(m, 0b011u, 1.0) == doctest::Approx(1.0).epsilon(0.02));
  const MlaLayout rect(to_mla_geometry(PlenopticGrid{4, 4, 20.0, 0.0, 0.0}));
  CHECK(hex_covering_radius(rect, 1u, 1.0) == doctest::Approx(1.0 / std::sqrt(2.0)).epsilon(0.02));
  // The tables: rings x spacing + 1.05 x covering radius; depth neighbours: the 6 adjacent.
  const HexTablesHost t = build_hex_tables(m, 360, 300, 8, 1, kLensTypesInFocus);
  CHECK(t.mask_of_patch[12] == 0b001u);
  // Depth's sharpness per type comes from blur_of_patch (test_plenoptic_hex_depth_cost.cpp);
  // the mask is only the types a pass uses.
  const HexTablesHost all = build_hex_tables(m, 360, 300, 8, 1, kLensTypesAll);
  CHECK(all.mask_of_patch[12] == 0b111u);
  CHECK(t.blur_of_patch[12] == (0u | 1u << 2 | 2u << 4));  // v = 2: in range, 0.8 from, 1.8 from
  CHECK(std::sqrt(t.reach2_of_patch[12]) == doctest::Approx(std::sqrt(3.0) + 1.05).epsilon(0.02));
  CHECK(std::sqrt(t.reach2_of_patch[8]) == doctest::Approx(1.0 + 1.05 * 1.0).epsilon(0.02));
  CHECK(std::sqrt(build_hex_tables(m, 360, 300, 8, 1, kLensTypesAll).reach2_of_patch[8]) ==
        doctest::Approx(1.0 + 1.05 / std::sqrt(3.0)).epsilon(0.02));
  CHECK(t.nbr.size() == 12);  // within sqrt 3 (the one-type spacing at P = 12): 6 at 1, 6 at sqrt 3
  CHECK(build_hex_tables(m, 360, 300, 8, 1, kLensTypesAll).nbr.size() == 6);
}

TEST_CASE("hex passes: odd sizes, any thread count, the same bits") {
  auto p = hex_generator_preset("hex-small");
  p.width = 301;
  p.height = 263;
  const HexScene s = generate_hex_scene(p);
  const MlaLayout m(p.mla);
  const ImageU8 raw = to_rgba(s.raw);
  for (const int M : {7, 9}) {
    const HexTablesHost t = build_hex_tables(m, raw.width, raw.height, M, 1, kLensTypesAll);
    CHECK(t.frame.width == hex_frame(m, 301, 263, M).width);
    HexRenderParams r;
    r.patch = M;
    r.sigma = 3.5f;
    r.view_x = 1.25f;
    const ImageU8 a = render_hex(raw, t, r, 1), b = render_hex(raw, t, r, 3);
    CHECK(a.width == t.frame.width);
    CHECK(a.data == b.data);
    HexDepthParams d;
    d.patch = M;
    d.pmin = 5;
    d.pmax = 12;
    d.window = 3;
    const ImageF d1 = depth_hex(raw, t, d, 1), d3 = depth_hex(raw, t, d, 3);
    CHECK(d1.data == d3.data);
    CHECK(render_all_in_focus_hex(raw, t, r, d1, 1).data == render_all_in_focus_hex(raw, t, r, d1, 2).data);
  }
}

TEST_CASE("hex passes: a rotated grid finds the same depths as the upright one") {
  auto p = hex_generator_preset("hex-small");
  p.defocus = 0.0;
  auto q = p;
  q.mla.rotation = 0.2;
  q.mla.offset = {40.0, 20.0};
  auto score = [](const HexGeneratorParams& gp) {
    const HexScene s = generate_hex_scene(gp);
    HexDepthParams d;
    d.patch = 8;
    d.pmin = 5;
    d.pmax = 13;
    d.window = 3;
    const ImageU8 raw = to_rgba(s.raw);
    const HexTablesHost t = build_hex_tables(MlaLayout(gp.mla), raw.width, raw.height, 8, 1, kLensTypesAll);
    const ImageF depth = depth_hex(raw, t, d);
    // Exact among the pixels with an estimate: the frame is the lattice bounding box of the
    // lenses inside the raw, so a rotated grid leaves its corners without any lens.
    long with = 0, exact = 0;
    for (std::size_t i = 0; i < depth.data.size(); ++i) {
      with += depth.data[i] > 0;
      exact += depth.data[i] > 0 && depth.data[i] == s.truth.data[i];
    }
    return std::pair{score_hex_depth(depth, s.truth), 100.0 * exact / with};
  };
  const auto [up, up_covered] = score(p);
  const auto [rot, rot_covered] = score(q);
  MESSAGE("depth exact % / MAE: upright " << up.exact_pct << " / " << up.mae << " (" << up_covered
                                          << " % where estimated), rotated 0.2 rad " << rot.exact_pct << " / "
                                          << rot.mae << " (" << rot_covered << " %)");
  CHECK(up.exact_pct > 93.0);
  CHECK(rot_covered > 93.0);
  CHECK(rot.mae < 0.2);
}

TEST_CASE("plenoptic-hex on a rectangular scene: the seed's frame, comparable render and depth") {
  auto data = std::make_shared<PlenopticData>();
  data->scene = to_scene(generate_scene(generator_preset("tiny", 2)), "tiny");
  const PlenopticScene& s = data->scene;
  auto runner = make_cpu_registry().make_runner("plenoptic-hex", BackendKind::Cpu);
  runner->set_data(data);
  HostSurface view(SurfaceFormat::RGBA8), depth(SurfaceFormat::R32F);
  const ParamValues v{{"patch", s.truth_patch}, {"pmin", 7}, {"pmax", 14}, {"window", 3}};
  runner->run(v, "", "view", view);
  CHECK(view.width() == s.grid.nx * s.truth_patch);  // the rectangular frame: NX*M x NY*M
  CHECK(view.height() == s.grid.ny * s.truth_patch);
  runner->run(v, "", "depth", depth);
  const double hex_exact = runner->scores().at("exact_pct").get<double>();
  DepthParams dp = default_depth_params(s.grid);
  dp.patch = s.truth_patch;
  dp.window = 3;
  const ImageU8 raw = to_rgba(s.raw);
  const DepthScore rect = score_depth(depth_cpu(raw, build_depth_tables(s.grid, dp, raw.width, raw.height)), s.truth);
  MESSAGE("tiny through the general path: exact " << hex_exact << " %, rectangular path " << rect.exact_pct << " %");
  CHECK(hex_exact > rect.exact_pct - 5.0);
}

TEST_CASE("hex parameters: every bad value is one line naming the parameter") {
  const MlaGeometry g = lb::test::r42_like();
  auto render_error = [&](auto edit) {
    HexRenderParams p = default_hex_params(g).render;
    edit(p);
    try {
      validate(p, g);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  auto depth_error = [&](auto edit) {
    HexDepthParams p = default_hex_params(g).depth;
    edit(p);
    try {
      validate(p, g);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(render_error([](HexRenderParams&) {}) == "");
  CHECK(render_error([](HexRenderParams& p) { p.patch = 24; }) == "patch: must be in 1..23, got 24");
  CHECK(render_error([](HexRenderParams& p) { p.rings = 5; }) == "rings: must be in 0..4, got 5");
  CHECK(render_error([](HexRenderParams& p) { p.sigma = std::nanf(""); }) == "sigma: must be in 0.5..24, got nan");
  CHECK(render_error([](HexRenderParams& p) { p.view_y = -12.5f; }) == "view_y: must be in -12..12, got -12.5");
  CHECK(render_error([](HexRenderParams& p) { p.lens_types = 2; }) ==
        "lens_types: must be in 0..1, got 2");
  CHECK(depth_error([](HexDepthParams& p) { p.pmax = 24; }) ==
        "pmax: must be in 1..23, got 24");
  CHECK(depth_error([](HexDepthParams& p) { p.rings = 0; }) == "rings: depth compares neighbours, so it needs at least 1, got 0");
  CHECK(depth_error([](HexDepthParams& p) { p.window = 2; }) == "window: must be odd, got 2");
  CHECK(depth_error([](HexDepthParams& p) { p.aperture = 1.5f; }) == "aperture: must be in 0.1..1, got 1.5");
  CHECK(depth_error([](HexDepthParams& p) { p.truncate = 766; }) == "truncate: must be in 0..765, got 766");
  CHECK(depth_error([](HexDepthParams& p) { p.truncate = -1; }) == "truncate: must be in 0..765, got -1");
  // Defaults for a small lens: everything clamped to D - 1.
  MlaGeometry small = g;
  small.diameter = 9.0;
  const HexRunParams d = default_hex_params(small);
  CHECK(d.render.patch == 8);
  CHECK(d.depth.pmax == 8);
  CHECK(d.depth.pmin == 7);
  CHECK(d.render.sigma == doctest::Approx(9.0 / 7.0));
}

// The render walk (hex_math.hpp, for_each_sample) reads each pixel's sub-cell list and skips
// the type lookup when every type is allowed; both must leave the sums of the plain walk over
// the whole `near` list with the lookup (near_prefix = n_near, all_types = 0) unchanged, on
// every pixel of the frame (lenses straddling the raw's edges included), on a hexagonal, a
// rotated and a rectangular grid, for every rings / lens_types / patch size tried.
TEST_CASE("hex walk: sub-cell lists and the type-lookup skip give the whole list's sums") {
  MlaGeometry rot = lb::test::r42_like();
  rot.rotation = 0.3;
  rot.offset = {5.1, -3.2};
  const MlaGeometry grids[] = {lb::test::r42_like(), rot, to_mla_geometry(PlenopticGrid{7, 6, 21.0, 0.8, 1.2})};
  std::uint32_t seed = 7;
  ImageU8 raw(151, 133, 4, 255);
  for (auto& v : raw.data) v = static_cast<std::uint8_t>((seed = seed * 1664525u + 1013904223u) >> 24);
  int g_index = 0;
  for (const MlaGeometry& g : grids) {
    CAPTURE(g_index++);
    const MlaLayout m(g);
    for (int rings : {0, 1, 2})
      for (int lt : {kLensTypesAll, kLensTypesInFocus})
        for (int P : {3, 6, 8, 11, 20}) {
          CAPTURE(rings);
          CAPTURE(lt);
          CAPTURE(P);
          const HexTablesHost t = build_hex_tables(m, raw.width, raw.height, P, rings, lt);
          const hex::HexTables T = t.view();
          REQUIRE(t.cell_start.size() == hex::kCells + 1);
          REQUIRE(t.cell_start.back() == t.cell_near.size());
          hex::HexLayout whole = t.layout;
          whole.near_prefix = whole.n_near;
          whole.all_types = 0;
          REQUIRE(t.layout.near_prefix == 0);
          if (g.kind == MlaKind::Hexagonal && rings == 1 && lt == kLensTypesAll) {
            // The point of the lists: far fewer offsets than the whole cell's.
            const double mean = static_cast<double>(t.cell_near.size()) / hex::kCells;
            CHECK(mean < 0.7 * t.layout.n_near);
            CHECK(t.layout.all_types == 0b111u);
          }
          const float inv2s2 = hex_inv2s2(static_cast<float>(g.diameter / 5.0));
          long mismatches = 0, samples = 0;
          for (int y = 0; y < t.layout.out_h; ++y)
            for (int x = 0; x < t.layout.out_w; ++x) {
              const float sx = hex::scene_coord(t.layout.s0x, x, t.layout.patch);
              const float sy = hex::scene_coord(t.layout.s0y, y, t.layout.patch);
              std::uint64_t a[3], wa = 0, b[3], wb = 0;
              std::uint32_t c[3], wc = 0;
              hex::render_sums(t.layout, T, sx, sy, P, 0.7f, -0.4f, inv2s2, Fetch{&raw}, a, &wa);
              hex::render_sums(whole, T, sx, sy, P, 0.7f, -0.4f, inv2s2, Fetch{&raw}, b, &wb);
              hex::render_sums(t.layout, T, sx, sy, P, 0.7f, -0.4f, inv2s2, Fetch{&raw}, c, &wc);  // 32-bit
              mismatches += wa != wb || a[0] != b[0] || a[1] != b[1] || a[2] != b[2];
              mismatches += wc != wa || c[0] != a[0] || c[1] != a[1] || c[2] != a[2];
              samples += wa > 0;
            }
          CHECK(mismatches == 0);
          CHECK(samples > 0);
        }
  }
}
