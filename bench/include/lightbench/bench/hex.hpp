#pragma once
// `lb_bench_hex`: the general-grid (plenoptic-hex) CUDA passes on a hexagonal raw (issue 22's
// speed goal: "rendering a 7716x5364 hexagonal raw (an R42 full frame) at least as fast per
// output pixel as the rectangular seed workload, reported as % of the copy bandwidth"), with
// the copy kernel and the rectangular seed workload's NoSync render timed in the same run.
#include <cstdint>
#include <string>
#include <vector>

#include "lightbench/bench/report.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "lightbench/image.hpp"
#include "lightbench/mla_geometry.hpp"

namespace lb::bench {

struct HexBenchOptions {
  int warmup = 20;          // untimed launches per row (at least 1)
  int reps = 100;           // timed launches per row (at least 20)
  bool flush_l2 = true;     // evict the L2 before every timed launch
  bool check_cpu = true;    // compare every pass's output with the CPU reference (render_hex, ...)
  bool seed_workload = true;  // also time the rectangular seed workload (NoSync render)
  std::vector<std::string> variants{"original", "smem-tables", "pruned"};
  int device = 0;
};

// A random RGB raw (seeded): speed does not depend on the content.
ImageU8 bench_random_raw(int width, int height, std::uint64_t seed);

// Times render (params.render), depth (params.depth) and all-in-focus (on the depth map)
// per variant with CUDA events after warm-up, median of reps, raw resident; then the copy
// kernel on a buffer of the raw's RGBA size and (seed_workload) the seed's NoSync render on a
// random 7176 x 5382 raw. Rows carry out_px, ns_per_px, touched (distinct raw pixels read);
// bytes = touched x 4 + output x 4 (depth: + the cost volume written and read when window > 1;
// all-in-focus: + the map read). Notes: the summary and rows ready for docs/PERFORMANCE.md.
Report bench_hex(const ImageU8& raw, const MlaGeometry& geometry, const HexRunParams& params,
                 const HexBenchOptions& options);

}  // namespace lb::bench
