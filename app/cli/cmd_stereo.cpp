// lightbench-cli stereo: disparity of a rectified pair by belief propagation or center-biased
// local windows (CPU reference or a CUDA variant), written for viewing (PNG) or exactly (PFM), scored by the Middlebury
// bad-pixel protocol when ground truth is given.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/stereo.hpp"
#include "lightbench/stereo_bp.hpp"
#include "lightbench/stereo_cuda.hpp"
#include "lightbench/stereo_io.hpp"
#include "lightbench/stereo_local.hpp"
#include "lightbench/stereo_local_cuda.hpp"
#include "lightbench/stereo_metrics.hpp"

namespace lb::cli {

namespace {

using namespace lb::stereo;

// What one stereo run produced, whichever method ran.
struct StereoOutcome {
  StereoResult result;
  std::vector<double> ms, ms_total;  // per repeat
  std::string backend, device, reason, timing_key;
  std::unique_ptr<TimingRegistry> timings = std::make_unique<TimingRegistry>();  // (not movable)
};

template <class Params>
StereoOutcome run_matcher(StereoMatcher<Params>& m, const StereoPair& pair, const Params& p,
                          const std::string& variant, int repeat, const std::string& reason) {
  StereoOutcome out;
  out.backend = to_string(m.kind());
  out.device = m.device_name();
  out.reason = reason;
  m.set_pair(pair);
  for (int k = 0; k < repeat; ++k) {
    progress("stereo: " + std::to_string(k + 1) + "/" + std::to_string(repeat));
    out.result = m.run(p, variant);
    out.ms.push_back(out.result.ms);
    out.ms_total.push_back(out.result.ms_total);
  }
  for (const auto& k : m.timings().kernels())
    for (const auto& s : m.timings().history(k)) out.timings->record(k, s.ms, s.bytes);
  return out;
}

// The single dispatch point from --method and --backend to a matcher.
StereoOutcome run_stereo_method(StereoMethod method, BackendRequest req, const StereoPair& pair,
                                const BpParams& bp, const LocalParams& local, const std::string& variant,
                                int repeat) {
  std::string reason;
  const BackendKind kind = builtin_registry().choose(req, &reason);  // the registry's choice
#if defined(LB_HAVE_CUDA) && LB_HAVE_CUDA
  if (kind == BackendKind::Cuda) {
    if (method == StereoMethod::Local) {
      auto m = cuda::make_local_stereo_cuda();
      return run_matcher(*m, pair, local, variant, repeat, reason);
    }
    auto m = cuda::make_bp_stereo_cuda();
    return run_matcher(*m, pair, bp, variant, repeat, reason);
  }
#else
  (void)kind;
#endif
  // "auto" (BP's default: the fastest kernel here) is the reference on the CPU.
  if (!variant.empty() && variant != "reference" && variant != "auto")
    throw Error("--variant '" + variant + "' names a CUDA kernel; the CPU backend runs the reference (" +
                (req == BackendRequest::Cpu ? std::string("CPU requested") : reason) + ")");
  const std::string cpu_variant = variant == "auto" ? std::string() : variant;
  if (method == StereoMethod::Local) {
    auto m = make_local_stereo_cpu();
    return run_matcher(*m, pair, local, cpu_variant, repeat, reason);
  }
  auto m = make_bp_stereo_cpu();
  return run_matcher(*m, pair, bp, cpu_variant, repeat, reason);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

Action add_stereo(CLI::App& app) {
  struct Opts {
    std::string left, right, scene, method = "bp", variant, backend = "auto", out, json, gt, mask_nonocc, mask_all,
                mask_disc, error_map;
    double gt_scale = 0;
    int ndisp = 0, repeat = 1;
    BpParams bp;
    LocalParams local;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--left", o->left, "left (reference) image");
  app.add_option("--right", o->right, "right image");
  app.add_option("--scene", o->scene,
                 "Middlebury folder (imL.png, imR.png, groundtruth.png, mask_*.png) instead of --left/--right");
  app.add_option("--ndisp", o->ndisp, "disparity values L (0 .. L-1; default: the scene's, else 16)")
      ->check(int_in(1, 100000));
  app.add_option("--method", o->method, "bp | local")->capture_default_str();
  app.add_option("--variant", o->variant,
                 "CUDA variant: bp: auto (default) | auto:float | warp[-fp16|-bf16][:G] | registers | hybrid | "
                 "hybrid:R,S | shared | local; local: phase2 | phase3 | phase4 | phase5 | fused | fused2 (default)");
  app.add_option("--gt", o->gt, "ground-truth disparity (8-bit image with --gt-scale, or .pfm)");
  app.add_option("--gt-scale", o->gt_scale, "ground truth value per disparity (tsukuba 16, venus 8)")
      ->check(real_in(1e-6, 1e6));
  app.add_option("--mask-nonocc", o->mask_nonocc, "mask of non-occluded pixels (255 = counted)");
  app.add_option("--mask-all", o->mask_all, "mask of evaluated pixels (255 = counted)");
  app.add_option("--mask-disc", o->mask_disc, "mask of pixels near discontinuities (255 = counted)");
  app.add_option("--levels", o->bp.levels, "BP pyramid levels")->capture_default_str();
  app.add_option("--iterations", o->bp.iterations, "BP iterations per level")->capture_default_str();
  app.add_option("--lambda", o->bp.lambda, "BP data weight")->capture_default_str();
  app.add_option("--tau-data", o->bp.tau_data, "BP data truncation")->capture_default_str();
  app.add_option("--tau-disc", o->bp.tau_disc, "BP discontinuity truncation")->capture_default_str();
  app.add_option("--sigma", o->bp.sigma, "Gaussian smoothing of the inputs (0: none)")->capture_default_str();
  app.add_option("--radius", o->local.radius, "local: window quadrant radius r")->capture_default_str();
  app.add_option("--gamma", o->local.gamma, "local: center bias, w(k) = exp(-k / gamma)")->capture_default_str();
  app.add_option("--truncation", o->local.truncation, "local: cost truncation T")->capture_default_str();
  app.add_option("--variable-windows", o->local.variable_windows,
                 "local: 1 = also the half and full windows")->capture_default_str();
  app.add_option("--lr-check", o->local.lr_check, "local: 1 = left-right check and fill")->capture_default_str();
  app.add_option("--backend", o->backend, "auto | cpu | cuda")->capture_default_str();
  app.add_option("--repeat", o->repeat, "run this many times (timings: median)")->capture_default_str()->check(int_in(1, 10000));
  app.add_option("--out", o->out, "disparity map: .png (scaled for viewing) or .pfm (exact)")->required();
  app.add_option("--error-map", o->error_map, "with ground truth: wrong pixels in red (.png)");
  app.add_option("--json", o->json, "write a JSON report");
  return [o] {
    const std::string ext = file_extension(o->out);
    if (ext != ".png" && ext != ".pfm" && ext != ".pgm")
      throw Error("--out '" + o->out + "': use .png (scaled for viewing) or .pfm (exact)");
    if (o->repeat < 1 || o->repeat > 10000) throw Error("--repeat must be in 1..10000");
    const std::string emap_ext = file_extension(o->error_map);
    if (!o->error_map.empty() && emap_ext != ".png" && emap_ext != ".jpg" && emap_ext != ".jpeg" &&
        emap_ext != ".bmp" && emap_ext != ".ppm")
      throw Error("--error-map '" + o->error_map + "': use .png, .jpg, .bmp or .ppm");
    const StereoMethod method = parse_stereo_method(o->method);
    const BackendRequest req = parse_backend_request(o->backend);
    if (o->scene.empty() && (o->left.empty() || o->right.empty()))
      throw Error("give --left and --right, or --scene DIR");
    if (!o->scene.empty() && (!o->left.empty() || !o->right.empty()))
      throw Error("--scene and --left/--right exclude each other");
    progress("stereo: loading ...");
    StereoPair pair;
    StereoGroundTruth gt;
    int ndisp = o->ndisp;
    double scale = o->gt_scale;
    std::string gt_source;
    if (!o->scene.empty()) {
      StereoScene sc = load_stereo_scene(o->scene, o->gt_scale);
      pair = std::move(sc.pair);
      gt = std::move(sc.gt);
      scale = sc.gt_scale;
      if (!gt.empty()) gt_source = o->scene + "/groundtruth.png";
      if (ndisp == 0) ndisp = sc.suggested_ndisp;
    } else {
      pair = load_stereo_pair(o->left, o->right);
    }
    if (ndisp == 0) ndisp = 16;
    const int w = pair.left.width, h = pair.left.height;
    if (!o->gt.empty()) {
      gt.disparity = load_stereo_gt(o->gt, scale);
      gt_source = o->gt;
      LB_REQUIRE(gt.disparity.width == w && gt.disparity.height == h,
                 "--gt '" + o->gt + "' is " + std::to_string(gt.disparity.width) + "x" +
                     std::to_string(gt.disparity.height) + ", the pair is " + std::to_string(w) + "x" +
                     std::to_string(h));
    }
    if (!o->mask_nonocc.empty()) gt.mask_nonocc = load_stereo_mask(o->mask_nonocc, w, h);
    if (!o->mask_all.empty()) gt.mask_all = load_stereo_mask(o->mask_all, w, h);
    if (!o->mask_disc.empty()) gt.mask_disc = load_stereo_mask(o->mask_disc, w, h);
    if (gt.empty() && (!gt.mask_nonocc.empty() || !gt.mask_all.empty() || !gt.mask_disc.empty()))
      throw Error("masks given without ground truth (--gt)");
    if (!o->error_map.empty() && gt.empty()) throw Error("--error-map needs ground truth (--gt or --scene)");
    if (!gt.empty()) {
      try {
        require_scorable(gt);
      } catch (const Error& e) {
        throw Error((gt_source.empty() ? std::string("ground truth") : "'" + gt_source + "'") + ": " + e.what());
      }
    }
    BpParams bp = o->bp;
    bp.ndisp = ndisp;
    LocalParams local = o->local;
    local.ndisp = ndisp;
    if (method == StereoMethod::Bp) validate(bp, pair);
    else validate(local, pair);
    {
      const bool cuda = builtin_registry().choose(req) == BackendKind::Cuda;
      const int c = pair.left.channels;
      if (method == StereoMethod::Bp) check_memory("stereo", bp_host_bytes(bp, w, h, c), bp_device_bytes(bp, w, h), cuda);
      else check_memory("stereo", local_host_bytes(local, w, h, c), local_device_bytes(local, w, h), cuda);
    }

    StereoOutcome out = run_stereo_method(method, req, pair, bp, local, o->variant, o->repeat);
    progress_done();
    const StereoResult& r = out.result;
    save_disparity(o->out, r.disparity, static_cast<float>(ndisp - 1));
    const double ms = median(out.ms), ms_total = median(out.ms_total);
    std::printf("stereo %s %dx%d, %d disparities, %s on %s [%s]: %.3f ms (%.3f ms with transfers) -> %s\n",
                to_string(method), w, h, ndisp, out.backend.c_str(), out.device.c_str(), r.variant.c_str(), ms,
                ms_total, o->out.c_str());
    if (!r.tuning.empty()) std::printf("tuning: %s\n", r.tuning.c_str());
    StereoScore score;
    if (!gt.empty()) {
      score = score_stereo(r.disparity, gt);
      std::printf("bad pixels (|d - gt| > 1) vs %s: nonocc %.2f %%  all %.2f %%  disc %.2f %%\n", gt_source.c_str(),
                  score.nonocc.percent, score.all.percent, score.disc.percent);
      if (!o->error_map.empty()) save_image(o->error_map, stereo_error_map(r.disparity, gt, 1.0, float(ndisp - 1)));
    }
    if (!o->json.empty()) {
      Report rep("stereo");
      rep.root()["parameters"] = {{"left", o->left},         {"right", o->right},     {"scene", o->scene},
                                  {"size", {w, h}},          {"ndisp", ndisp},        {"levels", bp.levels},
                                  {"iterations", bp.iterations}, {"lambda", bp.lambda}, {"tau_data", bp.tau_data},
                                  {"tau_disc", bp.tau_disc}, {"sigma", bp.sigma},     {"repeat", o->repeat},
                                  {"radius", local.radius},  {"gamma", local.gamma},
                                  {"truncation", local.truncation},
                                  {"variable_windows", local.variable_windows},
                                  {"lr_check", local.lr_check}};
      rep.root()["method"] = to_string(method);
      rep.root()["backend"] = out.backend;
      rep.root()["device"] = out.device;
      rep.root()["backend_reason"] = out.reason;
      rep.root()["variant"] = r.variant;
      rep.root()["tuning"] = r.tuning;
      rep.root()["ms"] = ms;
      rep.root()["ms_total"] = ms_total;
      rep.add_output("disparity", o->out, w, h);
      rep.add_timings(*out.timings);
      if (!gt.empty()) {
        rep.root()["ground_truth"] = gt_source;
        rep.root()["bad1_nonocc"] = score.nonocc.percent;
        rep.root()["bad1_all"] = score.all.percent;
        rep.root()["bad1_disc"] = score.disc.percent;
        rep.root()["evaluated_pixels"] = {{"nonocc", score.nonocc.pixels},
                                          {"all", score.all.pixels},
                                          {"disc", score.disc.pixels}};
      }
      rep.write(o->json);
    }
  };
}

}  // namespace lb::cli
