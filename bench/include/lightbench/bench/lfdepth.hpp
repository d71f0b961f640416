#pragma once
// `lightbench-cli bench lfdepth`: every CAE kernel variant (kernels/cae_*.cu) of the 4D
// light-field depth.
#include <vector>

#include "lightbench/bench/report.hpp"
#include "lightbench/lightfield.hpp"

namespace lb::bench {

struct LfBenchOptions {
  std::vector<int> windows{5, 9};
  int labels = 75;
  float dmin = -3.3f, dmax = 2.8f, sigma = 10.0f;
  int warmup = 3;
  int reps = 50;              // per variant; fewer when a variant exceeds max_seconds
  double max_seconds = 20.0;  // timed budget per variant and window
  int device = 0;
};

// Per window, every variant of cuda::cae_variants(): CUDA events around each depth pass
// (cost kernel + winner takes all), warm-up, median. Rows (JSON "variant") carry "views",
// "method", bytes (views read once + cost volume written and read), "bit_exact" and
// "label_mismatches" against the 256-bin GPU result (coalesced, "compared_to"),
// "max_cost_diff", and the HCI scores against the light field's ground truth ("badpix_007",
// "badpix_003", "badpix_001", "mse_x100"; 0 without one).
Report bench_lfdepth(const LightField4D& lf, const LfBenchOptions& options);

}  // namespace lb::bench
