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

double param_value(const ParamInfo& p) {
  if (!p.value) return 0.0;
  return p.kind == ParamInfo::Kind::Int ? *static_cast<int*>(p.value)
                                        : static_cast<double>(*static_cast<float*>(p.value));
}

void set_param_value(const ParamInfo& p, double v) {
  if (!p.value) return;
  v = std::clamp(v, p.min, p.max);
  if (p.kind == ParamInfo::Kind::Int) *static_cast<int*>(p.value) = static_cast<int>(std::lround(v));
  else *static_cast<float*>(p.value) = static_cast<float>(v);
}

const ParamInfo* find_param(const std::vector<ParamInfo>& params, const std::string& name) {
  for (const auto& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

bool param_sliders(const std::vector<ParamInfo>& params) {
  bool changed = false;
  for (const auto& p : params) {
    ImGui::PushID(p.name.c_str());
    if (p.kind == ParamInfo::Kind::Int) {
      int* v = static_cast<int*>(p.value);
      changed |= ImGui::SliderInt(p.label.c_str(), v, static_cast<int>(p.min),
                                  static_cast<int>(p.max), "%d", ImGuiSliderFlags_AlwaysClamp);
    } else {
      float* v = static_cast<float*>(p.value);
      changed |= ImGui::SliderFloat(p.label.c_str(), v, static_cast<float>(p.min),
                                    static_cast<float>(p.max), "%.2f", ImGuiSliderFlags_AlwaysClamp);
    }
    if (!p.help.empty() && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s\n(%s; ctrl+click to type a value)", p.help.c_str(), p.name.c_str());
    ImGui::PopID();
  }
  return changed;
}

}  // namespace lb::viewer
