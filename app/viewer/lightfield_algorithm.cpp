#include "lightfield_algorithm.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "lightbench/cae_cuda.hpp"
#include "lightbench/error.hpp"
#include "param_widgets.hpp"

namespace lb::viewer {
namespace {

// The bundled scene: 192 x 160 views, 9 x 9, background at -1.2 px, square at +1.6 px.
constexpr int kSynthW = 192, kSynthH = 160, kSynthN = 9;
constexpr float kSynthBack = -1.2f, kSynthFront = 1.6f;

}  // namespace

LightFieldAlgorithm::LightFieldAlgorithm()
    : variant_(default_variant_index()),
      centre_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8)),
      truth_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F)) {
  centre_tex_->set_interop_enabled(false, "light-field texture");
  truth_tex_->set_interop_enabled(false, "light-field texture");
  generate(1);
}

LightFieldAlgorithm::~LightFieldAlgorithm() = default;

bool LightFieldAlgorithm::ready(std::string* why) const {
  if (!lf_.empty()) return true;
  if (why) *why = "no light field loaded";
  return false;
}

void LightFieldAlgorithm::generate(unsigned seed) {
  install(synthetic_two_plane_lightfield(kSynthW, kSynthH, kSynthN, kSynthN, kSynthBack, kSynthFront,
                                         seed, 2));
  seed_ = static_cast<int>(seed);
}

void LightFieldAlgorithm::open(const std::string& folder) { install(load_lightfield(folder)); }

void LightFieldAlgorithm::install(LightField4D lf) {
  LB_REQUIRE(!lf.empty(), "empty light field");
  // Textures first, so a failure leaves the current light field as it was.
  auto centre = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
  centre->set_interop_enabled(false, "light-field texture");
  centre->upload_host(to_rgba(lf.centre()));
  auto truth = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F);
  truth->set_interop_enabled(false, "light-field texture");
  float tmin = 0, tmax = 1;
  if (lf.has_gt()) {
    truth->upload_host(lf.gt);
    tmin = tmax = lf.gt.data.front();
    for (float d : lf.gt.data)
      if (std::isfinite(d)) {
        tmin = std::min(tmin, d);
        tmax = std::max(tmax, d);
      }
    if (tmax <= tmin) tmax = tmin + 1.0f;
  }
  lf_ = std::move(lf);
  centre_tex_ = std::move(centre);
  truth_tex_ = std::move(truth);
  truth_min_ = tmin;
  truth_max_ = tmax;
  static std::uint64_t next_id = 0;
  id_ = ++next_id;
  depth_key_.clear();
  scored_ = false;
  data_changed();
}

std::vector<std::string> LightFieldAlgorithm::variants() const { return cuda::cae_variants(); }

int LightFieldAlgorithm::default_variant_index() {
  const auto names = cuda::cae_variants();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == "exact") return static_cast<int>(i);
  return 0;
}

void LightFieldAlgorithm::set_variant(int index) {
  if (index >= 0 && index < static_cast<int>(variants().size())) variant_ = index;
}

std::vector<AlgorithmOutput> LightFieldAlgorithm::outputs() const {
  std::vector<AlgorithmOutput> o = {{"depth", "CAE disparity", SurfaceFormat::R32F},
                                    {"view", "sub-aperture view (u, v)", SurfaceFormat::RGBA8, true},
                                    {"refocus", "shift-and-add refocus (CPU)", SurfaceFormat::RGBA8, true},
                                    {"centre", "centre view", SurfaceFormat::RGBA8, true}};
  if (lf_.has_gt()) {
    o.push_back({"truth", "ground-truth disparity", SurfaceFormat::R32F, true});
    o.push_back({"error", "|depth - truth|", SurfaceFormat::R32F});
  }
  return o;
}

std::pair<std::string, std::string> LightFieldAlgorithm::default_panes() const {
  return {"view", "depth"};
}

std::vector<ParamInfo> LightFieldAlgorithm::describe_view(Params& p) {
  using K = ParamInfo::Kind;
  const int rmax = std::max(0, std::max(lf_.nu, lf_.nv) / 2);
  return {
      {"u", "view u", "angular column of the view shown (drag on the pad: parallax)", K::Int, &p.u, 0,
       static_cast<double>(std::max(0, lf_.nu - 1))},
      {"v", "view v", "angular row of the view shown", K::Int, &p.v, 0,
       static_cast<double>(std::max(0, lf_.nv - 1))},
      {"refocus", "refocus disparity", "points at this disparity come out sharp (px per view)",
       K::Float, &p.refocus, -6.0, 6.0},
      {"aperture", "aperture radius", "refocus averages the views within this many of the centre",
       K::Int, &p.aperture, 0, static_cast<double>(rmax)},
  };
}

std::vector<ParamInfo> LightFieldAlgorithm::describe_all(Params& p) {
  auto v = describe_view(p);
  for (auto& c : describe(p.cae, &lf_)) v.push_back(c);
  return v;
}

std::vector<ParamInfo> LightFieldAlgorithm::live_params() { return describe_all(params_); }

void LightFieldAlgorithm::reset_params() {
  params_ = Params{};
  params_.u = lf_.uc();
  params_.v = lf_.vc();
  params_.aperture = std::min(2, std::max(lf_.nu, lf_.nv) / 2);
  if (lf_.has_gt()) {
    // Label range from the ground truth, a little wider.
    const float pad = 0.1f * (truth_max_ - truth_min_) + 0.1f;
    params_.cae.dmin = truth_min_ - pad;
    params_.cae.dmax = truth_max_ + pad;
    params_.refocus = truth_max_;
  }
  params_.cae.labels = 75;
  params_.cae.views = std::min(5, std::min(lf_.nu, lf_.nv) | 1);
  if (params_.cae.views > std::min(lf_.nu, lf_.nv)) params_.cae.views = std::max(1, std::min(lf_.nu, lf_.nv) - 1) | 1;
}

void LightFieldAlgorithm::data_changed() {
  reset_params();
  for (const auto& p : live_params()) set_param_value(p, param_value(p));
}

bool LightFieldAlgorithm::draw_angular_pad() {
  // A grid of nu x nv dots; click or drag to pick the view (parallax as you drag).
  const float cell = std::clamp(180.0f / std::max(lf_.nu, lf_.nv), 8.0f, 24.0f);
  const ImVec2 size(cell * lf_.nu, cell * lf_.nv);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##angular_pad", size);
  bool changed = false;
  if (ImGui::IsItemActive()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int u = std::clamp(static_cast<int>((m.x - p0.x) / cell), 0, lf_.nu - 1);
    const int v = std::clamp(static_cast<int>((m.y - p0.y) / cell), 0, lf_.nv - 1);
    if (u != params_.u || v != params_.v) {
      params_.u = u;
      params_.v = v;
      changed = true;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("drag to move the viewpoint (u, v)");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRect(p0, ImVec2(p0.x + size.x, p0.y + size.y), IM_COL32(90, 90, 100, 255));
  const int r = params_.cae.views / 2;
  for (int v = 0; v < lf_.nv; ++v)
    for (int u = 0; u < lf_.nu; ++u) {
      const ImVec2 c(p0.x + (u + 0.5f) * cell, p0.y + (v + 0.5f) * cell);
      const bool in_window = std::abs(u - lf_.uc()) <= r && std::abs(v - lf_.vc()) <= r;
      const bool picked = u == params_.u && v == params_.v;
      dl->AddCircleFilled(c, picked ? cell * 0.38f : cell * 0.18f,
                          picked ? IM_COL32(255, 210, 60, 255)
                                 : in_window ? IM_COL32(120, 170, 255, 255) : IM_COL32(110, 110, 120, 255));
    }
  ImGui::SameLine();
  ImGui::TextDisabled("view (%d, %d)\nblue: CAE window\n(%dx%d views)", params_.u, params_.v,
                      params_.cae.views, params_.cae.views);
  return changed;
}

bool LightFieldAlgorithm::draw_controls() {
  bool changed = false;
  ImGui::TextWrapped("light field: %s", lf_.source.c_str());
  ImGui::TextDisabled("%d x %d views of %d x %d%s", lf_.nu, lf_.nv, lf_.width, lf_.height,
                      lf_.has_gt() ? ", with ground truth" : "");
  changed |= path_open_row("lf", "light-field folder", path_field_, &open_error_,
                           [this](const std::string& p) { open(p); });
  if (ImGui::SmallButton("synthetic two planes")) {
    generate(static_cast<unsigned>(seed_));
    open_error_.clear();
    changed = true;
  }
  error_line(open_error_);
  changed |= draw_angular_pad();

  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("CAE kernel");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("baseline / vec / tex / coalesced: the seed's CAE steps (256 bins)\n"
                      "binned, binned_fast: 64-bin histogram (Ivan et al.)\n"
                      "exact: occupied bins only (the fastest exact kernel for the window),\n"
                      "bit-identical to the 256-bin CAE; exact_sort, exact_smem, exact_smem_table:\n"
                      "the exact kernels one by one; exact_terms: the same CAE summed per sample\n"
                      "(float error ~1e-6)\n"
                      "The CPU backend runs the double reference of the variant's method.");
  ImGui::SameLine();
  const auto names = variants();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##caevariant", names[variant_].c_str())) {
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (ImGui::Selectable(names[i].c_str(), i == variant_)) {
        variant_ = i;
        changed = true;
      }
    ImGui::EndCombo();
  }
  changed |= param_sliders(describe_all(params_));
  changed |= ImGui::Checkbox("entropy with log(g/|g|)", &params_.cae.normalized_log);
  if (ImGui::SmallButton("reset parameters")) {
    reset_params();
    changed = true;
  }
  return changed;
}

void LightFieldAlgorithm::draw_results() {
  if (!lf_.has_gt()) {
    ImGui::TextDisabled("score: this light field has no ground truth");
    return;
  }
  if (!scored_) {
    ImGui::TextDisabled("score: show depth or error in a pane");
    return;
  }
  ImGui::Text("BadPix 0.07 %.2f %%   0.03 %.2f %%   0.01 %.2f %%", score_.badpix_007,
              score_.badpix_003, score_.badpix_001);
  ImGui::Text("MSE x100 %.3f", score_.mse_x100);
  ImGui::TextDisabled("HCI protocol, %d px border, %zu px; %s", score_.border, score_.pixels,
                      score_what_.c_str());
}

LightFieldAlgorithm::Params LightFieldAlgorithm::effective(const PaneRun& run) {
  Params p = params_;
  if (!run.override_param.empty()) {
    const auto infos = describe_all(p);
    if (const ParamInfo* info = find_param(infos, run.override_param))
      set_param_value(*info, run.override_value);
  }
  return p;
}

std::string LightFieldAlgorithm::run_key(const PaneRun& run, const std::string& output) {
  const Params p = effective(run);
  std::ostringstream k;
  k << std::hexfloat << output << '|';
  if (output == "centre" || output == "truth") return k.str();
  if (output == "view") {
    k << p.u << ',' << p.v;
  } else if (output == "refocus") {
    k << p.refocus << ',' << p.aperture;
  } else {
    const int vi = run.variant >= 0 ? run.variant : variant_;
    k << vi << '|' << p.cae.views << ',' << p.cae.labels << ',' << p.cae.dmin << ',' << p.cae.dmax
      << ',' << p.cae.sigma << ',' << p.cae.normalized_log;
  }
  return k.str();
}

const gl::GlTextureSurface* LightFieldAlgorithm::input_texture(const std::string& output) const {
  if (output == "centre") return centre_tex_.get();
  if (output == "truth") return lf_.has_gt() ? truth_tex_.get() : nullptr;
  return nullptr;
}

LightFieldDepthEstimator& LightFieldAlgorithm::estimator(BackendPool& pool, BackendSlot slot) {
  std::string why;
  const auto kind = pool.kind_of(slot, &why);
  LB_REQUIRE(kind.has_value(), "CUDA backend unavailable: " + why);
  if (*kind == BackendKind::Cuda) {
    if (!cuda_) cuda_ = cuda::make_lf_depth_cuda();
    if (cuda_lf_ != id_) {
      cuda_->set_lightfield(lf_);
      cuda_lf_ = id_;
    }
    return *cuda_;
  }
  if (!cpu_) cpu_ = make_lf_depth_cpu();
  if (cpu_lf_ != id_) {
    cpu_->set_lightfield(lf_);
    cpu_lf_ = id_;
  }
  return *cpu_;
}

const LfDepthResult& LightFieldAlgorithm::depth(BackendPool& pool, BackendSlot slot, const Params& p,
                                                const std::string& variant) {
  LightFieldDepthEstimator& est = estimator(pool, slot);
  CaeParams cp = p.cae;
  cp.method = cuda::cae_variant_method(variant);
  validate(cp, lf_);
  std::ostringstream k;
  k << std::hexfloat << id_ << '|' << static_cast<const void*>(&est) << '|' << variant << '|'
    << cp.views << ',' << cp.labels << ',' << cp.dmin << ',' << cp.dmax << ',' << cp.sigma << ','
    << cp.normalized_log;
  if (k.str() == depth_key_) return depth_;
  depth_key_.clear();
  depth_ = est.run(cp, est.kind() == BackendKind::Cuda ? variant : "");
  depth_key_ = k.str();
  scored_ = lf_.has_gt();
  if (scored_) {
    score_ = hci_score(depth_.disparity, lf_.gt, std::min(15, std::min(lf_.width, lf_.height) / 4));
    score_what_ = std::string(to_string(est.kind())) + " " + depth_.variant + ", " +
                  std::to_string(cp.views) + "x" + std::to_string(cp.views) + " views";
  }
  return depth_;
}

void LightFieldAlgorithm::run(BackendPool& pool, BackendSlot slot, const PaneRun& run,
                              const std::string& output, Surface& out) {
  LB_REQUIRE(!lf_.empty(), "no light field loaded");
  const Params p = effective(run);
  if (output == "view") {
    LB_REQUIRE(p.u >= 0 && p.u < lf_.nu && p.v >= 0 && p.v < lf_.nv, "view (u, v) outside the grid");
    out.upload_host(to_rgba(lf_.view(p.u, p.v)));
    return;
  }
  if (output == "refocus") {
    out.upload_host(to_rgba(refocus_cpu(lf_, p.refocus, p.aperture)));
    return;
  }
  const auto names = variants();
  const int vi = run.variant >= 0 && run.variant < static_cast<int>(names.size()) ? run.variant : variant_;
  const LfDepthResult& r = depth(pool, slot, p, names[vi]);
  if (output == "depth") {
    out.upload_host(r.disparity);
  } else if (output == "error") {
    LB_REQUIRE(lf_.has_gt(), "this light field has no ground truth");
    out.upload_host(hci_error_map(r.disparity, lf_.gt));
  } else {
    throw Error("light field: no output '" + output + "'");
  }
}

DisplayHints LightFieldAlgorithm::display(const std::string& output) const {
  DisplayHints h;
  if (output == "depth" || output == "truth") {
    h.has_range = true;
    h.range_min = params_.cae.dmin;
    h.range_max = params_.cae.dmax > params_.cae.dmin ? params_.cae.dmax : params_.cae.dmin + 1.0f;
  } else if (output == "error") {
    h.has_range = true;
    h.range_min = 0.0f;
    h.range_max = 0.5f;  // a quarter of typical ranges: small errors stay visible
  }
  return h;
}

nlohmann::json LightFieldAlgorithm::run_json(const PaneRun& run) {
  const Params p = effective(run);
  const auto names = variants();
  const int vi = run.variant >= 0 && run.variant < static_cast<int>(names.size()) ? run.variant : variant_;
  return {{"u", p.u},           {"v", p.v},
          {"refocus", p.refocus}, {"aperture", p.aperture},
          {"views", p.cae.views}, {"labels", p.cae.labels},
          {"dmin", p.cae.dmin},   {"dmax", p.cae.dmax},
          {"sigma", p.cae.sigma}, {"variant", names[vi]}};
}

void LightFieldAlgorithm::timing_sources(std::vector<TimingSource>& out) {
  if (cpu_) out.push_back({"CPU", cpu_->device_name(), &cpu_->timings()});
  if (cuda_) out.push_back({"CUDA", cuda_->device_name(), &cuda_->timings()});
}

nlohmann::json LightFieldAlgorithm::results_json() const {
  if (!scored_) return nlohmann::json::object();
  return {{"badpix_007", score_.badpix_007}, {"badpix_003", score_.badpix_003},
          {"badpix_001", score_.badpix_001}, {"mse_x100", score_.mse_x100},
          {"scored_pixels", score_.pixels},  {"border", score_.border},
          {"scored_with", score_what_}};
}

}  // namespace lb::viewer
