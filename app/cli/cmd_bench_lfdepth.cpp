// lightbench-cli bench lfdepth: every CAE kernel variant of the 4D light-field depth on a
// light-field folder (HCI antinous for docs/PERFORMANCE.md), per angular window.
#include <sstream>

#include "bench_output.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightfield/cae_math.hpp"
#include "lightbench/bench/lfdepth.hpp"
#include "lightfield/cae.hpp"
#include "lightbench/lightfield.hpp"

namespace lb::cli {

Action add_bench_lfdepth(CLI::App& bench, CLI::App** sub_out) {
  struct Opts {
    std::string lf, windows = "5,9", drange = "-3.3,2.8", json, grid;
    int labels = 75, warmup = 3, reps = 50;
    float sigma = 10.0f;
    double max_seconds = 20.0;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* sub = bench.add_subcommand("lfdepth", "benchmark the CAE light-field depth kernel variants");
  *sub_out = sub;
  sub->add_option("--lf", o->lf, "light-field folder (HCI antinous for the PERFORMANCE.md numbers)")->required();
  sub->add_option("--grid", o->grid, "numbered views only: angular grid UxV");
  sub->add_option("--windows", o->windows, "angular windows, comma separated")->capture_default_str();
  sub->add_option("--labels", o->labels, "disparity labels")->capture_default_str()->check(int_in(2, cae::kMaxLabels));
  sub->add_option("--drange", o->drange, "disparity range MIN,MAX")->capture_default_str();
  sub->add_option("--sigma", o->sigma, "Gaussian constraint")->capture_default_str();
  sub->add_option("--warmup", o->warmup, "untimed passes per variant")->capture_default_str()->check(int_in(1, 1000));
  sub->add_option("--reps", o->reps, "timed passes per variant (>= 50)")->capture_default_str()->check(int_in(50, 100000));
  sub->add_option("--max-seconds", o->max_seconds, "timed budget per variant (fewer reps past it)")
      ->capture_default_str()->check(real_in(0.0, 1e9));
  sub->add_option("--json", o->json, "write a JSON report");
  return [o] {
    if (o->reps < 50 || o->reps > 100000) throw Error("--reps must be in 50..100000");
    if (o->warmup < 1 || o->warmup > 1000) throw Error("--warmup must be in 1..1000");
    bench::LfBenchOptions opt;
    opt.windows.clear();
    std::stringstream ws(o->windows);
    for (std::string item; std::getline(ws, item, ',');) {
      try {
        opt.windows.push_back(std::stoi(item));
      } catch (const std::exception&) {
        throw Error("--windows expects odd numbers like 5,9, got " + quote_untrusted(o->windows));
      }
      const int n = opt.windows.back();
      if (n < 1 || n > 15 || n % 2 == 0)
        throw Error("--windows expects odd numbers in 1..15 like 5,9, got " + quote_untrusted(o->windows));
    }
    const auto dr = parse_pair("--drange", o->drange);
    opt.dmin = static_cast<float>(dr.first);
    opt.dmax = static_cast<float>(dr.second);
    opt.labels = o->labels;
    opt.sigma = o->sigma;
    opt.warmup = o->warmup;
    opt.reps = o->reps;
    opt.max_seconds = o->max_seconds;
    CaeParams check;
    check.labels = opt.labels;
    check.dmin = opt.dmin;
    check.dmax = opt.dmax;
    check.sigma = opt.sigma;
    validate(check);
    require_cuda_device("bench lfdepth");  // after the options: a bad one is named first
    progress("bench lfdepth: loading " + o->lf + " ...");
    const LightField4D lf = load_lightfield(o->lf, parse_lf_grid(o->grid));
    progress("bench lfdepth: timing ...");
    const bench::Report rep = bench::bench_lfdepth(lf, opt);
    progress_done();
    emit_bench_report("bench lfdepth", rep, o->json,
                      {{"lf", o->lf},
                       {"windows", opt.windows},
                       {"labels", opt.labels},
                       {"dmin", opt.dmin},
                       {"dmax", opt.dmax},
                       {"sigma", opt.sigma},
                       {"warmup", opt.warmup},
                       {"reps", opt.reps},
                       {"max_seconds", opt.max_seconds}});
  };
}

}  // namespace lb::cli
