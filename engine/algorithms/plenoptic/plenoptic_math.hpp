#pragma once
// Rendering math shared by the CPU reference and every CUDA variant.
//
// Exactness: all implementations must give identical images whatever the order in which
// they sum the neighbours (Sync / NoSync accumulate in a different order than Original).
// Floating-point sums are not associative, so the renderer works in integers:
//   * sample positions: floor(ox + n*D + (D - M)/2 + 0.5) is precomputed on the host per
//     micro-image column/row (col_start / row_start); the offsets a - i*M are integers, so
//     the spec's nearest-pixel rule floor(p + 0.5) is evaluated exactly once, in double;
//   * weights: the spec's Gaussian W(px - sx, py - sy) is centred on the micro-image
//     centre, so its argument is a - M/2 - i*M - sx (independent of D) and it is separable.
//     The host quantises each 1D factor to an integer in [1, 256] (wx, wy tables indexed by
//     k = a - i*M + lim*M); the weight is wx * wy <= 65536;
//   * sums: pixel * weight summed over at most (2*kMaxLim+1)^2 = 81 neighbours stays below
//     81 * 255 * 65536 < 2^31, so uint32 sums are exact in any order;
//   * result: round-half-up integer division (sum + wsum/2) / wsum.
#include <cstdint>

#include "lightbench/hd.hpp"

namespace lb {

LB_HD int clamp_int(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

// Everything a render needs besides the raw pixels and the tables' contents.
struct RenderLayout {
  int grid_nx, grid_ny;   // micro-images
  int patch;              // M
  int lim;
  int raw_w, raw_h;
  int out_w, out_h;       // NX*M x NY*M
  int span() const { return (2 * lim + 1) * patch; }  // entries per weight table
};

// Pointers to the host-built tables (host or device memory, same layout).
struct RenderTables {
  const int* col_start;        // [grid_nx]: floor(ox + n*D + (D-M)/2 + 0.5)
  const int* row_start;        // [grid_ny]
  const std::uint32_t* wx;     // [(2lim+1)*M], index a - i*M + lim*M
  const std::uint32_t* wy;
};

// Weight-table index of output offset a (0..M-1) seen through neighbour i.
LB_HD int weight_index(int a, int i, int patch, int lim) { return a - i * patch + lim * patch; }

// Raw column of output offset a in the micro-image column n (already n = nx + i) for
// neighbour i, clamped to the image (the spec leaves out-of-image samples open; we clamp).
LB_HD int sample_coord(int start, int a, int i, int patch, int size) {
  return clamp_int(start + a - i * patch, 0, size - 1);
}

// Round-half-up quotient, the reference definition of the output value.
LB_HD std::uint32_t divide_round(std::uint32_t sum, std::uint32_t wsum) {
  return (sum + wsum / 2u) / wsum;
}

// The same quotient through a float reciprocal and an exact integer fix-up (the seed's
// "division replaced by multiplication", made exact). q is off by at most one before it.
LB_HD std::uint32_t divide_round_rcp(std::uint32_t sum, std::uint32_t wsum, float rcp_wsum) {
  const std::uint32_t n = sum + wsum / 2u;
  std::uint32_t q = static_cast<std::uint32_t>(static_cast<float>(n) * rcp_wsum);
  if (q * wsum > n) --q;
  else if ((q + 1u) * wsum <= n) ++q;
  return q;
}

// Packs 8-bit RGB and alpha 255 into the RGBA8 word layout used on host and device
// (little-endian: R in the low byte).
LB_HD std::uint32_t pack_rgba(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return r | (g << 8) | (b << 16) | 0xff000000u;
}

// Accumulator for one output pixel: weighted RGB and the weight sum.
struct RenderAccum {
  std::uint32_t r = 0, g = 0, b = 0, w = 0;
  LB_HD void add(std::uint32_t rgba, std::uint32_t weight) {
    r += (rgba & 0xffu) * weight;
    g += ((rgba >> 8) & 0xffu) * weight;
    b += ((rgba >> 16) & 0xffu) * weight;
    w += weight;
  }
  LB_HD void add(const RenderAccum& o) { r += o.r; g += o.g; b += o.b; w += o.w; }
  LB_HD std::uint32_t finish() const {
    return pack_rgba(divide_round(r, w), divide_round(g, w), divide_round(b, w));
  }
};

// Reference evaluation of one output pixel (x, y): the spec's corrected Algorithm 1.
// load(col, row) returns the RGBA8 word of a raw pixel. Used verbatim by the CPU path.
template <class Load>
LB_HD std::uint32_t render_pixel(const RenderLayout& L, const RenderTables& T, Load load, int x,
                                 int y) {
  const int nx = x / L.patch, a = x % L.patch;
  const int ny = y / L.patch, b = y % L.patch;
  RenderAccum acc;
  for (int j = -L.lim; j <= L.lim; ++j) {
    const int my = ny + j;
    if (my < 0 || my >= L.grid_ny) continue;
    const int row = sample_coord(T.row_start[my], b, j, L.patch, L.raw_h);
    const std::uint32_t wyv = T.wy[weight_index(b, j, L.patch, L.lim)];
    for (int i = -L.lim; i <= L.lim; ++i) {
      const int mx = nx + i;
      if (mx < 0 || mx >= L.grid_nx) continue;
      const int col = sample_coord(T.col_start[mx], a, i, L.patch, L.raw_w);
      acc.add(load(col, row), T.wx[weight_index(a, i, L.patch, L.lim)] * wyv);
    }
  }
  return acc.finish();
}

}  // namespace lb
