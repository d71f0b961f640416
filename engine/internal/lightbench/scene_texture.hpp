#pragma once
// The synthetic plenoptic scene model's pieces (generator.cpp), shared by the rectangular and
// the hexagonal generator so that both draw the same planes with the same textures.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "lightbench/generator.hpp"
#include "lightbench/image.hpp"
#include "lightbench/parallel.hpp"

namespace lb::scene_detail {

double smooth(double t);  // smoothstep on [0, 1]
// A plane's texture at texture coordinate (tx, ty) (raw pixels), RGB in [0, 255].
void plane_texture(std::uint64_t seed, double tx, double ty, double rgb[3]);
// Whether the plane's region holds scene position (sx, sy) (micro-image / lens units).
bool covers(const ScenePlane& p, double sx, double sy);
// Front (large patch) to back, the background last.
std::vector<ScenePlane> front_to_back(std::vector<ScenePlane> planes);
// The texture seed of the k-th plane (front to back) of a scene.
std::uint64_t plane_seed(std::uint64_t seed, const ScenePlane& plane, std::size_t k);

// A micro-lens's aperture: 1 inside start (a fraction of the radius), a smooth fall-off to 0
// at r = 1 (r: distance from the lens centre / radius).
inline double vignette(double r, double start) {
  return r <= start ? 1.0 : (r >= 1.0 ? 0.0 : smooth((1.0 - r) / (1.0 - start)));
}

// Fills an RGB raw by averaging ss x ss sub-samples per pixel (pixel k centred on k):
// sample(px, py, rgb) returns the sub-sample's weight (its vignetting; 0 = nothing there)
// and sets its colour. Both generators' raw loop: one rounding and clamping rule.
template <class Sample>
void supersample_raw(ImageU8& raw, int ss, int threads, const Sample& sample) {
  parallel_for(raw.height, [&](int Y) {
    std::uint8_t* row = raw.row(Y);
    for (int X = 0; X < raw.width; ++X) {
      double acc[3] = {0, 0, 0};
      for (int sy = 0; sy < ss; ++sy)
        for (int sx = 0; sx < ss; ++sx) {
          double rgb[3] = {0, 0, 0};
          const double w = sample(X + (sx + 0.5) / ss - 0.5, Y + (sy + 0.5) / ss - 0.5, rgb);
          if (w <= 0.0) continue;
          for (int c = 0; c < 3; ++c) acc[c] += w * rgb[c];
        }
      for (int c = 0; c < 3; ++c)
        row[X * 3 + c] = static_cast<std::uint8_t>(std::lround(std::clamp(acc[c] / (ss * ss), 0.0, 255.0)));
    }
  }, threads);
}

}  // namespace lb::scene_detail
