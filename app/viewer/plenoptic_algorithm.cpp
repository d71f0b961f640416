#include "plenoptic_algorithm.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "lightbench/error.hpp"
#include "param_widgets.hpp"

namespace lb::viewer {

PlenopticAlgorithm::PlenopticAlgorithm() { reset_params(); }

std::uint64_t PlenopticAlgorithm::data_id() const { return scene_.id(); }

bool PlenopticAlgorithm::ready(std::string* why) const {
  if (scene_.loaded()) return true;
  if (why) *why = "no plenoptic scene loaded";
  return false;
}

std::vector<std::string> PlenopticAlgorithm::variants() const { return runners_.spec().variant_names(); }

int PlenopticAlgorithm::current_variant() const {
  const auto all = all_render_variants();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i] == variant_) return static_cast<int>(i);
  return 0;
}

void PlenopticAlgorithm::set_variant(int index) {
  const auto all = all_render_variants();
  if (index >= 0 && index < static_cast<int>(all.size())) variant_ = all[index];
}

std::vector<AlgorithmOutput> PlenopticAlgorithm::outputs() const {
  std::vector<AlgorithmOutput> o;
  for (const auto& x : runners_.spec().outputs_for(scene_.data().get()))
    o.push_back({x.name, x.label, x.format, x.input});
  return o;
}

std::pair<std::string, std::string> PlenopticAlgorithm::default_panes() const {
  return {"view", scene_.has_truth() ? "truth" : "raw"};
}

std::vector<ParamInfo> PlenopticAlgorithm::live_params() {
  std::vector<ParamInfo> v;
  for (auto& p : describe_all(params_))
    if (p.kind != ParamInfo::Kind::Bool) v.push_back(p);  // the switches have their own tree
  return v;
}

void PlenopticAlgorithm::reset_params() {
  if (!scene_.loaded()) return;
  params_ = plenoptic_params({}, scene_.grid());
}

void PlenopticAlgorithm::data_changed() {
  if (!scene_.loaded()) return;
  // Keep the panel's values where the new grid allows them.
  for (const auto& p : describe_all(params_)) p.set(p.get());
  if (params_.depth.pmin > params_.depth.pmax) params_.depth = default_depth_params(scene_.grid());
}

bool PlenopticAlgorithm::draw_controls() {
  bool changed = false;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("variant");
  if (ImGui::IsItemHovered()) {
    std::string tip;
    for (const auto& v : runners_.spec().variants) tip += v.name + ": " + v.note + "\n";
    tip += "The CPU backend is the reference and ignores the variant.";
    ImGui::SetTooltip("%s", tip.c_str());
  }
  const auto names = variants();
  int v = current_variant();
  for (int i = 0; i < static_cast<int>(names.size()); ++i) {
    ImGui::SameLine();
    if (ImGui::RadioButton(names[i].c_str(), v == i)) {
      set_variant(i);
      changed = true;
    }
  }
  auto all = describe_all(params_);
  std::vector<ParamInfo> render, depth, switches;
  for (auto& p : all) {
    if (p.kind == ParamInfo::Kind::Bool) switches.push_back(p);
    else if (p.name == "patch" || p.name == "view_x" || p.name == "view_y" || p.name == "lim" || p.name == "sigma")
      render.push_back(p);
    else depth.push_back(p);
  }
  if (ImGui::TreeNodeEx("Original's switches (render)",
                        variant_ == RenderVariant::Original ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
    changed |= param_sliders(switches);
    ImGui::TreePop();
  }
  ImGui::TextDisabled("render");
  changed |= param_sliders(render);
  ImGui::TextDisabled("depth (outputs depth, aif, error)");
  changed |= param_sliders(depth);
  if (ImGui::SmallButton("reset parameters")) {
    reset_params();
    changed = true;
  }
  return changed;
}

void PlenopticAlgorithm::draw_results() {
  if (!scene_.has_truth()) {
    ImGui::TextDisabled("depth score: the scene has no ground truth");
    return;
  }
  const int tm = scene_.scene().truth_patch;
  if (params_.render.patch != tm) {
    ImGui::TextDisabled("depth score: ground truth is at M = %d (set patch M to %d)", tm, tm);
    return;
  }
  if (scores_.empty()) {
    ImGui::TextDisabled("depth score: show depth, aif or error in a pane");
    return;
  }
  ImGui::Text("depth vs truth: %.2f %% exact, MAE %.4f", scores_.value("exact_pct", 0.0), scores_.value("mae", 0.0));
  ImGui::TextDisabled("%llu pixels, %s", static_cast<unsigned long long>(scores_.value("scored_pixels", 0ull)),
                      scores_.value("scored_with", std::string()).c_str());
}

PlenopticRunParams PlenopticAlgorithm::effective(const PaneRun& run) const {
  PlenopticRunParams p = params_;
  if (!run.override_param.empty()) {
    const auto infos = describe(p, &scene_.grid());
    if (const ParamInfo* info = find_param(infos, run.override_param)) info->set(run.override_value);
  }
  p.depth.patch = p.render.patch;
  p.depth.lim = p.render.lim;
  return p;
}

std::string PlenopticAlgorithm::variant_name(const PaneRun& run) const {
  const auto names = variants();
  if (run.variant >= 0 && run.variant < static_cast<int>(names.size())) return names[run.variant];
  return to_string(variant_);
}

std::vector<ParamInfo> PlenopticAlgorithm::describe_all(PlenopticRunParams& p) const {
  return describe(p, &scene_.grid());
}

ParamValues PlenopticAlgorithm::values(PlenopticRunParams p) const { return read_values(describe(p, &scene_.grid())); }

std::string PlenopticAlgorithm::run_key(const PaneRun& run, const std::string& output) {
  const PlenopticGrid& g = scene_.grid();
  std::ostringstream k;
  k << std::hexfloat << g.nx << ',' << g.ny << ',' << g.pitch << ',' << g.ox << ',' << g.oy << '|';
  return k.str() + lb::run_key(runners_.spec(), output, values(effective(run)), variant_name(run));
}

const gl::GlTextureSurface* PlenopticAlgorithm::input_texture(const std::string& output) const {
  if (output == "raw") return &scene_.raw_texture();
  if (output == "truth") return scene_.truth_texture();
  return nullptr;
}

RunRequest PlenopticAlgorithm::request(BackendPool& pool, BackendSlot slot, const PaneRun& run,
                                       const std::string& output) {
  LB_REQUIRE(scene_.data() != nullptr, "plenoptic: no scene loaded");
  RunRequest r;
  r.worker = runners_.get(pool, slot);
  r.data = scene_.data();
  r.values = values(effective(run));
  r.variant = variant_name(run);
  r.output = output;
  const OutputInfo* o = runners_.spec().output(output);
  LB_REQUIRE(o != nullptr, "plenoptic: no output '" + output + "'");
  r.format = o->format;
  return r;
}

void PlenopticAlgorithm::accept(const RunResult& result) {
  const std::string& output = result.request.output;
  if (output == "depth" || output == "aif" || output == "error") scores_ = result.scores;
}

DisplayHints PlenopticAlgorithm::display(const std::string& output) const {
  DisplayHints h;
  if (output == "raw") {
    h.micro_grid = show_grid_;
    h.grid = scene_.grid();
  } else if (output == "depth" || output == "truth") {
    // One scale for depth and truth so the two panes compare colour for colour.
    h.has_range = true;
    h.range_min = static_cast<float>(std::min(params_.depth.pmin, static_cast<int>(scene_.truth_min())));
    h.range_max = static_cast<float>(std::max(params_.depth.pmax, static_cast<int>(std::ceil(scene_.truth_max()))));
    if (!scene_.has_truth()) {
      h.range_min = static_cast<float>(params_.depth.pmin);
      h.range_max = static_cast<float>(params_.depth.pmax);
    }
  } else if (output == "error") {
    h.has_range = true;
    h.range_min = 0.0f;
    h.range_max = static_cast<float>(std::max(1, params_.depth.pmax - params_.depth.pmin));
  }
  return h;
}

nlohmann::json PlenopticAlgorithm::run_json(const PaneRun& run) {
  nlohmann::json j = values(effective(run));
  j["variant"] = variant_name(run);
  return j;
}

nlohmann::json PlenopticAlgorithm::results_json() const { return scores_; }

}  // namespace lb::viewer
