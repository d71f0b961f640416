// lightbench-cli bench render: every plenoptic render variant timed with CUDA events
// (warm-up, many repetitions, median) next to a plain copy kernel measured in the same
// process.
#include "bench_output.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightbench/bench/render.hpp"
#include "plenoptic_options.hpp"

namespace lb::cli {

Action add_bench_render(CLI::App& bench, CLI::App** sub_out) {
  struct Opts {
    PlenopticOptions in;
    std::string json, backend = "cuda";
    int warmup = 20, reps = 100;
    bool tuning = false, no_flush = false, trace = false;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* render = bench.add_subcommand("render", "benchmark the plenoptic render variants");
  *sub_out = render;
  o->in.add_input(*render);
  o->in.add_render(*render);
  render->add_option("--backend", o->backend, "cuda (benchmarks time CUDA kernels)")->capture_default_str();
  render->add_option("--warmup", o->warmup, "untimed launches per variant")->capture_default_str()->check(int_in(1, 100000));
  render->add_option("--reps", o->reps, "timed launches per variant (>= 50)")->capture_default_str()->check(int_in(50, 100000));
  render->add_flag("--tuning", o->tuning, "also sweep block shapes and chunk lengths");
  render->add_flag("--no-flush", o->no_flush, "do not flush L2 between timed launches");
  render->add_flag("--trace", o->trace,
                   "also trace the default NoSync's blocks (start, end, SM): how evenly its one wave finishes");
  render->add_option("--json", o->json, "write a JSON report");
  return [o] {
    if (o->backend != "cuda" && o->backend != "auto")
      throw Error("bench render times CUDA kernels: use --backend cuda");
    if (o->reps < 50 || o->reps > 100000) throw Error("--reps must be in 50..100000");
    if (o->warmup < 1 || o->warmup > 100000) throw Error("--warmup must be in 1..100000");
    // The rectangular kernels only: a general grid's scene has no grid they could run on.
    if (o->in.general_grid())
      throw Error("bench render times the rectangular grid's kernels: --calib and hexagonal presets are not taken");
    require_cuda_device("bench render");
    PlenopticOptions in = o->in;
    if (in.raw.empty() && in.scene.empty() && in.preset.empty()) in.preset = "seed";
    progress("bench: preparing the scene ...");
    const PlenopticScene scene = in.load();
    const RenderParams params = in.render_params(scene.grid);
    auto variants = bench::default_render_variants();
    if (o->tuning) {
      auto more = bench::tuning_render_variants();
      variants.insert(variants.end(), more.begin(), more.end());
    }
    bench::RenderBenchOptions opt;
    opt.warmup = o->warmup;
    opt.reps = o->reps;
    opt.flush_l2 = !o->no_flush;
    opt.trace = o->trace;
    progress("bench: timing " + std::to_string(variants.size()) + " variants ...");
    const bench::Report rep = bench::bench_render(scene.raw, scene.grid, params, variants, opt);
    progress_done();
    emit_bench_report("bench render", rep, o->json,
                      {{"source", scene.source}, {"grid", to_json(scene.grid)}, {"render", to_json(params)},
                       {"warmup", o->warmup}, {"reps", o->reps}, {"flush_l2", opt.flush_l2}});
    if (!rep.all_exact.value_or(false)) throw Error("a variant's output differs from the reference (see table)");
    // The report stands; what was asked for on top of it did not run.
    if (o->trace && rep.find_field("trace.span_us") == nullptr)
      throw Error("bench render --trace: nothing traced: the default NoSync is not the staged kernel on this device "
                  "(it needs sm_90+)");
  };
}

}  // namespace lb::cli
