#version 330 core
// Draws one image pane: a texture under a zoom/pan transform, in one of three modes.
//   mode 0: colour image (RGBA8), times an exposure factor;
//   mode 1: scalar image (R32F), range-normalised and colour-mapped;
//   mode 2: difference |A - B| (largest channel error, in 8-bit levels for RGBA8), heat-mapped:
//           exact zero is black, anything else goes through the colour map up to u_diff_max;
//   mode 3: signed difference A - B (for RGBA8 the channel of the largest |error|, in 8-bit
//           levels) through the diverging map over [-u_diff_max, u_diff_max] (0: the middle).
// Zoomed in (zoom >= 1) and in modes 1 and 2 texels are fetched exactly (nearest); zoomed out,
// colour images are sampled bilinearly. Outside the image: a dark checkerboard.
#include "colormaps.glsl"

uniform sampler2D u_tex_a;
uniform sampler2D u_tex_b;
uniform vec4 u_pane;        // pane in window pixels: x, y (bottom-left, GL convention), w, h
uniform vec2 u_offset;      // pane position (top-left origin) of the image's top-left corner
uniform float u_zoom;       // screen pixels per image pixel
uniform ivec2 u_size;       // image size in pixels
uniform int u_mode;
uniform float u_exposure;   // linear factor (2^EV)
uniform vec2 u_range;       // scalar range mapped to [0, 1]
uniform int u_colormap;     // 0 gray, 1 turbo, 2 viridis
uniform float u_diff_max;   // error mapped to the top of the colour map
uniform int u_b_is_scalar;  // difference of R32F images
uniform vec4 u_mgrid;       // micro-image grid overlay: pitch, ox, oy, enabled (> 0)
uniform ivec2 u_mgrid_n;    // micro-images nx, ny
uniform int u_pixel_grid;   // outline pixels (when strongly zoomed in)

out vec4 frag_color;

vec3 background(vec2 p) {
  vec2 c = floor(p / 8.0);
  return mix(vec3(0.11), vec3(0.14), mod(c.x + c.y, 2.0));
}

void main() {
  vec2 p = vec2(gl_FragCoord.x - u_pane.x, u_pane.y + u_pane.w - gl_FragCoord.y);
  vec2 img = (p - u_offset) / u_zoom;
  if (img.x < 0.0 || img.y < 0.0 || img.x >= float(u_size.x) || img.y >= float(u_size.y)) {
    frag_color = vec4(background(p), 1.0);
    return;
  }
  ivec2 texel = clamp(ivec2(floor(img)), ivec2(0), u_size - 1);
  vec3 rgb;
  if (u_mode == 0) {
    vec4 c = u_zoom >= 1.0 ? texelFetch(u_tex_a, texel, 0)
                           : texture(u_tex_a, img / vec2(u_size));
    rgb = clamp(c.rgb * u_exposure, 0.0, 1.0);
  } else if (u_mode == 1) {
    float v = texelFetch(u_tex_a, texel, 0).r;
    float t = (v - u_range.x) / max(u_range.y - u_range.x, 1e-20);
    // NaN / inf (an invalid estimate, unknown truth): black, as lb::colormap::apply.
    rgb = isnan(v) || isinf(v) ? vec3(0.0) : colormap(u_colormap, t);
  } else if (u_mode == 3) {
    vec4 a = texelFetch(u_tex_a, texel, 0);
    vec4 b = texelFetch(u_tex_b, texel, 0);
    vec3 d = a.rgb - b.rgb;
    float e = d.r;
    if (u_b_is_scalar == 0) {
      if (abs(d.g) > abs(e)) e = d.g;
      if (abs(d.b) > abs(e)) e = d.b;
      e *= 255.0;
    }
    rgb = isnan(e) || isinf(e) ? vec3(0.0) : colormap(3, 0.5 + 0.5 * e / max(u_diff_max, 1e-20));
  } else {
    vec4 a = texelFetch(u_tex_a, texel, 0);
    vec4 b = texelFetch(u_tex_b, texel, 0);
    float e = u_b_is_scalar != 0 ? abs(a.r - b.r)
                                 : 255.0 * max(max(abs(a.r - b.r), abs(a.g - b.g)), abs(a.b - b.b));
    rgb = e <= 0.0 ? vec3(0.0) : colormap(u_colormap, max(e / max(u_diff_max, 1e-20), 0.04));
  }
  if (u_pixel_grid != 0) {
    vec2 f = fract(img) * u_zoom;
    if (f.x < 1.0 || f.y < 1.0) rgb = mix(rgb, vec3(0.5), 0.35);
  }
  if (u_mgrid.w > 0.0 && u_mgrid.x * u_zoom >= 8.0) {
    // Lines on micro-image borders, about one screen pixel wide at any zoom (only while
    // micro-images are at least 8 screen pixels, so a zoomed-out raw stays visible).
    vec2 q = (img - u_mgrid.yz) / u_mgrid.x;
    vec2 d = abs(q - round(q)) * u_mgrid.x * u_zoom;
    bool inside = q.x >= -0.01 && q.y >= -0.01 && q.x <= float(u_mgrid_n.x) + 0.01 &&
                  q.y <= float(u_mgrid_n.y) + 0.01;
    if (inside && (d.x < 0.75 || d.y < 0.75)) rgb = mix(rgb, vec3(0.2, 1.0, 0.4), 0.7);
  }
  frag_color = vec4(rgb, 1.0);
}
