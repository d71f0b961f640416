// lightbench-cli bench mad: the CUDA MAD metric per local-statistics variant (and the CPU
// reference) and the statistics kernels alone.
#include "bench_output.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightbench/bench/mad.hpp"

namespace lb::cli {

Action add_bench_mad(CLI::App& bench, CLI::App** sub_out) {
  struct Opts {
    std::string iqa = "../shared/data/iqa", json;
    int warmup = 5, reps = 50;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* sub = bench.add_subcommand("mad-kernels", "benchmark the CUDA MAD metric and its local-statistics kernels");
  *sub_out = sub;
  sub->add_option("--iqa", o->iqa, "folder with the I03/I04/I06 pairs (absent: synthetic 512x384)")
      ->capture_default_str();
  sub->add_option("--warmup", o->warmup, "untimed runs per case")->capture_default_str()->check(int_in(1, 1000));
  sub->add_option("--reps", o->reps, "timed runs per case (>= 10)")->capture_default_str()->check(int_in(10, 100000));
  sub->add_option("--json", o->json, "write a JSON report");
  return [o] {
    if (o->reps < 10 || o->reps > 100000) throw Error("--reps must be in 10..100000");
    if (o->warmup < 1 || o->warmup > 1000) throw Error("--warmup must be in 1..1000");
    require_cuda_device("bench mad-kernels");
    bench::MadBenchOptions opt;
    opt.warmup = o->warmup;
    opt.reps = o->reps;
    opt.iqa_dir = o->iqa;
    progress("bench mad: timing ...");
    const bench::Report rep = bench::bench_mad(opt);
    progress_done();
    emit_bench_report("bench mad-kernels", rep, o->json, {{"iqa", o->iqa}, {"warmup", opt.warmup}, {"reps", opt.reps}});
  };
}

}  // namespace lb::cli
