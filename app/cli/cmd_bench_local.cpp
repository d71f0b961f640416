// lightbench-cli bench local: the center-biased local stereo variants (phase2 .. phase5,
// fused, fused2) on Middlebury Tsukuba (16 disparities), Venus (20) and the seed's 450x375 with 60 (and 64)
// disparities (a synthetic random-texture pair of planes), exactness against the CPU
// reference and bad pixels against the ground truth.
#include <cstdio>
#include <filesystem>
#include <random>
#include <sstream>
#include <tuple>

#include "bench_output.hpp"
#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightbench/bench/stereo_local.hpp"
#include "lightbench/image_io.hpp"
#include "stereo_local/stereo_local.hpp"

namespace lb::cli {

namespace {

// 450 x 375 random texture; four vertical bands at disparities 8, 20, 35, 52 (a rectified
// pair of fronto-parallel planes; left(x) = right(x - d)). The texture continues left of
// the image, so only the occlusion boundaries between bands are ambiguous.
bench::LocalBenchWorkload synthetic_workload(int w, int h, int ndisp) {
  const int pad = ndisp + 1;
  std::mt19937_64 rng(450375);
  ImageU8 tex(w + pad, h, 3);
  for (auto& b : tex.data) b = static_cast<std::uint8_t>(rng() & 255);
  bench::LocalBenchWorkload wl;
  wl.name = "synthetic";
  wl.ndisp = ndisp;
  wl.pair.left = ImageU8(w, h, 3);
  wl.pair.right = ImageU8(w, h, 3);
  wl.pair.name = "synthetic";
  wl.truth = ImageF(w, h, 1);
  const int bands[4] = {ndisp * 8 / 60, ndisp * 20 / 60, ndisp * 35 / 60, ndisp * 52 / 60};
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int d = bands[std::min(3, x * 4 / w)];
      for (int c = 0; c < 3; ++c) {
        wl.pair.right.at(x, y, c) = tex.at(x + pad, y, c);
        wl.pair.left.at(x, y, c) = tex.at(x + pad - d, y, c);
      }
      wl.truth.at(x, y) = d > 0 ? static_cast<float>(d) : 0.0f;
    }
  return wl;
}

// Middlebury scene folder: imL/imR, groundtruth (value / scale), mask_nonocc.
bench::LocalBenchWorkload middlebury_workload(const std::string& dir, const std::string& name, int ndisp, float scale) {
  bench::LocalBenchWorkload wl;
  wl.name = name;
  wl.ndisp = ndisp;
  wl.pair.left = load_image(dir + "/imL.png", 3);
  wl.pair.right = load_image(dir + "/imR.png", 3);
  wl.pair.name = name;
  const ImageU8 gt = load_image(dir + "/groundtruth.png", 1);
  LB_REQUIRE(gt.width == wl.pair.left.width && gt.height == wl.pair.left.height,
             dir + "/groundtruth.png: size differs from imL.png");
  wl.truth = ImageF(gt.width, gt.height, 1);
  for (std::size_t i = 0; i < gt.data.size(); ++i) wl.truth.data[i] = gt.data[i] / scale;
  if (std::filesystem::exists(dir + "/mask_nonocc.png")) wl.mask_nonocc = load_image(dir + "/mask_nonocc.png", 1);
  return wl;
}

}  // namespace

Action add_bench_local(CLI::App& bench, CLI::App** sub_out) {
  struct Opts {
    std::string data = "../shared/data/stereo", variants, json;
    int warmup = 10, reps = 100;
    int radius = stereo::LocalParams{}.radius, truncation = stereo::LocalParams{}.truncation;
    int variable_windows = 0, lr_check = 0;
    float gamma = stereo::LocalParams{}.gamma;
    double max_seconds = 10.0;
    bool no_check = false;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* sub = bench.add_subcommand("local", "benchmark the center-biased local stereo variants");
  *sub_out = sub;
  sub->add_option("--data", o->data, "folder with tsukuba/ and venus/ (skipped when absent)")->capture_default_str();
  sub->add_option("--variants", o->variants, "comma-separated subset of phase2,phase3,phase4,phase5,fused,fused2");
  sub->add_option("--radius", o->radius, "window radius r")->capture_default_str();
  sub->add_option("--gamma", o->gamma, "center bias gamma")->capture_default_str();
  sub->add_option("--truncation", o->truncation, "cost truncation T")->capture_default_str();
  sub->add_option("--variable-windows", o->variable_windows, "0/1")->capture_default_str();
  sub->add_option("--lr-check", o->lr_check, "0/1")->capture_default_str();
  sub->add_option("--warmup", o->warmup, "untimed runs per variant")->capture_default_str()->check(int_in(1, 1000));
  sub->add_option("--reps", o->reps, "timed runs per variant (>= 50)")->capture_default_str()->check(int_in(50, 100000));
  sub->add_option("--max-seconds", o->max_seconds, "timed budget per variant (fewer reps past it)")
      ->capture_default_str()->check(real_in(0.0, 1e9));
  sub->add_flag("--no-check", o->no_check, "skip the comparison with the CPU reference");
  sub->add_option("--json", o->json, "write a JSON report");
  return [o] {
    if (o->reps < 50 || o->reps > 100000) throw Error("--reps must be in 50..100000");
    if (o->warmup < 1 || o->warmup > 1000) throw Error("--warmup must be in 1..1000");
    stereo::LocalParams p;
    p.radius = o->radius;
    p.gamma = o->gamma;
    p.truncation = o->truncation;
    p.variable_windows = o->variable_windows;
    p.lr_check = o->lr_check;
    stereo::validate(p);
    bench::LocalBenchOptions opt;
    opt.warmup = o->warmup;
    opt.reps = o->reps;
    opt.max_seconds = o->max_seconds;
    opt.check_cpu = !o->no_check;
    std::stringstream vs(o->variants);
    for (std::string item; std::getline(vs, item, ',');)
      if (!item.empty()) opt.variants.push_back(item);
    require_cuda_device("bench local");
    std::vector<bench::LocalBenchWorkload> wls;
    // The default also works from a checkout that has shared/ inside it (the GPU machine).
    if (o->data == "../shared/data/stereo" && !std::filesystem::exists(o->data) &&
        std::filesystem::exists("shared/data/stereo"))
      o->data = "shared/data/stereo";
    for (const auto& [name, ndisp, scale] : {std::tuple<const char*, int, float>{"tsukuba", 16, 16.0f},
                                             std::tuple<const char*, int, float>{"venus", 20, 8.0f}}) {
      const std::string dir = o->data + "/" + name;
      if (std::filesystem::exists(dir + "/imL.png"))
        wls.push_back(middlebury_workload(dir, name, ndisp, scale));
      else
        std::fprintf(stderr, "bench local: %s not found, skipped\n", quote_untrusted(dir, 200).c_str());
    }
    // The seed's workload (60 disparities) and the second count (64).
    wls.push_back(synthetic_workload(450, 375, 60));
    wls.push_back(synthetic_workload(450, 375, 64));
    progress("bench local: timing ...");
    const bench::Report rep = bench::bench_local_stereo(wls, p, opt);
    progress_done();
    emit_bench_report("bench local", rep, o->json,
                      {{"data", o->data},
                       {"radius", p.radius},
                       {"gamma", p.gamma},
                       {"truncation", p.truncation},
                       {"variable_windows", p.variable_windows},
                       {"lr_check", p.lr_check},
                       {"warmup", opt.warmup},
                       {"reps", opt.reps},
                       {"max_seconds", opt.max_seconds}});
    if (!rep.all_exact.value_or(false)) throw Error("a variant's map differs from the CPU reference (see table)");
  };
}

}  // namespace lb::cli
