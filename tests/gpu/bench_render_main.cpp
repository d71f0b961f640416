// lb_bench_render: the render benchmark on the seed workload without the CLI.
//   lb_bench_render [--reps N] [--warmup N] [--tune] [--no-flush] [--scene] [--json FILE]
// Default raw: random RGB (seeded) of the seed's size 7176 x 5382; --scene uses the
// engine's generator preset "seed" instead. Grid 96 x 72, D = 74.75, M = 11, lim = 2,
// sigma 15. --tune times the launch-shape sweep instead of the default variant list.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include "lightbench/bench/render.hpp"
#include "lightbench/generator.hpp"

int main(int argc, char** argv) {
  lb::bench::RenderBenchOptions opt;
  opt.reps = 100;
  bool tune = false, scene = false;
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
    else if (a == "--tune") tune = true;
    else if (a == "--no-flush") opt.flush_l2 = false;
    else if (a == "--scene") scene = true;
    else if (a == "--diag") opt.diagnostics = true;
    else if (a == "--trace") opt.trace = true;
    else if (a == "--json") json = next();
    else if (a == "--preset") { if (std::string(next()) != "seed") { std::fprintf(stderr, "only --preset seed\n"); return 2; } }
    else {
      std::fprintf(stderr, "usage: %s [--reps N] [--warmup N] [--tune] [--no-flush] [--scene] [--diag] [--trace] [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  try {
    lb::PlenopticGrid grid;
    grid.nx = 96;
    grid.ny = 72;
    grid.pitch = 74.75;
    lb::ImageU8 raw;
    if (scene) {
      const lb::GeneratedScene s = lb::generate_scene(lb::generator_preset("seed"));
      raw = s.raw;
      grid = s.params.grid;
    } else {
      raw.reset(7176, 5382, 3);
      std::mt19937_64 rng(2016);
      for (std::size_t i = 0; i < raw.data.size(); i += 8) {
        std::uint64_t v = rng();
        for (std::size_t b = 0; b < 8 && i + b < raw.data.size(); ++b, v >>= 8)
          raw.data[i + b] = static_cast<std::uint8_t>(v);
      }
    }
    lb::RenderParams params;  // M = 11, lim = 2, sigma = 15
    const auto variants = tune ? lb::bench::tuning_render_variants() : lb::bench::default_render_variants();
    const lb::bench::Report rep = lb::bench::bench_render(raw, grid, params, variants, opt);
    std::printf("raw: %s\n", scene ? "generator preset \"seed\"" : "random RGB (seed 2016)");
    std::fputs(lb::bench::to_text(rep).c_str(), stdout);
    if (!json.empty()) std::ofstream(json) << lb::bench::to_json(rep) << "\n";
    if (opt.trace && rep.find_field("trace.span_us") == nullptr) {
      std::fprintf(stderr, "lb_bench_render: --trace: nothing traced (no default NoSync run, or not the staged kernel)\n");
      return 1;
    }
    return rep.all_exact.value_or(false) ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lb_bench_render: %s\n", e.what());
    return 1;
  }
}
