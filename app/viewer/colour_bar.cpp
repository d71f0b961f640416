#include "colour_bar.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace lb::viewer {

std::string bar_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

nlohmann::json to_json(const ColourBar& bar) {
  if (!bar.shown) return nullptr;
  return {{"map", to_string(bar.map)}, {"min", bar.lo}, {"max", bar.hi}, {"unit", bar.unit}, {"label", bar.label}};
}

void draw_colour_bar(const ColourBar& bar, float x, float y, float w, float h, float box[4]) {
  if (box) box[0] = box[1] = box[2] = box[3] = 0.0f;
  if (!bar.shown || w < 60.0f || h < 60.0f) return;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const float line = ImGui::GetTextLineHeight();
  const std::string top = bar_value(bar.hi), bottom = bar_value(bar.lo);
  const std::string unit = bar.label.empty() ? bar.unit : bar.label + (bar.unit.empty() ? "" : " (" + bar.unit + ")");
  float text_w = std::max(ImGui::CalcTextSize(top.c_str()).x, ImGui::CalcTextSize(bottom.c_str()).x);
  text_w = std::max(text_w, ImGui::CalcTextSize(unit.c_str()).x);
  const float bar_w = 12.0f, pad = 4.0f;
  const float bar_h = std::max(20.0f, std::min(240.0f, h * 0.45f));
  const float box_w = std::max(bar_w + 2 * pad, text_w + 2 * pad);
  const float box_h = bar_h + 3 * line + 4 * pad;
  if (box_w > w * 0.5f || box_h > h - 8.0f) return;
  const float x0 = x + w - box_w - 6.0f, y0 = y + 6.0f;
  if (box) {
    box[0] = x0;
    box[1] = y0;
    box[2] = box_w;
    box[3] = box_h;
  }
  dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + box_w, y0 + box_h), IM_COL32(20, 20, 22, 200), 3.0f);
  const ImU32 text = IM_COL32(230, 230, 230, 255);
  dl->AddText(ImVec2(x0 + pad, y0 + pad), text, top.c_str());
  // The gradient, top = hi: one band per logical pixel row, the shader's map at its centre.
  const float bx = x0 + (box_w - bar_w) * 0.5f, by = y0 + pad * 2 + line;
  const int bands = std::max(1, static_cast<int>(bar_h));
  for (int k = 0; k < bands; ++k) {
    const float t = 1.0f - (static_cast<float>(k) + 0.5f) / static_cast<float>(bands);
    const auto c = colormap::rgb(bar.map, t);
    const ImU32 col = IM_COL32(static_cast<int>(c[0] * 255.0f + 0.5f), static_cast<int>(c[1] * 255.0f + 0.5f),
                               static_cast<int>(c[2] * 255.0f + 0.5f), 255);
    const float ya = by + bar_h * static_cast<float>(k) / static_cast<float>(bands);
    const float yb = by + bar_h * static_cast<float>(k + 1) / static_cast<float>(bands);
    dl->AddRectFilled(ImVec2(bx, ya), ImVec2(bx + bar_w, yb), col);
  }
  dl->AddRect(ImVec2(bx, by), ImVec2(bx + bar_w, by + bar_h), IM_COL32(200, 200, 200, 255));
  dl->AddText(ImVec2(x0 + pad, by + bar_h + pad), text, bottom.c_str());
  dl->AddText(ImVec2(x0 + pad, by + bar_h + pad + line), IM_COL32(180, 180, 180, 255), unit.c_str());
}

}  // namespace lb::viewer
