#include "plenoptic_geometry.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "lightbench/calibrated_raw.hpp"

namespace lb::viewer {
namespace {
const ImVec4 kRed(1.0f, 0.35f, 0.3f, 1.0f);
constexpr double kPi = 3.14159265358979323846;
}  // namespace

void GeometryEdit::reset(const MlaGeometry& from) {
  g = from;
  rotation_deg = from.rotation * 180.0 / kPi;
  error.clear();
}

std::string geometry_summary(const MlaGeometry& g) {
  char s[160];
  std::snprintf(s, sizeof s, "%s, D %.2f px, %d lens type%s", to_string(g.kind), g.diameter,
                static_cast<int>(g.types.size()), g.types.size() == 1 ? "" : "s");
  return s;
}

bool draw_geometry_section(SceneStore& store, GeometryEdit& edit) {
  if (!store.has_geometry()) return false;
  bool changed = false;
  auto apply = [&](const MlaGeometry& g) {
    try {
      store.set_geometry(g);
      edit.error.clear();
      changed = true;
    } catch (const std::exception& e) {
      edit.error = e.what();  // the previous geometry stays in use
    }
  };
  ImGui::TextWrapped("%s", geometry_summary(store.geometry()).c_str());
  // The types' depth ranges (read only: they come with the calibration).
  for (std::size_t t = 0; t < store.geometry().types.size(); ++t) {
    const MlaLensType& ty = store.geometry().types[t];
    ImGui::TextDisabled("type %d: virtual depth %.2f..%s", static_cast<int>(t), ty.depth_min,
                        std::isfinite(ty.depth_max) ? std::to_string(ty.depth_max).substr(0, 6).c_str() : "inf");
  }
  MlaGeometry& g = edit.g;
  bool edited = false;
  ImGui::PushItemWidth(120);
  edited |= ImGui::InputDouble("diameter D", &g.diameter, 0.05, 1.0, "%.4f");
  edited |= ImGui::InputDouble("offset x##lens", &g.offset.x, 0.25, 1.0, "%.4f");
  edited |= ImGui::InputDouble("offset y##lens", &g.offset.y, 0.25, 1.0, "%.4f");
  if (ImGui::InputDouble("rotation (deg)", &edit.rotation_deg, 0.1, 1.0, "%.3f")) {
    g.rotation = edit.rotation_deg * kPi / 180.0;
    edited = true;
  }
  ImGui::PopItemWidth();
  if (edited) apply(g);
  if (ImGui::SmallButton("fit offset")) {
    try {
      const MlaFitResult r = fit_mla_offset_scored(store.geometry(), store.scene().raw);
      char note[160];
      std::snprintf(note, sizeof note, "fitted: shift (%+.2f, %+.2f) px, contrast %.1f -> %.1f",
                    r.geometry.offset.x - store.geometry().offset.x, r.geometry.offset.y - store.geometry().offset.y,
                    r.contrast_given, r.contrast_fitted);
      edit.note = note;
      edit.reset(r.geometry);
      apply(r.geometry);
    } catch (const std::exception& e) {
      edit.error = e.what();
    }
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("fit the grid's offset to the raw: the lens borders' gradient ring, searched over one lens "
                      "cell around the current offset (about 0.5 px precision)");
  ImGui::SameLine();
  if (ImGui::SmallButton("scene's geometry")) {
    edit.reset(store.original_geometry());
    apply(store.original_geometry());
  }
  if (!edit.note.empty()) ImGui::TextDisabled("%s", edit.note.c_str());
  ImGui::Checkbox("show the lenses on the raw image", &edit.show_lenses);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("circles of the usable radius (D / 2 minus the lens border), coloured by lens type");
  if (!edit.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kRed);
    ImGui::TextWrapped("geometry not applied: %s", edit.error.c_str());
    ImGui::PopStyleColor();
  }
  return changed;
}

}  // namespace lb::viewer
