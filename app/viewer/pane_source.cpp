#include "pane_source.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "foreign_map.hpp"
#include "lightbench/error.hpp"
#include "param_widgets.hpp"
#include "remote_source.hpp"

namespace lb::viewer {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

}  // namespace

bool is_input_output(Algorithm& algorithm, const std::string& output) {
  for (const auto& o : algorithm.outputs())
    if (o.name == output) return o.input;
  return false;
}

PaneSource parse_pane_source(const std::string& spec, Algorithm& algorithm) {
  PaneSource s;
  std::string remote_name;  // remote:NAME (the remote port's image; shown as a file is)
  if (remote::parse_remote_spec(spec, &remote_name)) {
    s.file = remote::remote_spec(remote_name);
    s.file_field = s.file;
    return s;
  }
  if (parse_file_spec(spec, &s.file)) {
    s.file_field = s.file;
    return s;
  }
  std::istringstream in(spec);
  std::string item;
  const auto params = algorithm.live_params();
  while (std::getline(in, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    const auto eq = item.find('=');
    LB_REQUIRE(eq != std::string::npos, "pane source: expected key=value, got " + quote_untrusted(item));
    const std::string key = lower(trim(item.substr(0, eq))), value = trim(item.substr(eq + 1));
    if (key == "output") {
      const std::string v = lower(value);
      std::string names;
      bool found = false;
      for (const auto& o : algorithm.outputs()) {
        found |= o.name == v;
        names += (names.empty() ? "" : ", ") + o.name;
      }
      LB_REQUIRE(found, "pane source: unknown output " + quote_untrusted(value) + " (" + algorithm.name() +
                            " has " + names + ")");
      s.output = v;
    } else if (key == "backend") {
      const std::string v = lower(value);
      if (v == "selected" || v == "auto") s.backend = BackendSlot::Selected;
      else if (v == "cpu") s.backend = BackendSlot::Cpu;
      else if (v == "cuda") s.backend = BackendSlot::Cuda;
      else throw Error("pane source: backend must be selected, cpu or cuda, got " + quote_untrusted(value));
    } else if (key == "variant") {
      const std::string v = lower(value);
      s.run.variant = -1;
      if (v != "panel" && v != "default") {
        const auto names = algorithm.variants();
        for (std::size_t i = 0; i < names.size(); ++i)
          if (lower(names[i]) == v) s.run.variant = static_cast<int>(i);
        LB_REQUIRE(s.run.variant >= 0, "pane source: unknown variant " + quote_untrusted(value));
      }
    } else if (find_param(params, key)) {
      LB_REQUIRE(s.run.override_param.empty() || s.run.override_param == key,
                 "pane source: at most one parameter override per pane");
      try {
        s.run.override_param = key;
        s.run.override_value = std::stod(value);
      } catch (const std::exception&) {
        throw Error("pane source: " + key + " expects a number, got " + quote_untrusted(value));
      }
    } else {
      throw Error("pane source: unknown key " + quote_untrusted(key));
    }
  }
  return s;
}

std::string describe(const PaneSource& s, Algorithm& algorithm) {
  if (!s.file.empty()) return remote::is_remote_spec(s.file) ? s.file : "file " + s.file;
  if (is_input_output(algorithm, s.output)) return s.output;
  std::string d = s.output + " | " + to_string(s.backend);
  const auto names = algorithm.variants();
  if (s.run.variant >= 0 && s.run.variant < static_cast<int>(names.size()))
    d += " | " + names[s.run.variant];
  if (!s.run.override_param.empty()) {
    std::ostringstream v;
    v << s.run.override_value;
    d += " | " + s.run.override_param + "=" + v.str();
  }
  return d;
}

bool edit_pane_source(PaneSource& s, const PaneSourceUi& ui) {
  bool changed = false;
  Algorithm& algo = *ui.algorithm;
  const auto outputs = algo.outputs();

  // Output: results first, then the inputs, then a file.
  const bool file_mode = !s.file.empty() || s.file_editing;
  ImGui::SetNextItemWidth(110);
  if (ImGui::BeginCombo("##output", file_mode ? "file..." : s.output.c_str())) {
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) ImGui::Separator();
      for (const auto& o : outputs) {
        if (o.input != (pass == 1)) continue;
        if (ImGui::Selectable(o.name.c_str(), !file_mode && s.output == o.name)) {
          s.output = o.name;
          s.file.clear();
          s.file_editing = false;
          changed = true;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", o.label.c_str());
      }
    }
    ImGui::Separator();
    if (ImGui::Selectable("file...", file_mode)) s.file_editing = true;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("another method's disparity map (.pfm, 16-bit KITTI .png) or any image; or drop a file on the pane");
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("what this pane shows");
  if (file_mode) {
    // A path field (no file dialog): Enter or "open" shows the file.
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x - 50.0f));
    bool go = ImGui::InputTextWithHint("##file", "path of a map or image", &s.file_field,
                                       ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    go |= ImGui::SmallButton("open");
    if (go && !s.file_field.empty()) {
      s.file = s.file_field;
      s.file_editing = false;
      changed = true;
    }
    return changed;
  }
  if (is_input_output(algo, s.output)) return changed;

  // Backend.
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  static const char* backends[] = {"selected", "CPU", "CUDA"};
  if (ImGui::BeginCombo("##backend", backends[static_cast<int>(s.backend)])) {
    for (int i = 0; i < 3; ++i) {
      const bool disabled = i == 2 && !ui.cuda_possible;
      if (disabled) ImGui::BeginDisabled();
      if (ImGui::Selectable(backends[i], static_cast<int>(s.backend) == i)) {
        s.backend = static_cast<BackendSlot>(i);
        changed = true;
      }
      if (disabled) {
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
          ImGui::SetTooltip("%s", ui.cuda_why.c_str());
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("backend of this pane (selected: the panel's)");

  // Variant.
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  const auto names = algo.variants();
  const std::string vlabel = s.run.variant < 0 ? "panel" : names[s.run.variant];
  if (ImGui::BeginCombo("##variant", vlabel.c_str())) {
    if (ImGui::Selectable("panel", s.run.variant < 0)) {
      s.run.variant = -1;
      changed = true;
    }
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (ImGui::Selectable(names[i].c_str(), s.run.variant == i)) {
        s.run.variant = i;
        changed = true;
      }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("kernel variant (panel: the panel's choice)");

  // Parameter override.
  ImGui::SameLine();
  ImGui::SetNextItemWidth(105);
  auto params = algo.live_params();
  const ParamInfo* info = find_param(params, s.run.override_param);
  if (ImGui::BeginCombo("##override", info ? info->name.c_str() : "no override")) {
    if (ImGui::Selectable("no override", !info)) {
      s.run.override_param.clear();
      changed = true;
    }
    for (const auto& p : params)
      if (ImGui::Selectable(p.name.c_str(), info && info->name == p.name)) {
        s.run.override_param = p.name;
        s.run.override_value = param_value(p);  // start from the panel's value
        changed = true;
      }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("give this pane its own value of one parameter");
  info = find_param(params, s.run.override_param);
  if (info) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x));
    if (info->kind == ParamInfo::Kind::Int) {
      int v = static_cast<int>(s.run.override_value);
      if (ImGui::SliderInt("##ov", &v, static_cast<int>(info->min), static_cast<int>(info->max),
                           "%d", ImGuiSliderFlags_AlwaysClamp)) {
        s.run.override_value = v;
        changed = true;
      }
    } else {
      float v = static_cast<float>(s.run.override_value);
      const FloatSliderStyle st = float_slider_style(*info);
      if (ImGui::SliderFloat("##ov", &v, static_cast<float>(info->min), static_cast<float>(info->max), st.format,
                             st.flags)) {
        s.run.override_value = v;
        changed = true;
      }
    }
  }
  return changed;
}

}  // namespace lb::viewer
