#pragma once
// Zoom and pan of an image pane, in framebuffer pixels: screen = offset + zoom * image.
// Zoom steps through fixed levels (…, 1/2, 2/3, 1, 3/2, 2, 3, 4, …) so 1:1 and integer
// magnifications are hit exactly and zoomed-in pixels stay crisp.
#include "lightbench/gl/image_display.hpp"

namespace lb::viewer {

struct PaneView {
  gl::ViewTransform t;
  enum class Pending { None, Fit, OneToOne } pending = Pending::Fit;
  int img_w = 0, img_h = 0;  // image size the transform was last used with
};

// Called with the size of the image about to be shown: when it changed (e.g. a new patch
// size) the zoom is scaled so the image keeps its place and on-screen size.
void view_track_image(PaneView& v, int img_w, int img_h);
// Linked panes: `follower` shows its image over the same screen area as `leader` (zoom
// scaled by the image widths), so renders of different sizes stay aligned.
void view_follow(PaneView& follower, const PaneView& leader);

// The whole image centred in a w x h pane.
void view_fit(PaneView& v, int pane_w, int pane_h, int img_w, int img_h);
// 1 image pixel = 1 screen pixel, centred, integer offsets.
void view_one_to_one(PaneView& v, int pane_w, int pane_h, int img_w, int img_h);
// One zoom level up (steps > 0) or down, keeping the image point under (cx, cy) in place.
void view_zoom_at(PaneView& v, double cx, double cy, int steps);
void view_set_zoom_at(PaneView& v, double cx, double cy, double zoom);
// Applies a pending fit / 1:1 once the pane and image sizes are known.
void view_resolve(PaneView& v, int pane_w, int pane_h, int img_w, int img_h);

}  // namespace lb::viewer
