#pragma once
// Max / mean absolute error between the images of the two panes, read back from their
// textures only when either changed (difference mode).
#include <cstdint>
#include <string>

#include "lightbench/gl/gl_texture_surface.hpp"

namespace lb::viewer {

struct DiffStats {
  bool valid = false;
  std::string why;           // when !valid: e.g. "sizes differ (440x330 vs 528x396)"
  double max_abs = 0;        // RGBA8: 8-bit levels over R, G, B; R32F: value units
  double mean_abs = 0;       // over all pixels and channels
  // Signed A - B (RGBA8: per pixel the channel of the largest |error|, in 8-bit levels), the
  // values the signed difference view maps; over finite values only.
  double min_signed = 0, max_signed = 0;
  std::uint64_t differing = 0, pixels = 0;
  bool scalar = false;
};

class DiffStatsCache {
 public:
  const DiffStats& get(const gl::GlTextureSurface* a, const gl::GlTextureSurface* b);

 private:
  const gl::GlTextureSurface *a_ = nullptr, *b_ = nullptr;
  std::uint64_t va_ = 0, vb_ = 0;
  DiffStats stats_;
};

// Compatible for a difference: both have content, same size and format.
bool diff_compatible(const gl::GlTextureSurface* a, const gl::GlTextureSurface* b, std::string* why);

}  // namespace lb::viewer
