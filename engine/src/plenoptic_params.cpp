#include "lightbench/plenoptic_params.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "lightbench/error.hpp"

namespace lb {
namespace {
std::string num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}
}  // namespace

const char* to_string(RenderVariant v) {
  switch (v) {
    case RenderVariant::Original: return "original";
    case RenderVariant::Sync: return "sync";
    case RenderVariant::NoSync: return "nosync";
    case RenderVariant::Tiled: return "tiled";
  }
  return "?";
}

RenderVariant parse_render_variant(const std::string& s) {
  std::string l = s;
  std::transform(l.begin(), l.end(), l.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (auto v : all_render_variants())
    if (l == to_string(v)) return v;
  throw Error("unknown render variant '" + s + "' (use original, sync, nosync or tiled)");
}

std::vector<RenderVariant> all_render_variants() {
  return {RenderVariant::Original, RenderVariant::Sync, RenderVariant::NoSync, RenderVariant::Tiled};
}

void validate(const PlenopticGrid& g, int raw_width, int raw_height) {
  LB_REQUIRE(raw_width > 0 && raw_height > 0, "raw image is empty");
  LB_REQUIRE(std::isfinite(g.pitch) && g.pitch >= 2.0 && g.pitch <= 4096.0,
             "pitch D=" + num(g.pitch) + " out of range (2..4096 pixels)");
  LB_REQUIRE(g.nx >= 1 && g.ny >= 1, "grid " + std::to_string(g.nx) + "x" +
                                         std::to_string(g.ny) + " must be at least 1x1");
  LB_REQUIRE(std::isfinite(g.ox) && std::isfinite(g.oy) && g.ox >= 0 && g.oy >= 0,
             "grid offset must be finite and non-negative");
  // Every micro-image must lie inside the raw (half a pixel of slack for rounding).
  const double right = g.ox + g.nx * g.pitch, bottom = g.oy + g.ny * g.pitch;
  LB_REQUIRE(right <= raw_width + 0.5 && bottom <= raw_height + 0.5,
             "grid " + std::to_string(g.nx) + "x" + std::to_string(g.ny) + " of pitch " +
                 num(g.pitch) + " at offset (" + num(g.ox) + "," + num(g.oy) + ") needs " +
                 num(std::ceil(right)) + "x" + num(std::ceil(bottom)) + " pixels, raw is " +
                 std::to_string(raw_width) + "x" + std::to_string(raw_height));
}

void validate(const RenderParams& p, const PlenopticGrid& g) {
  // The ranges are describe()'s for this grid, the one declaration of them (a NaN is refused
  // there too): patch 1..min(kMaxPatch, D), |view| <= D/2, lim 0..kMaxLim, sigma 0.5..max(1, D).
  RenderParams bound = p;
  check_ranges(describe(bound, g));
  // Output must stay a sane texture size.
  const long w = static_cast<long>(g.nx) * p.patch, h = static_cast<long>(g.ny) * p.patch;
  LB_REQUIRE(w <= 32768 && h <= 32768, "output " + std::to_string(w) + "x" + std::to_string(h) +
                                           " too large (max 32768 per side)");
}

std::vector<ParamInfo> describe(RenderParams& p, const PlenopticGrid& g) {
  const double half = g.pitch > 0 ? g.pitch / 2.0 : 1.0;
  const double pmax = std::max(1.0, std::min<double>(kMaxPatch, std::floor(g.pitch)));
  return {
      {"patch", "patch size M", "output patch size: small focuses far, large focuses near",
       ParamInfo::Kind::Int, &p.patch, 1, pmax},
      {"view_x", "perspective x", "weight-map shift sx in raw pixels (parallax)",
       ParamInfo::Kind::Float, &p.view_x, -half, half},
      {"view_y", "perspective y", "weight-map shift sy in raw pixels (parallax)",
       ParamInfo::Kind::Float, &p.view_y, -half, half},
      {"lim", "range limit", "neighbour micro-images used: |i|,|j| <= lim",
       ParamInfo::Kind::Int, &p.lim, 0, kMaxLim},
      {"sigma", "Gaussian sigma", "sigma of the weight map, raw pixels", ParamInfo::Kind::Float,
       &p.sigma, 0.5, std::max(1.0, g.pitch)},
  };
}

}  // namespace lb

namespace lb {
RenderParams default_render_params(const PlenopticGrid& g) {
  RenderParams p;
  p.patch = std::max(1, std::min(11, static_cast<int>(g.pitch)));
  p.lim = 2;
  p.sigma = static_cast<float>(std::max(0.5, g.pitch / 5.0));
  return p;
}
}  // namespace lb
