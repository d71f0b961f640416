#pragma once
// Center-biased local stereo (../shared/specs/stereo-local.md): the arithmetic shared by the
// CPU reference and every CUDA variant (LB_HD), so the disparity maps are identical by
// construction. Everything is integer, hence independent of the summation order:
//
//   cost    c(x, y, d) = min(|dR| + |dG| + |dB|, 3 T)  (= 3 x the spec's truncated mean
//           absolute difference, exactly; gray pairs are expanded to RGB, giving 3 |d|);
//           the matched pixel is x + dir * d clamped to the row (dir -1: left reference,
//           +1: right reference for the left-right check).
//   weights wq(k) = round(64 exp(-k / gamma)), k = 0..r (6-bit fixed point; wq(0) = 64),
//           computed once on the host (double) and handed to every path as integers.
//   streams L/R (horizontal) and UL/DL/UR/DR (vertical) are sums of wq * cost in uint32.
//           Overflow bound: with r <= 32 every weight sum Wsum = sum_k wq(k) <= 64 * 33 =
//           2112, so a vertical stream is <= Wsum^2 * 765 = 3.41e9 < 2^32 for ANY gamma
//           and T <= 255 (this is why the weights have 6 bits, not more).
//   key     the cost of a disparity: min(UL, DL, UR, DR) (uint32). With variable windows
//           the candidates are compared divided by their weight sums, exactly, by scaling
//           each to the common denominator 2 Wsum^2 (2 Wsum - 64) (uint64, < 2^45):
//             quadrant Q               (weight Wsum^2)                 x 2 (2 Wsum - 64)
//             left half UL + DL - 64 L (weight Wsum (2 Wsum - 64))     x 2 Wsum
//             right half UR + DR - 64 R                                x 2 Wsum
//             full = left + right half (weight 2 Wsum (2 Wsum - 64))   x Wsum
//           (the centre row, counted in both quadrants, is removed through L / R; an up /
//           down half would need the centre column's vertical sums, which no stream holds,
//           so only the left / right halves are offered; the full window's normalised cost
//           is the mean of the two halves', so it ties at best and never changes a result).
//   WTA     packed = key << 10 | d; the minimum packed value is the minimum key with ties
//           to the smaller d. Any order of min() (running min over disparity batches,
//           atomicMin across blocks) gives the same result.
#include <cstdint>

#include "lightbench/hd.hpp"

namespace lb::stereo::local {

constexpr int kWeightOne = 64;     // wq(0): the fixed-point scale of the weights
constexpr int kMaxRadius = 32;
constexpr int kDispBits = 10;
constexpr int kMaxDisp = 1 << kDispBits;  // 1024 disparities at most
constexpr int kMaxTruncation = 255;

// Integer parameters of one run (what every kernel receives by value).
struct KernelParams {
  int radius = 12;
  int ndisp = 16;
  unsigned trunc3 = 90;      // 3 T
  unsigned wsum = 0;         // sum_k w[k]
  int variable_windows = 0;  // 0 / 1
  unsigned w[kMaxRadius + 1] = {};
};

LB_HD int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
LB_HD unsigned absdiff(unsigned a, unsigned b) { return a > b ? a - b : b - a; }

// 3 x truncated mean absolute RGB difference.
LB_HD unsigned pixel_cost(unsigned r0, unsigned g0, unsigned b0, unsigned r1, unsigned g1, unsigned b1,
                          unsigned trunc3) {
  const unsigned s = absdiff(r0, r1) + absdiff(g0, g1) + absdiff(b0, b1);
  return s < trunc3 ? s : trunc3;
}

// Column of the matched pixel in the other image.
LB_HD int match_x(int x, int d, int dir, int width) { return clampi(x + dir * d, 0, width - 1); }

LB_HD unsigned min4(unsigned a, unsigned b, unsigned c, unsigned d) {
  const unsigned ab = a < b ? a : b, cd = c < d ? c : d;
  return ab < cd ? ab : cd;
}

// Cost of one disparity from the four quadrant streams and the horizontal streams at the
// pixel itself (l, r: only used with variable windows).
LB_HD std::uint64_t window_key(unsigned ul, unsigned dl, unsigned ur, unsigned dr, unsigned l, unsigned r,
                               int variable, unsigned wsum) {
  const unsigned q = min4(ul, dl, ur, dr);
  if (!variable) return q;
  const std::uint64_t W = wsum;
  const std::uint64_t one = static_cast<std::uint64_t>(kWeightOne);
  const std::uint64_t left = static_cast<std::uint64_t>(ul) + dl - one * l;
  const std::uint64_t right = static_cast<std::uint64_t>(ur) + dr - one * r;
  std::uint64_t k = static_cast<std::uint64_t>(q) * (2 * (2 * W - one));
  const std::uint64_t kl = left * (2 * W), kr = right * (2 * W), kf = (left + right) * W;
  k = kl < k ? kl : k;
  k = kr < k ? kr : k;
  k = kf < k ? kf : k;
  return k;
}

LB_HD std::uint64_t pack(std::uint64_t key, int d) { return (key << kDispBits) | static_cast<std::uint64_t>(d); }
LB_HD int packed_disparity(std::uint64_t packed) { return static_cast<int>(packed & (kMaxDisp - 1)); }
LB_HD std::uint64_t min_packed(std::uint64_t a, std::uint64_t b) { return a < b ? a : b; }
constexpr std::uint64_t kNoPacked = ~static_cast<std::uint64_t>(0);

// Left-right check: the left disparity dl at x is kept when the right image's disparity at
// x - dl agrees within 1 (x - dl outside the image: invalid).
LB_HD bool lr_consistent(const int* dl_row, const int* dr_row, int x) {
  const int d = dl_row[x];
  const int xr = x - d;
  if (xr < 0) return false;
  const int e = d - dr_row[xr];
  return e >= -1 && e <= 1;
}

// Disparity after the check: consistent pixels keep theirs; the others take the nearest
// consistent pixel's on the same row (equal distance: the smaller disparity, the
// background; none on the row: 0).
LB_HD int lr_fill(const int* dl_row, const int* dr_row, int width, int x) {
  if (lr_consistent(dl_row, dr_row, x)) return dl_row[x];
  for (int k = 1; k < width; ++k) {
    const bool a = x - k >= 0 && lr_consistent(dl_row, dr_row, x - k);
    const bool b = x + k < width && lr_consistent(dl_row, dr_row, x + k);
    if (a && b) return dl_row[x - k] < dl_row[x + k] ? dl_row[x - k] : dl_row[x + k];
    if (a) return dl_row[x - k];
    if (b) return dl_row[x + k];
  }
  return 0;
}

}  // namespace lb::stereo::local
