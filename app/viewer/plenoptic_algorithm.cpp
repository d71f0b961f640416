#include "plenoptic_algorithm.hpp"

#include <imgui.h>

#include <sstream>

#include "lightbench/error.hpp"
#include "param_widgets.hpp"

namespace lb::viewer {

std::vector<std::unique_ptr<Algorithm>> make_algorithms(const PlenopticGrid& grid) {
  std::vector<std::unique_ptr<Algorithm>> v;
  v.push_back(std::make_unique<PlenopticAlgorithm>(grid));
  return v;
}

PlenopticAlgorithm::PlenopticAlgorithm(const PlenopticGrid& grid) { reset_params(grid); }

std::vector<std::string> PlenopticAlgorithm::variants() const { return {"Original", "Sync", "NoSync"}; }

int PlenopticAlgorithm::current_variant() const {
  const auto all = all_render_variants();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i] == config_.variant) return static_cast<int>(i);
  return 0;
}

void PlenopticAlgorithm::set_variant(int index) {
  const auto all = all_render_variants();
  if (index >= 0 && index < static_cast<int>(all.size())) config_.variant = all[index];
}

std::vector<AlgorithmOutput> PlenopticAlgorithm::outputs() const {
  return {{"view", "rendered view", SurfaceFormat::RGBA8}};
}

std::vector<ParamInfo> PlenopticAlgorithm::live_params(const PlenopticGrid& grid) {
  return describe(params_, grid);
}

void PlenopticAlgorithm::reset_params(const PlenopticGrid& grid) {
  params_ = default_render_params(grid);
}

void PlenopticAlgorithm::fit_to_grid(const PlenopticGrid& grid) {
  for (const auto& p : describe(params_, grid)) set_param_value(p, param_value(p));
}

bool PlenopticAlgorithm::draw_controls(const PlenopticGrid& grid) {
  bool changed = false;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("variant");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Original: one thread per output pixel.\n"
                      "Sync: input-side blocks, shared-memory shifting buffer with barriers.\n"
                      "NoSync: private double-buffered accumulators, no barriers.\n"
                      "The CPU backend is the reference and ignores the variant.");
  const auto names = variants();
  int v = current_variant();
  for (int i = 0; i < static_cast<int>(names.size()); ++i) {
    ImGui::SameLine();
    if (ImGui::RadioButton(names[i].c_str(), v == i)) {
      set_variant(i);
      changed = true;
    }
  }
  if (ImGui::TreeNodeEx("Original's switches", config_.variant == RenderVariant::Original
                                                   ? ImGuiTreeNodeFlags_DefaultOpen
                                                   : 0)) {
    auto& s = config_.original;
    changed |= ImGui::Checkbox("4-byte (RGBA8) input", &s.rgba_input);
    changed |= ImGui::Checkbox("vectorised 4-byte stores", &s.vector_store);
    changed |= ImGui::Checkbox("reciprocal instead of divide", &s.reciprocal);
    changed |= ImGui::Checkbox("barrier at loop end", &s.sync_at_end);
    ImGui::TreePop();
  }
  changed |= param_sliders(describe(params_, grid));
  if (ImGui::SmallButton("reset parameters")) {
    reset_params(grid);
    changed = true;
  }
  return changed;
}

void PlenopticAlgorithm::effective(const PlenopticGrid& grid, const PaneRun& run, RenderParams* p,
                                   RenderConfig* c) const {
  *p = params_;
  *c = config_;
  if (run.variant >= 0) {
    const auto all = all_render_variants();
    if (run.variant < static_cast<int>(all.size())) c->variant = all[run.variant];
  }
  if (!run.override_param.empty()) {
    const auto infos = describe(*p, grid);
    if (const ParamInfo* info = find_param(infos, run.override_param))
      set_param_value(*info, run.override_value);
  }
}

std::string PlenopticAlgorithm::run_key(const PlenopticGrid& g, const PaneRun& run,
                                        const std::string& output) {
  RenderParams p;
  RenderConfig c;
  effective(g, run, &p, &c);
  std::ostringstream k;
  k << std::hexfloat << output << '|' << g.nx << ',' << g.ny << ',' << g.pitch << ',' << g.ox
    << ',' << g.oy << '|' << p.patch << ',' << p.view_x << ',' << p.view_y << ',' << p.lim << ','
    << p.sigma << '|' << to_string(c.variant) << ',' << c.original.rgba_input
    << c.original.vector_store << c.original.reciprocal << c.original.sync_at_end;
  return k.str();
}

void PlenopticAlgorithm::run(ComputeBackend& backend, const PlenopticGrid& grid,
                             const PaneRun& run, const std::string& output, Surface& out) {
  LB_REQUIRE(output == "view", "plenoptic render has no output '" + output + "'");
  RenderParams p;
  RenderConfig c;
  effective(grid, run, &p, &c);
  validate(p, grid);
  backend.render(grid, p, c, out);
}

nlohmann::json PlenopticAlgorithm::run_json(const PlenopticGrid& grid, const PaneRun& run) {
  RenderParams p;
  RenderConfig c;
  effective(grid, run, &p, &c);
  return {{"patch", p.patch}, {"view_x", p.view_x},  {"view_y", p.view_y},
          {"lim", p.lim},     {"sigma", p.sigma},    {"variant", to_string(c.variant)}};
}

}  // namespace lb::viewer
