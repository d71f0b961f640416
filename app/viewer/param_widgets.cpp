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

namespace {

bool g_apply_on_release = false;

// A slider drawn over a copy of *value. Live, the value applies every frame the slider moves;
// with apply-on-release on (the last run was slow), the dragged value is kept in ImGui's
// per-widget storage, shown by the slider, and applied once when the slider lets go (also
// after a ctrl+click typed value), so a drag costs one run, not one run per frame.
template <class T, class Draw>
bool slider_over_copy(T* value, Draw draw) {
  ImGuiStorage* st = ImGui::GetStateStorage();
  const ImGuiID pending_id = ImGui::GetID("##pending"), editing_id = ImGui::GetID("##editing");
  bool editing = st->GetBool(editing_id, false);
  T v = editing ? static_cast<T>(st->GetFloat(pending_id)) : *value;
  bool changed = false;
  if (draw(&v)) {
    if (g_apply_on_release) {
      st->SetFloat(pending_id, static_cast<float>(v));  // exact: ints here stay below 2^24
      st->SetBool(editing_id, true);
      editing = true;
    } else {
      *value = v;
      changed = true;
    }
  }
  if (editing && !ImGui::IsItemActive()) {
    *value = static_cast<T>(st->GetFloat(pending_id));
    st->SetBool(editing_id, false);
    changed = true;
  }
  return changed;
}

}  // namespace

void set_apply_on_release(bool on) { g_apply_on_release = on; }
bool apply_on_release() { return g_apply_on_release; }

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
      changed |= slider_over_copy(*i, [&](int* v) {
        return ImGui::SliderInt(p.label.c_str(), v, static_cast<int>(p.min), static_cast<int>(p.max), "%d",
                                ImGuiSliderFlags_AlwaysClamp);
      });
    } else if (auto* f = std::get_if<float*>(&p.value)) {
      const FloatSliderStyle st = float_slider_style(p);
      changed |= slider_over_copy(*f, [&](float* v) {
        return ImGui::SliderFloat(p.label.c_str(), v, static_cast<float>(p.min), static_cast<float>(p.max),
                                  st.format, st.flags);
      });
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
