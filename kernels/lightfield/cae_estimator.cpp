// The CUDA light-field depth estimator (make_lightfield_engine_cuda) and the public variant list of
// lightfield/cae_cuda.hpp, on the launchers of cae_launch.hpp.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "lightfield/cae_launch.hpp"
#include "lightfield/guided_filter.hpp"
#include "lightfield/lf_refine_launch.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightfield/lightfield_engine.hpp"
#include "lightfield/lf_refine.hpp"
#include "lightfield/lf_refine_math.hpp"
#include "disparity_score.hpp"
#include "lightfield/lightfield_refocus.hpp"
#include "surface_write.hpp"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/backend.hpp"
#include "lightfield/cae_cuda.hpp"

namespace lb::cuda {

std::vector<std::string> cae_variants() {
  std::vector<std::string> v;
  for (detail::CaeKernel k : detail::all_cae_kernels()) v.emplace_back(detail::cae_kernel_name(k));
  return v;
}

CaeMethod cae_variant_method(const std::string& variant) {
  return detail::cae_kernel_method(detail::parse_cae_kernel(variant));
}

namespace {

using namespace detail;

class CudaLfDepth final : public LightFieldEngine {
 public:
  explicit CudaLfDepth(int device) : device_(device) {
    std::string why;
    if (!device_available(&why)) throw Error("CUDA light-field depth: " + why);
    CUDA_CHECK_THROW(cudaSetDevice(device));
    info_ = device_info(device);
    stream_ = std::make_unique<Stream>();
    side_ = std::make_unique<Stream>();
    stats_ready_ = std::make_unique<Event>();
    e0_ = std::make_unique<Event>();
    e1_ = std::make_unique<Event>();
    e2_ = std::make_unique<Event>();
  }
  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string device_name() const override { return info_.name; }
  void set_lightfield(const LightField4D& lf) override {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    has_last_dev_ = false;
    lf_.upload(lf, stream_->get());
    views_f_for_ = -1;
    has_gt_ = lf.has_gt();
    if (has_gt_) gt_.upload(lf.gt, stream_->get());
  }
  bool has_lightfield() const override { return !lf_.empty(); }
  std::vector<std::string> variants() const override { return cae_variants(); }
  std::string default_variant(CaeMethod m) const override {
    return m == CaeMethod::Binned ? "binned" : m == CaeMethod::Exact ? "exact" : "coalesced";
  }
  LfDepthResult run(const CaeParams& p, const std::string& variant_in, const CaeRunOptions& o) override {
    LfDepthResult r = run_device(p, variant_in, o);
    const cudaStream_t s = stream_->get();
    const std::size_t npx = static_cast<std::size_t>(r.roi.w) * r.roi.h;
    const float* d_disp = maps_.as<float>();
    const int* d_label = reinterpret_cast<const int*>(d_disp + npx);
    const float* d_conf = d_disp + 2 * npx;
    r.disparity = ImageF(r.roi.w, r.roi.h, 1);
    r.confidence = ImageF(r.roi.w, r.roi.h, 1);
    r.labels.resize(npx);
    CUDA_CHECK_THROW(cudaMemcpyAsync(r.disparity.data.data(), d_disp, npx * 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaMemcpyAsync(r.labels.data(), d_label, npx * 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaMemcpyAsync(r.confidence.data.data(), d_conf, npx * 4, cudaMemcpyDeviceToHost, s));
    if (o.keep_cost) {
      r.cost.resize(npx * p.labels);
      CUDA_CHECK_THROW(cudaMemcpyAsync(r.cost.data(), cost_.get(), r.cost.size() * 4, cudaMemcpyDeviceToHost, s));
    }
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    return r;
  }

  // The disparity stays on the device and goes straight into the surface (a registered GL
  // texture: CUDA-GL interop); kept for the error map and the score.
  void run_to_surface(const CaeParams& p, const std::string& variant, Surface& out, const CaeRunOptions& o) override {
    const LfDepthResult r = run_device(p, variant, o);
    last_roi_ = r.roi;
    has_last_dev_ = true;
    write_surface_r32f(out, disparity_plane(), stream_->get(), &staging_);
  }
  void last_error_to_surface(Surface& out) override {
    LB_REQUIRE(has_last_dev_, "light-field error: no depth computed yet");
    LB_REQUIRE(has_gt_, "this light field has no ground truth");
    hci_error_map_to_surface(disparity_plane(), gt_, last_roi_.x, last_roi_.y, out, stream_->get(), &staging_);
  }
  HciScore score_last(int border) override {
    LB_REQUIRE(has_last_dev_, "light-field score: no depth computed yet");
    LB_REQUIRE(has_gt_, "this light field has no ground truth");
    return hci_score_region_device(disparity_plane(), gt_, last_roi_.x, last_roi_.y, border, stream_->get());
  }
  std::unique_ptr<Surface> scratch_surface(SurfaceFormat f) override { return make_cuda_surface(f); }
  void view_to_surface(int u, int v, Surface& out) override {
    LB_REQUIRE(has_lightfield(), "no light field loaded");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    detail::view_to_surface(views(), u, v, out, stream_->get(), &staging_);
  }
  void refocus_to_surface(float disparity, int aperture_radius, Surface& out) override {
    LB_REQUIRE(has_lightfield(), "no light field loaded");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const cudaStream_t s = stream_->get();
    CUDA_CHECK_THROW(cudaEventRecord(e0_->get(), s));
    detail::refocus_to_surface(views(), disparity, aperture_radius, out, s, &staging_);
    CUDA_CHECK_THROW(cudaEventRecord(e1_->get(), s));
    CUDA_CHECK_THROW(cudaEventSynchronize(e1_->get()));
    float ms = 0;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, e0_->get(), e1_->get()));
    const int r = aperture_radius;
    const std::uint64_t nviews = static_cast<std::uint64_t>(std::min(lf_.nu, 2 * r + 1)) * std::min(lf_.nv, 2 * r + 1);
    timings_.record("refocus/cuda", ms, (nviews + 1) * lf_.bytes_per_view_rgba());
  }

 private:
  LightFieldViews views() const {
    LightFieldViews v;
    v.data = lf_.rgba.as<uchar4>();
    v.nu = lf_.nu;
    v.nv = lf_.nv;
    v.width = lf_.width;
    v.height = lf_.height;
    return v;
  }
  DeviceFloatPlane disparity_plane() const {
    DeviceFloatPlane d;
    d.ptr = maps_.as<float>();
    d.pitch = static_cast<std::size_t>(last_roi_.w) * 4;
    d.width = last_roi_.w;
    d.height = last_roi_.h;
    return d;
  }
  // The depth pass with the disparity, labels and confidence left on the device (maps_).
  // The whole refinement on the device: the cost volume never leaves the GPU (lf_refine.hpp).
  bool refine_device(const CaeParams& p, const std::string& variant, const CaeRunOptions& o, const LfRefineParams& rp,
                     const ImageF& guide, LfDepthResult* raw, LfRefineResult* out) override {
    validate(rp);
    LB_REQUIRE(rp.mode != LfRefineMode::None, "refine: mode none has nothing to refine");
    CaeRunOptions ro = o;
    ro.keep_cost = false;
    // The buffers first: exact_chan writes the raw defocus volume in the CAE pass itself.
    LB_REQUIRE(has_lightfield(), "lfdepth: no light field loaded");
    validate(p);
    const CaeRoi roi = resolve_roi(o.roi, lf_.width, lf_.height);  // run's region
    const int w = roi.w, h = roi.h, A = p.labels;
    const int gc = rp.color_guide ? 3 : 1;
    LB_REQUIRE(guide.width == w && guide.height == h && guide.channels == gc,
               "refine: the guide does not match the region");
    const std::size_t npx = static_cast<std::size_t>(w) * h, vol = npx * static_cast<std::size_t>(A);
    const bool blend = rp.defocus_weight > 0.0f;
    const std::size_t gf_scratch = rp.color_guide ? detail::guided_filter_rgb_scratch_bytes(w, h, A)
                                                  : detail::guided_filter_scratch_bytes(w, h, A);
    const cudaStream_t s = stream_->get();
    has_refined_ = false;
    // The guide's statistics for each filter radius (launch_guided_filter_stats) after the
    // maps' planes.
    const std::size_t stats_planes = static_cast<std::size_t>(detail::guided_filter_stats_planes(gc));
    refine_.reserve((blend ? 2 : 1) * vol * 4 + gf_scratch + (gc + 4 + 2 * stats_planes) * npx * 4,
                    "the refinement buffers");
    float* filtered = refine_.as<float>();
    float* defocus = blend ? filtered + vol : nullptr;
    float* scratch = filtered + (blend ? 2 : 1) * vol;
    float* g = scratch + gf_scratch / 4;
    float* d_filtered = g + gc * npx;
    float* d_refined = d_filtered + npx;
    float* d_conf = d_refined + npx;
    float* d_tmp = d_conf + npx;
    float* stats_cae = d_tmp + npx;
    float* stats_def = stats_cae + stats_planes * npx;
    const bool fuse = blend && rp.confidence_fusion;
    // The guide as planes [c][y][x] (the kernels' layout; the host image is interleaved), and
    // its statistics for both filters on the side stream, beside the CAE pass (they need only
    // the guide; the scratch's first planes are theirs until the filters start).
    std::vector<float> planes(gc * npx);
    for (std::size_t i = 0; i < npx; ++i)
      for (int c = 0; c < gc; ++c) planes[c * npx + i] = guide.data[i * gc + c];
    const cudaStream_t side = side_->get();
    CUDA_CHECK_THROW(cudaMemcpyAsync(g, planes.data(), planes.size() * 4, cudaMemcpyHostToDevice, side));
    detail::launch_guided_filter_stats(g, gc, w, h, rp.radius, rp.eps, stats_cae, scratch, side);
    if (fuse) detail::launch_guided_filter_stats(g, gc, w, h, rp.defocus_filter_radius, rp.eps, stats_def, scratch, side);
    CUDA_CHECK_THROW(cudaEventRecord(stats_ready_->get(), side));
    const bool fused =
        blend && detail::cae_kernel_writes_defocus(parse_cae_kernel(variant_or_default(p, variant)), p.views, lf_);
    // The raw volume where the box mean wants it (defocus, or filtered: free until the filter).
    fused_defocus_ = fused ? detail::lf_defocus_raw_target(rp.defocus_radius, defocus, filtered) : nullptr;
    *raw = run(p, variant, ro);  // cost_ stays on the device
    fused_defocus_ = nullptr;
    if (blend && !fused && views_f_for_ != p.views) {  // once per light field and window: not timed
      views_f_for_ = -1;
      views_f_.reserve(detail::lf_views_float_bytes(views(), p.views), "the light field's views in float");
      detail::launch_lf_views_to_float(views(), p.views, views_f_.as<float4>(), s);
      views_f_for_ = p.views;
    }
    Event ev[8];
    float* cost = cost_.as<float>();
    CUDA_CHECK_THROW(cudaEventRecord(ev[0].get(), s));
    // filtered is free until the filter: the box passes' scratch. Fused: the raw volume came
    // with the CAE pass (its time is in the CAE's), only the box mean is left. For the
    // confidence fusion at box radii 1 and 2 the box pass also takes both cues' ranges (into
    // the 4 planes from d_filtered on, free until the WTA) and the filters normalise as they
    // read: no normalised volumes.
    const bool ranges = fuse && detail::lf_box_ranges_apply(rp.defocus_radius);
    float* const rng = d_filtered;
    if (ranges && !fused)  // the raw volume where the CAE pass would have put it
      detail::launch_lf_defocus(views(), views_f_.as<float4>(), p.views, p.dmin, p.dmax, A, raw->roi.x, raw->roi.y, w,
                                h, 0, filtered, defocus, s);
    else if (fused && !ranges)
      detail::launch_lf_defocus_box(w, h, A, rp.defocus_radius, defocus, filtered, s);
    else if (blend && !fused)
      detail::launch_lf_defocus(views(), views_f_.as<float4>(), p.views, p.dmin, p.dmax, A, raw->roi.x, raw->roi.y, w,
                                h, rp.defocus_radius, defocus, filtered, s);
    CUDA_CHECK_THROW(cudaEventRecord(ev[1].get(), s));
    if (ranges)
      detail::launch_lf_box_ranges(filtered, cost, w, h, A, rp.defocus_radius, defocus, rng, s);
    else
      detail::launch_lf_normalize(cost, defocus, rp.defocus_weight, fuse, static_cast<long long>(npx), A, s);
    CUDA_CHECK_THROW(cudaEventRecord(ev[2].get(), s));
    auto filter = [&](const float* src, int radius, float* dst, const float* lo, const float* stats) {
      const float* hi = lo ? lo + npx : nullptr;
      if (rp.color_guide)
        detail::launch_guided_filter_rgb(g, w, h, src, A, radius, rp.eps, dst, scratch, s, lo, hi, stats);
      else
        detail::launch_guided_filter(g, w, h, src, A, radius, rp.eps, dst, scratch, s, lo, hi, stats);
    };
    CUDA_CHECK_THROW(cudaStreamWaitEvent(s, stats_ready_->get(), 0));  // the guide and its statistics
    filter(cost, rp.radius, filtered, ranges ? rng : nullptr, stats_cae);
    // The CAE volume is spent once filtered: the defocus cue's filtered volume goes there.
    if (fuse) filter(defocus, rp.defocus_filter_radius, cost, ranges ? rng + 2 * npx : nullptr, stats_def);
    CUDA_CHECK_THROW(cudaEventRecord(ev[3].get(), s));
    // With the semi-global step after the fusion, the fusion writes the paths' pixel-major
    // input (into the raw defocus volume, spent once filtered) and the confidence itself.
    const bool fuse_pm = fuse && rp.semi_global && detail::lf_fuse_pixel_major_pixels(A) > 0;
    if (fuse_pm)
      detail::launch_lf_fuse_pixel_major(filtered, cost, rp.defocus_weight, static_cast<long long>(npx), A,
                                         rp.sgm_weighted, defocus, d_conf, s);
    else if (fuse)
      detail::launch_lf_fuse(filtered, cost, rp.defocus_weight, static_cast<long long>(npx), A, s);
    CUDA_CHECK_THROW(cudaEventRecord(ev[4].get(), s));
    if (rp.semi_global) {
      // The filter's scratch (>= 4 volumes and 2 planes) holds the paths and the edges' jump
      // prices; the spent CAE volume the pixel-major input (unless the fusion wrote it), d_tmp
      // (the median's ping-pong plane, free until then) the weights. The WTA sums the paths.
      static_assert(lfr::kSgmPaths <= 4, "the paths must fit the guided filter's scratch");
      LB_REQUIRE(gf_scratch >= (4 * vol + 2 * npx) * 4, "semi-global: the filter's scratch is too small for the paths");
      if (fuse_pm)
        detail::launch_lf_sgm_paths(defocus, g, gc, w, h, A, rp.sgm_p1, rp.sgm_p2, rp.sgm_edge, scratch, s);
      else
        detail::launch_lf_semi_global(filtered, g, gc, w, h, A, rp.sgm_p1, rp.sgm_p2, rp.sgm_edge, rp.sgm_weighted,
                                      d_tmp, scratch, cost, false, s);
    }
    CUDA_CHECK_THROW(cudaEventRecord(ev[5].get(), s));
    const bool sub = rp.mode == LfRefineMode::Subpixel || rp.mode == LfRefineMode::Full;
    // With the semi-global step the labels come from its paths' sum, the confidence from the
    // fused curves (refine_depth_cpu's choice; the pixel-major fusion has written it).
    detail::launch_lf_wta(rp.semi_global ? scratch : filtered, rp.semi_global, rp.semi_global ? lfr::kSgmPaths : 1,
                          rp.semi_global && !fuse_pm ? filtered : nullptr, static_cast<long long>(npx), A, p.dmin, p.dmax, sub,
                          rp.subpixel_wide, d_filtered, d_refined, fuse_pm ? nullptr : d_conf, s);
    CUDA_CHECK_THROW(cudaEventRecord(ev[6].get(), s));
    if (rp.mode == LfRefineMode::Full)
      for (int k = 0; k < rp.median_iterations; ++k) {
        detail::launch_lf_median(d_refined, d_conf, g, gc, w, h, rp.median_radius, rp.median_sigma, d_tmp, s);
        std::swap(d_refined, d_tmp);
      }
    CUDA_CHECK_THROW(cudaEventRecord(ev[7].get(), s));
    ref_refined_ = d_refined;
    ref_filtered_ = d_filtered;
    ref_conf_ = d_conf;
    ref_roi_ = raw->roi;
    has_refined_ = true;
    out->filtered = ImageF(w, h, 1);
    out->refined = ImageF(w, h, 1);
    out->confidence = ImageF(w, h, 1);
    CUDA_CHECK_THROW(cudaMemcpyAsync(out->filtered.data.data(), d_filtered, npx * 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaMemcpyAsync(out->refined.data.data(), d_refined, npx * 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaMemcpyAsync(out->confidence.data.data(), d_conf, npx * 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    float t[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 7; ++i) CUDA_CHECK_THROW(cudaEventElapsedTime(&t[i], ev[i].get(), ev[i + 1].get()));
    out->defocus_ms = t[0];
    out->normalize_ms = t[1];
    out->filter_ms = t[2];
    out->fuse_ms = t[3];
    out->aggregate_ms = t[4];
    out->wta_ms = t[5];
    out->median_ms = t[6];
    // Bytes: the defocus cost writes the raw volume (unless the CAE pass did) and box-filters it
    // (lf_defocus_box_volumes) unless the ranges pass does: that one reads the raw and CAE
    // volumes and writes the boxed one; else normalize reads and writes the CAE volume (and
    // reads the defocus one); the filter's passes move 10 volumes (gray) or 18 (colour).
    if (blend)
      timings_.record("lfdepth/refine/defocus cost", t[0],
                      vol * 4 * ((fused ? 0 : 1) + (ranges ? 0 : detail::lf_defocus_box_volumes(rp.defocus_radius))));
    timings_.record("lfdepth/refine/normalize", t[1], ranges ? vol * 4 * 3 : vol * (fuse ? 16 : blend ? 12 : 8));
    timings_.record("lfdepth/refine/guided filter", t[2], vol * 4 * (rp.color_guide ? 18 : 10) * (fuse ? 2 : 1));
    // fuse: pixel-major, each volume read once and the input written once; else each volume
    // read twice for its curve statistics and once for the blend, one write.
    if (fuse) timings_.record("lfdepth/refine/fuse", t[3], vol * 4 * (fuse_pm ? 3 : 7));
    // semi-global: (unless the fusion wrote it) the weights and the transpose read the volume
    // and write it; each path reads it and writes its own; the WTA sums the paths.
    if (rp.semi_global)
      timings_.record("lfdepth/refine/semi-global", t[4],
                      vol * 4 * ((fuse_pm ? 0 : rp.sgm_weighted ? 3 : 2) + 2 * lfr::kSgmPaths));
    timings_.record("lfdepth/refine/wta + subpixel", t[5],
                    rp.semi_global ? vol * 4 * (lfr::kSgmPaths + (fuse_pm ? 0 : 1)) : vol * 8);
    if (rp.mode == LfRefineMode::Full) timings_.record("lfdepth/refine/weighted median", t[6], 0);
    return true;
  }

  bool refined_to_surface(const std::string& which, Surface& out) override {
    LB_REQUIRE(has_refined_, "light-field refinement: nothing refined yet");
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    DeviceFloatPlane d;
    d.ptr = which == "confidence" ? ref_conf_ : which == "filtered" ? ref_filtered_ : ref_refined_;
    d.pitch = static_cast<std::size_t>(ref_roi_.w) * 4;
    d.width = ref_roi_.w;
    d.height = ref_roi_.h;
    if (which == "refined" || which == "confidence" || which == "filtered") {
      write_surface_r32f(out, d, stream_->get(), &staging_);
    } else if (which == "refined_error") {
      LB_REQUIRE(has_gt_, "this light field has no ground truth");
      hci_error_map_to_surface(d, gt_, ref_roi_.x, ref_roi_.y, out, stream_->get(), &staging_);
    } else {
      throw Error("light-field refinement: no map '" + which + "'");
    }
    return true;
  }

  std::string variant_or_default(const CaeParams& p, const std::string& variant) const {
    return variant.empty() ? default_variant(p.method) : variant;
  }

  LfDepthResult run_device(const CaeParams& p, const std::string& variant_in, const CaeRunOptions& o) {
    LB_REQUIRE(has_lightfield(), "lfdepth: no light field loaded");
    validate(p);
    LB_REQUIRE(p.views <= lf_.nu && p.views <= lf_.nv && (p.views / 2) <= lf_.nu / 2 &&
                   lf_.nu / 2 + p.views / 2 < lf_.nu && lf_.nv / 2 + p.views / 2 < lf_.nv,
               "views: a " + std::to_string(p.views) + "x" + std::to_string(p.views) +
                   " window does not fit the " + std::to_string(lf_.nu) + "x" + std::to_string(lf_.nv) +
                   " light field");
    const std::string variant = variant_or_default(p, variant_in);
    const CaeKernel k = parse_cae_kernel(variant);
    LB_REQUIRE(cae_kernel_method(k) == p.method,
               "--variant " + variant + " computes the " + to_string(cae_kernel_method(k)) +
                   " cost, not --method " + to_string(p.method));
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    LfDepthResult r;
    r.roi = resolve_roi(o.roi, lf_.width, lf_.height);
    r.variant = variant;
    const cudaStream_t s = stream_->get();
    if (tables_sigma_ != p.sigma) {
      const std::vector<float> t = cae_weight_tables(p.sigma);
      tables_.reserve(t.size() * 4);
      CUDA_CHECK_THROW(cudaMemcpyAsync(tables_.get(), t.data(), t.size() * 4, cudaMemcpyHostToDevice, s));
      tables_sigma_ = p.sigma;
    }
    const std::size_t npx = static_cast<std::size_t>(r.roi.w) * r.roi.h;
    if (npx * p.labels * 4 > cost_.size() || npx * 12 > maps_.size()) {
      CUDA_CHECK_THROW(cudaStreamSynchronize(s));  // queued work may read the old buffers
      has_last_dev_ = false;
    }
    cost_.reserve(npx * p.labels * 4);
    maps_.reserve(npx * 12);
    float* d_disp = maps_.as<float>();
    int* d_label = reinterpret_cast<int*>(d_disp + npx);
    float* d_conf = d_disp + 2 * npx;
    CUDA_CHECK_THROW(cudaEventRecord(e0_->get(), s));
    launch_cae_cost(lf_, p, r.roi, k, tables_.as<float>(), cost_.as<float>(), s, fused_defocus_);
    CUDA_CHECK_THROW(cudaEventRecord(e1_->get(), s));
    launch_cae_wta(p, r.roi, cost_.as<float>(), d_disp, d_label, d_conf, s);
    CUDA_CHECK_THROW(cudaEventRecord(e2_->get(), s));
    CUDA_CHECK_THROW(cudaEventSynchronize(e2_->get()));
    float t_cost = 0, t_wta = 0;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t_cost, e0_->get(), e1_->get()));
    CUDA_CHECK_THROW(cudaEventElapsedTime(&t_wta, e1_->get(), e2_->get()));
    timings_.record("lfdepth/" + variant, t_cost, cae_cost_bytes(p, r.roi, lf_.width, lf_.height, k));
    timings_.record("lfdepth/wta", t_wta, cae_wta_bytes(p, r.roi));
    r.ms = static_cast<double>(t_cost) + t_wta;
    return r;
  }

  int device_;
  DeviceInfo info_;
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<Stream> side_;         // refine_device: the guide's statistics, beside the CAE pass
  std::unique_ptr<Event> stats_ready_;   // ... done
  CaeDeviceLightField lf_;
  DeviceBuffer tables_, cost_, maps_, refine_;
  DeviceBuffer views_f_;   // the defocus cost's views in float (launch_lf_views_to_float)
  float* fused_defocus_ = nullptr;  // refine_device: where run_device's exact_chan pass writes the raw defocus
  int views_f_for_ = -1;   // ... of this window size; -1: none yet
  const float* ref_refined_ = nullptr;
  const float* ref_filtered_ = nullptr;  // the last refine_device's maps (in refine_)
  const float* ref_conf_ = nullptr;
  CaeRoi ref_roi_;
  bool has_refined_ = false;
  float tables_sigma_ = -1.0f;
  std::unique_ptr<Event> e0_, e1_, e2_;
  DeviceHciTruth gt_;      // the light field's ground truth (error map, score) when has_gt_
  bool has_gt_ = false;
  PitchedBuffer staging_;  // surfaces that take host images only
  CaeRoi last_roi_;        // of the disparity in maps_ (run_to_surface)
  bool has_last_dev_ = false;
};

}  // namespace

std::unique_ptr<LightFieldEngine> make_lightfield_engine_cuda(int device) {
  return std::make_unique<CudaLfDepth>(device);
}

}  // namespace lb::cuda
