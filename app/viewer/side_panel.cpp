#include "side_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "lightbench/generator.hpp"
#include "timing_view.hpp"

namespace lb::viewer {
namespace {

const ImVec4 kRed(1.0f, 0.35f, 0.3f, 1.0f);
const ImVec4 kDim(0.65f, 0.65f, 0.65f, 1.0f);

void wrapped_dim(const std::string& s) {
  ImGui::PushStyleColor(ImGuiCol_Text, kDim);
  ImGui::TextWrapped("%s", s.c_str());
  ImGui::PopStyleColor();
}

void section_backend(SidePanelContext& c, PanelActions& act) {
  ImGui::Text("backend: %s", to_string(c.pool.selected()));
  ImGui::SameLine();
  ImGui::TextDisabled("(--backend auto|cpu|cuda)");
  ImGui::TextWrapped("device: %s", c.pool.device_name().c_str());
  wrapped_dim("why: " + c.pool.reason());
  wrapped_dim("display: " + c.gl_description);
  for (const ImagePane& p : c.panes)
    if (p.computed && p.shown == p.computed)
      wrapped_dim(std::string("pane ") + (p.index() == 0 ? "A" : "B") +
                  " transport: " + p.computed->transport());
  std::string why;
  if (c.pool.cuda_possible(&why)) {
    if (ImGui::Checkbox("CUDA-GL interop (off: host upload)", &c.state.use_interop))
      act.interop_toggled = true;
  }
}

void section_scene(SidePanelContext& c, PanelActions& act) {
  const PlenopticScene& s = c.scene.scene();
  ImGui::TextWrapped("scene: %s", s.source.c_str());
  ImGui::Text("raw %s%s", describe(s.raw).c_str(), c.scene.has_truth() ? ", with ground truth" : "");
  ImGui::SetNextItemWidth(-60);
  const bool enter = ImGui::InputTextWithHint("##path", "raw image or scene.json path",
                                              &c.state.path_field,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Open") || enter) && !c.state.path_field.empty())
    act.open_path = c.state.path_field;
  ImGui::TextDisabled("or drop a file on the window");
  const auto presets = generator_presets();
  c.state.preset_index = std::clamp(c.state.preset_index, 0, static_cast<int>(presets.size()) - 1);
  ImGui::SetNextItemWidth(90);
  if (ImGui::BeginCombo("##preset", presets[c.state.preset_index].c_str())) {
    for (int i = 0; i < static_cast<int>(presets.size()); ++i)
      if (ImGui::Selectable(presets[i].c_str(), i == c.state.preset_index)) c.state.preset_index = i;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("seed", &c.state.seed);
  c.state.seed = std::max(c.state.seed, 0);
  ImGui::SameLine();
  if (ImGui::Button("Generate")) act.generate_preset = presets[c.state.preset_index];
}

void section_grid(SidePanelContext& c, PanelActions& act) {
  PlenopticGrid& g = c.state.grid_edit;
  bool edited = false;
  ImGui::PushItemWidth(120);
  edited |= ImGui::InputDouble("pitch D", &g.pitch, 0.25, 1.0, "%.4f");
  edited |= ImGui::InputDouble("offset x", &g.ox, 0.25, 1.0, "%.4f");
  edited |= ImGui::InputDouble("offset y", &g.oy, 0.25, 1.0, "%.4f");
  edited |= ImGui::InputInt("grid NX", &g.nx);
  edited |= ImGui::InputInt("grid NY", &g.ny);
  ImGui::PopItemWidth();
  if (edited) {
    try {
      c.scene.set_grid(g);
      c.state.grid_error.clear();
      act.grid_changed = true;
    } catch (const std::exception& e) {
      c.state.grid_error = e.what();  // the previous grid stays in use
    }
  }
  if (ImGui::SmallButton("fit NX, NY to the raw")) {
    g = fit_grid(g, c.scene.scene().raw.width, c.scene.scene().raw.height);
    try {
      c.scene.set_grid(g);
      c.state.grid_error.clear();
      act.grid_changed = true;
    } catch (const std::exception& e) {
      c.state.grid_error = e.what();
    }
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("scene's grid")) {
    g = c.scene.original_grid();
    try {
      c.scene.set_grid(g);
      c.state.grid_error.clear();
      act.grid_changed = true;
    } catch (const std::exception& e) {
      c.state.grid_error = e.what();
    }
  }
  ImGui::Checkbox("show the grid on the raw image", &c.state.micro_grid_on_raw);
  if (!c.state.grid_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kRed);
    ImGui::TextWrapped("grid not applied: %s", c.state.grid_error.c_str());
    ImGui::PopStyleColor();
  }
}

void section_algorithm(SidePanelContext& c, PanelActions& act) {
  auto& algos = c.algorithms;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##algorithm", algos[c.algorithm_index]->name().c_str())) {
    for (int i = 0; i < static_cast<int>(algos.size()); ++i)
      if (ImGui::Selectable(algos[i]->name().c_str(), i == c.algorithm_index)) {
        c.algorithm_index = i;
        act.params_changed = true;
      }
    ImGui::EndCombo();
  }
  Algorithm& a = *algos[c.algorithm_index];
  act.params_changed |= a.draw_controls();
  ImGui::Separator();
  a.draw_results();
}

void section_display(SidePanelContext& c, PanelActions& act) {
  ViewerState& s = c.state;
  ImGui::SetNextItemWidth(160);
  ImGui::SliderFloat("exposure (EV)", &s.style.exposure_ev, -4.0f, 4.0f, "%+.2f");
  ImGui::SameLine();
  if (ImGui::SmallButton("0##ev")) s.style.exposure_ev = 0.0f;
  static const char* maps[] = {"gray", "turbo", "viridis"};
  int cm = static_cast<int>(s.style.colormap);
  ImGui::SetNextItemWidth(160);
  if (ImGui::Combo("colour map (scalars, difference)", &cm, maps, 3))
    s.style.colormap = static_cast<gl::ColorMap>(cm);
  if (ImGui::Button("fit (F)")) act.fit = true;
  ImGui::SameLine();
  if (ImGui::Button("1:1 (1)")) act.one_to_one = true;
  ImGui::SameLine();
  ImGui::Checkbox("link zoom/pan (L)", &s.linked);
  ImGui::SameLine();
  ImGui::Checkbox("pixel grid", &s.style.pixel_grid);
  ImGui::Checkbox("pixel value under the cursor", &s.hover_readout);
  ImGui::Checkbox("difference mode (D): B shows |A - B|", &s.diff);
  if (s.diff) {
    ImGui::Checkbox("auto scale", &s.auto_diff_max);
    ImGui::SameLine();
    if (s.auto_diff_max) ImGui::BeginDisabled();
    ImGui::SetNextItemWidth(140);
    ImGui::SliderFloat("top of map", &s.style.diff_max, 0.001f, 255.0f, "%.3f",
                       ImGuiSliderFlags_Logarithmic);
    if (s.auto_diff_max) ImGui::EndDisabled();
    if (c.diff) {
      if (c.diff->valid) {
        ImGui::Text("max |A-B| = %g   mean = %.4f", c.diff->max_abs, c.diff->mean_abs);
        ImGui::Text("%llu of %llu pixels differ%s",
                    static_cast<unsigned long long>(c.diff->differing),
                    static_cast<unsigned long long>(c.diff->pixels),
                    c.diff->scalar ? "" : " (8-bit levels, R/G/B)");
      } else {
        ImGui::TextDisabled("no difference: %s", c.diff->why.c_str());
      }
    }
  }
}

}  // namespace

PanelActions draw_side_panel(SidePanelContext& c, float height) {
  PanelActions act;
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(c.state.panel_width, height), ImGuiCond_Always);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoTitleBar |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (ImGui::Begin("lightbench", nullptr, flags)) {
    ImGui::Text("lightbench viewer");
    ImGui::SameLine();
    ImGui::TextDisabled("F fit  1 1:1  D diff  L link");
    // The one-line error, always at the top so it is seen.
    if (!c.state.error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, kRed);
      ImGui::TextWrapped("%s", c.state.error.c_str());
      ImGui::PopStyleColor();
      if (ImGui::SmallButton("dismiss")) c.state.error.clear();
    }
    ImGui::Separator();
    if (ImGui::CollapsingHeader("Backend", ImGuiTreeNodeFlags_DefaultOpen)) section_backend(c, act);
    // The plenoptic scene's sections only with an algorithm that works on it; the others
    // show their data in their own controls.
    const bool plenoptic = c.algorithms[c.algorithm_index]->data_kind() == DataKind::PlenopticScene;
    if (plenoptic && ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) section_scene(c, act);
    if (plenoptic && ImGui::CollapsingHeader("Grid")) section_grid(c, act);
    if (ImGui::CollapsingHeader("Algorithm", ImGuiTreeNodeFlags_DefaultOpen))
      section_algorithm(c, act);
    if (ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) section_display(c, act);
    if (ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen))
      draw_timings(c.pool, *c.algorithms[c.algorithm_index], c.state.timing_plot);
  }
  ImGui::End();
  return act;
}

}  // namespace lb::viewer
