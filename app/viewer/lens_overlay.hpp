#pragma once
// The micro-lens geometry over a pane showing the raw: one circle per lens at its usable
// radius (D / 2 minus the lens border), coloured by lens type, drawn with ImGui's background
// draw list (over the GL image, under the panel windows) through the pane's image-to-screen
// transform; only the lenses inside the pane, and none while they are under 2 screen pixels.
#include <vector>

#include "lightbench/gl/image_display.hpp"
#include "lightbench/mla_geometry.hpp"

namespace lb::viewer {

// The lenses of the geometry last drawn (recomputed when the geometry or raw size changes).
struct LensOverlayCache {
  MlaGeometry geometry;
  int width = -1, height = -1;
  std::vector<MlaLens> lenses;
};

// The colour (ImGui's packed ABGR) of lens type t.
unsigned lens_type_colour(int type);

// rect: the pane's image region and t its view (framebuffer pixels: screen = rect + offset +
// zoom * image); fb_scale: framebuffer / logical pixels. Returns the number of circles drawn.
int draw_lens_overlay(const MlaGeometry& g, int raw_w, int raw_h, const gl::PixelRect& rect,
                      const gl::ViewTransform& t, float fb_scale, LensOverlayCache& cache);

}  // namespace lb::viewer
