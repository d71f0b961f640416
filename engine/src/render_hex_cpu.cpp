// CPU reference renderer on any micro-lens grid (plenoptic_hex.hpp): per output pixel, the
// patches of the nearest lens and its neighbours, Gaussian-weighted around each lens centre
// (+ the view shift), as the rectangular renderer (render_cpu.cpp) does per micro-image.
#include <cmath>

#include "lightbench/error.hpp"
#include "lightbench/parallel.hpp"
#include "lightbench/plenoptic_hex.hpp"

namespace lb {

ImageU8 render_hex_cpu(const ImageU8& raw, const MlaLayout& mla, const HexRenderParams& p, int threads) {
  LB_REQUIRE(!raw.empty() && raw.channels >= 1 && raw.channels <= 4, "hexagonal render: the raw is empty");
  const MlaGeometry& g = mla.geometry();
  const double D = g.diameter;
  LB_REQUIRE(p.patch >= 1 && p.patch <= kMaxPatch && p.patch <= D,
             "patch size " + std::to_string(p.patch) + " out of range (1..min(64, diameter))");
  LB_REQUIRE(p.rings >= 0 && p.rings <= kMaxLim,
             "rings " + std::to_string(p.rings) + " out of range (0.." + std::to_string(kMaxLim) + ")");
  LB_REQUIRE(std::isfinite(p.sigma) && p.sigma >= 0.5f && p.sigma <= 1000.0f,
             "sigma out of range (0.5..1000)");
  LB_REQUIRE(std::isfinite(p.view_x) && std::isfinite(p.view_y) && std::abs(p.view_x) <= D / 2 &&
                 std::abs(p.view_y) <= D / 2,
             "perspective out of range (|s| <= diameter/2)");
  const HexFrame f = hex_frame(mla, raw.width, raw.height, p.patch);
  const double cs = std::cos(g.rotation), sn = std::sin(g.rotation);
  const double usable = D / 2.0 - g.lens_border;
  const double inv2s2 = 1.0 / (2.0 * p.sigma * p.sigma);
  // Neighbour offsets: a hexagonal disc of lattice radius `rings` (Euclidean, lens units), or
  // the rectangular renderer's square (|di|, |dj| <= lim).
  std::vector<std::pair<int, int>> around;
  for (int dj = -p.rings - 1; dj <= p.rings + 1; ++dj)
    for (int di = -p.rings - 1; di <= p.rings + 1; ++di) {
      const double ex = di * g.base_x.x + dj * g.base_y.x, ey = di * g.base_x.y + dj * g.base_y.y;
      const bool in = g.kind == MlaKind::Hexagonal
                          ? std::hypot(ex, ey) <= p.rings + 1e-6
                          : std::abs(di) <= p.rings && std::abs(dj) <= p.rings;
      if (in) around.emplace_back(di, dj);
    }
  ImageU8 out(f.width, f.height, raw.channels);
  const int C = raw.channels;
  parallel_for(f.height, [&](int y) {
    for (int x = 0; x < f.width; ++x) {
      const MlaVec s = f.scene(x, y);
      // The lens nearest to S: S in the raw.
      const double qx = D * s.x, qy = D * s.y;
      const MlaLens L0 = mla.nearest(g.offset.x + cs * qx - sn * qy, g.offset.y + sn * qx + cs * qy);
      double acc[4] = {0, 0, 0, 0}, wsum = 0.0;
      for (const auto& [di, dj] : around) {
        const int i = L0.i + di, j = L0.j + dj;
        const double lx = i * g.base_x.x + j * g.base_y.x, ly = i * g.base_x.y + j * g.base_y.y;
        const double ux = p.patch * (s.x - lx), uy = p.patch * (s.y - ly);  // grid frame, px
        if (ux * ux + uy * uy > usable * usable) continue;
        const MlaVec c = mla.centre(i, j);
        const double rx = c.x + cs * ux - sn * uy, ry = c.y + sn * ux + cs * uy;
        const int X = static_cast<int>(std::floor(rx + 0.5)), Y = static_cast<int>(std::floor(ry + 0.5));
        if (X < 0 || Y < 0 || X >= raw.width || Y >= raw.height) continue;
        const double wx = ux - p.view_x, wy = uy - p.view_y;
        const double w = std::exp(-(wx * wx + wy * wy) * inv2s2);
        for (int ch = 0; ch < C; ++ch) acc[ch] += w * raw.at(X, Y, ch);
        wsum += w;
      }
      for (int ch = 0; ch < C; ++ch)
        out.at(x, y, ch) = wsum > 0 ? static_cast<std::uint8_t>(std::lround(acc[ch] / wsum)) : 0;
    }
  }, threads);
  return out;
}

}  // namespace lb
