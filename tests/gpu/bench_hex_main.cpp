// lb_bench_hex: the general-grid (plenoptic-hex) CUDA passes on issue 22's workload.
//   lb_bench_hex [--reps N] [--warmup N] [--no-flush] [--no-check] [--no-seed]
//                [--variants original,smem-tables,pruned] [--raw WxH] [--patch M] [--window K] [--json FILE]
// Default raw: random RGB (seeded) of an R42 full frame, 7716 x 5364, through the R42
// geometry (D = 34.86, Raytrix bases and sub-grid, three lens types); render at M = 11 with
// the default rings and lens types (default_hex_params), depth P = 7..14 window 1, and the
// all-in-focus of that map; then the copy kernel and the rectangular seed workload's NoSync
// render in the same run. Exit status 1 when an output differs from the CPU reference.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "lightbench/bench/hex.hpp"

int main(int argc, char** argv) {
  lb::bench::HexBenchOptions opt;
  int w = 7716, h = 5364, patch = 11, window = 1;
  std::string json;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--reps") opt.reps = std::atoi(next());
    else if (a == "--warmup") opt.warmup = std::atoi(next());
    else if (a == "--no-flush") opt.flush_l2 = false;
    else if (a == "--no-check") opt.check_cpu = false;
    else if (a == "--no-seed") opt.seed_workload = false;
    else if (a == "--patch") patch = std::atoi(next());
    else if (a == "--window") window = std::atoi(next());
    else if (a == "--json") json = next();
    else if (a == "--raw") {
      if (std::sscanf(next(), "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0 || w > 20000 || h > 20000) {
        std::fprintf(stderr, "--raw: expected WxH (1..20000 each)\n");
        return 2;
      }
    } else if (a == "--variants") {
      opt.variants.clear();
      std::stringstream ss(next());
      for (std::string v; std::getline(ss, v, ',');)
        if (!v.empty()) opt.variants.push_back(v);
    } else {
      std::fprintf(stderr,
                   "usage: %s [--reps N] [--warmup N] [--no-flush] [--no-check] [--no-seed] "
                   "[--variants a,b] [--raw WxH] [--patch M] [--window K] [--json FILE]\n",
                   argv[0]);
      return 2;
    }
  }
  try {
    const lb::MlaGeometry g = lb::raytrix_r42_calibration();
    lb::HexRunParams params = lb::default_hex_params(g);
    params.render.patch = patch;
    params.depth.patch = patch;
    params.depth.window = window;
    const lb::ImageU8 raw = lb::bench::bench_random_raw(w, h, 2022);
    const lb::bench::Report rep = lb::bench::bench_hex(raw, g, params, opt);
    std::printf("raw: random RGB (seed 2022), R42 geometry\n");
    std::fputs(lb::bench::to_text(rep).c_str(), stdout);
    if (!json.empty()) std::ofstream(json) << lb::bench::to_json(rep) << "\n";
    return rep.all_exact.value_or(false) ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lb_bench_hex: %s\n", e.what());
    return 1;
  }
}
