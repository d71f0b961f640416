#include "lightbench/colormap.hpp"
#include "plenoptic/plenoptic_depth.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/parallel.hpp"
#include "plenoptic/render_tables.hpp"

namespace lb {

namespace {

int max_patch_for(const PlenopticGrid& g) {
  return std::max(1, std::min<int>(kMaxPatch, static_cast<int>(std::floor(g.pitch))));
}

// floor(origin + n*D + (D - P)/2 + 0.5) per micro-image column (row): the render tables'
// nearest-pixel rule at patch P, evaluated once in double.
void starts(std::vector<int>& out, int count, double origin, double pitch, int patch) {
  for (int n = 0; n < count; ++n)
    out.push_back(static_cast<int>(std::floor(origin + n * pitch + (pitch - patch) / 2.0 + 0.5)));
}

std::uint32_t load_word(const std::uint8_t* base, std::size_t stride, int col, int row) {
  std::uint32_t v;
  std::memcpy(&v, base + static_cast<std::size_t>(row) * stride + static_cast<std::size_t>(col) * 4, 4);
  return v;
}

}  // namespace

// The ranges are describe()'s, the one declaration (check_ranges); what no range can say (the
// order of pmin and pmax, the candidate count, an odd window, the map's size) is checked here.
void validate(const DepthParams& p, const PlenopticGrid& g) {
  DepthParams q = p;
  check_ranges(describe(q, g));
  LB_REQUIRE(p.pmin <= p.pmax, "pmin " + std::to_string(p.pmin) + " is larger than pmax " +
                                   std::to_string(p.pmax));
  LB_REQUIRE(p.pmax - p.pmin + 1 <= kMaxDepthCandidates,
             "patch-size range " + std::to_string(p.pmin) + ".." + std::to_string(p.pmax) +
                 " too wide (at most " + std::to_string(kMaxDepthCandidates) + " candidates)");
  LB_REQUIRE(p.window % 2 == 1, "window: must be odd, got " + std::to_string(p.window));
  const long w = static_cast<long>(g.nx) * p.patch, h = static_cast<long>(g.ny) * p.patch;
  LB_REQUIRE(w <= 32768 && h <= 32768, "depth map " + std::to_string(w) + "x" + std::to_string(h) +
                                           " too large (max 32768 per side)");
}

int default_truth_patch(const GeneratorParams& params) { return default_depth_params(params.grid).patch; }

DepthParams default_depth_params(const PlenopticGrid& g) {
  DepthParams p;
  const int hi = max_patch_for(g);
  p.patch = std::min(11, hi);
  p.pmax = std::min(14, hi);
  p.pmin = std::max(1, std::min(7, p.pmax));
  return p;
}

std::vector<ParamInfo> describe(DepthParams& p, const PlenopticGrid& g) {
  const double hi = max_patch_for(g);
  return {
      {"patch", "output patch M", "output grid of the depth map: NX*M x NY*M",
       ParamInfo::Kind::Int, &p.patch, 1, hi},
      {"pmin", "min patch size", "smallest candidate patch size (farthest depth)",
       ParamInfo::Kind::Int, &p.pmin, 1, hi},
      {"pmax", "max patch size", "largest candidate patch size (nearest depth); at most " +
                                     std::to_string(kMaxDepthCandidates) + " candidates",
       ParamInfo::Kind::Int, &p.pmax, 1, hi},
      {"lim", "range limit", "neighbour micro-images compared: |i|,|j| <= lim",
       ParamInfo::Kind::Int, &p.lim, 1, kMaxLim},
      {"window", "aggregation window", "k x k box sum of the costs before the argmin (odd, 1: none)",
       ParamInfo::Kind::Int, &p.window, 1, kMaxDepthWindow},
      {"aperture", "aperture", "samples count within aperture * D/2 of their micro-image centre",
       ParamInfo::Kind::Float, &p.aperture, 0.1, 1.5},
  };
}

DepthTablesHost build_depth_tables(const PlenopticGrid& g, const DepthParams& p, int raw_w,
                                   int raw_h) {
  validate(g, raw_w, raw_h);
  validate(p, g);
  DepthTablesHost t;
  // T = floor((aperture * D)^2): X^2 + Y^2 <= T  <=>  |offset| <= aperture * D / 2.
  const double diam = static_cast<double>(p.aperture) * g.pitch;
  const int T = static_cast<int>(std::min(std::floor(diam * diam), 1e9));
  t.layout = DepthLayout{g.nx,  g.ny,  p.patch, p.pmin, p.pmax, p.lim, p.window, T,
                         raw_w, raw_h, depth_width(g, p), depth_height(g, p)};
  for (int P = p.pmin; P <= p.pmax; ++P) {
    starts(t.col_start, g.nx, g.ox, g.pitch, P);
    starts(t.row_start, g.ny, g.oy, g.pitch, P);
  }
  const DepthLayout& L = t.layout;
  if (L.lim <= kDepthTableLim) {
    t.neighbours.resize(static_cast<std::size_t>(L.count()) * L.patch * L.patch);
    for (int q = 0; q < L.count(); ++q)
      for (int b = 0; b < L.patch; ++b)
        for (int a = 0; a < L.patch; ++a)
          t.neighbours[static_cast<std::size_t>(depth_entry_index(L, q, a, b))] = depth_neighbour_entry(L, q, a, b);
  }
  return t;
}

namespace {
// touched[q][c]: whether candidate q reads coordinate c (column or row).
std::vector<std::vector<char>> touched_sets(const std::vector<int>& start, const DepthLayout& L,
                                            int count_grid, int size) {
  std::vector<std::vector<char>> hit(L.count(), std::vector<char>(size, 0));
  for (int q = 0; q < L.count(); ++q) {
    const int P = L.pmin + q;
    const int* s = start.data() + static_cast<std::size_t>(q) * count_grid;
    for (int o = 0; o < count_grid; ++o)
      for (int i = -L.lim; i <= L.lim; ++i) {
        const int m = o + i;
        if (m < 0 || m >= count_grid) continue;
        for (int a = 0; a < L.patch; ++a)
          hit[q][sample_coord(s[m], depth_scaled(a, P, L.patch), i, P, size)] = 1;
      }
  }
  return hit;
}
}  // namespace

std::uint64_t depth_touched_pixels(const DepthTablesHost& t) {
  const DepthLayout& L = t.layout;
  const auto cols = touched_sets(t.col_start, L, L.grid_nx, L.raw_w);
  const auto rows = touched_sets(t.row_start, L, L.grid_ny, L.raw_h);
  // Row r reads the union of the column sets of the candidates that read r.
  std::map<std::uint32_t, std::uint64_t> union_size;
  std::uint64_t total = 0;
  for (int r = 0; r < L.raw_h; ++r) {
    std::uint32_t mask = 0;
    for (int q = 0; q < L.count(); ++q)
      if (rows[q][r]) mask |= 1u << q;
    if (!mask) continue;
    auto it = union_size.find(mask);
    if (it == union_size.end()) {
      std::uint64_t n = 0;
      for (int c = 0; c < L.raw_w; ++c) {
        bool any = false;
        for (int q = 0; q < L.count() && !any; ++q) any = (mask >> q & 1u) && cols[q][c];
        n += any;
      }
      it = union_size.emplace(mask, n).first;
    }
    total += it->second;
  }
  return total;
}

std::uint64_t depth_bytes(const DepthTablesHost& t) {
  return depth_touched_pixels(t) * 4 +
         static_cast<std::uint64_t>(t.layout.out_w) * t.layout.out_h * 4;
}

std::vector<std::uint32_t> depth_costs_cpu(const ImageU8& raw, const DepthTablesHost& t, int threads) {
  LB_REQUIRE(raw.channels == 4, "depth_cpu: raw must be RGBA8");
  const DepthLayout& L = t.layout;
  LB_REQUIRE(raw.width == L.raw_w && raw.height == L.raw_h,
             "depth_cpu: raw size does not match the tables");
  std::vector<std::uint32_t> cost(static_cast<std::size_t>(L.count()) * L.out_w * L.out_h);
  const DepthTables T = t.view();
  const std::uint8_t* base = raw.data.data();
  const std::size_t stride = static_cast<std::size_t>(raw.width) * 4;
  auto load = [base, stride](int col, int row) { return load_word(base, stride, col, row); };
  parallel_for(L.out_h, [&](int y) {
    for (int q = 0; q < L.count(); ++q) {
      std::uint32_t* dst = cost.data() + (static_cast<std::size_t>(q) * L.out_h + y) * L.out_w;
      for (int x = 0; x < L.out_w; ++x) dst[x] = depth_cost(L, T, load, x, y, q);
    }
  }, threads);
  return cost;
}

ImageF depth_cpu(const ImageU8& raw, const DepthTablesHost& t, int threads) {
  const DepthLayout& L = t.layout;
  const std::vector<std::uint32_t> cost = depth_costs_cpu(raw, t, threads);
  ImageF out(L.out_w, L.out_h, 1);
  const std::size_t plane = static_cast<std::size_t>(L.out_w) * L.out_h;
  auto get = [&](int x, int y, int q) {
    return cost[static_cast<std::size_t>(q) * plane + static_cast<std::size_t>(y) * L.out_w + x];
  };
  parallel_for(L.out_h, [&](int y) {
    for (int x = 0; x < L.out_w; ++x) out.at(x, y) = static_cast<float>(depth_select(L, get, x, y));
  }, threads);
  return out;
}

ImageU8 render_all_in_focus(const ImageU8& raw, const PlenopticGrid& grid, const RenderParams& render,
                            const ImageF& depth, int patch, int threads) {
  LB_REQUIRE(raw.channels == 4, "all-in-focus: raw must be RGBA8");
  LB_REQUIRE(patch >= 1 && depth.channels == 1 && depth.width == grid.nx * patch &&
                 depth.height == grid.ny * patch,
             "all-in-focus: depth map size does not match the grid and patch size");
  // One set of render tables per patch size present in the map.
  std::map<int, RenderTablesHost> tables;
  for (float v : depth.data) {
    const int P = static_cast<int>(v);
    LB_REQUIRE(static_cast<float>(P) == v && P >= 1, "all-in-focus: depth map holds a non-patch value");
    if (tables.count(P)) continue;
    RenderParams rp = render;
    rp.patch = P;
    tables.emplace(P, build_render_tables(grid, rp, raw.width, raw.height));
  }
  ImageU8 out(depth.width, depth.height, 4);
  const std::uint8_t* base = raw.data.data();
  const std::size_t stride = static_cast<std::size_t>(raw.width) * 4;
  auto load = [base, stride](int col, int row) { return load_word(base, stride, col, row); };
  parallel_for(out.height, [&](int y) {
    const int ny = y / patch, b = y % patch;
    for (int x = 0; x < out.width; ++x) {
      const int nx = x / patch, a = x % patch;
      const int P = static_cast<int>(depth.at(x, y));
      const RenderTablesHost& t = tables.at(P);
      const std::uint32_t v = render_pixel(t.layout, t.view(), load, nx * P + depth_scaled(a, P, patch),
                                           ny * P + depth_scaled(b, P, patch));
      std::memcpy(out.row(y) + static_cast<std::size_t>(x) * 4, &v, 4);
    }
  }, threads);
  return out;
}

bool same_depth_inputs(const PlenopticGrid& a, const DepthParams& p, const PlenopticGrid& b, const DepthParams& q) {
  return a.nx == b.nx && a.ny == b.ny && a.pitch == b.pitch && a.ox == b.ox && a.oy == b.oy && p.patch == q.patch &&
         p.pmin == q.pmin && p.pmax == q.pmax && p.lim == q.lim && p.window == q.window && p.aperture == q.aperture;
}

DepthScore score_depth(const ImageF& depth, const ImageF& truth, int border) {
  LB_REQUIRE(depth.channels == 1 && truth.channels == 1 && depth.width == truth.width &&
                 depth.height == truth.height,
             "score: depth map " + std::to_string(depth.width) + "x" + std::to_string(depth.height) +
                 " and ground truth " + std::to_string(truth.width) + "x" +
                 std::to_string(truth.height) + " differ in size");
  LB_REQUIRE(border >= 0, "score: border must be non-negative");
  DepthScore s;
  std::uint64_t exact = 0;
  double err = 0.0;
  for (int y = border; y < depth.height - border; ++y)
    for (int x = border; x < depth.width - border; ++x) {
      const float t = truth.at(x, y);
      if (!(t > 0.0f)) continue;  // no plane there
      ++s.pixels;
      const double d = std::abs(static_cast<double>(depth.at(x, y)) - t);
      exact += d == 0.0;
      err += d;
    }
  if (s.pixels) {
    s.exact_pct = 100.0 * static_cast<double>(exact) / static_cast<double>(s.pixels);
    s.mae = err / static_cast<double>(s.pixels);
  }
  return s;
}

ImageU8 colorize_depth(const ImageF& depth, int pmin, int pmax) {
  // The viewer's viridis (lightbench/colormap.hpp) over [pmin, pmax].
  ImageU8 out(depth.width, depth.height, 4, 255);
  const double hi = pmax > pmin ? pmax : pmin + 1;
  for (std::size_t i = 0; i < depth.pixels(); ++i) {
    const auto c = colormap::apply(ColorMap::Viridis, depth.data[i], pmin, hi);
    for (int k = 0; k < 3; ++k) out.data[i * 4 + k] = c[k];
  }
  return out;
}

std::uint64_t depth_host_bytes(const DepthParams& p, const PlenopticGrid& g, int raw_w, int raw_h,
                               int raw_channels) {
  const std::uint64_t raw = std::uint64_t(raw_w) * std::uint64_t(raw_h);
  const std::uint64_t out = std::uint64_t(std::max(depth_width(g, p), 0)) * std::uint64_t(std::max(depth_height(g, p), 0));
  const std::uint64_t count = std::uint64_t(std::max(p.pmax - p.pmin + 1, 1));
  // raw decoded + kept (+ RGBA copy), touched-pixel sets (count bytes per raw pixel), the
  // cost planes, depth + aif + colour maps.
  return raw * (2 * std::uint64_t(raw_channels) + 4) + count * raw + count * 4 * out + out * 24;
}

std::uint64_t render_host_bytes(const PlenopticGrid& g, int patch, int raw_w, int raw_h, int raw_channels) {
  const std::uint64_t raw = std::uint64_t(raw_w) * std::uint64_t(raw_h);
  const std::uint64_t out = std::uint64_t(std::max(g.nx, 0)) * std::uint64_t(std::max(g.ny, 0)) *
                            std::uint64_t(std::max(patch, 1)) * std::uint64_t(std::max(patch, 1));
  return raw * (2 * std::uint64_t(raw_channels) + 4) + out * 24;
}

}  // namespace lb
