// The general-grid depth cost by hand (hex_depth_math.hpp): the per-type blur levels from the
// virtual-depth ranges, the bilinear and plus-blurred sample values (a sharp texture blurred
// by the plus kernel matches its blurred copy exactly, where the plain values differ), the
// clamped reads, and one whole cost (pair set, weights, units, the pair cap) on a raw of flat
// lenses.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "plenoptic_hex/hex_depth_math.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "hex_test_geometry.hpp"

using namespace lb;

namespace {

// Reads an RGBA raw and counts the reads.
struct CountingFetch {
  const ImageU8* raw;
  int* reads;
  void operator()(int X, int Y, std::uint32_t px[3]) const {
    REQUIRE(X >= 0);
    REQUIRE(Y >= 0);
    REQUIRE(X < raw->width);
    REQUIRE(Y < raw->height);
    ++*reads;
    for (int c = 0; c < 3; ++c) px[c] = raw->at(X, Y, c);
  }
};

}  // namespace

TEST_CASE("hex depth cost: blur levels per lens type from the virtual-depth ranges") {
  const MlaGeometry g = lb::test::r42_like();
  // P = 11: v = 2.18; type 0 [1, 3] holds it, type 1 [2.8, 4] is 0.62 away, type 2 [3.8, ..) 1.62.
  CHECK(hex_blur_levels(g, 11) == (0u | 1u << 2 | 2u << 4));
  // P = 8: v = 3; types 0 and 1 hold it, type 2 is 0.8 away.
  CHECK(hex_blur_levels(g, 8) == (1u << 4));
  // P = 6: v = 4; type 0 is 1.0 away (level 1 includes kBlurNearRange), types 1 and 2 hold it.
  CHECK(hex_blur_levels(g, 6) == 1u);
  // P = 24: v = 1; types 1 and 2 are 1.8 and 2.8 away.
  CHECK(hex_blur_levels(g, 24) == (2u << 2 | 2u << 4));
  MlaGeometry open = g;
  open.types[2].depth_min = open.types[2].depth_max = 0.0;  // no range given: sharp everywhere
  CHECK(hex_blur_levels(open, 24) == (2u << 2));
  CHECK(hex_blur_levels(to_mla_geometry(PlenopticGrid{4, 4, 20.0, 0.0, 0.0}), 9) == 0u);
  // The tables carry them per patch size, and depth reads them there.
  const HexTablesHost t = build_hex_tables(MlaLayout(g), 360, 300, 8, 1, kLensTypesAll);
  REQUIRE(t.blur_of_patch.size() == static_cast<std::size_t>(hex::kMaxPatchIndex + 1));
  CHECK(t.blur_of_patch[11] == hex_blur_levels(g, 11));
  const hex::HexTables T = t.view();
  CHECK(hex::blur_level(T, 11, 0) == 0u);
  CHECK(hex::blur_level(T, 11, 1) == 1u);
  CHECK(hex::blur_level(T, 11, 2) == 2u);
  CHECK(hex::level_weight(0) * hex::level_weight(0) == 256u);
  CHECK(hex::level_weight(0) * hex::level_weight(2) == 16u);
}

TEST_CASE("hex depth cost: bilinear and plus-blurred samples by hand; a blurred copy matches") {
  // Left half: a sharp impulse (R 8, G 16) at (2, 2). Right half: its plus-blurred copy
  // ((4 x centre + 4 neighbours) / 8: 4 at (8, 2), 1 around; G twice that).
  ImageU8 raw(12, 6, 4, 0);
  raw.at(2, 2, 0) = 8;
  raw.at(2, 2, 1) = 16;
  raw.at(8, 2, 0) = 4;
  raw.at(8, 2, 1) = 8;
  for (const auto& [x, y] : {std::pair{7, 2}, {9, 2}, {8, 1}, {8, 3}}) {
    raw.at(x, y, 0) = 1;
    raw.at(x, y, 1) = 2;
  }
  raw.at(0, 0, 0) = 7;
  hex::HexLayout L{};
  L.raw_w = raw.width;
  L.raw_h = raw.height;
  int reads = 0;
  CountingFetch fetch{&raw, &reads};

  hex::DepthSample a{};
  a.x0 = 2;
  a.y0 = 2;
  hex::sample_values(L, fetch, true, &a);
  CHECK(reads == 12);  // the 4 x 4 block without its corners
  CHECK(a.c[0] == 256u * 8u);
  CHECK(a.b[0] == 4u * 256u * 8u);  // the neighbours' bilinears see nothing
  a.fx = 8;                         // half a pixel right: the impulse shared with the left tap
  hex::sample_values(L, fetch, true, &a);
  CHECK(a.c[0] == 16u * 8u * 8u);        // (16 - 8) x 16 x 8
  CHECK(a.b[0] == 4u * 1024u + 1024u);   // 4 x centre + the left bilinear (pixels 1 and 2)
  reads = 0;
  hex::sample_values(L, fetch, false, &a);
  CHECK(reads == 4);
  CHECK(a.c[0] == 1024u);

  // At every fraction the sharp sample's plus blur equals 8 x its blurred copy's value.
  for (const int fx : {0, 5, 8, 16})
    for (const int fy : {0, 3, 8, 11}) {
      CAPTURE(fx);
      CAPTURE(fy);
      hex::DepthSample s{}, b{};
      s.x0 = 2;
      s.y0 = 2;
      b.x0 = 8;
      b.y0 = 2;
      s.fx = b.fx = fx;
      s.fy = b.fy = fy;
      hex::sample_values(L, fetch, true, &s);
      hex::sample_values(L, fetch, false, &b);
      for (int c = 0; c < 2; ++c) {
        CHECK(s.b[c] == 8u * b.c[c]);
        CHECK(s.c[c] != b.c[c]);  // the plain values differ
      }
    }

  // Reads outside the raw are clamped onto its edge.
  hex::DepthSample e{};
  e.x0 = -1;
  e.y0 = -1;
  e.fx = 5;
  e.fy = 9;
  hex::sample_values(L, fetch, true, &e);
  // Taps (-1, -1), (0, -1), (-1, 0), (0, 0) all read (0, 0).
  CHECK(e.c[0] == 256u * 7u);
  CHECK(e.b[0] == 4u * 256u * 7u + (11u * 16u * 7u) + 256u * 7u + (16u * 7u * 7u) + 256u * 7u);
}

TEST_CASE("hex depth cost: one whole cost by hand on flat lenses (pairs, weights, units)") {
  // Every lens flat in its type's grey: 100, 110, 130. At s = the centre of a type-0 lens and
  // P = 8 (aperture 0.8: 9.6 px), the main lens and its six neighbours (8 px from their
  // centres, their 4 x 4 blocks inside their cells) give 12 pairs within one spacing:
  // main-type 1 (levels 0 / 0, weight 256, 10 grey levels), main-type 2 (0 / 1, 64, 30), and
  // the ring's type 1-type 2 pairs (0 / 1, 64, 20). Flat lenses: blurring changes nothing.
  const MlaGeometry g = lb::test::r42_like();
  const MlaLayout m(g);
  const std::uint8_t grey[3] = {100, 110, 130};
  ImageU8 raw(360, 300, 4, 255);
  for (int y = 0; y < raw.height; ++y)
    for (int x = 0; x < raw.width; ++x)
      for (int c = 0; c < 3; ++c) raw.at(x, y, c) = grey[m.nearest(x, y).type];
  const HexTablesHost t = build_hex_tables(m, raw.width, raw.height, 8, 1, kLensTypesAll);
  const hex::HexTables T = t.view();
  // A type-0 lens in the middle of the raw.
  const MlaLens mid = m.nearest(180, 150);
  int i = mid.i;
  const int j = mid.j;
  while (m.type(i, j) != 0) ++i;  // one of three along a row
  REQUIRE(i - mid.i < 3);
  int n1 = 0, n2 = 0;
  for (const auto& [di, dj] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}}) {
    n1 += m.type(i + di, j + dj) == 1;
    n2 += m.type(i + di, j + dj) == 2;
  }
  REQUIRE(n1 == 3);
  REQUIRE(n2 == 3);
  const float sx = static_cast<float>(i * g.base_x.x + j * g.base_y.x);
  const float sy = static_cast<float>(i * g.base_x.y + j * g.base_y.y);
  const float ap = static_cast<float>(0.8 * 24.0 / 2.0);
  int reads = 0;
  const std::uint32_t cost = hex::depth_cost(t.layout, T, sx, sy, 8, ap * ap, hex::kNoCap, CountingFetch{&raw, &reads});
  // (3 x 256 x 30 + 3 x 64 x 90 + 6 x 64 x 60) / 1344 RGB levels = 47.14, in 1/256: 12068.57.
  CHECK(cost == 12069u);
  // The main lens and the three type-1 lenses are sharper than the type-2 ones: 4 x 12 + 3 x 4.
  CHECK(reads == 60);
  // Each pair capped at 40 RGB levels (truncate): 30, 40, 40. (3 x 256 x 30 + 9 x 64 x 40) / 1344
  // = 34.29 levels, 8777.14 in 1/256.
  CHECK(hex::pair_cap(0) == hex::kNoCap);
  CHECK(hex::pair_cap(40) == 40u * 8u * 256u);
  CHECK(hex::depth_cost(t.layout, T, sx, sy, 8, ap * ap, hex::pair_cap(40), CountingFetch{&raw, &reads}) == 8777u);
  CHECK(hex::depth_cost(t.layout, T, sx, sy, 8, ap * ap, hex::pair_cap(765), CountingFetch{&raw, &reads}) == cost);
  // One flat grey everywhere: no difference. Outside every aperture (P = 8 far off): no pair.
  ImageU8 flat(360, 300, 4, 90);
  CHECK(hex::depth_cost(t.layout, T, sx, sy, 8, ap * ap, hex::kNoCap, CountingFetch{&flat, &reads}) == 0u);
  CHECK(hex::depth_cost(t.layout, T, sx + 0.5f, sy, 8, 1.0f, hex::kNoCap, CountingFetch{&flat, &reads}) ==
        hex::kNoCost);
}
