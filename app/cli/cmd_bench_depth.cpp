// lightbench-cli bench depth: the plenoptic depth variants (seed workload: patch sizes
// 7..14) timed with CUDA events, each map checked against the Original's and the CPU's.
#include "bench_output.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "plenoptic/depth_math.hpp"
#include "lightbench/bench/depth.hpp"
#include "lightbench/generator.hpp"
#include "plenoptic_options.hpp"

namespace lb::cli {

Action add_bench_depth(CLI::App& bench, CLI::App** sub_out) {
  struct Opts {
    PlenopticOptions in;
    std::string json;
    int pmin = -1, pmax = -1, window = 1, warmup = 20, reps = 100;
    float aperture = DepthParams{}.aperture;
    bool no_flush = false, no_cpu = false;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* app = bench.add_subcommand("depth", "benchmark the plenoptic depth variants (seed: P 7..14)");
  *sub_out = app;
  o->in.add_input(*app);
  app->add_option("--patch", o->in.patch, "output patch size M (default 11)")->check(int_in(1, kMaxPatch));
  app->add_option("--lim", o->in.lim, "range limit (default 2)")->check(int_in(1, kMaxLim));
  app->add_option("--pmin", o->pmin, "smallest candidate patch size (default 7)")->check(int_in(1, kMaxPatch));
  app->add_option("--pmax", o->pmax, "largest candidate patch size (default 14)")->check(int_in(1, kMaxPatch));
  app->add_option("--window", o->window, "aggregation window (odd)")->capture_default_str()->check(int_in(1, kMaxDepthWindow));
  app->add_option("--aperture", o->aperture, "sample aperture, fraction of D/2")->capture_default_str()->check(real_in(0.1, 1.5));
  app->add_option("--warmup", o->warmup, "untimed launches per variant")->capture_default_str()->check(int_in(1, 100000));
  app->add_option("--reps", o->reps, "timed launches per variant (>= 50)")->capture_default_str()->check(int_in(50, 100000));
  app->add_flag("--no-flush", o->no_flush, "do not flush L2 between timed launches");
  app->add_flag("--no-cpu-check", o->no_cpu, "skip the comparison with the CPU reference");
  app->add_option("--json", o->json, "write a JSON report");
  return [o] {
    if (o->reps < 50 || o->reps > 100000) throw Error("--reps must be in 50..100000");
    if (o->warmup < 1 || o->warmup > 100000) throw Error("--warmup must be in 1..100000");
    require_cuda_device("bench depth");
    PlenopticOptions in = o->in;
    if (in.raw.empty() && in.scene.empty() && in.preset.empty()) in.preset = "seed";
    progress("bench: preparing the scene ...");
    PlenopticScene scene;
    if (!in.preset.empty() && in.raw.empty() && in.scene.empty()) {
      GeneratorParams gp = generator_preset(in.preset, in.seed);
      gp.preview_patch = in.patch != -1 ? in.patch : default_depth_params(gp.grid).patch;
      if (gp.preview_patch < 1 || gp.preview_patch > kMaxPatch)
        throw Error("output patch size M=" + std::to_string(gp.preview_patch) + " out of range");
      scene = to_scene(generate_scene(gp), "preset " + in.preset);
    } else {
      scene = in.load();
    }
    DepthParams params = default_depth_params(scene.grid);
    if (in.patch != -1) params.patch = in.patch;
    if (in.lim != -1) params.lim = in.lim;
    if (o->pmin != -1) params.pmin = o->pmin;
    if (o->pmax != -1) params.pmax = o->pmax;
    params.window = o->window;
    params.aperture = o->aperture;
    validate(params, scene.grid);
    bench::DepthBenchOptions opt;
    opt.warmup = o->warmup;
    opt.reps = o->reps;
    opt.flush_l2 = !o->no_flush;
    opt.check_cpu = !o->no_cpu;
    const auto variants = bench::default_depth_variants();
    progress("bench: timing " + std::to_string(variants.size()) + " depth variants ...");
    const bool truth = !scene.truth.empty() && scene.truth_patch == params.patch;
    const bench::Report rep =
        bench::bench_depth(scene.raw, scene.grid, params, variants, opt, truth ? &scene.truth : nullptr);
    progress_done();
    emit_bench_report("bench depth", rep, o->json,
                      {{"source", scene.source},
                       {"grid", to_json(scene.grid)},
                       {"depth",
                        {{"patch", params.patch},
                         {"pmin", params.pmin},
                         {"pmax", params.pmax},
                         {"lim", params.lim},
                         {"window", params.window},
                         {"aperture", params.aperture}}},
                       {"warmup", o->warmup},
                       {"reps", o->reps},
                       {"flush_l2", opt.flush_l2}},
                      {"exact_pct", "mae"});
    if (!rep.all_exact.value_or(false)) throw Error("a depth variant's map differs from the reference (see table)");
  };
}

}  // namespace lb::cli
