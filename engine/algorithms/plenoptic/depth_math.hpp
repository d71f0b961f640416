#pragma once
// Depth-extraction math shared by the CPU reference and every CUDA variant (spec
// ../shared/specs/plenoptic.md, "Depth extraction"). Everything is integer, so every
// implementation computes the identical depth map whatever order it sums in:
//   * sample positions: floor(o + n*D + (D - P)/2 + 0.5) is precomputed on the host in
//     double per candidate patch size P and micro-image column/row (col_start/row_start,
//     the render tables' rule at patch P); (a', b') = (a*P/M, b*P/M) and the offsets
//     a' - i*P are integers; samples outside the raw are clamped to the border;
//   * a neighbour sample EXISTS when its micro-image exists and the sample lies inside that
//     micro-image's aperture: its offset from the micro-image centre, (a' - i*P - (P-1)/2,
//     b' - j*P - (P-1)/2) (independent of D, like the render weights), is within
//     aperture * D / 2. In doubled integer units X = 2a' - 2iP - (P-1), Y likewise, the test
//     is X^2 + Y^2 <= T with T = floor((aperture * D)^2) computed once on the host. (Samples
//     past the rim are black or vignetted; counting them biases every estimate towards
//     small P, whose samples stay nearer the centre.)
//   * cost(P) of output pixel (x, y): the sum s over the existing samples of the neighbours
//     (i, j) != (0,0), |i|,|j| <= lim, of |R - R'| + |G - G'| + |B - B'| (at most
//     80 * 765 = 61200 < 2^16), and their number n (<= 80). The spec's normalised cost is
//     the fraction s / n; a pixel's pair is packed in one word, n << 16 | s;
//   * window aggregation (k x k, k odd): over the output pixels q of the window that lie
//     inside the output, S = sum s_q(P), N = sum n_q; the aggregated cost is S / N (the
//     mean over every neighbour sample of the window). k = 1 is the per-pixel cost;
//   * argmin: fractions are compared exactly by cross-multiplication in 64-bit integers;
//     ties go to the smaller P; a fraction with N = 0 (no neighbour exists) is worse than any
//     other, so a pixel without neighbours gets pmin.
#include <cstdint>

#include "lightbench/hd.hpp"
#include "plenoptic/plenoptic_math.hpp"

namespace lb {

// Candidate patch sizes one depth pass may search (register arrays on the GPU).
constexpr int kMaxDepthCandidates = 16;
// Largest aggregation window (odd). S <= 15*15 * 61200 < 2^32.
constexpr int kMaxDepthWindow = 15;

struct DepthLayout {
  int grid_nx, grid_ny;  // micro-images
  int patch;             // M: output patch size (output grid NX*M x NY*M)
  int pmin, pmax;        // candidate patch sizes P = pmin..pmax
  int lim;               // neighbours |i|, |j| <= lim
  int window;            // k: box aggregation of the costs (odd, 1 = none)
  int aperture2;         // T: a sample exists when X^2 + Y^2 <= T (doubled units)
  int raw_w, raw_h;
  int out_w, out_h;
  LB_HD int count() const { return pmax - pmin + 1; }
};

// Host-built tables (host or device memory, same layout): entry (P - pmin) * grid_nx + n.
struct DepthTables {
  const int* col_start;  // [count][grid_nx]: floor(ox + n*D + (D-P)/2 + 0.5)
  const int* row_start;  // [count][grid_ny]
  // [count][M][M] depth_neighbour_entry (depth_entry_index), or null (lim > kDepthTableLim).
  const std::uint64_t* neighbours = nullptr;
};

LB_HD int depth_imin(int a, int b) { return a < b ? a : b; }
LB_HD int depth_imax(int a, int b) { return a > b ? a : b; }

// Position of output offset a (0..M-1) inside a candidate patch of size P.
LB_HD int depth_scaled(int a, int P, int M) { return a * P / M; }

// Doubled offset from the micro-image centre of scaled position ap seen through neighbour i.
LB_HD int depth_axis(int ap, int i, int P) { return 2 * ap - 2 * i * P - (P - 1); }
LB_HD int depth_sq(int v) { return v * v; }

// A pixel's cost pair: n << 16 | s.
LB_HD std::uint32_t depth_pack(std::uint32_t s, std::uint32_t n) { return n << 16 | s; }
LB_HD std::uint32_t depth_pack_sum(std::uint32_t c) { return c & 0xffffu; }
LB_HD std::uint32_t depth_pack_count(std::uint32_t c) { return c >> 16; }

// |R - R'| + |G - G'| + |B - B'| of two RGBA8 words (R in the low byte; alpha ignored).
LB_HD std::uint32_t depth_sad(std::uint32_t p, std::uint32_t q) {
#if defined(__CUDA_ARCH__)
  // Per-byte absolute difference, then a dot product with (1, 1, 1, 0): two instructions.
  return __dp4a(__vabsdiffu4(p, q), 0x00010101u, 0u);
#else
  std::uint32_t s = 0;
  for (int c = 0; c < 3; ++c) {
    const int a = static_cast<int>((p >> (8 * c)) & 0xffu), b = static_cast<int>((q >> (8 * c)) & 0xffu);
    s += static_cast<std::uint32_t>(a > b ? a - b : b - a);
  }
  return s;
#endif
}

// acc + depth_sad(p, q) (on the device the dot product's own accumulator: one instruction less).
LB_HD std::uint32_t depth_sad_acc(std::uint32_t p, std::uint32_t q, std::uint32_t acc) {
#if defined(__CUDA_ARCH__)
  return __dp4a(__vabsdiffu4(p, q), 0x00010101u, acc);
#else
  return acc + depth_sad(p, q);
#endif
}

// Exact comparison of aggregated costs s1/n1 < s2/n2 (n == 0: worse than everything).
LB_HD bool depth_cost_less(std::uint64_t s1, std::uint64_t n1, std::uint64_t s2, std::uint64_t n2) {
  if (n1 == 0) return false;
  if (n2 == 0) return true;
  return s1 * n2 < s2 * n1;
}

// Whether candidate (s, n, P) beats the best so far; ties go to the smaller P. Any visiting
// order of the candidates gives the same winner.
LB_HD bool depth_better(std::uint64_t s, std::uint64_t n, int P, std::uint64_t best_s,
                        std::uint64_t best_n, int best_P) {
  if (depth_cost_less(s, n, best_s, best_n)) return true;
  if (depth_cost_less(best_s, best_n, s, n)) return false;
  return P < best_P;
}

// Reference cost pair (n << 16 | s) of output pixel (x, y) at candidate q (P = pmin + q).
// load(col, row) returns the RGBA8 word of a raw pixel. LIM > 0: L.lim known at compile time
// (the GPU's Original instantiates 1, 2 and 3): the neighbour loops unroll, so the loads of
// one candidate issue together instead of one per branch; the same integers.
template <int LIM = 0, class Load>
LB_HD std::uint32_t depth_cost(const DepthLayout& L, const DepthTables& T, Load load, int x, int y,
                               int q) {
  const int lim = LIM > 0 ? LIM : L.lim;
  const int P = L.pmin + q;
  const int nx = x / L.patch, a = x % L.patch;
  const int ny = y / L.patch, b = y % L.patch;
  const int ap = depth_scaled(a, P, L.patch), bp = depth_scaled(b, P, L.patch);
  const int* cs = T.col_start + q * L.grid_nx;
  const int* rs = T.row_start + q * L.grid_ny;
  const std::uint32_t main = load(sample_coord(cs[nx], ap, 0, P, L.raw_w),
                                  sample_coord(rs[ny], bp, 0, P, L.raw_h));
  std::uint32_t s = 0, n = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int j = -lim; j <= lim; ++j) {
    const int my = ny + j;
    const int y2 = depth_sq(depth_axis(bp, j, P));
    if (my < 0 || my >= L.grid_ny || y2 > L.aperture2) continue;
    const int row = sample_coord(rs[my], bp, j, P, L.raw_h);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = -lim; i <= lim; ++i) {
      const int mx = nx + i;
      if (mx < 0 || mx >= L.grid_nx || (i == 0 && j == 0)) continue;
      if (depth_sq(depth_axis(ap, i, P)) + y2 > L.aperture2) continue;
      s += depth_sad(main, load(sample_coord(cs[mx], ap, i, P, L.raw_w), row));
      ++n;
    }
  }
  return depth_pack(s, n);
}

// ---- The neighbour table: the same cost with the per-sample tests done once ------------
// depth_cost tests, for each of the (2 lim + 1)^2 neighbours, that it lies inside the grid
// and inside the aperture: integer tests that cost more instructions than the sample itself.
// The aperture test depends only on (q, a, b), so the host tabulates it once per layout
// (depth_neighbour_entry, lim <= kDepthTableLim: a 64-bit word per (q, a, b), with the scaled
// offsets a' and b' beside the mask); the grid test depends only on the micro-image (nx, ny)
// (depth_grid_mask, once per pixel). depth_cost_table then loads only the samples whose bit is
// set in their AND, and n is its population count: the same (s, n) as depth_cost.
// Bit of neighbour (i, j): (j + lim) * (2 lim + 1) + (i + lim).
constexpr int kDepthTableLim = 3;  // 7 x 7 = 49 mask bits
LB_HD int depth_bit(int i, int j, int lim) { return (j + lim) * (2 * lim + 1) + (i + lim); }
// Entry of candidate q at output offset (a, b): the aperture mask in bits 0..48 (the main
// micro-image's bit clear), a' in bits 50..55, b' in bits 56..61 (a' < P <= kMaxPatch = 64).
LB_HD std::uint64_t depth_neighbour_entry(const DepthLayout& L, int q, int a, int b) {
  const int P = L.pmin + q;
  const int ap = depth_scaled(a, P, L.patch), bp = depth_scaled(b, P, L.patch);
  std::uint64_t e = static_cast<std::uint64_t>(ap) << 50 | static_cast<std::uint64_t>(bp) << 56;
  for (int j = -L.lim; j <= L.lim; ++j)
    for (int i = -L.lim; i <= L.lim; ++i)
      if ((i != 0 || j != 0) &&
          depth_sq(depth_axis(ap, i, P)) + depth_sq(depth_axis(bp, j, P)) <= L.aperture2)
        e |= std::uint64_t{1} << depth_bit(i, j, L.lim);
  return e;
}
LB_HD int depth_entry_ap(std::uint64_t e) { return static_cast<int>(e >> 50) & 63; }
LB_HD int depth_entry_bp(std::uint64_t e) { return static_cast<int>(e >> 56) & 63; }
// Index of (q, a, b) in the table.
LB_HD int depth_entry_index(const DepthLayout& L, int q, int a, int b) { return (q * L.patch + b) * L.patch + a; }
// The neighbours of micro-image (nx, ny) that exist in the grid (the main one's bit set too:
// the entry clears it).
LB_HD std::uint64_t depth_grid_mask(const DepthLayout& L, int nx, int ny) {
  std::uint64_t cols = 0, m = 0;
  for (int i = -L.lim; i <= L.lim; ++i)
    if (nx + i >= 0 && nx + i < L.grid_nx) cols |= std::uint64_t{1} << (i + L.lim);
  for (int j = -L.lim; j <= L.lim; ++j)
    if (ny + j >= 0 && ny + j < L.grid_ny) m |= cols << ((j + L.lim) * (2 * L.lim + 1));
  return m;
}
template <bool Narrow>
struct DepthMaskWord {
  using type = std::uint64_t;
};
template <>
struct DepthMaskWord<true> {
  using type = std::uint32_t;
};
LB_HD int depth_popcount(std::uint64_t v) {
#if defined(__CUDA_ARCH__)
  return __popcll(v);
#else
  return __builtin_popcountll(v);
#endif
}

// depth_cost of the pixel in micro-image (nx, ny) at candidate q from its table entry and
// grid mask. LIM: L.lim at compile time (1 .. kDepthTableLim). Only the table reads of
// neighbours outside the grid are clamped (their samples are never loaded). Rows without a
// sample are skipped whole.
template <int LIM, class Load>
LB_HD std::uint32_t depth_cost_table(const DepthLayout& L, const DepthTables& T, Load load, int nx, int ny,
                                     std::uint64_t entry, std::uint64_t grid, int q) {
  static_assert(LIM >= 1 && LIM <= kDepthTableLim, "depth_cost_table: 1 <= LIM <= kDepthTableLim");
  constexpr int S = 2 * LIM + 1;
  // 32-bit masks where they fit (lim <= 2): one instruction per bit test on the device.
  using Mask = typename DepthMaskWord<(S * S <= 32)>::type;
  const Mask m = static_cast<Mask>(entry & grid);  // grid has no bit past S * S
  const int P = L.pmin + q;
  const int ap = depth_entry_ap(entry), bp = depth_entry_bp(entry);
  const int* cs = T.col_start + q * L.grid_nx;
  const int* rs = T.row_start + q * L.grid_ny;
  const std::uint32_t main = load(sample_coord(cs[nx], ap, 0, P, L.raw_w), sample_coord(rs[ny], bp, 0, P, L.raw_h));
  int col[S];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int i = -LIM; i <= LIM; ++i)
    col[i + LIM] = sample_coord(cs[clamp_int(nx + i, 0, L.grid_nx - 1)], ap, i, P, L.raw_w);
  std::uint32_t s = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int j = -LIM; j <= LIM; ++j) {
    const Mask row_bits = m >> ((j + LIM) * S);
    if ((row_bits & ((Mask{1} << S) - 1)) == 0) continue;
    const int row = sample_coord(rs[clamp_int(ny + j, 0, L.grid_ny - 1)], bp, j, P, L.raw_h);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 0; i < S; ++i) {
      // An absent sample reads as the main pixel (SAD 0): a predicated load and no branch.
      const std::uint32_t v = ((row_bits >> i) & 1u) ? load(col[i], row) : main;
      s = depth_sad_acc(main, v, s);
    }
  }
  return depth_pack(s, static_cast<std::uint32_t>(depth_popcount(m)));
}

// Window aggregation and argmin at output pixel (x, y). cost(x, y, q) returns the cost pair
// (depth_cost) of a pixel inside the output. Returns the chosen patch size.
template <class Cost>
LB_HD int depth_select(const DepthLayout& L, Cost cost, int x, int y) {
  const int h = L.window / 2;
  const int x0 = depth_imax(x - h, 0), x1 = depth_imin(x + h, L.out_w - 1);
  const int y0 = depth_imax(y - h, 0), y1 = depth_imin(y + h, L.out_h - 1);
  std::uint64_t best_s = 0, best_n = 0;
  int best_P = L.pmin;
  for (int q = 0; q < L.count(); ++q) {
    std::uint64_t s = 0, n = 0;
    for (int yy = y0; yy <= y1; ++yy)
      for (int xx = x0; xx <= x1; ++xx) {
        const std::uint32_t c = cost(xx, yy, q);
        s += depth_pack_sum(c);
        n += depth_pack_count(c);
      }
    if (q == 0 || depth_better(s, n, L.pmin + q, best_s, best_n, best_P)) {
      best_s = s;
      best_n = n;
      best_P = L.pmin + q;
    }
  }
  return best_P;
}

}  // namespace lb
