// lightbench-cli bench render: every kernel variant timed with CUDA events (warm-up, many
// repetitions, median) next to a plain copy kernel measured in the same process.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "commands.hpp"
#include "lightbench/cuda_api.hpp"
#include "plenoptic_options.hpp"

namespace lb::cli {

Action add_bench(CLI::App& app) {
  struct Opts {
    PlenopticOptions in;
    std::string json, backend = "cuda";
    int warmup = 20, reps = 100;
    bool tuning = false, no_flush = false;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* render = app.add_subcommand("render", "benchmark the plenoptic render variants");
  app.require_subcommand(1);
  o->in.add_input(*render);
  o->in.add_render(*render);
  render->add_option("--backend", o->backend, "cuda (benchmarks time CUDA kernels)")
      ->capture_default_str();
  render->add_option("--warmup", o->warmup, "untimed launches per variant")->capture_default_str();
  render->add_option("--reps", o->reps, "timed launches per variant (>= 50)")->capture_default_str();
  render->add_flag("--tuning", o->tuning, "also sweep block shapes and chunk lengths");
  render->add_flag("--no-flush", o->no_flush, "do not flush L2 between timed launches");
  render->add_option("--json", o->json, "write a JSON report");
  const Action depth = add_bench_depth(app);  // `bench depth` (cmd_depth.cpp)
  CLI::App* lfdepth_sub = nullptr;
  const Action lfdepth = add_bench_lfdepth(app, &lfdepth_sub);  // `bench lfdepth` (cmd_lfdepth.cpp)
  CLI::App* stereo_sub = nullptr;
  const Action stereo = add_bench_stereo(app, &stereo_sub);  // `bench stereo` (cmd_bench_stereo.cpp)
  CLI::App* local_sub = nullptr;
  const Action local = add_bench_local(app, &local_sub);  // `bench local` (cmd_bench_local.cpp)
  CLI::App* mad_sub = nullptr;
  const Action mad = add_bench_mad(app, &mad_sub);  // `bench mad` (cmd_mad.cpp)
  return [o, render, depth, lfdepth, lfdepth_sub, stereo, stereo_sub, local, local_sub, mad, mad_sub] {
    if (local_sub->parsed()) return local();
    if (lfdepth_sub->parsed()) return lfdepth();
    if (stereo_sub->parsed()) return stereo();
    if (mad_sub->parsed()) return mad();
    if (!render->parsed()) return depth();
    if (o->backend != "cuda" && o->backend != "auto")
      throw Error("bench render times CUDA kernels: use --backend cuda");
    if (o->reps < 50 || o->reps > 100000) throw Error("--reps must be in 50..100000");
    if (o->warmup < 1 || o->warmup > 100000) throw Error("--warmup must be in 1..100000");
    std::string why;
    if (!cuda_available(&why)) throw Error("bench render needs a CUDA device: " + why);
    PlenopticOptions in = o->in;
    if (in.raw.empty() && in.scene.empty() && in.preset.empty()) in.preset = "seed";
    progress("bench: preparing the scene ...");
    const PlenopticScene scene = in.load();
    const RenderParams params = in.render_params(scene.grid);
    auto variants = cuda::default_bench_variants();
    if (o->tuning) {
      auto more = cuda::tuning_bench_variants();
      variants.insert(variants.end(), more.begin(), more.end());
    }
    cuda::BenchOptions opt;
    opt.warmup = o->warmup;
    opt.reps = o->reps;
    opt.flush_l2 = !o->no_flush;
    progress("bench: timing " + std::to_string(variants.size()) + " variants ...");
    const cuda::BenchReport rep = cuda::bench_render(scene.raw, scene.grid, params, variants, opt);
    progress_done();
    std::printf("%s", cuda::format_bench_report(rep).c_str());
    if (!o->json.empty()) {
      Report r("bench render");
      r.root()["parameters"] = {{"source", scene.source}, {"grid", to_json(scene.grid)},
                                {"render", to_json(params)}, {"warmup", o->warmup},
                                {"reps", o->reps}, {"flush_l2", opt.flush_l2}};
      r.root()["backend"] = "cuda";
      r.root()["device"] = rep.device.describe();
      r.root()["bench"] = nlohmann::json::parse(cuda::bench_report_json(rep));
      r.write(o->json);
    }
    if (!rep.all_exact()) throw Error("a variant's output differs from the reference (see table)");
  };
}

}  // namespace lb::cli
