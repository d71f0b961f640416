// Colour maps for scalar data, t in [0, 1]. The same numbers are the host's tables in
// engine/src/colormap.cpp (lightbench/colormap.hpp): the CLI's colour images and these panes
// agree (tests/engine/test_colormap.cpp parses this file and compares).

// Turbo (Google, 2019): polynomial fit by Anton Mikhailov / Ruofei Du (public domain).
vec3 turbo(float t) {
  const vec4 kR4 = vec4(0.13572138, 4.61539260, -42.66032258, 132.13108234);
  const vec4 kG4 = vec4(0.09140261, 2.19418839, 4.84296658, -14.18503333);
  const vec4 kB4 = vec4(0.10667330, 12.64194608, -60.58204836, 110.36276771);
  const vec2 kR2 = vec2(-152.94239396, 59.28637943);
  const vec2 kG2 = vec2(4.27729857, 2.82956604);
  const vec2 kB2 = vec2(-89.90310912, 27.34824973);
  t = clamp(t, 0.0, 1.0);
  vec4 v4 = vec4(1.0, t, t * t, t * t * t);
  vec2 v2 = v4.zw * v4.z;
  return clamp(vec3(dot(v4, kR4) + dot(v2, kR2), dot(v4, kG4) + dot(v2, kG2),
                    dot(v4, kB4) + dot(v2, kB2)), 0.0, 1.0);
}

// Viridis (matplotlib): polynomial fit by Matt Zucker (CC0).
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  t = clamp(t, 0.0, 1.0);
  return clamp(c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6))))), 0.0, 1.0);
}

// Diverging (Moreland's cool-warm): piecewise linear through five stops at t = k / 4.
vec3 diverging(float t) {
  const vec3 d0 = vec3(0.2298, 0.2987, 0.7537);
  const vec3 d1 = vec3(0.5525, 0.6904, 0.9955);
  const vec3 d2 = vec3(0.8654, 0.8654, 0.8654);
  const vec3 d3 = vec3(0.9571, 0.6053, 0.4820);
  const vec3 d4 = vec3(0.7057, 0.0156, 0.1502);
  t = clamp(t, 0.0, 1.0);
  float s = t * 4.0;
  int i = min(3, int(floor(s)));
  float f = s - float(i);
  vec3 a = i == 0 ? d0 : i == 1 ? d1 : i == 2 ? d2 : d3;
  vec3 b = i == 0 ? d1 : i == 1 ? d2 : i == 2 ? d3 : d4;
  return clamp(a + (b - a) * f, 0.0, 1.0);
}

// 0: gray, 1: turbo, 2: viridis, 3: diverging (lb::ColorMap).
vec3 colormap(int which, float t) {
  if (which == 1) return turbo(t);
  if (which == 2) return viridis(t);
  if (which == 3) return diverging(t);
  return vec3(clamp(t, 0.0, 1.0));
}
