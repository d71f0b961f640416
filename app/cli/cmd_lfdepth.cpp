// lightbench-cli lfdepth: depth of a 4D light field (folder of views) by CAE / binned CAE /
// exact CAE on the CPU reference or a CUDA kernel variant; scored against the HCI ground
// truth when there is one.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "option_checks.hpp"
#include "lightbench/cae_math.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/cae.hpp"
#include "lightbench/lf_refine.hpp"
#include "lightbench/cae_cuda.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/memory_budget.hpp"

namespace lb::cli {

namespace {
std::string variant_list() {
  std::string s;
  for (const auto& v : lightfield_spec().variant_names()) s += (s.empty() ? "" : " | ") + v;
  return s;
}
CaeRoi parse_crop(const std::string& text) {
  auto bad = [&] { return Error("--crop expects X,Y,W,H (X, Y >= 0, W, H >= 1, each at most 2147483647), got '" + text + "'"); };
  long long v[4];
  const char* p = text.c_str();
  for (int i = 0; i < 4; ++i) {
    if (i > 0 && *p++ != ',') throw bad();
    if (*p < '0' || *p > '9') throw bad();  // digits only: no sign, space or exponent
    errno = 0;
    char* end = nullptr;
    v[i] = std::strtoll(p, &end, 10);
    if (errno == ERANGE || v[i] > std::numeric_limits<int>::max()) throw bad();
    p = end;
  }
  if (*p != '\0' || v[2] < 1 || v[3] < 1) throw bad();
  CaeRoi r;
  r.x = static_cast<int>(v[0]);
  r.y = static_cast<int>(v[1]);
  r.w = static_cast<int>(v[2]);
  r.h = static_cast<int>(v[3]);
  return r;
}
}  // namespace

Action add_lfdepth(CLI::App& app) {
  struct Opts {
    std::string lf, drange = "-3.3,2.8", method = "cae", variant, backend = "auto", out, gt, crop,
                json, grid, refine = "none", confidence, raw_out, gf_guide = "rgb", fusion = "confidence", subpixel_fit = "lsq5",
                sgm = "on", sgm_data = "weighted";
    LfRefineParams rp;
    int views = 5, labels = 75, repeat = 1, border = 15;
    float sigma = 10.0f;
    bool normalized_log = false;
  };
  auto o = std::make_shared<Opts>();
  app.add_option("--lf", o->lf, "light-field folder (HCI input_CamNNN.png, view_U_V.png or NNN.png)")
      ->required();
  app.add_option("--grid", o->grid, "numbered views only: angular grid UxV (default: square)");
  app.add_option("--views", o->views, "angular window n (odd): n x n views around the centre")
      ->capture_default_str()->check(int_in(1, cae::kMaxWindow));
  app.add_option("--labels", o->labels, "number of disparity labels")->capture_default_str()->check(int_in(2, cae::kMaxLabels));
  app.add_option("--drange", o->drange, "disparity range MIN,MAX (px)")->capture_default_str();
  app.add_option("--method", o->method, "cae | binned | exact")->capture_default_str();
  app.add_option("--variant", o->variant,
                 "CUDA kernel: " + variant_list() + " (default: per method)");
  app.add_option("--sigma", o->sigma, "Gaussian constraint (intensity levels)")->capture_default_str();
  app.add_flag("--normalized-log", o->normalized_log,
               "entropy with log(g/|g|) instead of the spec's log(g)");
  app.add_option("--backend", o->backend, "auto | cpu | cuda")->capture_default_str();
  app.add_option("--out", o->out, "disparity map (.pfm)")->required();
  app.add_option("--gt", o->gt, "ground-truth disparity (.pfm; default: the folder's, if any)");
  app.add_option("--crop", o->crop, "compute only the region X,Y,W,H of the centre view");
  app.add_option("--border", o->border, "scoring: border crop of the full image (HCI: 15)")
      ->capture_default_str()->check(int_in(0, 100000));
  app.add_option("--repeat", o->repeat, "run this many times (timings: median)")->capture_default_str()->check(int_in(1, 10000));
  app.add_option("--json", o->json, "write a JSON report");
  app.add_option("--refine", o->refine,
                 "refinement after the CAE cost: none | filter (guided filter per label) | subpixel (+ sub-pixel fit) | "
                 "full (+ guided weighted median)")
      ->capture_default_str();
  app.add_option("--defocus-weight", o->rp.defocus_weight,
                 "weight of the defocus cost (|refocus - centre|) in the data cost, 0..1 (0: CAE alone)")
      ->capture_default_str();
  app.add_option("--defocus-radius", o->rp.defocus_radius, "box window radius of the defocus cost")
      ->capture_default_str();
  app.add_option("--fusion", o->fusion,
                 "how the defocus cost joins the CAE cost: confidence (filtered apart, fused per pixel by their "
                 "curves' confidence) | fixed (a fixed blend before one filter)")
      ->capture_default_str();
  app.add_option("--subpixel-fit", o->subpixel_fit,
                 "subpixel and full: lsq5 (least-squares quadratic through 5 labels around the winner) | parabola "
                 "(through 3)")
      ->capture_default_str();
  app.add_option("--defocus-filter-radius", o->rp.defocus_filter_radius,
                 "confidence fusion: guided filter radius of the defocus cost")
      ->capture_default_str();
  app.add_option("--sgm", o->sgm,
                 "semi-global aggregation of the fused costs along 4 scanline paths before the WTA: on | off")
      ->capture_default_str();
  app.add_option("--sgm-data", o->sgm_data,
                 "semi-global data term: weighted (each pixel's costs times its confidence) | plain")
      ->capture_default_str();
  app.add_option("--sgm-p1", o->rp.sgm_p1, "semi-global: price of a one-label step (fused cost scale)")
      ->capture_default_str();
  app.add_option("--sgm-p2", o->rp.sgm_p2, "semi-global: price of a larger depth jump")->capture_default_str();
  app.add_option("--sgm-edge", o->rp.sgm_edge,
                 "semi-global: guide difference (mean over channels, [0, 1]) at which the jump price halves")
      ->capture_default_str();
  app.add_option("--gf-guide", o->gf_guide, "guide of the filter and the median: rgb | gray")->capture_default_str();
  app.add_option("--gf-radius", o->rp.radius, "guided filter radius")->capture_default_str();
  app.add_option("--gf-eps", o->rp.eps, "guided filter eps (guide on [0, 1])")->capture_default_str();
  app.add_option("--median-radius", o->rp.median_radius, "full: weighted median radius")->capture_default_str();
  app.add_option("--median-sigma", o->rp.median_sigma, "full: weighted median guide sigma")->capture_default_str();
  app.add_option("--median-iterations", o->rp.median_iterations, "full: weighted median passes")
      ->capture_default_str();
  app.add_option("--confidence", o->confidence, "with --refine: confidence map in [0, 1] (.pfm)");
  app.add_option("--raw-out", o->raw_out, "with --refine: the unrefined (exact WTA) map as well (.pfm)");
  return [o] {
    if (file_extension(o->out) != ".pfm") throw Error("--out '" + o->out + "': use .pfm");
    o->rp.mode = parse_lf_refine_mode(o->refine);
    if (o->gf_guide != "rgb" && o->gf_guide != "gray")
      throw Error("--gf-guide '" + o->gf_guide + "': use rgb or gray");
    o->rp.color_guide = o->gf_guide == "rgb";
    if (o->fusion != "confidence" && o->fusion != "fixed")
      throw Error("--fusion '" + o->fusion + "': use confidence or fixed");
    o->rp.confidence_fusion = o->fusion == "confidence";
    if (o->subpixel_fit != "lsq5" && o->subpixel_fit != "parabola")
      throw Error("--subpixel-fit '" + o->subpixel_fit + "': use lsq5 or parabola");
    o->rp.subpixel_wide = o->subpixel_fit == "lsq5";
    if (o->sgm != "on" && o->sgm != "off") throw Error("--sgm '" + o->sgm + "': use on or off");
    o->rp.semi_global = o->sgm == "on";
    if (o->sgm_data != "weighted" && o->sgm_data != "plain")
      throw Error("--sgm-data '" + o->sgm_data + "': use weighted or plain");
    o->rp.sgm_weighted = o->sgm_data == "weighted";
    validate(o->rp);
    const bool refining = o->rp.mode != LfRefineMode::None;
    for (const std::string* f : {&o->confidence, &o->raw_out}) {
      if (f->empty()) continue;
      const char* name = f == &o->confidence ? "--confidence" : "--raw-out";
      if (!refining) throw Error(std::string(name) + " needs --refine filter, subpixel or full");
      if (file_extension(*f) != ".pfm") throw Error(std::string(name) + " '" + *f + "': use .pfm");
      if (*f == o->out) throw Error(std::string(name) + " '" + *f + "' is also --out");
    }
    if (!o->confidence.empty() && o->confidence == o->raw_out)
      throw Error("--confidence and --raw-out name the same file '" + o->confidence + "'");
    if (o->repeat < 1 || o->repeat > 10000) throw Error("--repeat must be in 1..10000");
    if (o->border < 0) throw Error("--border must be >= 0, got " + std::to_string(o->border));
    CaeParams p;
    p.views = o->views;
    p.labels = o->labels;
    const auto dr = parse_pair("--drange", o->drange);
    p.dmin = static_cast<float>(dr.first);
    p.dmax = static_cast<float>(dr.second);
    p.sigma = o->sigma;
    p.method = parse_cae_method(o->method);
    p.normalized_log = o->normalized_log;
    validate(p);
    CaeRunOptions ro;
    if (!o->crop.empty()) ro.roi = parse_crop(o->crop);

    const BackendRequest req = parse_backend_request(o->backend);
    std::unique_ptr<LightFieldDepthEstimator> est;
    std::string reason;
    const BackendKind kind = builtin_registry().choose(req, &reason);  // the registry's choice
#if defined(LB_HAVE_CUDA) && LB_HAVE_CUDA
    if (kind == BackendKind::Cuda) est = cuda::make_lf_depth_cuda();
#endif
    if (!est) {
      (void)kind;
      est = make_lf_depth_cpu();
    }
    if (!o->variant.empty() && est->kind() == BackendKind::Cpu && o->variant != "reference")
      throw Error("--variant '" + o->variant + "' names a CUDA kernel; the CPU backend runs the reference (" +
                  reason + ")");

    if (const LightFieldHeader lh = probe_lightfield_header(o->lf); lh.known)
      check_memory("lfdepth",
                   cae_host_bytes(p, lh.views, lh.width, lh.height) +
                       (refining ? lf_refine_host_bytes(o->rp, p, lh.width, lh.height) : 0),
                   cae_device_bytes(p, lh.width, lh.height) +
                       (refining ? lf_refine_device_bytes(o->rp, p, lh.width, lh.height) : 0),
                   est->kind() == BackendKind::Cuda);
    progress("lfdepth: loading " + o->lf + " ...");
    LightFieldLoadOptions lo = parse_lf_grid(o->grid);
    LightField4D lf = load_lightfield(o->lf, lo);
    ImageF gt = lf.gt;
    std::string gt_source = lf.has_gt() ? o->lf + " (folder)" : "";
    if (!o->gt.empty()) {
      gt = load_pfm(o->gt);
      gt_source = o->gt;
      LB_REQUIRE(gt.channels == 1 && gt.width == lf.width && gt.height == lf.height,
                 "--gt '" + o->gt + "': expected a " + std::to_string(lf.width) + "x" +
                     std::to_string(lf.height) + " single-channel PFM");
    }
    validate(p, lf);
    ro.roi = resolve_roi(ro.roi, lf.width, lf.height);  // before computing: "--crop ... is not inside"
    if (!gt.empty()) {
      try {
        hci_require_truth(gt, ro.roi.x, ro.roi.y, ro.roi.w, ro.roi.h, o->border);
      } catch (const Error& e) {
        throw Error("'" + gt_source + "': " + e.what());
      }
    }
    est->set_lightfield(lf);
    const std::string variant = o->variant.empty() ? est->default_variant(p.method) : o->variant;
    LfDepthResult r;
    LfRefineResult rr;
    bool refined_on_device = false;
    const ImageF guide = refining ? lf_refine_guide(lf.centre(), ro.roi, o->rp.color_guide) : ImageF();
    for (int k = 0; k < o->repeat; ++k) {
      progress("lfdepth: " + std::string(to_string(p.method)) + (refining ? " + refine " : " ") +
               std::to_string(k + 1) + "/" + std::to_string(o->repeat));
      if (refining)
        rr = run_refined(*est, lf, p, variant, ro, o->rp, guide, &r, &refined_on_device);
      else
        r = est->run(p, variant, ro);
    }
    progress_done();
    const ImageF& final_map = refining ? rr.refined : r.disparity;
    save_pfm(o->out, final_map);
    if (!o->raw_out.empty()) save_pfm(o->raw_out, r.disparity);
    if (!o->confidence.empty()) save_pfm(o->confidence, rr.confidence);
    std::printf("lfdepth %dx%d at (%d,%d), %dx%d views, %d labels [%g, %g], %s on %s [%s]: %.3f ms -> %s\n",
                r.roi.w, r.roi.h, r.roi.x, r.roi.y, p.views, p.views, p.labels, p.dmin, p.dmax,
                to_string(p.method), est->device_name().c_str(), r.variant.c_str(), r.ms, o->out.c_str());
    HciScore score;
    const bool scored = !gt.empty();
    HciScore raw_score;
    if (scored && refining) {
      raw_score = hci_score_region(r.disparity, gt, r.roi.x, r.roi.y, o->border);
      std::printf("unrefined (exact WTA): BadPix0.07 %.2f %%  MSEx100 %.3f; refine %s: defocus %.1f ms, normalize %.1f "
                  "ms, filter %.1f ms, fuse %.1f ms, semi-global %.1f ms, wta %.1f ms, median %.1f ms (%s)\n",
                  raw_score.badpix_007, raw_score.mse_x100, to_string(o->rp.mode), rr.defocus_ms, rr.normalize_ms,
                  rr.filter_ms, rr.fuse_ms, rr.aggregate_ms, rr.wta_ms, rr.median_ms, refined_on_device ? "CUDA events" : "CPU");
    }
    if (scored) {
      score = hci_score_region(final_map, gt, r.roi.x, r.roi.y, o->border);
      std::printf("score vs %s (border %d, %zu px): BadPix0.07 %.2f %%  BadPix0.03 %.2f %%  BadPix0.01 %.2f %%  MSEx100 %.3f\n",
                  gt_source.c_str(), o->border, score.pixels, score.badpix_007, score.badpix_003,
                  score.badpix_001, score.mse_x100);
    }
    if (!o->json.empty()) {
      Report rep("lfdepth");
      rep.root()["parameters"] = {{"lf", o->lf},
                                  {"layout", lf.layout},
                                  {"grid", {lf.nu, lf.nv}},
                                  {"size", {lf.width, lf.height}},
                                  {"views", p.views},
                                  {"labels", p.labels},
                                  {"dmin", p.dmin},
                                  {"dmax", p.dmax},
                                  {"sigma", p.sigma},
                                  {"normalized_log", p.normalized_log},
                                  {"crop", {r.roi.x, r.roi.y, r.roi.w, r.roi.h}},
                                  {"repeat", o->repeat}};
      rep.root()["backend"] = to_string(est->kind());
      rep.root()["device"] = est->device_name();
      rep.root()["backend_reason"] = reason;
      rep.root()["method"] = to_string(p.method);
      rep.root()["variant"] = r.variant;
      rep.root()["last_ms"] = r.ms;
      rep.add_output("disparity", o->out, final_map.width, final_map.height);
      if (refining) {
        rep.root()["refine"] = {{"mode", to_string(o->rp.mode)},
                                {"backend", refined_on_device ? "cuda" : "cpu"},
                                {"defocus_weight", o->rp.defocus_weight},
                                {"defocus_radius", o->rp.defocus_radius},
                                {"fusion", o->fusion},
                                {"subpixel_fit", o->subpixel_fit},
                                {"defocus_filter_radius", o->rp.defocus_filter_radius},
                                {"sgm", o->sgm},
                                {"sgm_data", o->sgm_data},
                                {"sgm_p1", o->rp.sgm_p1},
                                {"sgm_p2", o->rp.sgm_p2},
                                {"sgm_edge", o->rp.sgm_edge},
                                {"gf_guide", o->gf_guide},
                                {"gf_radius", o->rp.radius},
                                {"gf_eps", o->rp.eps},
                                {"median_radius", o->rp.median_radius},
                                {"median_sigma", o->rp.median_sigma},
                                {"median_iterations", o->rp.median_iterations},
                                {"defocus_ms", rr.defocus_ms},
                                {"normalize_ms", rr.normalize_ms},
                                {"filter_ms", rr.filter_ms},
                                {"fuse_ms", rr.fuse_ms},
                                {"aggregate_ms", rr.aggregate_ms},
                                {"wta_ms", rr.wta_ms},
                                {"median_ms", rr.median_ms}};
        if (!o->raw_out.empty()) rep.add_output("raw_disparity", o->raw_out, r.disparity.width, r.disparity.height);
        if (!o->confidence.empty())
          rep.add_output("confidence", o->confidence, rr.confidence.width, rr.confidence.height);
        if (scored)
          rep.root()["unrefined"] = {{"badpix_007", raw_score.badpix_007},
                                     {"badpix_003", raw_score.badpix_003},
                                     {"badpix_001", raw_score.badpix_001},
                                     {"mse_x100", raw_score.mse_x100}};
      }
      rep.add_timings(est->timings());
      if (scored) {
        rep.root()["ground_truth"] = gt_source;
        rep.root()["border"] = o->border;
        rep.root()["evaluated_pixels"] = score.pixels;
        rep.root()["badpix_007"] = score.badpix_007;
        rep.root()["badpix_003"] = score.badpix_003;
        rep.root()["badpix_001"] = score.badpix_001;
        rep.root()["mse_x100"] = score.mse_x100;
      }
      rep.write(o->json);
    }
  };
}

}  // namespace lb::cli
