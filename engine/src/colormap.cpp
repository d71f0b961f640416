// Colour maps (lightbench/colormap.hpp). The arithmetic follows shaders/colormaps.glsl in
// float, so a host image and the viewer's pane round to the same 8-bit levels.
#include "lightbench/colormap.hpp"

#include <algorithm>
#include <cmath>

namespace lb {

const char* to_string(ColorMap m) {
  switch (m) {
    case ColorMap::Gray: return "gray";
    case ColorMap::Turbo: return "turbo";
    case ColorMap::Viridis: return "viridis";
    case ColorMap::Diverging: return "diverging";
  }
  return "?";
}

bool parse_colormap(const std::string& name, ColorMap* out) {
  for (ColorMap m : {ColorMap::Gray, ColorMap::Turbo, ColorMap::Viridis, ColorMap::Diverging})
    if (name == to_string(m)) {
      *out = m;
      return true;
    }
  if (name == "grey") {
    *out = ColorMap::Gray;
    return true;
  }
  return false;
}

namespace colormap {

// Turbo (Google, 2019): polynomial fit by Anton Mikhailov / Ruofei Du (public domain).
const float kTurbo4[3][4] = {{0.13572138f, 4.61539260f, -42.66032258f, 132.13108234f},
                             {0.09140261f, 2.19418839f, 4.84296658f, -14.18503333f},
                             {0.10667330f, 12.64194608f, -60.58204836f, 110.36276771f}};
const float kTurbo2[3][2] = {{-152.94239396f, 59.28637943f},
                             {4.27729857f, 2.82956604f},
                             {-89.90310912f, 27.34824973f}};
// Viridis (matplotlib): polynomial fit by Matt Zucker (CC0).
const float kViridis[7][3] = {{0.2777273272234177f, 0.005407344544966578f, 0.3340998053353061f},
                              {0.1050930431085774f, 1.404613529898575f, 1.384590162594685f},
                              {-0.3308618287255563f, 0.214847559468213f, 0.09509516302823659f},
                              {-4.634230498983486f, -5.799100973351585f, -19.33244095627987f},
                              {6.228269936347081f, 14.17993336680509f, 56.69055260068105f},
                              {4.776384997670288f, -13.74514537774601f, -65.35303263337234f},
                              {-5.435455855934631f, 4.645852612178535f, 26.3124352495832f}};
// Moreland's cool-warm (2009) at 0, 1/4, 1/2, 3/4, 1: blue, light blue, grey, salmon, red.
const float kDiverging[5][3] = {{0.2298f, 0.2987f, 0.7537f},
                                {0.5525f, 0.6904f, 0.9955f},
                                {0.8654f, 0.8654f, 0.8654f},
                                {0.9571f, 0.6053f, 0.4820f},
                                {0.7057f, 0.0156f, 0.1502f}};

std::array<float, 3> rgb(ColorMap m, float t) {
  if (!(t == t)) t = 0.0f;
  t = std::clamp(t, 0.0f, 1.0f);
  std::array<float, 3> c{t, t, t};
  if (m == ColorMap::Turbo) {
    const float v4[4] = {1.0f, t, t * t, t * t * t};
    const float v2[2] = {v4[2] * v4[2], v4[3] * v4[2]};
    for (int k = 0; k < 3; ++k)
      c[k] = kTurbo4[k][0] * v4[0] + kTurbo4[k][1] * v4[1] + kTurbo4[k][2] * v4[2] + kTurbo4[k][3] * v4[3] +
             (kTurbo2[k][0] * v2[0] + kTurbo2[k][1] * v2[1]);
  } else if (m == ColorMap::Viridis) {
    for (int k = 0; k < 3; ++k) {
      float v = kViridis[6][k];
      for (int i = 5; i >= 0; --i) v = kViridis[i][k] + t * v;
      c[k] = v;
    }
  } else if (m == ColorMap::Diverging) {
    const float s = t * 4.0f;
    const int i = std::min(3, static_cast<int>(std::floor(s)));
    const float f = s - static_cast<float>(i);
    for (int k = 0; k < 3; ++k) c[k] = kDiverging[i][k] + (kDiverging[i + 1][k] - kDiverging[i][k]) * f;
  }
  for (float& v : c) v = std::clamp(v, 0.0f, 1.0f);
  return c;
}

std::array<std::uint8_t, 3> apply(ColorMap m, double value, double lo, double hi) {
  if (!std::isfinite(value)) return {0, 0, 0};
  // As the shader: (v - lo) / max(hi - lo, 1e-20).
  const float t = static_cast<float>((value - lo) / std::max(hi - lo, 1e-20));
  const auto c = rgb(m, t);
  std::array<std::uint8_t, 3> out{};
  for (int k = 0; k < 3; ++k) out[k] = static_cast<std::uint8_t>(std::lround(c[k] * 255.0f));
  return out;
}

ImageU8 colourise(const ImageF& m, ColorMap map, double lo, double hi) {
  ImageU8 out(m.width, m.height, 3);
  for (std::size_t i = 0; i < m.pixels(); ++i) {
    const auto c = apply(map, m.data[i * m.channels], lo, hi);
    std::copy(c.begin(), c.end(), out.data.begin() + static_cast<std::ptrdiff_t>(i * 3));
  }
  return out;
}

void finite_range(const ImageF& m, double* lo, double* hi) {
  bool any = false;
  *lo = *hi = 0.0;
  for (float v : m.data) {
    if (!std::isfinite(v)) continue;
    *lo = any ? std::min<double>(*lo, v) : v;
    *hi = any ? std::max<double>(*hi, v) : v;
    any = true;
  }
}

}  // namespace colormap
}  // namespace lb
