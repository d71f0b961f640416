#include "lens_overlay.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

namespace lb::viewer {

namespace {
bool same(const MlaGeometry& a, const MlaGeometry& b) {
  return a.kind == b.kind && a.diameter == b.diameter && a.offset.x == b.offset.x && a.offset.y == b.offset.y &&
         a.rotation == b.rotation && a.types.size() == b.types.size() && a.base_x.x == b.base_x.x &&
         a.base_x.y == b.base_x.y && a.base_y.x == b.base_y.x && a.base_y.y == b.base_y.y &&
         a.sub_grid_base.x == b.sub_grid_base.x && a.sub_grid_base.y == b.sub_grid_base.y;
}
}  // namespace

unsigned lens_type_colour(int type) {
  // Raytrix' three types as red, green, blue-ish; more types cycle through further hues.
  static const ImU32 colours[] = {IM_COL32(255, 90, 80, 230), IM_COL32(90, 230, 90, 230),
                                  IM_COL32(90, 160, 255, 230), IM_COL32(255, 220, 60, 230),
                                  IM_COL32(230, 90, 230, 230), IM_COL32(80, 230, 230, 230)};
  return colours[static_cast<unsigned>(type) % (sizeof colours / sizeof colours[0])];
}

int draw_lens_overlay(const MlaGeometry& g, int raw_w, int raw_h, const gl::PixelRect& rect,
                      const gl::ViewTransform& t, float fb_scale, LensOverlayCache& cache) {
  if (rect.empty() || t.zoom <= 0 || fb_scale <= 0) return 0;
  const double radius = std::max(0.5, g.diameter / 2.0 - g.lens_border);
  const double r_screen = radius * t.zoom / fb_scale;  // logical pixels
  if (r_screen < 2.0) return 0;
  if (cache.width != raw_w || cache.height != raw_h || !same(cache.geometry, g)) {
    cache.lenses.clear();
    try {
      cache.lenses = MlaLayout(g).lenses_in(raw_w, raw_h);
    } catch (const std::exception&) {
      // An absurd geometry draws nothing (the panel says why it was refused).
    }
    cache.geometry = g;
    cache.width = raw_w;
    cache.height = raw_h;
  }
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const float x0 = rect.x / fb_scale, y0 = rect.y / fb_scale;
  const float x1 = (rect.x + rect.w) / fb_scale, y1 = (rect.y + rect.h) / fb_scale;
  dl->PushClipRect(ImVec2(x0, y0), ImVec2(x1, y1), true);
  const float thick = r_screen > 12.0 ? 1.5f : 1.0f;
  const int segments = r_screen > 40.0 ? 48 : r_screen > 10.0 ? 24 : 12;
  int drawn = 0;
  for (const MlaLens& l : cache.lenses) {
    // Pixel (x, y)'s centre is at image coordinate x + 0.5 on the texture.
    const float cx = static_cast<float>((rect.x + t.offset_x + (l.cx + 0.5) * t.zoom) / fb_scale);
    const float cy = static_cast<float>((rect.y + t.offset_y + (l.cy + 0.5) * t.zoom) / fb_scale);
    const float r = static_cast<float>(r_screen);
    if (cx + r < x0 || cx - r > x1 || cy + r < y0 || cy - r > y1) continue;
    dl->AddCircle(ImVec2(cx, cy), r, lens_type_colour(l.type), segments, thick);
    ++drawn;
  }
  dl->PopClipRect();
  return drawn;
}

}  // namespace lb::viewer
