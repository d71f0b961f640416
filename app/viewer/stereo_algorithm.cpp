#include "stereo_algorithm.hpp"

#include <imgui.h>

#include <algorithm>
#include <sstream>

#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "options.hpp"
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
    : bp_variant_(index_of(stereo_bp_spec().variant_names(), stereo_bp_spec().default_variant)),
      local_variant_(index_of(stereo_local_spec().variant_names(), stereo_local_spec().default_variant)),
      left_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8)),
      right_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8)),
      truth_tex_(std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F)) {
  for (auto* t : {left_tex_.get(), right_tex_.get(), truth_tex_.get()})
    t->set_interop_enabled(false, "stereo input texture");
  generate(1);
}

StereoAlgorithm::~StereoAlgorithm() = default;

bool StereoAlgorithm::ready(std::string* why) const {
  if (data_ && !data_->pair.left.empty()) return true;
  if (why) *why = "no stereo pair loaded";
  return false;
}

void StereoAlgorithm::generate(unsigned seed) {
  install(bundled_stereo(seed));  // assets/stereo/two_planes.json
}

void StereoAlgorithm::open(const std::string& folder) {
  install(stereo::load_stereo_scene(folder, gt_scale_));
}

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
  auto data = std::make_shared<StereoData>();
  data->pair = std::move(s.pair);
  data->gt = std::move(s.gt);
  data->ndisp_hint = s.suggested_ndisp;
  data_ = std::move(data);
  left_tex_ = std::move(l);
  right_tex_ = std::move(r);
  truth_tex_ = std::move(t);
  bp_scores_ = local_scores_ = nlohmann::json::object();
  data_changed();
}

std::vector<std::string> StereoAlgorithm::variants() const {
  std::vector<std::string> v;
  for (const auto& b : stereo_bp_spec().variant_names()) v.push_back(kBp + b);
  for (const auto& l : stereo_local_spec().variant_names()) v.push_back(kLocal + l);
  return v;
}

int StereoAlgorithm::current_variant() const { return bp_variant_; }

void StereoAlgorithm::set_variant(int index) {
  const int nbp = static_cast<int>(stereo_bp_spec().variant_names().size());
  const int nlocal = static_cast<int>(stereo_local_spec().variant_names().size());
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
  return bp ? stereo_bp_spec().variant_names()[bp_variant_] : stereo_local_spec().variant_names()[local_variant_];
}

std::vector<AlgorithmOutput> StereoAlgorithm::outputs() const {
  std::vector<AlgorithmOutput> o = {{"bp", "belief-propagation disparity", SurfaceFormat::R32F},
                                    {"local", "local-window disparity", SurfaceFormat::R32F}};
  if (!data_->gt.empty()) {
    o.push_back({"bp_error", "BP errors (|d - gt| > 1 in red)", SurfaceFormat::RGBA8});
    o.push_back({"local_error", "local errors (|d - gt| > 1 in red)", SurfaceFormat::RGBA8});
  }
  o.push_back({"left", "left image (reference)", SurfaceFormat::RGBA8, true});
  o.push_back({"right", "right image", SurfaceFormat::RGBA8, true});
  if (!data_->gt.empty()) o.push_back({"truth", "ground-truth disparity", SurfaceFormat::R32F, true});
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
  const int n = data_->ndisp_hint > 0 ? data_->ndisp_hint : 16;
  params_.bp.ndisp = n;
  params_.local.ndisp = n;
}

void StereoAlgorithm::data_changed() {
  reset_params();
  for (const auto& p : live_params()) set_param_value(p, param_value(p));
}

bool StereoAlgorithm::draw_controls() {
  bool changed = false;
  ImGui::TextWrapped("pair: %s", data_->pair.name.c_str());
  ImGui::TextDisabled("%d x %d, %s%s", data_->pair.left.width, data_->pair.left.height,
                      data_->pair.left.channels == 1 ? "gray" : "colour",
                      data_->gt.empty() ? "" : ", with ground truth");
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
  combo("BP kernel", stereo_bp_spec().variant_names(), &bp_variant_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("auto: the fastest kernel and message type for this device and size (tuned once,\n"
                      "cached); auto:float: float messages only (bit-identical to the CPU reference).\n"
                      "warp: one pixel's disparities across the lanes of a warp (fp16 / bf16: messages\n"
                      "stored in 16 bits). The seed's: registers, hybrid (R in registers, S in shared,\n"
                      "the rest local), shared, local. CPU: the reference.");
  combo("local kernel", stereo_local_spec().variant_names(), &local_variant_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("phase2..phase5: the seed's kernel-fusion steps; fused: one kernel per\n"
                      "tile; fused2: two disparities per word. All give the identical map.\n"
                      "CPU: the reference.");
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
  if (data_->gt.empty()) {
    ImGui::TextDisabled("score: this pair has no ground truth");
    return;
  }
  ImGui::TextDisabled("bad pixels (|d - gt| > 1)   nonocc     all    disc");
  for (const nlohmann::json* m : {&bp_scores_, &local_scores_}) {
    const char* name = m == &bp_scores_ ? "BP   " : "local";
    if (!m->contains("bad1_all")) {
      ImGui::Text("%s  (show it in a pane)", name);
      continue;
    }
    ImGui::Text("%s  %6.2f %%  %6.2f %%  %6.2f %%  %.2f ms", name, m->value("bad1_nonocc", 0.0),
                m->value("bad1_all", 0.0), m->value("bad1_disc", 0.0), m->value("ms", 0.0));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m->value("ran", std::string()).c_str());
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
  if (output == "truth") return data_->gt.empty() ? nullptr : truth_tex_.get();
  return nullptr;
}

RunRequest StereoAlgorithm::request(BackendPool& pool, BackendSlot slot, const PaneRun& run,
                                    const std::string& output) {
  const bool bp = output == "bp" || output == "bp_error";
  LB_REQUIRE(bp || output == "local" || output == "local_error", "stereo: no output '" + output + "'");
  LB_REQUIRE(data_ != nullptr, "stereo: no pair loaded");
  Params p = effective(run);
  RunRequest r;
  r.worker = (bp ? bp_ : local_).get(pool, slot);
  r.data = data_;
  r.values = bp ? read_values(describe(p.bp)) : read_values(describe(p.local));
  r.variant = variant_for(run, bp);
  r.output = output == "bp" || output == "local" ? "disparity" : "error";
  r.format = output == "bp" || output == "local" ? SurfaceFormat::R32F : SurfaceFormat::RGBA8;
  r.part = bp ? 0 : 1;
  return r;
}

void StereoAlgorithm::accept(const RunResult& result) {
  (result.request.part == 0 ? bp_scores_ : local_scores_) = result.scores;
}

void StereoAlgorithm::open_startup(const ViewerOptions& options) {
  gt_scale_ = options.gt_scale;  // also for folders opened later from the panel
  if (options.stereo.empty()) return;
  try {
    open(options.stereo);
  } catch (const std::exception& e) {
    throw Error(std::string("cannot open the stereo pair: ") + e.what() + " (showing the bundled one)");
  }
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
  if (!bp_scores_.empty()) j["bp"] = bp_scores_;
  if (!local_scores_.empty()) j["local"] = local_scores_;
  return j;
}

void StereoAlgorithm::timing_sources(std::vector<TimingSource>& out) {
  bp_.timing_sources(out);
  local_.timing_sources(out);
}

}  // namespace lb::viewer
