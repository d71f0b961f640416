#include "diff_stats.hpp"

#include <cmath>
#include <cstdlib>

namespace lb::viewer {

bool diff_compatible(const gl::GlTextureSurface* a, const gl::GlTextureSurface* b, std::string* why) {
  auto size = [](const gl::GlTextureSurface* s) {
    return std::to_string(s->width()) + "x" + std::to_string(s->height());
  };
  if (!a || !b || !a->has_content() || !b->has_content()) {
    if (why) *why = "a pane has no image yet";
    return false;
  }
  if (a->format() != b->format()) {
    if (why) *why = "one pane is colour, the other scalar";
    return false;
  }
  if (a->width() != b->width() || a->height() != b->height()) {
    if (why) *why = "sizes differ (" + size(a) + " vs " + size(b) + ")";
    return false;
  }
  return true;
}

const DiffStats& DiffStatsCache::get(const gl::GlTextureSurface* a, const gl::GlTextureSurface* b) {
  if (a == a_ && b == b_ && a && b && a->version() == va_ && b->version() == vb_) return stats_;
  a_ = a;
  b_ = b;
  va_ = a ? a->version() : 0;
  vb_ = b ? b->version() : 0;
  stats_ = {};
  if (!diff_compatible(a, b, &stats_.why)) return stats_;
  stats_.pixels = static_cast<std::uint64_t>(a->width()) * a->height();
  double sum = 0, mx = 0, lo = 0, hi = 0;
  std::uint64_t differing = 0;
  if (a->format() == SurfaceFormat::RGBA8) {
    const ImageU8 ia = a->texture().read_rgba(), ib = b->texture().read_rgba();
    for (std::size_t i = 0; i < ia.pixels(); ++i) {
      int pix_max = 0, pix_signed = 0;
      for (int c = 0; c < 3; ++c) {
        const int s = int(ia.data[i * 4 + c]) - int(ib.data[i * 4 + c]);
        const int d = std::abs(s);
        sum += d;
        if (d > pix_max) pix_signed = s;
        pix_max = std::max(pix_max, d);
      }
      lo = std::min(lo, double(pix_signed));
      hi = std::max(hi, double(pix_signed));
      differing += pix_max > 0;
      mx = std::max(mx, static_cast<double>(pix_max));
    }
    stats_.mean_abs = sum / (3.0 * static_cast<double>(stats_.pixels));
  } else {
    const ImageF ia = a->texture().read_scalar(), ib = b->texture().read_scalar();
    for (std::size_t i = 0; i < ia.pixels(); ++i) {
      const double s = double(ia.data[i]) - double(ib.data[i]);
      const double d = std::abs(s);
      if (std::isfinite(s)) {
        lo = std::min(lo, s);
        hi = std::max(hi, s);
      }
      sum += d;
      differing += d > 0;
      mx = std::max(mx, d);
    }
    stats_.mean_abs = sum / static_cast<double>(stats_.pixels);
    stats_.scalar = true;
  }
  stats_.max_abs = mx;
  stats_.min_signed = lo;
  stats_.max_signed = hi;
  stats_.differing = differing;
  stats_.valid = true;
  return stats_;
}

}  // namespace lb::viewer
