// The 4D light field (seed 003, ../shared/specs/lightfield4d-cae.md) in the contract:
//   view      sub-aperture view (u, v) (RGBA8)       refocus  shift-and-add refocus (RGBA8)
//   depth     CAE disparity (R32F)                    error    |depth - truth| (R32F)
//   refined   refined disparity (lf_refine.hpp)       confidence, refined_error (R32F)
//   centre, truth   the data
// The variant picks the CAE kernel and with it the method (cae / binned / exact); the CPU
// runs the double reference of that method. The runner drives a LightFieldEngine
// (CPU, or CUDA from kernels/, which keeps the views and the last depth on the device).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "lightbench/algorithms.hpp"
#include "lightfield/lightfield_engine.hpp"
#include "lightbench/error.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/memory_budget.hpp"

namespace lb {
namespace {

const std::vector<std::string> kCaeParams = {"views", "labels", "dmin", "dmax", "sigma", "normalized_log"};
// What the filtered map depends on; the refined one also on the sub-pixel / median steps.
const std::vector<std::string> kFilterParams = {"views",          "labels",         "dmin",     "dmax",
                                                "sigma",          "normalized_log", "gf_color", "gf_radius",
                                                "gf_eps",         "defocus_weight", "defocus_radius",
                                                "fusion_confidence", "defocus_filter_radius", "semi_global",
                                                "sgm_weighted",   "sgm_p1",         "sgm_p2",
                                                "sgm_edge"};
const std::vector<std::string> kRefineParams = [] {
  std::vector<std::string> v = kFilterParams;
  for (const char* n : {"refine_mode", "subpixel_wide", "median_radius", "median_sigma", "median_iterations"})
    v.push_back(n);
  return v;
}();

const AlgorithmSpec& spec() {
  static const AlgorithmSpec s = lightfield_spec();
  return s;
}

int score_border(const LightField4D& lf) { return hci_default_border(lf.width, lf.height); }

class LightFieldRunner final : public Runner {
 public:
  explicit LightFieldRunner(std::unique_ptr<LightFieldEngine> e) : est_(std::move(e)) {
    LB_REQUIRE(est_ != nullptr, "light-field runner without an estimator");
  }
  BackendKind kind() const override { return est_->kind(); }
  TimingRegistry& timings() override { return est_->timings(); }
  std::string device_name() const override { return est_->device_name(); }
  void set_data(std::shared_ptr<const AlgorithmData> data) override {
    const auto& d = data_as<LightFieldData>(*data, DataKind::LightField);
    est_->set_lightfield(d.lf);
    est_->set_host_lightfield(&d.lf);
    data_ = std::move(data);
    depth_key_.clear();
    scores_ = nlohmann::json::object();
  }

  void forget_results() override {
    depth_key_.clear();
    refined_key_.clear();
  }

  void run(const ParamValues& values, const std::string& variant_in, const std::string& output,
           Surface& out) override {
    LB_REQUIRE(data_ != nullptr, "no light field loaded");
    const LightField4D& lf = static_cast<const LightFieldData&>(*data_).lf;
    const LightFieldRunParams p = lightfield_params(values, lf);
    if (output == "view") {
      est_->view_to_surface(p.u, p.v, out);
    } else if (output == "centre") {
      est_->view_to_surface(lf.uc(), lf.vc(), out);
    } else if (output == "truth") {
      LB_REQUIRE(lf.has_gt(), "this light field has no ground truth");
      out.resize(lf.gt.width, lf.gt.height);
      out.upload_host(lf.gt);
    } else if (output == "refocus") {
      est_->refocus_to_surface(p.refocus, p.aperture, out);
    } else if (output == "depth") {
      depth(p, variant_in, &out);
    } else if (output == "error") {
      LB_REQUIRE(lf.has_gt(), "this light field has no ground truth");
      depth(p, variant_in, nullptr);
      est_->last_error_to_surface(out);
    } else if (output == "refined" || output == "filtered" || output == "confidence" || output == "refined_error") {
      LB_REQUIRE(output != "refined_error" || lf.has_gt(), "this light field has no ground truth");
      refined(p, variant_in);
      if (!est_->refined_to_surface(output, out)) {  // CPU: the host maps
        const ImageF& img = output == "refined"      ? refined_.refined
                            : output == "filtered"   ? refined_.filtered
                            : output == "confidence" ? refined_.confidence
                                                     : refined_error_;
        out.resize(img.width, img.height);
        out.upload_host(img);
      }
    } else {
      throw Error("light field: no output '" + output + "'");
    }
  }

 private:
  // The CAE depth of p into out (or a scratch run when out is null and the last depth is
  // another one); scores it when the light field has ground truth.
  void depth(const LightFieldRunParams& p, const std::string& variant_in, Surface* out) {
    const LightField4D& lf = static_cast<const LightFieldData&>(*data_).lf;
    const std::string variant = spec().resolve_variant(variant_in);
    CaeParams cp = p.cae;
    cp.method = cae_variant_method(variant);
    validate(cp, lf);
    const std::string key = depth_cache_key(variant, cp) + '|' + std::to_string(p.border);
    if (!out && key == depth_key_) return;
    // The memory budget (memory_budget.hpp): refused before the run, the caller keeps its image.
    check_host_memory("light field", cae_host_bytes(cp, lf.view_count(), lf.width, lf.height));
    if (est_->kind() == BackendKind::Cuda) check_device_memory("light field", cae_device_bytes(cp, lf.width, lf.height));
    const std::string run_variant = est_->kind() == BackendKind::Cuda ? variant : "";
    if (out) {
      est_->run_to_surface(cp, run_variant, *out);
    } else {
      // Depth for the error map or the score only: the estimator keeps it (CUDA: on the
      // device); the scratch surface takes the copy it writes.
      if (!scratch_) scratch_ = est_->scratch_surface(SurfaceFormat::R32F);
      est_->run_to_surface(cp, run_variant, *scratch_);
    }
    depth_key_ = key;
    last_variant_ = est_->kind() == BackendKind::Cuda ? variant : std::string("reference ") + to_string(cp.method);
    if (lf.has_gt()) {
      const HciScore s = est_->score_last(p.border);
      const nlohmann::json refined = scores_.contains("refined") ? scores_["refined"] : nlohmann::json();
      scores_ = {{"badpix_007", s.badpix_007}, {"badpix_003", s.badpix_003},
                 {"badpix_001", s.badpix_001}, {"mse_x100", s.mse_x100},
                 {"scored_pixels", s.pixels},  {"border", s.border},
                 {"scored_with", std::string(to_string(est_->kind())) + " " + last_variant_ + ", " +
                                     std::to_string(cp.views) + "x" + std::to_string(cp.views) + " views"}};
      if (!refined.is_null()) scores_["refined"] = refined;
    }
  }

  // What the exact map depends on: the data, the variant and the CAE parameters (exactly:
  // floats in hexadecimal).
  std::string depth_cache_key(const std::string& variant, const CaeParams& cp) const {
    std::ostringstream k;
    k << std::hexfloat << data_->id << '|' << variant << '|' << cp.views << ',' << cp.labels << ',' << cp.dmin << ','
      << cp.dmax << ',' << cp.sigma << ',' << cp.normalized_log;
    return k.str();
  }

  // The refined depth of p (issue 12: lf_refine.hpp) on the estimator's backend, cached by
  // its parameters; the scores are the refined map's.
  void refined(const LightFieldRunParams& p, const std::string& variant_in) {
    const LightField4D& lf = static_cast<const LightFieldData&>(*data_).lf;
    const std::string variant = spec().resolve_variant(variant_in);
    CaeParams cp = p.cae;
    cp.method = cae_variant_method(variant);
    validate(cp, lf);
    LfRefineParams rp = p.refine;
    validate(rp);
    // Every refinement parameter, from its table (describe): a new one cannot be left out.
    std::ostringstream k;
    k << depth_cache_key(variant, cp) << '|' << p.border << '|' << to_string(rp.mode) << std::hexfloat;
    for (const ParamInfo& info : describe(rp)) k << ',' << info.get();
    if (k.str() == refined_key_) return;
    check_host_memory("light field", 2 * cae_host_bytes(cp, lf.view_count(), lf.width, lf.height) +
                                         lf_refine_host_bytes(rp, cp, lf.width, lf.height));
    if (est_->kind() == BackendKind::Cuda)
      check_device_memory("light field", 3 * cae_device_bytes(cp, lf.width, lf.height) +
                                             lf_refine_device_bytes(rp, cp, lf.width, lf.height));
    const CaeRoi roi{0, 0, lf.width, lf.height};
    LfDepthResult raw;
    refined_ = run_refined(*est_, lf, cp, est_->kind() == BackendKind::Cuda ? variant : "", {}, rp,
                           lf_refine_guide(lf.centre(), roi, rp.color_guide), &raw);  // times each step
    refined_key_ = k.str();
    last_variant_ = est_->kind() == BackendKind::Cuda ? variant : std::string("reference ") + to_string(cp.method);
    depth_key_.clear();  // the estimator's last depth may be another run's now
    refined_error_ = ImageF();
    if (lf.has_gt()) {
      // The raw (exact WTA) map of the same run takes the top-level scores, as a depth run's
      // would (the CLI reports them as "unrefined").
      if (!raw.disparity.empty()) {
        const HciScore r = hci_score_region(raw.disparity, lf.gt, 0, 0, p.border);
        scores_ = {{"badpix_007", r.badpix_007}, {"badpix_003", r.badpix_003},
                   {"badpix_001", r.badpix_001}, {"mse_x100", r.mse_x100},
                   {"scored_pixels", r.pixels},  {"border", r.border},
                   {"scored_with", std::string(to_string(est_->kind())) + " " + variant + " exact WTA, " +
                                       std::to_string(cp.views) + "x" + std::to_string(cp.views) + " views"}};
      }
      refined_error_ = hci_error_map(refined_.refined, lf.gt);
      const HciScore s = hci_score_region(refined_.refined, lf.gt, 0, 0, p.border);
      // Beside the raw map's scores (the exact WTA the CLI reports at the top level).
      scores_["refined"] = {{"badpix_007", s.badpix_007}, {"badpix_003", s.badpix_003},
                            {"badpix_001", s.badpix_001}, {"mse_x100", s.mse_x100},
                            {"scored_pixels", s.pixels},  {"border", s.border},
                            {"scored_with", std::string(to_string(est_->kind())) + " " + variant + " refined (" +
                                                to_string(rp.mode) + "), " + std::to_string(cp.views) + "x" +
                                                std::to_string(cp.views) + " views"}};
    }
  }

  std::unique_ptr<LightFieldEngine> est_;
  std::unique_ptr<Surface> scratch_;
  std::string depth_key_, refined_key_;
  LfRefineResult refined_;
  ImageF refined_error_;
};

struct CaeVariantRow {
  const char* name;
  CaeMethod method;
  bool bit_identical;
  const char* note;
};

// The one table of CAE kernel variants (kernels/lightfield/cae_cuda.hpp explains each).
const CaeVariantRow kCaeVariants[] = {
    {"baseline", CaeMethod::Cae, true, "one thread per (pixel, label), 256-bin histograms in local memory"},
    {"vec", CaeMethod::Cae, true, "+ RGBA8 loads, 3 channels per pass"},
    {"tex", CaeMethod::Cae, false, "+ hardware bilinear through a layered texture (8-bit weights)"},
    {"coalesced", CaeMethod::Cae, true, "2D pixel blocks, row-contiguous loads"},
    {"binned", CaeMethod::Binned, true, "64-bin histogram (Ivan et al.)"},
    {"binned_fast", CaeMethod::Binned, true, "binned with conversion-free sampling"},
    {"exact", CaeMethod::Exact, true, "occupied bins only: the fastest exact kernel for the window"},
    {"exact_smem", CaeMethod::Exact, true, "8-bit counters in shared memory, bin walk"},
    {"exact_smem_table", CaeMethod::Exact, true, "exact_smem with a (count, level) term table"},
    {"exact_terms", CaeMethod::Exact, false, "the exact CAE summed per sample (float error ~1e-6)"},
    {"exact_sort", CaeMethod::Exact, true, "SWAR sorting network per channel"},
    {"exact_chan", CaeMethod::Exact, true, "one channel at a time, shared-memory counts, defocus cue in the same pass"},
    {"exact_stash", CaeMethod::Exact, true, "exact_chan loading each texel once: two channels' levels stashed in shared memory"},
};

}  // namespace

CaeMethod cae_variant_method(const std::string& variant) {
  for (const auto& r : kCaeVariants)
    if (variant == r.name) return r.method;
  throw Error("unknown CAE variant '" + variant + "'");
}

std::vector<std::string> cae_variant_names() {
  std::vector<std::string> v;
  for (const auto& r : kCaeVariants) v.emplace_back(r.name);
  return v;
}

std::vector<ParamInfo> describe(LightFieldRunParams& p, const LightField4D* lf) {
  using K = ParamInfo::Kind;
  const int nu = lf ? lf->nu : 9, nv = lf ? lf->nv : 9;
  const int rmax = std::max(0, std::max(nu, nv) / 2);
  std::vector<ParamInfo> v = {
      {"u", "view u", "angular column of the view shown (drag on the pad: parallax)", K::Int, &p.u, 0,
       static_cast<double>(std::max(0, nu - 1))},
      {"v", "view v", "angular row of the view shown", K::Int, &p.v, 0, static_cast<double>(std::max(0, nv - 1))},
      {"refocus", "refocus disparity", "points at this disparity come out sharp (px per view)", K::Float,
       &p.refocus, -cae_max_abs_disparity(lf), cae_max_abs_disparity(lf)},
      {"aperture", "aperture radius", "refocus averages the views within this many of the centre", K::Int,
       &p.aperture, 0, static_cast<double>(rmax)},
  };
  for (auto& c : describe(p.cae, lf)) v.push_back(c);
  v.push_back({"normalized_log", "entropy with log(g/|g|)", "H = -sum p log p with p = g/|g| (not the spec's log g)",
               K::Bool, &p.cae.normalized_log, 0, 1});
  v.push_back({"refine_mode", "refine steps",
               "the refined output: 1 guided filter per label, 2 + sub-pixel fit, 3 + weighted median", K::Int,
               &p.refine_mode, 1, 3});
  for (auto& c : describe(p.refine)) v.push_back(c);
  // Past (min(w, h) - 1) / 2 the border leaves no pixel to score (hci_require_truth refuses
  // it), so the range follows the light field; without one, 0..1000.
  const double max_border =
      lf && !lf->empty() ? static_cast<double>(std::max(0, (std::min(lf->width, lf->height) - 1) / 2)) : 1000.0;
  v.push_back({"border", "score border", "scoring: pixels left out at each edge (HCI: 15)", K::Int, &p.border, 0,
               max_border});
  return v;
}

namespace {
// Defaults that fit the light field: the centre view, a 5x5 window (or the largest that
// fits), the refocus plane at the truth's nearest disparity.
LightFieldRunParams lightfield_defaults(const LightField4D* lf) {
  LightFieldRunParams p;
  if (!lf || lf->empty()) return p;
  p.u = lf->uc();
  p.v = lf->vc();
  p.aperture = std::min(2, std::max(lf->nu, lf->nv) / 2);
  p.border = score_border(*lf);
  const int nmin = std::min(lf->nu, lf->nv);
  p.cae.views = std::min(5, nmin | 1);
  if (p.cae.views > nmin) p.cae.views = std::max(1, nmin - 1) | 1;
  // The disparity range is the scene's stated one (HCI parameters.cfg disp_min / disp_max,
  // published with the inputs, as a user of the benchmark has it), else the CAE default
  // (-3.3 .. 2.8 px, the HCI benchmark's span), whatever the truth says: a default fitted to
  // the ground truth would score a method with knowledge it cannot have. Only the refocus
  // plane (a display choice) follows the truth.
  // Clamped to the parameters' bounds (cae_max_abs_disparity: the light field's own).
  if (lf->has_disp_range()) {
    const float lim = static_cast<float>(cae_max_abs_disparity(lf));
    const float lo = std::clamp(lf->disp_min, -lim, lim), hi = std::clamp(lf->disp_max, -lim, lim);
    if (lo < hi) {
      p.cae.dmin = lo;
      p.cae.dmax = hi;
    }
  }
  if (lf->has_gt()) {
    float tmax = 0;
    bool any = false;
    for (float d : lf->gt.data)
      if (std::isfinite(d)) {
        tmax = any ? std::max(tmax, d) : d;
        any = true;
      }
    if (any) p.refocus = std::clamp(tmax, p.cae.dmin, p.cae.dmax);
  }
  return p;
}
}  // namespace

LightFieldRunParams lightfield_params(const ParamValues& values, const LightField4D& lf) {
  LightFieldRunParams p = lightfield_defaults(&lf);
  apply_values(describe(p, &lf), values);
  p.refine.mode = p.refine_mode <= 1 ? LfRefineMode::Filter
                  : p.refine_mode == 2 ? LfRefineMode::Subpixel
                                       : LfRefineMode::Full;
  return p;
}

std::vector<CommandDef> lightfield_commands();  // lightfield_commands.cpp

std::vector<Workload> lightfield_workloads();  // lightfield_workloads.cpp
DisplayDecl lightfield_display();  // lightfield_display.cpp
AlgorithmSpec lightfield_spec() {
  AlgorithmSpec s;
  s.id = "lightfield";
  s.name = "4D light field: refocus & CAE depth";
  s.spec = "../shared/specs/lightfield4d-cae.md";
  s.data = DataKind::LightField;
  s.outputs = {
      {"depth", "CAE disparity", SurfaceFormat::R32F, false, false, kCaeParams},
      {"view", "sub-aperture view (u, v)", SurfaceFormat::RGBA8, false, false, {"u", "v"}, false},
      {"refocus", "shift-and-add refocus", SurfaceFormat::RGBA8, false, false, {"refocus", "aperture"}, false},
      {"centre", "centre view", SurfaceFormat::RGBA8, true, false, {}},
      {"truth", "ground-truth disparity", SurfaceFormat::R32F, true, true, {}},
      {"error", "|depth - truth|", SurfaceFormat::R32F, false, true, kCaeParams},
      {"refined", "refined disparity (guided filter, sub-pixel, median)", SurfaceFormat::R32F, false, false,
       kRefineParams},
      {"filtered", "filtered-volume disparity (defocus blend, guided filter, WTA)", SurfaceFormat::R32F, false, false,
       kFilterParams},
      {"confidence", "refinement confidence [0, 1]", SurfaceFormat::R32F, false, false, kFilterParams},
      {"refined_error", "|refined - truth|", SurfaceFormat::R32F, false, true, kRefineParams},
  };
  set_output_units(s.outputs, {{"depth", "px"}, {"truth", "px"}, {"error", "px"}, {"refined", "px"},
                               {"filtered", "px"}, {"confidence", "confidence"}, {"refined_error", "px"}});
  for (const auto& r : kCaeVariants) s.variants.push_back({r.name, to_string(r.method), r.bit_identical, r.note});
  s.default_variant = "exact";
  s.value_names = {{"refine_mode", {"filter", "subpixel", "full"}},
                   {"fusion_confidence", {"fixed", "confidence"}},
                   {"subpixel_wide", {"parabola", "lsq5"}},
                   {"semi_global", {"off", "on"}},
                   {"sgm_weighted", {"plain", "weighted"}},
                   {"gf_color", {"gray", "rgb"}}};
  s.params = [](const AlgorithmData* d) {
    const LightField4D* lf = d ? &data_as<LightFieldData>(*d, DataKind::LightField).lf : nullptr;
    LightFieldRunParams p = lightfield_defaults(lf);
    return param_table(describe(p, lf));
  };
  s.validate = [](const ParamValues& v, const AlgorithmData& d) {
    const LightField4D& lf = data_as<LightFieldData>(d, DataKind::LightField).lf;
    const LightFieldRunParams p = lightfield_params(v, lf);
    validate(p.cae, lf);
    // A truth with nothing to score (all NaN, or a border past the middle) is refused before
    // computing, not scored 0 %.
    if (lf.has_gt()) hci_require_truth(lf.gt, 0, 0, lf.width, lf.height, p.border);
  };
  s.cpu = [] { return make_lightfield_runner(make_lightfield_engine_cpu()); };
  s.commands = lightfield_commands();
  s.workloads = lightfield_workloads();
  s.display = lightfield_display();
  return s;
}

std::unique_ptr<Runner> make_lightfield_runner(std::unique_ptr<LightFieldEngine> estimator) {
  return std::make_unique<LightFieldRunner>(std::move(estimator));
}

}  // namespace lb
