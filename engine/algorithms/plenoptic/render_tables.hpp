#pragma once
// Host construction of the integer tables every renderer reads (see plenoptic_math.hpp).
#include <cstdint>
#include <vector>

#include "plenoptic/plenoptic_math.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb {

struct RenderTablesHost {
  RenderLayout layout{};
  std::vector<int> col_start, row_start;
  std::vector<std::uint32_t> wx, wy;
  RenderTables view() const { return {col_start.data(), row_start.data(), wx.data(), wy.data()}; }
};

// Validates grid and params against the raw size first (throws lb::Error).
RenderTablesHost build_render_tables(const PlenopticGrid& grid, const RenderParams& p, int raw_w,
                                     int raw_h);

// Quantised 1D Gaussian factor in [1, 256] at distance d (pixels) for sigma.
std::uint32_t quantised_gaussian(double d, double sigma);

// Distinct raw pixels one render reads (the touched columns times the touched rows: both
// sets depend on one axis only). Used for the "bytes the kernel must move" of benchmarks.
std::uint64_t render_touched_pixels(const RenderTablesHost& t);

}  // namespace lb
