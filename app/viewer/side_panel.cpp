#include "side_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "param_widgets.hpp"
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
  if (apply_on_release())
    ImGui::TextDisabled("a run takes %.1f s: sliders apply when released", c.state.last_run_ms / 1000.0);
  ImGui::Separator();
  a.draw_results();
}

void section_display(SidePanelContext& c, PanelActions& act) {
  ViewerState& s = c.state;
  ImGui::SetNextItemWidth(160);
  ImGui::SliderFloat("exposure (EV)", &s.style.exposure_ev, -4.0f, 4.0f, "%+.2f");
  ImGui::SameLine();
  if (ImGui::SmallButton("0##ev")) s.style.exposure_ev = 0.0f;
  // lb::ColorMap's order (the shader's u_colormap, the CLI's colour images).
  static const char* maps[] = {"gray", "turbo", "viridis", "diverging"};
  int cm = static_cast<int>(s.style.colormap);
  ImGui::SetNextItemWidth(160);
  if (ImGui::Combo("colour map (scalars, difference)", &cm, maps, 4))
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
    ImGui::SameLine();
    ImGui::Checkbox("signed (A - B)", &s.signed_diff);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("A - B through a diverging map over +-top (0: the middle grey; --signed-diff)");
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
        if (s.signed_diff) ImGui::Text("A-B from %g to %g", c.diff->min_signed, c.diff->max_signed);
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
    // The shown algorithm's own data sections (the plenoptic Scene and Grid); the others
    // show their data in their controls.
    DataRequest data = c.algorithms[c.algorithm_index]->draw_data_section();
    if (!data.open_path.empty()) act.open_path = data.open_path;
    act.calib_path = data.calib_path;
    act.hand_over = data.hand_over;
    act.data_replaced = data.replaced;
    act.data_error = data.error;
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
