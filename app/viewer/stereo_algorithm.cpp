#include "stereo_algorithm.hpp"

#include <imgui.h>

#include <algorithm>
#include <sstream>

#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "lightbench/stereo_cuda.hpp"
#include "lightbench/stereo_local_cuda.hpp"
#include "param_widgets.hpp"

namespace lb::viewer {
namespace {

const std::string kBp = "bp/", kLocal = "local/";

}  // namespace

namespace {
int index_of(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return 0;
}
}  // namespace

StereoAlgorithm::StereoAlgorithm()
    : bp_variant_(index_of(cuda::bp_stereo_variants(), "registers")),
      local_variant_(index_of(stereo::local_variants(), "fused")),
      left_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8)),
      right_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8)),
      truth_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F)) {
  for (auto* t : {left_tex_.get(), right_tex_.get(), truth_tex_.get()})
    t->set_interop_enabled(false, "stereo input texture");
  generate(1);
}

StereoAlgorithm::~StereoAlgorithm() = default;

bool StereoAlgorithm::ready(std::string* why) const {
  if (!scene_.pair.left.empty()) return true;
  if (why) *why = "no stereo pair loaded";
  return false;
}

void StereoAlgorithm::generate(unsigned seed) {
  install(bundled_stereo(seed));  // assets/stereo/two_planes.json
}

void StereoAlgorithm::open(const std::string& folder) { install(stereo::load_stereo_scene(folder)); }

void StereoAlgorithm::install(stereo::StereoScene s) {
  stereo::validate(s.pair);
  // Textures first: a failure leaves the current pair as it was.
  auto l = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
  auto r = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
  auto t = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F);
  for (auto* x : {l.get(), r.get(), t.get()}) x->set_interop_enabled(false, "stereo input texture");
  l->upload_host(to_rgba(s.pair.left));
  r->upload_host(to_rgba(s.pair.right));
  if (!s.gt.empty()) t->upload_host(s.gt.disparity);
  scene_ = std::move(s);
  left_tex_ = std::move(l);
  right_tex_ = std::move(r);
  truth_tex_ = std::move(t);
  static std::uint64_t next_id = 0;
  id_ = ++next_id;
  bp_state_ = {};
  local_state_ = {};
  data_changed();
}

std::vector<std::string> StereoAlgorithm::variants() const {
  std::vector<std::string> v;
  for (const auto& b : cuda::bp_stereo_variants()) v.push_back(kBp + b);
  for (const auto& l : stereo::local_variants()) v.push_back(kLocal + l);
  return v;
}

int StereoAlgorithm::current_variant() const { return bp_variant_; }

void StereoAlgorithm::set_variant(int index) {
  const int nbp = static_cast<int>(cuda::bp_stereo_variants().size());
  const int nlocal = static_cast<int>(stereo::local_variants().size());
  if (index >= 0 && index < nbp) bp_variant_ = index;
  else if (index >= nbp && index < nbp + nlocal) local_variant_ = index - nbp;
}

std::string StereoAlgorithm::variant_for(const PaneRun& run, bool bp) const {
  const auto all = variants();
  if (run.variant >= 0 && run.variant < static_cast<int>(all.size())) {
    const std::string& v = all[run.variant];
    const std::string& prefix = bp ? kBp : kLocal;
    if (v.rfind(prefix, 0) == 0) return v.substr(prefix.size());
  }
  return bp ? cuda::bp_stereo_variants()[bp_variant_] : stereo::local_variants()[local_variant_];
}

std::vector<AlgorithmOutput> StereoAlgorithm::outputs() const {
  std::vector<AlgorithmOutput> o = {{"bp", "belief-propagation disparity", SurfaceFormat::R32F},
                                    {"local", "local-window disparity", SurfaceFormat::R32F}};
  if (!scene_.gt.empty()) {
    o.push_back({"bp_error", "BP errors (|d - gt| > 1 in red)", SurfaceFormat::RGBA8});
    o.push_back({"local_error", "local errors (|d - gt| > 1 in red)", SurfaceFormat::RGBA8});
  }
  o.push_back({"left", "left image (reference)", SurfaceFormat::RGBA8, true});
  o.push_back({"right", "right image", SurfaceFormat::RGBA8, true});
  if (!scene_.gt.empty()) o.push_back({"truth", "ground-truth disparity", SurfaceFormat::R32F, true});
  return o;
}

std::pair<std::string, std::string> StereoAlgorithm::default_panes() const { return {"bp", "local"}; }

std::vector<ParamInfo> StereoAlgorithm::describe_all(Params& p) {
  auto v = describe(p.bp);
  for (auto& l : describe(p.local))
    if (l.name != "ndisp") v.push_back(l);  // one disparity count for both methods
  return v;
}

std::vector<ParamInfo> StereoAlgorithm::live_params() { return describe_all(params_); }

void StereoAlgorithm::reset_params() {
  params_ = Params{};
  const int n = scene_.suggested_ndisp > 0 ? scene_.suggested_ndisp : 16;
  params_.bp.ndisp = n;
  params_.local.ndisp = n;
}

void StereoAlgorithm::data_changed() {
  reset_params();
  for (const auto& p : live_params()) set_param_value(p, param_value(p));
}

bool StereoAlgorithm::draw_controls() {
  bool changed = false;
  ImGui::TextWrapped("pair: %s", scene_.pair.name.c_str());
  ImGui::TextDisabled("%d x %d, %s%s", scene_.pair.left.width, scene_.pair.left.height,
                      scene_.pair.left.channels == 1 ? "gray" : "colour",
                      scene_.gt.empty() ? "" : ", with ground truth");
  changed |= path_open_row("stereo", "Middlebury folder (imL, imR, ...)", path_field_, &open_error_,
                           [this](const std::string& p) { open(p); });
  if (ImGui::SmallButton("synthetic two planes##stereo")) {
    generate(1);
    open_error_.clear();
    changed = true;
  }
  error_line(open_error_);
  auto combo = [&](const char* label, const std::vector<std::string>& names, int* index) {
    ImGui::SetNextItemWidth(140);
    if (ImGui::BeginCombo(label, names[*index].c_str())) {
      for (int i = 0; i < static_cast<int>(names.size()); ++i)
        if (ImGui::Selectable(names[i].c_str(), i == *index)) {
          *index = i;
          changed = true;
        }
      ImGui::EndCombo();
    }
  };
  combo("BP kernel", cuda::bp_stereo_variants(), &bp_variant_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("where each thread keeps its message array: local memory, registers\n"
                      "(templated disparity count), shared memory, or the auto-tuned hybrid\n"
                      "(R in registers, S in shared, the rest local). CPU: the reference.");
  combo("local kernel", stereo::local_variants(), &local_variant_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("phase2..phase5: the seed's kernel-fusion steps; fused: one kernel per\n"
                      "tile. All give the identical map. CPU: the reference.");
  ImGui::TextDisabled("belief propagation");
  const auto all = describe_all(params_);
  const auto nbp = describe(params_.bp).size();
  changed |= param_sliders(std::vector<ParamInfo>(all.begin(), all.begin() + static_cast<long>(nbp)));
  ImGui::TextDisabled("local windows (disparities shared)");
  changed |= param_sliders(std::vector<ParamInfo>(all.begin() + static_cast<long>(nbp), all.end()));
  params_.local.ndisp = params_.bp.ndisp;
  if (ImGui::SmallButton("reset parameters##stereo")) {
    reset_params();
    changed = true;
  }
  return changed;
}

void StereoAlgorithm::draw_results() {
  if (scene_.gt.empty()) {
    ImGui::TextDisabled("score: this pair has no ground truth");
    return;
  }
  ImGui::TextDisabled("bad pixels (|d - gt| > 1)   nonocc     all    disc");
  for (const MethodState* m : {&bp_state_, &local_state_}) {
    const char* name = m == &bp_state_ ? "BP   " : "local";
    if (!m->scored) {
      ImGui::Text("%s  (show it in a pane)", name);
      continue;
    }
    ImGui::Text("%s  %6.2f %%  %6.2f %%  %6.2f %%  %.2f ms", name, m->score.nonocc.percent,
                m->score.all.percent, m->score.disc.percent, m->result.ms);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\ncompute %.3f ms, with upload/download %.3f ms%s%s", m->what.c_str(),
                        m->result.ms, m->result.ms_total, m->result.tuning.empty() ? "" : "\n",
                        m->result.tuning.c_str());
  }
}

StereoAlgorithm::Params StereoAlgorithm::effective(const PaneRun& run) const {
  Params p = params_;
  if (!run.override_param.empty()) {
    const auto infos = describe_all(p);
    if (const ParamInfo* info = find_param(infos, run.override_param))
      set_param_value(*info, run.override_value);
  }
  p.local.ndisp = p.bp.ndisp;
  return p;
}

std::string StereoAlgorithm::run_key(const PaneRun& run, const std::string& output) {
  if (output == "left" || output == "right" || output == "truth") return output;
  const Params p = effective(run);
  const bool bp = output.rfind("bp", 0) == 0;
  std::ostringstream k;
  k << std::hexfloat << output << '|' << variant_for(run, bp) << '|';
  if (bp)
    k << p.bp.levels << ',' << p.bp.iterations << ',' << p.bp.lambda << ',' << p.bp.tau_data << ','
      << p.bp.tau_disc << ',' << p.bp.sigma << ',' << p.bp.ndisp;
  else
    k << p.local.ndisp << ',' << p.local.radius << ',' << p.local.gamma << ',' << p.local.truncation
      << ',' << p.local.variable_windows << ',' << p.local.lr_check;
  return k.str();
}

const gl::GlTextureSurface* StereoAlgorithm::input_texture(const std::string& output) const {
  if (output == "left") return left_tex_.get();
  if (output == "right") return right_tex_.get();
  if (output == "truth") return scene_.gt.empty() ? nullptr : truth_tex_.get();
  return nullptr;
}

const stereo::StereoResult& StereoAlgorithm::compute(BackendPool& pool, BackendSlot slot,
                                                     const PaneRun& run, bool bp) {
  std::string why;
  const auto kind = pool.kind_of(slot, &why);
  LB_REQUIRE(kind.has_value(), "CUDA backend unavailable: " + why);
  const bool cuda_kind = *kind == BackendKind::Cuda;
  const Params p = effective(run);
  const std::string variant = variant_for(run, bp);
  MethodState& st = bp ? bp_state_ : local_state_;
  const std::string key = run_key(run, bp ? "bp" : "local") + (cuda_kind ? "|cuda" : "|cpu") +
                          std::to_string(id_);
  if (key == st.key) return st.result;
  st.key.clear();
  std::string what;
  if (bp) {
    auto& m = cuda_kind ? bp_cuda_ : bp_cpu_;
    auto& id = cuda_kind ? bp_cuda_id_ : bp_cpu_id_;
    if (!m) m = cuda_kind ? cuda::make_bp_stereo_cuda() : stereo::make_bp_stereo_cpu();
    if (id != id_) {
      m->set_pair(scene_.pair);
      id = id_;
    }
    stereo::validate(p.bp, scene_.pair);
    st.result = m->run(p.bp, cuda_kind ? variant : "");
    what = m->device_name();
  } else {
    auto& m = cuda_kind ? local_cuda_ : local_cpu_;
    auto& id = cuda_kind ? local_cuda_id_ : local_cpu_id_;
    if (!m) m = cuda_kind ? cuda::make_local_stereo_cuda() : stereo::make_local_stereo_cpu();
    if (id != id_) {
      m->set_pair(scene_.pair);
      id = id_;
    }
    stereo::validate(p.local, scene_.pair);
    st.result = m->run(p.local, cuda_kind ? variant : "");
    what = m->device_name();
  }
  st.key = key;
  st.what = what + ", " + st.result.variant;
  st.scored = !scene_.gt.empty();
  if (st.scored) st.score = stereo::score_stereo(st.result.disparity, scene_.gt);
  return st.result;
}

void StereoAlgorithm::run(BackendPool& pool, BackendSlot slot, const PaneRun& run,
                          const std::string& output, Surface& out) {
  LB_REQUIRE(!scene_.pair.left.empty(), "no stereo pair loaded");
  const bool bp = output == "bp" || output == "bp_error";
  LB_REQUIRE(bp || output == "local" || output == "local_error", "stereo: no output '" + output + "'");
  const stereo::StereoResult& r = compute(pool, slot, run, bp);
  if (output == "bp" || output == "local") {
    out.upload_host(r.disparity);
    return;
  }
  LB_REQUIRE(!scene_.gt.empty(), "this pair has no ground truth");
  out.upload_host(stereo::stereo_error_map(r.disparity, scene_.gt, 1.0,
                                           static_cast<float>(params_.bp.ndisp - 1)));
}

DisplayHints StereoAlgorithm::display(const std::string& output) const {
  DisplayHints h;
  if (output == "bp" || output == "local" || output == "truth") {
    h.has_range = true;
    h.range_min = 0.0f;
    h.range_max = static_cast<float>(std::max(1, params_.bp.ndisp - 1));
  }
  return h;
}

nlohmann::json StereoAlgorithm::run_json(const PaneRun& run) {
  const Params p = effective(run);
  return {{"ndisp", p.bp.ndisp},
          {"bp", {{"variant", variant_for(run, true)},
                  {"levels", p.bp.levels},
                  {"iterations", p.bp.iterations},
                  {"lambda", p.bp.lambda},
                  {"tau_data", p.bp.tau_data},
                  {"tau_disc", p.bp.tau_disc},
                  {"sigma", p.bp.sigma}}},
          {"local", {{"variant", variant_for(run, false)},
                     {"radius", p.local.radius},
                     {"gamma", p.local.gamma},
                     {"truncation", p.local.truncation},
                     {"variable_windows", p.local.variable_windows},
                     {"lr_check", p.local.lr_check}}}};
}

nlohmann::json StereoAlgorithm::results_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const MethodState* m : {&bp_state_, &local_state_}) {
    if (!m->scored) continue;
    j[m == &bp_state_ ? "bp" : "local"] = {{"bad1_nonocc", m->score.nonocc.percent},
                                           {"bad1_all", m->score.all.percent},
                                           {"bad1_disc", m->score.disc.percent},
                                           {"ms", m->result.ms},
                                           {"ran", m->what}};
  }
  return j;
}

void StereoAlgorithm::timing_sources(std::vector<TimingSource>& out) {
  if (bp_cpu_) out.push_back({"CPU", bp_cpu_->device_name(), &bp_cpu_->timings()});
  if (local_cpu_) out.push_back({"CPU", local_cpu_->device_name(), &local_cpu_->timings()});
  if (bp_cuda_) out.push_back({"CUDA", bp_cuda_->device_name(), &bp_cuda_->timings()});
  if (local_cuda_) out.push_back({"CUDA", local_cuda_->device_name(), &local_cuda_->timings()});
}

}  // namespace lb::viewer
