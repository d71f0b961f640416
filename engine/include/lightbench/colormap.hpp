#pragma once
// Colour maps for scalar data, shared by the viewer's display shader (shaders/colormaps.glsl)
// and every colour image the engine and the CLI write, so a PNG and a pane with the same
// range look the same. The coefficient tables below are the GLSL's constants (a test parses
// colormaps.glsl and checks they agree, and renders the shader against colourise()).
#include <array>
#include <cstdint>
#include <string>

#include "lightbench/image.hpp"

namespace lb {

// The shader's u_colormap values.
enum class ColorMap { Gray = 0, Turbo = 1, Viridis = 2, Diverging = 3 };
const char* to_string(ColorMap m);             // "gray", "turbo", "viridis", "diverging"
bool parse_colormap(const std::string& name, ColorMap* out);

namespace colormap {

// t in [0, 1] (clamped; NaN -> 0) -> RGB in [0, 1], computed in float as the shader does.
std::array<float, 3> rgb(ColorMap m, float t);
// value mapped from [lo, hi] to [0, 1]; rounded to 8 bits as a framebuffer stores it.
// A NaN or infinite value (unknown / invalid) is black.
std::array<std::uint8_t, 3> apply(ColorMap m, double value, double lo, double hi);
// One channel of m -> three channels (RGB8).
ImageU8 colourise(const ImageF& m, ColorMap map, double lo, double hi);
// The finite range of a map (lo == hi when constant; 0, 0 when none is finite).
void finite_range(const ImageF& m, double* lo, double* hi);

// The tables (colormaps.glsl has the same numbers in the same order).
// Turbo: r, g, b = dot(kR4, (1, t, t^2, t^3)) + dot(kR2, (t^4, t^5)) ...
extern const float kTurbo4[3][4];
extern const float kTurbo2[3][2];
// Viridis: c0 + t (c1 + t (c2 + ... t c6)), per channel.
extern const float kViridis[7][3];
// Diverging (Moreland's cool-warm): piecewise linear through these stops at t = k / 4.
extern const float kDiverging[5][3];

}  // namespace colormap
}  // namespace lb
