#pragma once
// Depth cost of the general-grid path (plenoptic-hex), shared by the CPU reference
// (render_hex_cpu.cpp, depth_hex) and the CUDA kernels (kernels/plenoptic_hex/hex_depth.cu): integers and
// once-rounded float operations only (hex_math.hpp), so both compute the same bits.
//
// Per output pixel at scene position s and candidate patch size P:
//  - samples: the main lens (the allowed lens nearest to s whose nearest pixel of s lies in the
//    raw) and its allowed neighbours within the neighbour reach (nbr2_of_patch: rings
//    spacings), each kept when |P (s - l)| lies within the aperture and its nearest pixel in the
//    raw (at most kMaxDepthSamples, main first, then the `nbr` order);
//  - each sample's value is bilinear at the raw position r (weights in 1/16 px per axis, taps
//    clamped into the raw): lens centres off the pixel grid (a hexagonal row, a rotation) no
//    longer shift a pair by up to a pixel, which a one-step change of P also does;
//  - pairs: every two samples no farther apart than the neighbour reach (with rings 1: the
//    main with its six neighbours and the neighbours with their ring neighbours, 12 pairs);
//  - multi-focus (issue 22, goal b): each lens type has a blur level at P from its
//    virtual-depth range (blur_of_patch: 0 when the range holds D / P, 1 within
//    kBlurNearRange of it, 2 beyond). A pair of equal levels compares the values; a pair of
//    unequal levels compares the sharper sample blurred by the 5-tap plus kernel (4 at the
//    centre, 1 at the four pixel neighbours, / 8: the blurrier lens's defocus, roughly) with the
//    blurrier sample. The pair counts (16 >> 2 la) (16 >> 2 lb) (256 for two sharp lenses, 1
//    for two far ones): sharp pairs decide where they exist;
//  - each pair's difference (summed over R, G, B) is capped at `truncate` levels (pair_cap;
//    0: no cap): a pair that sees an occluder at the true depth costs no more than a bad
//    match, so the background next to a nearer object is not pulled to its depth.
// The cost is the weighted mean absolute RGB difference in 1/256 units (the previous SAD's
// units): (sum + 4 n) / (8 n), sum over pairs of w * (8 x) the difference in 1/256 units, n
// the sum of the weights; kNoCost without a pair.
#include <cstdint>

#include "plenoptic_hex/hex_math.hpp"

namespace lb::hex {

// Main + neighbours per candidate: rings 4 holds at most 61 lenses on a hexagonal grid (49 on a
// square one), so the cap is never reached; the loop stops at it all the same.
constexpr int kMaxDepthSamples = 64;
constexpr int kSubPixel = 16;         // bilinear weights per axis
constexpr double kBlurNearRange = 1.0;  // virtual-depth units: blur level 1 up to this far from a range
constexpr int kMaxTruncate = 765;       // 3 x 255: a cap there never bites
constexpr std::uint32_t kNoCap = 0xFFFFFFFFu;

// A pair's difference cap in depth_cost's units (8 x 256 per RGB level); 0: none.
LB_HD std::uint32_t pair_cap(int truncate) {
  return truncate <= 0 ? kNoCap : static_cast<std::uint32_t>(truncate) * 2048u;
}

// Blur level (0, 1, 2) of lens type t at patch size P.
LB_HD std::uint32_t blur_level(const HexTables& T, int P, int t) { return (T.blur_of_patch[P] >> (2 * t)) & 3u; }
// A sample's weight by its blur level: 16, 4, 1.
LB_HD std::uint32_t level_weight(std::uint32_t level) { return 16u >> (2u * level); }

LB_HD int clamp_to(int v, int hi) { return v < 0 ? 0 : (v > hi ? hi : v); }
LB_HD std::uint32_t abs_diff(std::uint32_t a, std::uint32_t b) { return a > b ? a - b : b - a; }

struct DepthSample {
  float lx, ly;          // lens position (lens units)
  int x0, y0;            // floor of the raw position
  int fx, fy;            // its fraction in 1/kSubPixel
  std::uint32_t level;   // blur level of the lens type at P
  std::uint32_t c[3];    // bilinear RGB, x 256
  std::uint32_t b[3];    // plus-blurred bilinear RGB, x 2048 (only when a blurrier sample shares the set)
};

// Raw pixel (x0 + dx, y0 + dy), clamped into the raw: the one place depth reads a pixel whose
// own position was not bounds-checked, for both fetchers (RgbaFetch, HexRawFetch, HexMarkFetch).
template <class Fetch>
LB_HD void fetch_clamped(const HexLayout& L, Fetch& fetch, int x, int y, std::uint32_t px[3]) {
  fetch(clamp_to(x, L.raw_w - 1), clamp_to(y, L.raw_h - 1), px);
}

// Bilinear value (x 256) of the 2 x 2 pixels p00 (top left), p10, p01, p11 with fractions
// fx, fy (1/16).
LB_HD void bilinear(const std::uint32_t p00[3], const std::uint32_t p10[3], const std::uint32_t p01[3],
                    const std::uint32_t p11[3], int fx, int fy, std::uint32_t out[3]) {
  const std::uint32_t gx = static_cast<std::uint32_t>(kSubPixel - fx), gy = static_cast<std::uint32_t>(kSubPixel - fy);
  const std::uint32_t ux = static_cast<std::uint32_t>(fx), uy = static_cast<std::uint32_t>(fy);
  for (int c = 0; c < 3; ++c) out[c] = gy * (gx * p00[c] + ux * p10[c]) + uy * (gx * p01[c] + ux * p11[c]);
}

// The sample's bilinear value; with `blur` also the plus-blurred one (4 x centre + the bilinears
// one pixel left, right, up and down: the 4 x 4 pixels around r without their corners, 12 reads
// instead of 4).
template <class Fetch>
LB_HD void sample_values(const HexLayout& L, Fetch& fetch, bool blur, DepthSample* d) {
  if (!blur) {
    std::uint32_t p00[3], p10[3], p01[3], p11[3];
    fetch_clamped(L, fetch, d->x0, d->y0, p00);
    fetch_clamped(L, fetch, d->x0 + 1, d->y0, p10);
    fetch_clamped(L, fetch, d->x0, d->y0 + 1, p01);
    fetch_clamped(L, fetch, d->x0 + 1, d->y0 + 1, p11);
    bilinear(p00, p10, p01, p11, d->fx, d->fy, d->c);
    return;
  }
  std::uint32_t q[4][4][3];  // rows y0 - 1 .. y0 + 2, columns x0 - 1 .. x0 + 2
  for (int r = 0; r < 4; ++r)
    for (int k = 0; k < 4; ++k)
      if ((r == 0 || r == 3) && (k == 0 || k == 3)) q[r][k][0] = q[r][k][1] = q[r][k][2] = 0;  // unused corner
      else fetch_clamped(L, fetch, d->x0 - 1 + k, d->y0 - 1 + r, q[r][k]);
  std::uint32_t w[3], e[3], n[3], so[3];
  bilinear(q[1][1], q[1][2], q[2][1], q[2][2], d->fx, d->fy, d->c);
  bilinear(q[1][0], q[1][1], q[2][0], q[2][1], d->fx, d->fy, w);
  bilinear(q[1][2], q[1][3], q[2][2], q[2][3], d->fx, d->fy, e);
  bilinear(q[0][1], q[0][2], q[1][1], q[1][2], d->fx, d->fy, n);
  bilinear(q[2][1], q[2][2], q[3][1], q[3][2], d->fx, d->fy, so);
  for (int c = 0; c < 3; ++c) d->b[c] = 4u * d->c[c] + w[c] + e[c] + n[c] + so[c];
}

// Fills a sample of lens l (position lx, ly, type level) for s at P; false outside the aperture or
// the raw (the nearest pixel of r must lie in the raw, as render's samples).
LB_HD bool depth_sample(const HexLayout& L, float fP, float sx, float sy, float lx, float ly, float aperture2,
                        std::uint32_t level, DepthSample* out) {
  if (norm2(rnd::mul(fP, rnd::sub(sx, lx)), rnd::mul(fP, rnd::sub(sy, ly))) > aperture2) return false;
  float rx, ry;
  raw_position(L, fP, sx, sy, lx, ly, &rx, &ry);
  const int X = round_half_up(rx), Y = round_half_up(ry);
  if (X < 0 || Y < 0 || X >= L.raw_w || Y >= L.raw_h) return false;
  const float x0 = floorf(rx), y0 = floorf(ry);
  out->lx = lx;
  out->ly = ly;
  out->x0 = static_cast<int>(x0);
  out->y0 = static_cast<int>(y0);
  // rx - floor(rx) is exact; x 16 is exact; one rounding in the add. 0..16.
  out->fx = static_cast<int>(floorf(rnd::add(rnd::mul(rnd::sub(rx, x0), static_cast<float>(kSubPixel)), 0.5f)));
  out->fy = static_cast<int>(floorf(rnd::add(rnd::mul(rnd::sub(ry, y0), static_cast<float>(kSubPixel)), 0.5f)));
  out->level = level;
  return true;
}

// Depth cost at candidate patch size P of the pixel at s (the file's comment). MaxS: the
// sample array's size; a launch may pick a smaller one when 1 + L.n_nbr fits it (the cap then
// never binds: the same cost), so the GPU keeps 8 samples instead of 64 in local memory.
template <int MaxS = kMaxDepthSamples, class Fetch>
LB_HD std::uint32_t depth_cost(const HexLayout& L, const HexTables& T, float sx, float sy, int P, float aperture2,
                               std::uint32_t cap, Fetch fetch) {
  const std::uint32_t mask = T.mask_of_patch[P];
  const float fP = static_cast<float>(P);
  int ri, rj;
  lattice_round(L, sx, sy, &ri, &rj);
  // The main lens: the nearest allowed one whose nearest pixel of s lies in the raw (ties: the
  // first in the `near` order).
  int mi = 0, mj = 0, mt = 0;
  float best = 3.0e38f;
  for (int k = 0; k < L.n_near; ++k) {
    const int i = ri + T.near[k].di, j = rj + T.near[k].dj;
    const int t = lens_type(L, T, i, j);
    if (t == kNoLens || !((mask >> t) & 1u)) continue;
    float lx, ly;
    lens_position(L, i, j, &lx, &ly);
    const float d2 = norm2(rnd::sub(sx, lx), rnd::sub(sy, ly));
    int X, Y;
    if (d2 < best && raw_pixel(L, fP, sx, sy, lx, ly, &X, &Y)) {
      best = d2;
      mi = i;
      mj = j;
      mt = t;
    }
  }
  if (!(best < 3.0e38f)) return kNoCost;
  static_assert(MaxS >= 2 && MaxS <= kMaxDepthSamples, "sample array size");
  DepthSample S[MaxS];
  int ns = 0;
  float mx, my;
  lens_position(L, mi, mj, &mx, &my);
  if (!depth_sample(L, fP, sx, sy, mx, my, aperture2, blur_level(T, P, mt), &S[0])) return kNoCost;
  ns = 1;
  const float nbr2 = T.nbr2_of_patch[P];
  std::uint32_t top = S[0].level;  // the blurriest level present
  for (int k = 0; k < L.n_nbr && ns < MaxS; ++k) {
    const int i = mi + T.nbr[k].di, j = mj + T.nbr[k].dj;
    const int t = lens_type(L, T, i, j);
    if (t == kNoLens || !((mask >> t) & 1u)) continue;
    float lx, ly;
    lens_position(L, i, j, &lx, &ly);
    if (norm2(rnd::sub(lx, mx), rnd::sub(ly, my)) > nbr2) continue;
    if (!depth_sample(L, fP, sx, sy, lx, ly, aperture2, blur_level(T, P, t), &S[ns])) continue;
    top = S[ns].level > top ? S[ns].level : top;
    ++ns;
  }
  if (ns < 2) return kNoCost;
  // Values: bilinear; a sample sharper than some other also its plus-blurred value.
  for (int k = 0; k < ns; ++k) sample_values(L, fetch, S[k].level < top, &S[k]);
  std::uint64_t sum = 0, wsum = 0;
  for (int a = 0; a < ns; ++a)
    for (int b = a + 1; b < ns; ++b) {
      const DepthSample &A = S[a], &B = S[b];
      if (a > 0 && norm2(rnd::sub(A.lx, B.lx), rnd::sub(A.ly, B.ly)) > nbr2) continue;
      std::uint32_t diff = 0;
      if (A.level == B.level) {
        for (int c = 0; c < 3; ++c) diff += 8u * abs_diff(A.c[c], B.c[c]);
      } else {
        const DepthSample& sharp = A.level < B.level ? A : B;
        const DepthSample& soft = A.level < B.level ? B : A;
        for (int c = 0; c < 3; ++c) diff += abs_diff(sharp.b[c], 8u * soft.c[c]);
      }
      diff = diff < cap ? diff : cap;
      const std::uint32_t w = level_weight(A.level) * level_weight(B.level);
      sum += static_cast<std::uint64_t>(w) * diff;
      wsum += w;
    }
  if (wsum == 0) return kNoCost;
  return static_cast<std::uint32_t>((sum + 4u * wsum) / (8u * wsum));
}

}  // namespace lb::hex
