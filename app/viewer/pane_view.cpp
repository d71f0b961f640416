#include "pane_view.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace lb::viewer {
namespace {

constexpr double kLevels[] = {1.0 / 64, 1.0 / 48, 1.0 / 32, 1.0 / 24, 1.0 / 16, 1.0 / 12,
                              1.0 / 8,  1.0 / 6,  1.0 / 4,  1.0 / 3,  1.0 / 2,  2.0 / 3,
                              1.0,      1.5,      2.0,      3.0,      4.0,      6.0,
                              8.0,      12.0,     16.0,     24.0,     32.0,     48.0,
                              64.0,     96.0,     128.0};

}  // namespace

void view_fit(PaneView& v, int pw, int ph, int iw, int ih) {
  if (pw <= 0 || ph <= 0 || iw <= 0 || ih <= 0) return;
  const double z = std::min(static_cast<double>(pw) / iw, static_cast<double>(ph) / ih);
  v.t.zoom = z;
  v.t.offset_x = std::floor((pw - iw * z) / 2.0);
  v.t.offset_y = std::floor((ph - ih * z) / 2.0);
  v.pending = PaneView::Pending::None;
}

void view_one_to_one(PaneView& v, int pw, int ph, int iw, int ih) {
  if (pw <= 0 || ph <= 0 || iw <= 0 || ih <= 0) return;
  v.t.zoom = 1.0;
  v.t.offset_x = std::floor((pw - iw) / 2.0);
  v.t.offset_y = std::floor((ph - ih) / 2.0);
  v.pending = PaneView::Pending::None;
}

void view_set_zoom_at(PaneView& v, double cx, double cy, double zoom) {
  const double z0 = v.t.zoom > 0 ? v.t.zoom : 1.0;
  v.t.offset_x = cx - (cx - v.t.offset_x) * zoom / z0;
  v.t.offset_y = cy - (cy - v.t.offset_y) * zoom / z0;
  v.t.zoom = zoom;
  // At integer zooms keep texel edges on pixel edges.
  if (zoom >= 1.0 && zoom == std::floor(zoom)) {
    v.t.offset_x = std::round(v.t.offset_x);
    v.t.offset_y = std::round(v.t.offset_y);
  }
}

void view_zoom_at(PaneView& v, double cx, double cy, int steps) {
  if (steps == 0) return;
  const double z = v.t.zoom;
  double target = z;
  if (steps > 0) {
    const auto* it = std::upper_bound(std::begin(kLevels), std::end(kLevels), z * (1 + 1e-9));
    for (int s = 1; s < steps && it != std::end(kLevels); ++s) ++it;
    target = it == std::end(kLevels) ? kLevels[std::size(kLevels) - 1] : *it;
  } else {
    const auto* it = std::lower_bound(std::begin(kLevels), std::end(kLevels), z * (1 - 1e-9));
    for (int s = -1; s > steps && it != std::begin(kLevels); --s) --it;
    target = it == std::begin(kLevels) ? kLevels[0] : *(it - 1);
  }
  view_set_zoom_at(v, cx, cy, target);
}

void view_track_image(PaneView& v, int img_w, int img_h) {
  if (img_w <= 0 || img_h <= 0) return;
  if (v.img_w > 0 && v.img_w != img_w && v.pending == PaneView::Pending::None)
    v.t.zoom *= static_cast<double>(v.img_w) / img_w;
  v.img_w = img_w;
  v.img_h = img_h;
}

void view_follow(PaneView& follower, const PaneView& leader) {
  if (leader.img_w <= 0 || follower.img_w <= 0) return;
  follower.t.zoom = leader.t.zoom * leader.img_w / follower.img_w;
  follower.t.offset_x = leader.t.offset_x;
  follower.t.offset_y = leader.t.offset_y;
  follower.pending = PaneView::Pending::None;
}

void view_resolve(PaneView& v, int pw, int ph, int iw, int ih) {
  if (v.pending == PaneView::Pending::Fit) view_fit(v, pw, ph, iw, ih);
  else if (v.pending == PaneView::Pending::OneToOne) view_one_to_one(v, pw, ph, iw, ih);
}

}  // namespace lb::viewer
