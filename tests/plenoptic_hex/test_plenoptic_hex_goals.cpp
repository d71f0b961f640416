// Issue 22's goals for the general-grid path, measured on the synthetic hexagonal scene
// (hex-small: D = 24, three lens types, defocus 1.5) against the rectangular generator's
// scene at the same lens pitch with the same planes, rendered and scored by the seed's
// rectangular path. The figures are printed (MESSAGE) and reported in docs/DESIGN.md.
//   (a) in-focus render PSNR against the generator's sharp truth: within 1 dB or better;
//   (b) depth (exact %, MAE: depth's report): at least as good, at window 1 and 3.
#include <doctest/doctest.h>

#include <cmath>

#include "lightbench/generator.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"

using namespace lb;

namespace {

constexpr int kM = 8;  // the truth's patch size: the rectangle's plane is in focus
const PlenopticGrid kRect{15, 12, 24.0, 0.8, 1.2};  // 360 x 288: hex-small's pitch and extent

// PSNR over pixels `border` from the edges; with `truth`, only those whose 7 x 7
// neighbourhood is all `plane` (the in-focus plane's inside, away from occlusion edges).
double psnr_inside(const ImageU8& a, const ImageU8& b, int border, const ImageF* truth = nullptr, float plane = 0) {
  REQUIRE(a.width == b.width);
  REQUIRE(a.height == b.height);
  double se = 0;
  long n = 0;
  for (int y = border; y < a.height - border; ++y)
    for (int x = border; x < a.width - border; ++x) {
      bool inside = true;
      for (int dy = -3; truth && inside && dy <= 3; ++dy)
        for (int dx = -3; inside && dx <= 3; ++dx) inside = truth->at(x + dx, y + dy) == plane;
      if (!inside) continue;
      for (int c = 0; c < 3; ++c) {
        const double d = double(a.at(x, y, c)) - b.at(x, y, c);
        se += d * d;
        ++n;
      }
    }
  REQUIRE(n > 1000);
  return 10.0 * std::log10(255.0 * 255.0 / (se / n));
}

struct Pair {
  HexScene hex;
  GeneratedScene rect;
  ImageU8 rect_sharp;  // the rectangular scene's sharp truth at M (the generators share textures)
};

// hex-small, or its rectangle's plane alone, with the given defocus; and the same planes
// through the rectangular grid.
Pair scenes(bool single_plane, double defocus) {
  HexGeneratorParams h = hex_generator_preset("hex-small");
  h.defocus = defocus;
  if (single_plane) {
    h.planes.resize(1);
    h.planes[0].patch = kM;
  }
  Pair p;
  p.hex = generate_hex_scene(h);
  GeneratorParams r;
  r.grid = kRect;
  r.planes = h.planes;
  r.seed = h.seed;
  r.supersample = h.supersample;
  r.vignette_start = h.vignette_start;
  r.preview_patch = kM;
  p.rect = generate_scene(r);
  // The hexagonal generator on the rectangular grid's geometry has the same scene model and
  // textures, and frame s0 = 0: its `sharp` is the rectangular scene's appearance truth.
  HexGeneratorParams hr = h;
  hr.mla = to_mla_geometry(kRect);
  hr.width = p.rect.raw.width;
  hr.height = p.rect.raw.height;
  hr.defocus = 0;
  const HexScene s = generate_hex_scene(hr);
  REQUIRE(s.frame.s0.x == 0.0);
  REQUIRE(s.frame.s0.y == 0.0);
  REQUIRE(s.truth.data == p.rect.truth.data);
  p.rect_sharp = s.sharp;
  return p;
}

ImageU8 render_rect(const GeneratedScene& s, float sigma) {
  RenderParams r = default_render_params(kRect);
  r.patch = kM;
  if (sigma > 0) r.sigma = sigma;
  return to_rgb(render_cpu(to_rgba(s.raw), build_render_tables(kRect, r, s.raw.width, s.raw.height)));
}

ImageU8 render_hex(const HexScene& s, int lens_types, float sigma) {
  HexRenderParams p = default_hex_params(s.params.mla).render;
  p.patch = kM;
  if (lens_types >= 0) p.lens_types = lens_types;
  if (sigma > 0) p.sigma = sigma;
  return render_hex_cpu(s.raw, MlaLayout(s.params.mla), p);
}

}  // namespace

TEST_CASE("goal (a): in-focus render PSNR, hexagonal vs rectangular at equal pitch") {
  const float same_sigma = static_cast<float>(24.0 / 7.0);  // the hexagonal default
  for (const double defocus : {1.5, 0.0}) {
    CAPTURE(defocus);
    // One plane at the focus: the whole frame is in focus.
    const Pair one = scenes(true, defocus);
    const double rect_default = psnr_inside(render_rect(one.rect, 0), one.rect_sharp, kM);
    const double rect_same = psnr_inside(render_rect(one.rect, same_sigma), one.rect_sharp, kM);
    const double hex_default = psnr_inside(render_hex(one.hex, -1, 0), one.hex.sharp, kM);
    const double hex_in_focus = psnr_inside(render_hex(one.hex, kLensTypesInFocus, 0), one.hex.sharp, kM);
    MESSAGE("one plane at P = M = 8, defocus " << defocus << ": rectangular " << rect_default
                                               << " dB at its defaults (sigma D/5), " << rect_same
                                               << " dB at sigma D/7; hexagonal " << hex_default
                                               << " dB at its defaults (all lens types), " << hex_in_focus
                                               << " dB with lens_types in focus");
    CHECK(hex_default >= rect_default - 1.0);  // each at its defaults: better
    CHECK(hex_in_focus >= rect_same - 1.0);    // the same sigma, multi-focus switch on
    if (defocus == 0.0) CHECK(hex_default >= rect_same - 1.0);  // one sharp type: all lenses
    else CHECK(hex_in_focus > hex_default + 0.5);  // blurred type-2 lenses cost about 1 dB
    // hex-small's planes: the rectangle's inside (P = 8) at M = 8.
    const Pair three = scenes(false, defocus);
    const double r3 = psnr_inside(render_rect(three.rect, same_sigma), three.rect_sharp, kM, &three.rect.truth, 8.0f);
    const double h3 = psnr_inside(render_hex(three.hex, kLensTypesInFocus, 0), three.hex.sharp, kM, &three.hex.truth, 8.0f);
    const double h3all = psnr_inside(render_hex(three.hex, -1, 0), three.hex.sharp, kM, &three.hex.truth, 8.0f);
    MESSAGE("hex-small's planes, the P = 8 rectangle: rectangular " << r3 << " dB (sigma D/7), hexagonal " << h3all
                                                                    << " dB (all), " << h3 << " dB (in focus)");
    CHECK(h3 >= r3 - 1.0);
    CHECK(h3 > 35.0);
  }
}

TEST_CASE("goal (b): depth on the hexagonal scene vs the rectangular path at equal pitch") {
  // The same candidates for both (hex-small's planes are at 6, 8 and 11); everything else at
  // each path's defaults (window 1, aperture 0.8; rectangular lim 2, hexagonal rings 1).
  auto rect_depth = [](const GeneratedScene& s, int window) {
    DepthParams d = default_depth_params(kRect);
    d.patch = kM;
    d.pmin = 5;
    d.pmax = 13;
    d.window = window;
    const ImageU8 raw = to_rgba(s.raw);
    return score_depth(depth_cpu(raw, build_depth_tables(kRect, d, raw.width, raw.height)), s.truth);
  };
  auto hex_depth = [](const HexScene& s, int window, int lens_types) {
    HexDepthParams d = default_hex_params(s.params.mla).depth;
    d.patch = kM;
    d.pmin = 5;
    d.pmax = 13;
    d.window = window;
    d.lens_types = lens_types;
    const ImageU8 raw = to_rgba(s.raw);
    const HexTablesHost t = build_hex_tables(MlaLayout(s.params.mla), raw.width, raw.height, kM, d.rings, lens_types);
    return score_hex_depth(depth_hex(raw, t, d), s.truth);
  };
  const Pair multi = scenes(false, 1.5), lattice = scenes(false, 0.0);
  const DepthScore r1 = rect_depth(multi.rect, 1), r3 = rect_depth(multi.rect, 3);
  const DepthScore h1 = hex_depth(multi.hex, 1, kLensTypesAll), h3 = hex_depth(multi.hex, 3, kLensTypesAll);
  const DepthScore hf = hex_depth(multi.hex, 1, kLensTypesInFocus);
  const DepthScore l1 = hex_depth(lattice.hex, 1, kLensTypesAll), l3 = hex_depth(lattice.hex, 3, kLensTypesAll);
  MESSAGE("depth 5..13, exact % / MAE: rectangular " << r1.exact_pct << " / " << r1.mae << " (window 3: "
                                                     << r3.exact_pct << " / " << r3.mae << ")");
  MESSAGE("hex-small (multi-focus, defocus 1.5): all types " << h1.exact_pct << " / " << h1.mae << " (window 3: "
                                                             << h3.exact_pct << " / " << h3.mae << "), in focus "
                                                             << hf.exact_pct << " / " << hf.mae);
  MESSAGE("hex-small without defocus (the lattice alone): " << l1.exact_pct << " / " << l1.mae << " (window 3: "
                                                            << l3.exact_pct << " / " << l3.mae << ")");
  CHECK(h1.pixels == static_cast<std::uint64_t>(multi.hex.truth.width) * multi.hex.truth.height);
  // The goal, at window 1 and 3 (measured, docs/DESIGN.md: hexagonal 96.5 % / 0.072, window 3
  // 98.5 % / 0.039; rectangular 94.2 % / 0.137, window 3 95.9 % / 0.118).
  CHECK(h1.exact_pct >= r1.exact_pct);
  CHECK(h1.mae <= r1.mae);
  CHECK(h3.exact_pct >= r3.exact_pct);
  CHECK(h3.mae <= r3.mae);
  CHECK(h1.exact_pct > 96.0);
  CHECK(h1.mae < 0.08);
  CHECK(h3.exact_pct > 98.0);
  CHECK(h3.mae < 0.045);
  // The lattice alone (measured 97.2 % / 0.058, window 3 98.9 % / 0.032): better than the
  // rectangular path at both windows.
  CHECK(l1.exact_pct >= r1.exact_pct);
  CHECK(l1.mae <= r1.mae);
  CHECK(l3.exact_pct >= r3.exact_pct);
  CHECK(l3.mae <= r3.mae);
  // in focus loses the near plane (one type, sqrt 3 D apart; measured 90.1 % / 0.38).
  CHECK(hf.mae > h1.mae);
}
