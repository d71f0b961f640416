#pragma once
// What every benchmark does first, and the number formatting of its workload lines.
// Internal to lb_bench.
#include <string>

#include "lightbench/cuda_api.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb::bench::detail {

// Throws "<what>: <why>" unless CUDA is usable and `device` exists; selects the device and
// returns its description.
cuda::DeviceInfo bench_device(const std::string& what, int device);

// Shortest decimal text of v ("13.3", "0.5").
std::string num(double v);

// "raw WxH, grid NXxNY D=.. offset (ox,oy)", the start of the plenoptic workload lines.
std::string raw_grid_workload(int raw_w, int raw_h, const PlenopticGrid& grid);

}  // namespace lb::bench::detail
