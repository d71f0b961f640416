#include "image_pane.hpp"

#include <imgui.h>

#include <cmath>

namespace lb::viewer {

bool ImagePane::layout_header(const PaneSourceUi& ui) {
  ImGui::PushID(index_);
  ImGui::AlignTextToFramePadding();
  ImGui::Text("%c", index_ == 0 ? 'A' : 'B');
  ImGui::SameLine();
  const bool changed = edit_pane_source(source, ui);
  ImGui::PopID();
  return changed;
}

bool ImagePane::layout_image(PaneView& view, float width, float height, float fb_scale,
                             bool hover_enabled) {
  bool interacted = false;
  ImGui::PushID(index_);
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const ImVec2 size(std::max(1.0f, std::floor(width)), std::max(1.0f, std::floor(height)));
  ImGui::InvisibleButton("##image", size,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                             ImGuiButtonFlags_MouseButtonMiddle);
  lx_ = pos.x;
  ly_ = pos.y;
  lw_ = size.x;
  lh_ = size.y;
  rect_.x = static_cast<int>(std::lround(pos.x * fb_scale));
  rect_.y = static_cast<int>(std::lround(pos.y * fb_scale));
  rect_.w = static_cast<int>(std::lround(size.x * fb_scale));
  rect_.h = static_cast<int>(std::lround(size.y * fb_scale));

  const ImGuiIO& io = ImGui::GetIO();
  hovered_ = ImGui::IsItemHovered();
  const double mx = io.MousePos.x * fb_scale - rect_.x, my = io.MousePos.y * fb_scale - rect_.y;
  if (hovered_ && io.MouseWheel != 0.0f) {
    view_zoom_at(view, mx, my, io.MouseWheel > 0 ? 1 : -1);
    view.pending = PaneView::Pending::None;
    interacted = true;
  }
  if (ImGui::IsItemActive() && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)) {
    view.t.offset_x += io.MouseDelta.x * fb_scale;
    view.t.offset_y += io.MouseDelta.y * fb_scale;
    view.pending = PaneView::Pending::None;
    interacted = true;
  }
  if (hovered_ && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
    view.pending = PaneView::Pending::Fit;
    interacted = true;
  }

  hover_.reset();
  if (hovered_ && hover_enabled && shown && shown->has_content() && view.t.zoom > 0) {
    const double u = (mx - view.t.offset_x) / view.t.zoom, v = (my - view.t.offset_y) / view.t.zoom;
    const int x = static_cast<int>(std::floor(u)), y = static_cast<int>(std::floor(v));
    if (x >= 0 && y >= 0 && x < shown->width() && y < shown->height()) hover_ = std::make_pair(x, y);
  }
  ImGui::PopID();
  return interacted;
}

}  // namespace lb::viewer
