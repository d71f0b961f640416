// CPU reference passes on any micro-lens grid (hex_tables.hpp): render, depth, all-in-focus and
// the score, each a loop over output pixels around the shared per-pixel math (hex_math.hpp).
#include <algorithm>
#include <cmath>

#include "lightbench/error.hpp"
#include "plenoptic_hex/hex_depth_math.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "lightbench/parallel.hpp"

namespace lb {

namespace {

struct RgbaFetch {
  const ImageU8* raw;
  void operator()(int X, int Y, std::uint32_t px[3]) const {
    const std::uint8_t* p = &raw->data[(static_cast<std::size_t>(Y) * raw->width + X) * 4];
    px[0] = p[0];
    px[1] = p[1];
    px[2] = p[2];
  }
};

void check_raw(const ImageU8& raw, const HexTablesHost& t) {
  LB_REQUIRE(!raw.empty() && raw.channels == 4, "general-grid pass: the raw must be RGBA8");
  LB_REQUIRE(raw.width == t.layout.raw_w && raw.height == t.layout.raw_h,
             "general-grid pass: tables built for another raw size");
}

void render_pixel(const ImageU8& raw, const HexTablesHost& t, const hex::HexTables& T, int x, int y, int P,
                  float vx, float vy, float inv2s2, std::uint8_t* out) {
  const hex::HexLayout& L = t.layout;
  std::uint64_t acc[3], wsum;
  hex::render_sums(L, T, hex::scene_coord(L.s0x, x, L.patch), hex::scene_coord(L.s0y, y, L.patch), P, vx, vy, inv2s2,
                   RgbaFetch{&raw}, acc, &wsum);
  for (int c = 0; c < 3; ++c) out[c] = static_cast<std::uint8_t>(hex::quotient(acc[c], wsum));
  out[3] = 255;
}

}  // namespace

ImageU8 render_hex(const ImageU8& raw, const HexTablesHost& t, const HexRenderParams& p, int threads) {
  check_raw(raw, t);
  const hex::HexTables T = t.view();
  const float inv2s2 = hex_inv2s2(p.sigma);
  ImageU8 out(t.frame.width, t.frame.height, 4);
  parallel_for(out.height, [&](int y) {
    for (int x = 0; x < out.width; ++x)
      render_pixel(raw, t, T, x, y, t.layout.patch, p.view_x, p.view_y, inv2s2, &out.at(x, y, 0));
  }, threads);
  return out;
}

ImageU8 render_all_in_focus_hex(const ImageU8& raw, const HexTablesHost& t, const HexRenderParams& p,
                                const ImageF& depth, int threads) {
  check_raw(raw, t);
  LB_REQUIRE(depth.width == t.frame.width && depth.height == t.frame.height && depth.channels == 1,
             "all-in-focus: the depth map is not the frame's size");
  const hex::HexTables T = t.view();
  const float inv2s2 = hex_inv2s2(p.sigma);
  ImageU8 out(t.frame.width, t.frame.height, 4);
  parallel_for(out.height, [&](int y) {
    for (int x = 0; x < out.width; ++x) {
      const float d = depth.at(x, y, 0);
      const int P = std::isfinite(d) && d >= 1.f && d <= hex::kMaxPatchIndex ? static_cast<int>(d) : 0;
      std::uint8_t* o = &out.at(x, y, 0);
      if (P == 0) {
        o[0] = o[1] = o[2] = 0;
        o[3] = 255;
      } else {
        render_pixel(raw, t, T, x, y, P, p.view_x, p.view_y, inv2s2, o);
      }
    }
  }, threads);
  return out;
}

ImageF depth_hex(const ImageU8& raw, const HexTablesHost& t, const HexDepthParams& p, int threads) {
  check_raw(raw, t);
  LB_REQUIRE(p.pmin >= 1 && p.pmax <= hex::kMaxPatchIndex && p.pmin <= p.pmax, "depth: bad patch-size range");
  const hex::HexLayout& L = t.layout;
  const hex::HexTables T = t.view();
  const int W = t.frame.width, H = t.frame.height, n = p.pmax - p.pmin + 1;
  const float ap = static_cast<float>(p.aperture * L.diameter / 2.0);
  const float ap2 = ap * ap;
  LB_REQUIRE(p.truncate >= 0 && p.truncate <= hex::kMaxTruncate, "depth: truncate out of range");
  const std::uint32_t cap = hex::pair_cap(p.truncate);
  // Cost volume [candidate][y][x] (uint32, kNoCost where no pair).
  std::vector<std::uint32_t> cost(static_cast<std::size_t>(n) * W * H);
  parallel_for(H, [&](int y) {
    const float sy = hex::scene_coord(L.s0y, y, L.patch);
    for (int x = 0; x < W; ++x) {
      const float sx = hex::scene_coord(L.s0x, x, L.patch);
      for (int q = 0; q < n; ++q)
        cost[(static_cast<std::size_t>(q) * H + y) * W + x] =
            hex::depth_cost(L, T, sx, sy, p.pmin + q, ap2, cap, RgbaFetch{&raw});
    }
  }, threads);
  ImageF out(W, H, 1);
  const int r = p.window / 2;
  parallel_for(H, [&](int y) {
    for (int x = 0; x < W; ++x) {
      std::uint32_t best = hex::kNoCost;
      int bestP = 0;
      for (int q = 0; q < n; ++q) {
        std::uint32_t c = hex::kNoCost;
        if (r == 0) {
          c = cost[(static_cast<std::size_t>(q) * H + y) * W + x];
        } else {
          std::uint64_t sum = 0, cnt = 0;
          for (int yy = std::max(0, y - r); yy <= std::min(H - 1, y + r); ++yy)
            for (int xx = std::max(0, x - r); xx <= std::min(W - 1, x + r); ++xx) {
              const std::uint32_t v = cost[(static_cast<std::size_t>(q) * H + yy) * W + xx];
              if (v != hex::kNoCost) {
                sum += v;
                ++cnt;
              }
            }
          if (cnt > 0) c = static_cast<std::uint32_t>((sum + cnt / 2) / cnt);
        }
        if (c < best) {  // ties: the smaller patch size (first)
          best = c;
          bestP = p.pmin + q;
        }
      }
      out.at(x, y, 0) = static_cast<float>(bestP);
    }
  }, threads);
  return out;
}

DepthScore score_hex_depth(const ImageF& depth, const ImageF& truth) {
  LB_REQUIRE(depth.width == truth.width && depth.height == truth.height && depth.channels == 1 &&
                 truth.channels == 1,
             "depth score: the map (" + std::to_string(depth.width) + "x" + std::to_string(depth.height) +
                 ") and the truth (" + std::to_string(truth.width) + "x" + std::to_string(truth.height) +
                 ") differ in size");
  DepthScore s;
  std::uint64_t exact = 0, with = 0;
  double err = 0.0;
  for (int y = 0; y < depth.height; ++y)
    for (int x = 0; x < depth.width; ++x) {
      const float g = truth.at(x, y, 0), d = depth.at(x, y, 0);
      if (!std::isfinite(g) || g <= 0.f) continue;
      ++s.pixels;
      if (!(std::isfinite(d) && d > 0.f)) continue;
      ++with;
      exact += d == g;
      err += std::abs(static_cast<double>(d) - g);
    }
  s.exact_pct = s.pixels ? 100.0 * static_cast<double>(exact) / static_cast<double>(s.pixels) : 0.0;
  s.mae = with ? err / static_cast<double>(with) : 0.0;
  return s;
}

ImageU8 render_hex_cpu(const ImageU8& raw, const MlaLayout& mla, const HexRenderParams& p, int threads) {
  LB_REQUIRE(!raw.empty() && raw.channels >= 1 && raw.channels <= 4, "hexagonal render: the raw is empty");
  validate(p, mla.geometry());
  const HexTablesHost t = build_hex_tables(mla, raw.width, raw.height, p.patch, p.rings, p.lens_types);
  const ImageU8 rgba = render_hex(to_rgba(raw), t, p, threads);
  if (raw.channels == 4) return rgba;
  ImageU8 out(rgba.width, rgba.height, raw.channels);
  for (std::size_t i = 0, n = static_cast<std::size_t>(rgba.width) * rgba.height; i < n; ++i)
    for (int c = 0; c < raw.channels; ++c) out.data[i * raw.channels + c] = rgba.data[i * 4 + c];
  return out;
}

}  // namespace lb
