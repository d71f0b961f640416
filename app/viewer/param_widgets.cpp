#include "param_widgets.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>

namespace lb::viewer {

bool path_open_row(const char* id, const char* hint, std::string& path, std::string* error,
                   const std::function<void(const std::string&)>& open) {
  ImGui::PushID(id);
  ImGui::SetNextItemWidth(-60);
  const bool enter = ImGui::InputTextWithHint("##path", hint, &path, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  const bool clicked = ImGui::Button("Open");
  ImGui::PopID();
  if (!(clicked || enter) || path.empty()) return false;
  try {
    open(path);
    error->clear();
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

void error_line(const std::string& error) {
  if (error.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
  ImGui::TextWrapped("%s", error.c_str());
  ImGui::PopStyleColor();
}

FloatSliderStyle float_slider_style(const ParamInfo& p) {
  const bool log = p.min > 0.0 && p.max >= 100.0 * p.min;
  return {p.min > 0.0 && p.min < 0.01 ? "%.2e" : "%.2f",
          ImGuiSliderFlags_AlwaysClamp | (log ? ImGuiSliderFlags_Logarithmic : 0)};
}

bool param_sliders(const std::vector<ParamInfo>& params) {
  bool changed = false;
  for (const auto& p : params) {
    ImGui::PushID(p.name.c_str());
    if (auto* i = std::get_if<int*>(&p.value); i && p.min == 0.0 && p.max == 1.0) {
      // A 0/1 switch kept as an int (the local matcher's lr_check): a checkbox, not a
      // two-stop slider.
      bool on = **i != 0;
      if (ImGui::Checkbox(p.label.c_str(), &on)) {
        **i = on ? 1 : 0;
        changed = true;
      }
    } else if (i) {
      changed |= ImGui::SliderInt(p.label.c_str(), *i, static_cast<int>(p.min),
                                  static_cast<int>(p.max), "%d", ImGuiSliderFlags_AlwaysClamp);
    } else if (auto* f = std::get_if<float*>(&p.value)) {
      const FloatSliderStyle st = float_slider_style(p);
      changed |= ImGui::SliderFloat(p.label.c_str(), *f, static_cast<float>(p.min), static_cast<float>(p.max),
                                    st.format, st.flags);
    } else if (auto* b = std::get_if<bool*>(&p.value)) {
      changed |= ImGui::Checkbox(p.label.c_str(), *b);
    }
    if (!p.help.empty() && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\n(%s; ctrl+click to type a value)", p.help.c_str(), p.name.c_str());
    ImGui::PopID();
  }
  return changed;
}

}  // namespace lb::viewer
