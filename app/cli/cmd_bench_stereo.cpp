// lightbench-cli bench stereo: every BP CUDA variant (and the tuned hybrid) on Tsukuba (16
// disparities), Venus (20) and a 450x375 pair (synthetic two planes; no such real pair in
// the data folder) with 60 and 64 disparities: median GPU time with and without the
// transfers, pixels differing from the CPU reference, bad1 accuracy where truth exists.
// --like-reference: the reference implementation's settings and sizes beside its figures
// (bench/src/stereo_bp_like_reference.cpp). Options are checked before the device is needed.
#include <cstdio>
#include <filesystem>

#include "bench_output.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightbench/bench/stereo_bp.hpp"
#include "lightbench/bench/stereo_bp_like_reference.hpp"
#include "lightbench/stereo_io.hpp"

namespace lb::cli {

Action add_bench_stereo(CLI::App& bench, CLI::App** sub_out) {
  struct Opts {
    std::string data = "../shared/data/stereo", json, sizes;
    int warmup = 3, reps = 15;
    bool no_synthetic = false, like_reference = false, all_variants = false, no_check = false;
    CLI::Option *reps_opt = nullptr, *sizes_opt = nullptr;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* sub = bench.add_subcommand("stereo", "benchmark the belief-propagation stereo CUDA variants");
  *sub_out = sub;
  sub->add_option("--data", o->data, "folder holding the Middlebury tsukuba/ and venus/ folders")
      ->capture_default_str();
  sub->add_option("--warmup", o->warmup, "untimed runs per variant")->capture_default_str()->check(int_in(0, 1000));
  o->reps_opt = sub->add_option("--reps", o->reps, "timed runs per variant (median; --like-reference: 30 unless given)")
                    ->capture_default_str()
                    ->check(int_in(1, 100000));
  sub->add_flag("--no-synthetic", o->no_synthetic, "skip the synthetic 450x375 pair (60 and 64 disparities)");
  sub->add_flag("--like-reference", o->like_reference,
                "the reference's settings (5 levels, 7 iterations, lambda 0.1, tau_data 15, tau_disc L/7.5, sigma 0) "
                "and sizes, beside its H100 figures");
  o->sizes_opt = sub->add_option("--sizes", o->sizes,
                                 "with --like-reference: a subset of WxHxL sizes, comma-separated (e.g. 450x375x64,192x144x8)");
  sub->add_flag("--all-variants", o->all_variants, "with --like-reference: every variant, not only the tuner's choice");
  sub->add_flag("--no-check", o->no_check, "with --like-reference: skip the comparison with the CPU reference");
  sub->add_option("--json", o->json, "write a JSON report");
  return [o] {
    if (o->reps < 1 || o->reps > 100000) throw Error("--reps must be in 1..100000");
    if (o->warmup < 0 || o->warmup > 1000) throw Error("--warmup must be in 0..1000");
    if (o->like_reference) {
      if (o->no_synthetic) throw Error("--no-synthetic: not with --like-reference (choose sizes with --sizes)");
      bench::LikeReferenceOptions lo;
      if (o->sizes_opt->count()) lo.sizes = bench::parse_like_reference_sizes(o->sizes);
      lo.data = o->data;
      lo.warmup = o->warmup;
      lo.reps = o->reps_opt->count() ? o->reps : 30;
      lo.all_variants = o->all_variants;
      lo.check = !o->no_check;
      require_cuda_device("bench stereo");
      progress("bench stereo --like-reference: timing ...");
      const bench::Report rep = bench::bench_stereo_like_reference(lo);
      progress_done();
      emit_bench_report("bench stereo", rep, o->json,
                        {{"data", o->data},
                         {"warmup", lo.warmup},
                         {"reps", lo.reps},
                         {"like_reference", true},
                         {"sizes", o->sizes},
                         {"all_variants", lo.all_variants},
                         {"check", lo.check}});
      return;
    }
    for (const auto& [given, name] : {std::pair{o->sizes_opt->count() > 0, "--sizes"},
                                      std::pair{o->all_variants, "--all-variants"}, std::pair{o->no_check, "--no-check"}})
      if (given) throw Error(std::string(name) + " needs --like-reference");
    require_cuda_device("bench stereo");
    std::vector<bench::StereoBenchCase> cases;
    for (const char* name : {"tsukuba", "venus"}) {
      const std::filesystem::path dir = std::filesystem::path(o->data) / name;
      if (!std::filesystem::exists(dir)) {
        std::fprintf(stderr, "bench stereo: no %s at %s, skipped\n", name, quote_untrusted(dir.string(), 200).c_str());
        continue;
      }
      stereo::StereoScene sc = stereo::load_stereo_scene(dir.string());
      cases.push_back({name, std::move(sc.pair), std::move(sc.gt), sc.suggested_ndisp});
    }
    if (!o->no_synthetic)
      for (const int nd : {60, 64}) {
        bench::StereoBenchCase c;
        c.name = "synthetic 450x375";
        c.pair = stereo::synthetic_two_plane_pair(450, 375, nd / 4, nd - 8, 450u, &c.gt.disparity, 3);
        c.ndisp = nd;
        cases.push_back(std::move(c));
      }
    if (cases.empty()) throw Error("bench stereo: no scene to run (see --data)");
    bench::StereoBenchOptions opt;
    opt.warmup = o->warmup;
    opt.reps = o->reps;
    progress("bench stereo: timing ...");
    const bench::Report rep = bench::bench_stereo(cases, opt);
    progress_done();
    emit_bench_report("bench stereo", rep, o->json, {{"data", o->data}, {"warmup", opt.warmup}, {"reps", opt.reps}});
  };
}

}  // namespace lb::cli
