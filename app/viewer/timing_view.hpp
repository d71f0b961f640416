#pragma once
// Per-kernel timing table (last, median, min over the recent history, GB/s) of every backend
// in use and of the current algorithm's own engines, and a history plot of the selected kernel.
#include <string>

#include "algorithm.hpp"
#include "backend_pool.hpp"

namespace lb::viewer {

// `plotted` holds the "backend/kernel" whose history is plotted (click a row to change it).
void draw_timings(BackendPool& pool, Algorithm& algorithm, std::string& plotted);

}  // namespace lb::viewer
