// CPU reference of the plenoptic depth extraction (SAD over patch sizes): known answers on
// synthetic planes, the ground-truth score of a multi-plane scene, a hand-computed cost,
// the window aggregation rule, the all-in-focus render, scoring and validation.
#include <doctest/doctest.h>

#include <string>

#include "lightbench/backend.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/colormap.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {

void set_px(ImageU8& img, int x, int y, int r, int g, int b) {
  img.at(x, y, 0) = static_cast<std::uint8_t>(r);
  img.at(x, y, 1) = static_cast<std::uint8_t>(g);
  img.at(x, y, 2) = static_cast<std::uint8_t>(b);
  img.at(x, y, 3) = 255;
}

// % of the pixels at least `margin` micro-images away from the border equal to P.
double interior_pct(const ImageF& d, int M, int margin, int P) {
  int n = 0, ok = 0;
  for (int y = margin * M; y < d.height - margin * M; ++y)
    for (int x = margin * M; x < d.width - margin * M; ++x) {
      ++n;
      ok += d.at(x, y) == static_cast<float>(P);
    }
  return n ? 100.0 * ok / n : 0.0;
}

}  // namespace

TEST_CASE("a single fronto-parallel textured plane comes out at its patch size") {
  for (int P : {8, 11, 13}) {
    GeneratorParams gp;
    gp.grid = {14, 10, 44.75, 1.25, 0.75};
    ScenePlane bg;
    bg.patch = P;
    bg.background = true;
    gp.planes = {bg};
    gp.seed = 5 + static_cast<std::uint64_t>(P);
    const GeneratedScene s = generate_scene(gp);
    DepthParams dp;  // M = 11, P 7..14, lim 2, aperture 0.8
    const ImageF d = depth_cpu(to_rgba(s.raw), build_depth_tables(s.params.grid, dp, s.raw.width, s.raw.height));
    const double pct = interior_pct(d, dp.patch, dp.lim, P);
    INFO("plane at P=" << P << ": " << pct << " % of the interior");
    CHECK(pct >= 95.0);
    dp.window = 5;
    const ImageF dw = depth_cpu(to_rgba(s.raw), build_depth_tables(s.params.grid, dp, s.raw.width, s.raw.height));
    CHECK(interior_pct(dw, dp.patch, dp.lim, P) >= 98.0);
  }
}

TEST_CASE("a multi-plane scene scores well against the generator's ground truth") {
  const GeneratedScene s = generate_scene(generator_preset("small", 3));
  DepthParams dp;
  REQUIRE(s.truth.width == depth_width(s.params.grid, dp));
  const DepthTablesHost t = build_depth_tables(s.params.grid, dp, s.raw.width, s.raw.height);
  const DepthScore sc = score_depth(depth_cpu(to_rgba(s.raw), t), s.truth);
  MESSAGE("small preset, window 1: " << sc.exact_pct << " % exact, MAE " << sc.mae);
  CHECK(sc.pixels == s.truth.pixels());
  CHECK(sc.exact_pct >= 85.0);
  CHECK(sc.mae <= 0.3);
  dp.window = 3;
  const DepthScore sw = score_depth(
      depth_cpu(to_rgba(s.raw), build_depth_tables(s.params.grid, dp, s.raw.width, s.raw.height)), s.truth);
  MESSAGE("small preset, window 3: " << sw.exact_pct << " % exact, MAE " << sw.mae);
  CHECK(sw.exact_pct >= 85.0);
}

TEST_CASE("hand-computed costs of a tiny raw") {
  // 3 x 1 micro-images of pitch 10 at offset 0, M = 2, candidates P = 2, 3, lim 1.
  // Output pixel (2, 0): nx = 1, a = 0, ny = 0, b = 0; a' = b' = 0 for both P.
  // col_start = floor(10 n + (10 - P)/2 + 0.5) = 10 n + 4 for P = 2 and 3; row_start = 4.
  ImageU8 raw(30, 10, 4);
  for (std::size_t i = 0; i < raw.pixels(); ++i) raw.data[i * 4 + 3] = 255;
  set_px(raw, 14, 4, 100, 50, 20);  // main sample (both P)
  set_px(raw, 6, 4, 90, 60, 20);    // P=2, i=-1: col 4 + 2   -> SAD 10 + 10 + 0 = 20
  set_px(raw, 22, 4, 100, 50, 255); // P=2, i=+1: col 24 - 2  -> SAD 235
  set_px(raw, 7, 4, 100, 50, 20);   // P=3, i=-1: col 4 + 3   -> SAD 0
  set_px(raw, 21, 4, 100, 50, 20);  // P=3, i=+1: col 24 - 3  -> SAD 0
  const PlenopticGrid g{3, 1, 10.0, 0.0, 0.0};
  DepthParams p;
  p.patch = 2;
  p.pmin = 2;
  p.pmax = 3;
  p.lim = 1;
  p.aperture = 1.5f;  // T = 225: every sample exists
  const DepthTablesHost t = build_depth_tables(g, p, raw.width, raw.height);
  CHECK(t.layout.aperture2 == 225);
  CHECK(t.col_start == std::vector<int>{4, 14, 24, 4, 14, 24});
  const auto cost = depth_costs_cpu(raw, t);
  const int W = t.layout.out_w, H = t.layout.out_h;
  REQUIRE(W == 6);
  REQUIRE(H == 2);
  auto at = [&](int q, int x, int y) { return cost[(static_cast<std::size_t>(q) * H + y) * W + x]; };
  CHECK(depth_pack_sum(at(0, 2, 0)) == 255);
  CHECK(depth_pack_count(at(0, 2, 0)) == 2);
  CHECK(depth_pack_sum(at(1, 2, 0)) == 0);
  CHECK(depth_pack_count(at(1, 2, 0)) == 2);
  CHECK(depth_cpu(raw, t).at(2, 0) == 3.0f);

  // Aperture 0.5: T = 25. P=2: X = -4i - 1, Y = -1: i=-1 -> 9 + 1 = 10 in, i=+1 -> 25 + 1 out.
  // P=3: X = -6i - 2, i=-1 -> 16 + 4 in, i=+1 -> 64 + 4 out.
  p.aperture = 0.5f;
  const DepthTablesHost t2 = build_depth_tables(g, p, raw.width, raw.height);
  const auto c2 = depth_costs_cpu(raw, t2);
  CHECK(depth_pack_sum(c2[2]) == 20);
  CHECK(depth_pack_count(c2[2]) == 1);
  CHECK(depth_pack_sum(c2[static_cast<std::size_t>(W) * H + 2]) == 0);
  CHECK(depth_pack_count(c2[static_cast<std::size_t>(W) * H + 2]) == 1);

  // Ties go to the smaller patch size: make P=3's samples differ by the same 255 / 2 mean.
  set_px(raw, 7, 4, 90, 60, 20);
  set_px(raw, 21, 4, 100, 50, 255);
  CHECK(depth_cpu(raw, t).at(2, 0) == 2.0f);
}

TEST_CASE("window aggregation pools sums and counts exactly") {
  const ImageU8 raw = to_rgba(lbt::random_image(160, 120, 3, 77));
  const PlenopticGrid g{9, 6, 17.3, 1.0, 2.5};
  DepthParams p;
  p.patch = 5;
  p.pmin = 3;
  p.pmax = 9;
  p.lim = 2;
  p.window = 3;
  p.aperture = 1.0f;
  const DepthTablesHost t = build_depth_tables(g, p, raw.width, raw.height);
  const auto cost = depth_costs_cpu(raw, t);
  const ImageF d = depth_cpu(raw, t, 3);
  const int W = t.layout.out_w, H = t.layout.out_h;
  int checked = 0;
  for (int y = 0; y < H; y += 7)
    for (int x = 0; x < W; x += 5) {
      // Independent evaluation: pooled mean as a long double, ties by the smaller P.
      long double best = 1e30L;
      int best_P = -1;
      for (int q = 0; q < t.layout.count(); ++q) {
        unsigned long long s = 0, n = 0;
        for (int yy = y - 1; yy <= y + 1; ++yy)
          for (int xx = x - 1; xx <= x + 1; ++xx) {
            if (xx < 0 || yy < 0 || xx >= W || yy >= H) continue;
            const std::uint32_t c = cost[(static_cast<std::size_t>(q) * H + yy) * W + xx];
            s += c & 0xffffu;
            n += c >> 16;
          }
        const long double v = n ? static_cast<long double>(s) / n : 1e30L;
        if (v < best) {
          best = v;
          best_P = p.pmin + q;
        }
      }
      CHECK(d.at(x, y) == static_cast<float>(best_P));
      ++checked;
    }
  CHECK(checked >= 40);
  // The thread count does not matter.
  CHECK(depth_cpu(raw, t, 1).data == d.data);
}

TEST_CASE("all-in-focus: a constant depth map at P = M is the render at M") {
  const ImageU8 raw = to_rgba(lbt::random_image(200, 150, 3, 5));
  const PlenopticGrid g{8, 6, 23.5, 2.0, 1.0};
  RenderParams rp = default_render_params(g);
  rp.patch = 9;
  rp.view_x = 1.5f;
  ImageF depth(g.nx * 9, g.ny * 9, 1, 9.0f);
  const ImageU8 aif = render_all_in_focus(raw, g, rp, depth, 9);
  const ImageU8 ref = render_cpu(raw, build_render_tables(g, rp, raw.width, raw.height));
  CHECK(aif.data == ref.data);
  // With a map of several sizes, each pixel is the render at its own size.
  for (int y = 0; y < depth.height; ++y)
    for (int x = 0; x < depth.width; ++x) depth.at(x, y) = (x / 9) % 2 ? 12.0f : 9.0f;
  const ImageU8 mixed = render_all_in_focus(raw, g, rp, depth, 9);
  RenderParams r12 = rp;
  r12.patch = 12;
  const RenderTablesHost t12 = build_render_tables(g, r12, raw.width, raw.height);
  const ImageU8 ref12 = render_cpu(raw, t12);
  // Output pixel (x, y) of micro-image 1 (odd) with a = x % 9 -> (12 + a*12/9, b*12/9) at P=12.
  const int x = 9 + 4, y = 2 * 9 + 7;
  const int X = 12 + 4 * 12 / 9, Y = 2 * 12 + 7 * 12 / 9;
  for (int c = 0; c < 4; ++c) CHECK(mixed.at(x, y, c) == ref12.at(X, Y, c));
  CHECK_THROWS_AS(render_all_in_focus(raw, g, rp, ImageF(5, 5, 1, 9.0f), 9), Error);
}

TEST_CASE("all-in-focus through the CPU backend: the reference on the last depth map; errors") {
  const ImageU8 raw = lbt::random_image(170, 120, 3, 8);
  const PlenopticGrid g{7, 5, 22.5, 1.5, 2.0};
  DepthParams dp = default_depth_params(g);
  dp.patch = 8;
  dp.pmin = 5;
  dp.pmax = 13;
  dp.lim = 1;
  RenderParams rp = default_render_params(g);
  rp.lim = 1;
  rp.view_x = -2.0f;
  rp.sigma = 2.5f;
  auto cpu = make_plenoptic_engine_cpu(2);
  cpu->set_raw(raw);
  HostSurface d(SurfaceFormat::R32F), a(SurfaceFormat::RGBA8);
  CHECK_THROWS_AS(cpu->render_all_in_focus(g, rp, dp, a), Error);  // no depth() yet
  cpu->depth(g, dp, DepthConfig{}, d);
  cpu->render_all_in_focus(g, rp, dp, a);
  CHECK(a.rgba().data == render_all_in_focus(to_rgba(raw), g, rp, d.scalar(), dp.patch).data);
  CHECK(cpu->timings().stats("aif/cpu").count == 1);
  DepthParams other = dp;
  other.window = 3;
  CHECK_THROWS_AS(cpu->render_all_in_focus(g, rp, other, a), Error);  // not the map's params
  CHECK_THROWS_AS(cpu->render_all_in_focus(g, rp, dp, d), Error);     // R32F output
  cpu->set_raw(raw);                                                   // a new raw drops the map
  CHECK_THROWS_AS(cpu->render_all_in_focus(g, rp, dp, a), Error);
}

TEST_CASE("depth score: exact % and mean absolute error") {
  ImageF d(4, 2, 1), t(4, 2, 1);
  const float dv[] = {7, 8, 9, 10, 11, 12, 13, 14};
  const float tv[] = {7, 8, 8, 12, 11, 0, 13, 10};  // 0: no plane, not scored
  for (int i = 0; i < 8; ++i) {
    d.data[static_cast<std::size_t>(i)] = dv[i];
    t.data[static_cast<std::size_t>(i)] = tv[i];
  }
  const DepthScore s = score_depth(d, t);
  CHECK(s.pixels == 7);
  CHECK(s.exact_pct == doctest::Approx(100.0 * 4 / 7));
  CHECK(s.mae == doctest::Approx((0 + 0 + 1 + 2 + 0 + 0 + 4) / 7.0));
  CHECK(score_depth(d, t, 1).pixels == 0);
  CHECK_THROWS_AS(score_depth(d, ImageF(3, 2, 1)), Error);
  const ImageU8 c = colorize_depth(d, 7, 14);
  CHECK(c.channels == 4);
  // The viewer's viridis (colormap.hpp): pmin the dark end, pmax the bright end.
  CHECK(c.at(0, 0, 0) == colormap::apply(ColorMap::Viridis, 7, 7, 14)[0]);
  CHECK(c.at(0, 0, 0) < 80);
  CHECK(c.at(3, 1, 1) == colormap::apply(ColorMap::Viridis, 14, 7, 14)[1]);
  CHECK(c.at(3, 1, 1) > 200);
}

TEST_CASE("depth parameter validation gives one-line errors naming the parameter") {
  const PlenopticGrid g{10, 8, 20.5, 0.0, 0.0};
  auto msg = [&](DepthParams p) {
    try {
      validate(p, g);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(msg(DepthParams{}).empty());
  DepthParams p;
  p.pmin = 12;
  p.pmax = 9;
  CHECK(msg(p).find("pmin 12 is larger than pmax 9") != std::string::npos);
  p = {};
  p.window = 4;
  CHECK(msg(p).find("window: must be odd, got 4") != std::string::npos);
  p = {};
  p.lim = 0;
  CHECK(msg(p).find("lim: must be in 1..4, got 0") != std::string::npos);
  p = {};
  p.pmax = 21;
  CHECK(msg(p).find("pmax: must be in 1..20, got 21") != std::string::npos);
  p = {};
  p.pmin = 1;
  p.pmax = 20;
  CHECK(msg(p).find("too wide") != std::string::npos);
  p = {};
  p.patch = 0;
  CHECK(msg(p).find("patch: must be in 1..20, got 0") != std::string::npos);
  p = {};
  p.aperture = 0.0f;
  CHECK(msg(p).find("aperture") != std::string::npos);
  for (const std::string& m : {msg(p)}) CHECK(m.find('\n') == std::string::npos);
  // describe(): every parameter with a range, bound to the struct.
  DepthParams live;
  const auto info = describe(live, g);
  CHECK(info.size() == 6);
  for (const auto& i : info) CHECK(i.min <= i.max);
  info[1].set(9);
  CHECK(live.pmin == 9);
  // The raw must hold the grid.
  CHECK_THROWS_AS(build_depth_tables(g, DepthParams{}, 100, 100), Error);
}

TEST_CASE("the neighbour-table cost equals the reference cost at every pixel and candidate") {
  // The GPU's default Original computes lb::depth_cost_table; it must give depth_cost's very
  // integers (s and n) everywhere: grid borders, clamped raw borders, apertures from none to
  // all, P below and above M, every tabulated lim.
  struct Case {
    PlenopticGrid g;
    int M, pmin, pmax, lim;
    float aperture;
  };
  const Case cases[] = {
      {{7, 5, 13.3, 0.5, 1.25}, 5, 3, 9, 1, 1.0f},   {{11, 7, 19.4, 1.5, 0.25}, 11, 7, 14, 2, 0.8f},
      {{5, 9, 23.75, 0.0, 0.5}, 7, 4, 19, 3, 1.5f},  {{13, 3, 15.5, 2.25, 0.0}, 4, 2, 6, 2, 0.6f},
      {{1, 1, 21.5, 0.5, 0.5}, 6, 4, 8, 1, 1.0f},    {{9, 8, 17.6, 0.0, 3.5}, 3, 2, 17, 2, 1.0f},
      {{6, 4, 12.25, 0.25, 0.75}, 9, 5, 12, 3, 0.1f}, {{4, 6, 16.0, 0.0, 0.0}, 8, 8, 8, 3, 1.2f},
  };
  std::uint64_t seed = 40;
  for (const Case& c : cases) {
    DepthParams p;
    p.patch = c.M;
    p.pmin = c.pmin;
    p.pmax = c.pmax;
    p.lim = c.lim;
    p.aperture = c.aperture;
    const int w = static_cast<int>(c.g.ox + c.g.nx * c.g.pitch) + 3, h = static_cast<int>(c.g.oy + c.g.ny * c.g.pitch) + 2;
    const ImageU8 raw = to_rgba(lbt::random_image(w, h, 3, ++seed));
    const DepthTablesHost t = build_depth_tables(c.g, p, raw.width, raw.height);
    const DepthLayout& L = t.layout;
    REQUIRE(t.neighbours.size() == static_cast<std::size_t>(L.count()) * L.patch * L.patch);
    const DepthTables T = t.view();
    auto load = [&raw](int col, int row) {
      std::uint32_t v = 0;
      for (int k = 0; k < 4; ++k) v |= static_cast<std::uint32_t>(raw.at(col, row, k)) << (8 * k);
      return v;
    };
    std::uint64_t bad = 0, checked = 0, with_samples = 0;
    for (int y = 0; y < L.out_h; ++y)
      for (int x = 0; x < L.out_w; ++x) {
        const int nx = x / L.patch, ny = y / L.patch, a = x % L.patch, b = y % L.patch;
        const std::uint64_t grid = depth_grid_mask(L, nx, ny);
        for (int q = 0; q < L.count(); ++q) {
          const std::uint64_t e = T.neighbours[depth_entry_index(L, q, a, b)];
          const std::uint32_t want = depth_cost(L, T, load, x, y, q);
          std::uint32_t got = 0;
          switch (c.lim) {
            case 1: got = depth_cost_table<1>(L, T, load, nx, ny, e, grid, q); break;
            case 2: got = depth_cost_table<2>(L, T, load, nx, ny, e, grid, q); break;
            default: got = depth_cost_table<3>(L, T, load, nx, ny, e, grid, q); break;
          }
          bad += got != want;
          ++checked;
          with_samples += depth_pack_count(want) > 0;
        }
      }
    CHECK_MESSAGE(bad == 0, "grid " << c.g.nx << "x" << c.g.ny << " lim " << c.lim << ": " << bad << " of "
                                    << checked << " costs differ");
    if (c.g.nx > 1 && c.aperture >= 0.8f) CHECK(with_samples > checked / 2);  // real sums
  }
  // Past kDepthTableLim no table is built (the GPU runs the per-sample kernel).
  DepthParams p4;
  p4.patch = 6;
  p4.pmin = 3;
  p4.pmax = 10;
  p4.lim = 4;
  CHECK(build_depth_tables({9, 7, 14.25, 0.5, 0.5}, p4, 140, 110).neighbours.empty());
  CHECK(build_depth_tables({9, 7, 14.25, 0.5, 0.5}, p4, 140, 110).view().neighbours == nullptr);
}
