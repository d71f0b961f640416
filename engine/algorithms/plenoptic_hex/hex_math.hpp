#pragma once
// Per-pixel math of the plenoptic path on any micro-lens grid (plenoptic_hex.hpp: hexagonal,
// rotated, multi-focus), shared by the CPU reference and the CUDA kernels (LB_HD), so both
// compute the same bits. The host builds the tables (hex_tables.hpp); nothing here allocates.
//
// Model (plenoptic_hex.hpp): output pixel (x, y) of the frame at patch M sees the scene
// position s = s0 + ((2x + 1) / 2M - 1/2, (2y + 1) / 2M - 1/2) in lens units (grid frame). At
// patch size P, lens L (lattice position l = i base_x + j base_y) shows s at the local offset
// u = P (s - l) pixels from its centre, i.e. at the raw position
//     r = offset + R (P s + (D - P) l)          (R: the grid's rotation, D: the diameter),
// sampled at the nearest pixel floor(r + 0.5) when u lies in the usable circle
// (|u| <= D/2 - lens_border) and the pixel in the raw.
//
// Which lenses (lens_types, the multi-focus switch): every lens, or only the types whose
// virtual-depth range holds v = D / P (the nearest range when none does). The host turns that
// into a type mask per patch size (HexTables::mask_of_patch) and a reach (the disc around s of
// radius rings x the allowed lenses' spacing + 1.05 x their covering radius, so rings = 0 is
// the nearest lens: HexTables::reach2_of_patch).
//
// Exactness: every float operation is rounded once (rounded_math.hpp: no FMA contraction on
// either side); the Gaussian weight is an integer from a host table indexed by the quantised
// t = |u - view|^2 / (2 sigma^2); sums are uint64 integers, so the summation order does not
// matter; outputs are round-half-up integer quotients. Depth costs are integers too
// (hex_depth_math.hpp), so the window aggregation and argmin are exact.
#include <cmath>
#include <cstdint>

#include "lightbench/hd.hpp"
#include "lightbench/rounded_math.hpp"

namespace lb::hex {

constexpr int kWeightBins = 1024;          // t in [0, 16) at 64 bins per unit; beyond: the last
constexpr float kWeightBinsPerUnit = 64.0f;
constexpr std::uint8_t kNoLens = 255;      // type table entry: no lens there
constexpr std::uint32_t kNoCost = 0xFFFFFFFFu;  // a depth cost with no sample pair
constexpr int kMaxPatchIndex = 64;         // tables indexed by patch size 0..64 (kMaxPatch)
// The render walk (for_each_sample) splits each lattice cell into kCellSplit x kCellSplit
// sub-cells, each with its own offset list: the lenses within the reach of some point of that
// sub-cell (about 11 on a hexagonal grid at rings 1 instead of the 19 the whole cell needs).
constexpr int kCellSplit = 8;
constexpr int kCells = kCellSplit * kCellSplit;
// A pixel sums at most as many samples as offsets it walks (<= n_near). Up to this many, the
// sums fit 32 bits with the rounding term: 255 * 65536 * 256 + 2^23 < 2^32 (the GPU's
// 32-bit accumulators give the same integers as the CPU's 64-bit ones).
constexpr int kMaxSamples32 = 256;

struct Offset {
  int di, dj;
};

// Everything but the table contents. Floats: the host rounds its doubles once.
struct HexLayout {
  float ox, oy, diameter;
  float rxx, rxy, ryx, ryy;   // rotation: raw = o + (rxx qx + rxy qy, ryx qx + ryy qy)
  float bxx, bxy, byx, byy;   // lens bases (lens units): l = i (bxx, bxy) + j (byx, byy)
  float ixx, ixy, iyx, iyy;   // inverse basis: lattice (a, b) = (ixx sx + ixy sy, iyx sx + iyy sy)
  float usable2;              // (D/2 - lens_border)^2, px^2
  int i0, j0, ni, nj;         // type table covers lenses i0 <= i < i0 + ni, j0 <= j < j0 + nj
  int raw_w, raw_h;
  float s0x, s0y;             // frame origin (lens units)
  int patch;                  // M of the frame
  int out_w, out_h;
  int n_near;                 // offsets around the rounded lattice position of s
  int n_nbr;                  // depth: neighbour offsets around the main lens
  int n_cell_near;            // entries of the sub-cell offset lists (HexTables::cell_near)
  // > 0: render / all-in-focus walk near[0, near_prefix) (variant "pruned", a prefix that
  // provably holds every lens within the reach); 0: the sub-cell lists. Same sums either way.
  int near_prefix;
  // The mask of every lens type when the type lookup can be skipped for a walk that allows
  // them all (0: never). Sound because a lens outside the type table or marked kNoLens has
  // its centre more than D/2 + 1 px outside the raw while a sample lies within usable <= D/2
  // of its centre (lens_border >= 0): raw_pixel rejects it anyway.
  std::uint32_t all_types;
};

struct HexTables {
  const std::uint8_t* types;          // [nj][ni]: lens type, kNoLens outside the raw's lenses
  const Offset* near;                 // [n_near]: lattice offsets searched around s
  const Offset* nbr;                  // [n_nbr]: depth neighbours of the main lens (no (0, 0))
  const std::uint32_t* weights;       // [kWeightBins]: Gaussian, integers in [1, 65536]
  const std::uint32_t* mask_of_patch; // [kMaxPatchIndex + 1]: allowed lens types at patch P
  const float* reach2_of_patch;       // [kMaxPatchIndex + 1]: squared blend reach at P
  const float* nbr2_of_patch;         // [kMaxPatchIndex + 1]: depth neighbours: (rings spacing)^2 (+ slack)
  const std::uint32_t* cell_start;    // [kCells + 1]: sub-cell c's offsets are cell_near[start[c], start[c + 1])
  const Offset* cell_near;            // [n_cell_near]
  const std::uint32_t* blur_of_patch; // [kMaxPatchIndex + 1]: depth: 2 bits per type, its blur level at P
                                      // (0 sharp, 1 near its range, 2 far: hex_depth_math.hpp)
};

// Scene position of output column x (or row y with s0y).
LB_HD float scene_coord(float s0, int x, int patch) {
  return rnd::sub(rnd::add(s0, rnd::div(static_cast<float>(2 * x + 1), static_cast<float>(2 * patch))), 0.5f);
}

LB_HD int round_half_up(float v) { return static_cast<int>(floorf(rnd::add(v, 0.5f))); }

// The lattice point nearest to s in lattice coordinates (the centre of the offset search).
LB_HD void lattice_round(const HexLayout& L, float sx, float sy, int* ri, int* rj) {
  *ri = round_half_up(rnd::add(rnd::mul(L.ixx, sx), rnd::mul(L.ixy, sy)));
  *rj = round_half_up(rnd::add(rnd::mul(L.iyx, sx), rnd::mul(L.iyy, sy)));
}

LB_HD int lens_type(const HexLayout& L, const HexTables& T, int i, int j) {
  const int a = i - L.i0, b = j - L.j0;
  if (a < 0 || b < 0 || a >= L.ni || b >= L.nj) return kNoLens;
  return T.types[b * L.ni + a];
}

LB_HD void lens_position(const HexLayout& L, int i, int j, float* lx, float* ly) {
  const float fi = static_cast<float>(i), fj = static_cast<float>(j);
  *lx = rnd::add(rnd::mul(fi, L.bxx), rnd::mul(fj, L.byx));
  *ly = rnd::add(rnd::mul(fi, L.bxy), rnd::mul(fj, L.byy));
}

LB_HD float norm2(float x, float y) { return rnd::add(rnd::mul(x, x), rnd::mul(y, y)); }

// Raw position r of scene position s seen through lens l at patch P (raw pixels).
LB_HD void raw_position(const HexLayout& L, float P, float sx, float sy, float lx, float ly, float* rx, float* ry) {
  const float DP = rnd::sub(L.diameter, P);
  const float qx = rnd::add(rnd::mul(P, sx), rnd::mul(DP, lx));
  const float qy = rnd::add(rnd::mul(P, sy), rnd::mul(DP, ly));
  *rx = rnd::add(L.ox, rnd::add(rnd::mul(L.rxx, qx), rnd::mul(L.rxy, qy)));
  *ry = rnd::add(L.oy, rnd::add(rnd::mul(L.ryx, qx), rnd::mul(L.ryy, qy)));
}

// Raw pixel of scene position s seen through lens l at patch P; false outside the raw.
LB_HD bool raw_pixel(const HexLayout& L, float P, float sx, float sy, float lx, float ly, int* X, int* Y) {
  float rx, ry;
  raw_position(L, P, sx, sy, lx, ly, &rx, &ry);
  *X = round_half_up(rx);
  *Y = round_half_up(ry);
  return *X >= 0 && *Y >= 0 && *X < L.raw_w && *Y < L.raw_h;
}

// Gaussian weight of local offset u (px, grid frame) with the weight map shifted by view.
LB_HD std::uint32_t weight(const HexTables& T, float ux, float uy, float view_x, float view_y, float inv2s2) {
  const float t = rnd::mul(norm2(rnd::sub(ux, view_x), rnd::sub(uy, view_y)), inv2s2);
  const float b = rnd::mul(t, kWeightBinsPerUnit);
  const int k = b < static_cast<float>(kWeightBins - 1) ? static_cast<int>(b) : kWeightBins - 1;
  return T.weights[k];
}

// The sub-cell of a lattice coordinate's fraction in [-0.5, 0.5) (clamped: rounding may put
// it a hair outside; the lists are built with a margin).
LB_HD int cell_index(float frac) {
  const int c = static_cast<int>(floorf(rnd::mul(rnd::add(frac, 0.5f), static_cast<float>(kCellSplit))));
  return c < 0 ? 0 : c >= kCellSplit ? kCellSplit - 1 : c;
}

// lattice_round, plus the sub-cell of s within its cell (kCellSplit x kCellSplit, a-major).
LB_HD int lattice_cell(const HexLayout& L, float sx, float sy, int* ri, int* rj) {
  const float a = rnd::add(rnd::mul(L.ixx, sx), rnd::mul(L.ixy, sy));
  const float b = rnd::add(rnd::mul(L.iyx, sx), rnd::mul(L.iyy, sy));
  *ri = round_half_up(a);
  *rj = round_half_up(b);
  return cell_index(rnd::sub(b, static_cast<float>(*rj))) * kCellSplit + cell_index(rnd::sub(a, static_cast<float>(*ri)));
}

// Lens (i, j)'s sample of the output pixel at s at patch P, if it blends one: visit(X, Y, w) when
// the lens exists, its type is in `mask`, it lies within the reach of s, the sample lies in its
// usable circle and in the raw; w is the integer Gaussian weight.
template <class Visit>
LB_HD void lens_sample(const HexLayout& L, const HexTables& T, float sx, float sy, int P, std::uint32_t mask,
                       float reach2, float view_x, float view_y, float inv2s2, bool check_type, int i, int j,
                       Visit& visit) {
  // The reach first: most walked lenses fail it, and it needs no table read.
  float lx, ly;
  lens_position(L, i, j, &lx, &ly);
  const float dx = rnd::sub(sx, lx), dy = rnd::sub(sy, ly);
  if (norm2(dx, dy) > reach2) return;
  if (check_type) {
    const int t = lens_type(L, T, i, j);
    if (t == kNoLens || !((mask >> t) & 1u)) return;
  }
  const float fP = static_cast<float>(P);
  const float ux = rnd::mul(fP, dx), uy = rnd::mul(fP, dy);
  if (norm2(ux, uy) > L.usable2) return;
  int X, Y;
  if (!raw_pixel(L, fP, sx, sy, lx, ly, &X, &Y)) return;
  visit(X, Y, weight(T, ux, uy, view_x, view_y, inv2s2));
}

// Every sample the output pixel at s blends at patch P: lens_sample over the offsets of s's
// sub-cell around its rounded lattice position (or, with L.near_prefix > 0, over that prefix
// of `near`). Both lists hold every lens within the reach; any walk over a superset of those
// lenses visits the same samples, so the sums do not depend on the list.
template <class Visit>
LB_HD void for_each_sample(const HexLayout& L, const HexTables& T, float sx, float sy, int P, float view_x,
                           float view_y, float inv2s2, Visit&& visit) {
  const std::uint32_t mask = T.mask_of_patch[P];
  const float reach2 = T.reach2_of_patch[P];
  const bool check_type = L.all_types == 0u || mask != L.all_types;
  int ri, rj;
  const Offset* list;
  int n;
  if (L.near_prefix > 0) {
    lattice_round(L, sx, sy, &ri, &rj);
    list = T.near;
    n = L.near_prefix;
  } else {
    const int c = lattice_cell(L, sx, sy, &ri, &rj);
    const std::uint32_t b = T.cell_start[c];
    list = T.cell_near + b;
    n = static_cast<int>(T.cell_start[c + 1] - b);
  }
  for (int k = 0; k < n; ++k)
    lens_sample(L, T, sx, sy, P, mask, reach2, view_x, view_y, inv2s2, check_type, ri + list[k].di, rj + list[k].dj,
                visit);
}

// One output pixel at patch P: the weighted sums of its samples. Fetch(X, Y, uint32 rgb[3])
// reads a raw pixel. acc / wsum: integer sums (order-independent); Acc = uint64, or uint32
// when the walk has at most kMaxSamples32 offsets (the same integers, no overflow).
template <class Acc, class Fetch>
LB_HD void render_sums(const HexLayout& L, const HexTables& T, float sx, float sy, int P, float view_x,
                       float view_y, float inv2s2, Fetch fetch, Acc acc[3], Acc* wsum) {
  acc[0] = acc[1] = acc[2] = 0;
  *wsum = 0;
  for_each_sample(L, T, sx, sy, P, view_x, view_y, inv2s2, [&](int X, int Y, std::uint32_t w) {
    std::uint32_t px[3];
    fetch(X, Y, px);
    acc[0] += static_cast<Acc>(w) * px[0];
    acc[1] += static_cast<Acc>(w) * px[1];
    acc[2] += static_cast<Acc>(w) * px[2];
    *wsum += w;
  });
}

// Round-half-up quotient; 0 without a contribution.
template <class Acc>
LB_HD std::uint32_t quotient(Acc sum, Acc wsum) {
  return wsum == 0 ? 0u : static_cast<std::uint32_t>((sum + wsum / 2) / wsum);
}

// The depth cost (hex::depth_cost) is in hex_depth_math.hpp.

}  // namespace lb::hex
