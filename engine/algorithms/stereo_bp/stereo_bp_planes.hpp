#pragma once
// The per-pixel steps of the CUDA BP pipeline on disparity-major planes [d][y][x] (LB_HD):
// each CUDA kernel in kernels/stereo_bp/stereo_bp.cu is a thin wrapper that calls one of these for its
// thread's pixel, and tests/stereo_bp/test_stereo_bp.cpp runs the same functions serially on
// the host (every pixel, the kernels' schedule) against the CPU reference, so the layout and
// indexing of the kernels are checked without a device.
//
// Layout: an image pair as 8-bit interleaved left then right; gray planes left then right;
// data cost of a level [d][y][x] (plane = w * h); messages of a level: 4 directions, each
// [d][y][x] (direction stride plane * L), receiver-stored (bpm::Dir).
#include <cstddef>

#include "stereo_bp/stereo_bp_math.hpp"

namespace lb::stereo::bpp {

#if defined(__CUDA_ARCH__)
#define LB_BP_LDG(p) __ldg(p)
#else
#define LB_BP_LDG(p) (*(p))
#endif
#if defined(__CUDA_ARCH__)
#define LB_BP_NO_UNROLL _Pragma("unroll 1")
#else
#define LB_BP_NO_UNROLL
#endif

using namespace bpm;

LB_HD int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

LB_HD float gray_at(const unsigned char* img, int ch, int w, int x, int y) {
  const unsigned char* p = img + (static_cast<std::size_t>(y) * w + x) * ch;
  return ch >= 3 ? gray(p[0], p[1], p[2]) : static_cast<float>(p[0]);
}

// Gray (ntaps == 1) or gray smoothed horizontally at (x, y).
LB_HD float gray_h(const unsigned char* img, int ch, int w, int x, int y, const float* taps, int ntaps) {
  if (ntaps == 1) return gray_at(img, ch, w, x, y);
  return convolve_even(taps, ntaps, [&](int i) { return gray_at(img, ch, w, clampi(x + i, 0, w - 1), y); });
}

// Vertical pass of the smoothing at (x, y) of one plane.
LB_HD float smooth_v(const float* in, int w, int h, int x, int y, const float* taps, int ntaps) {
  return convolve_even(taps, ntaps,
                       [&](int i) { return in[static_cast<std::size_t>(clampi(y + i, 0, h - 1)) * w + x]; });
}

// Level-0 data cost of pixel (x, y), all d; g = left plane then right plane.
LB_HD void cost0(const float* g, int w, int h, int L, float lambda, float tau, float* D, int x, int y) {
  const std::size_t plane = static_cast<std::size_t>(w) * h, p = static_cast<std::size_t>(y) * w + x;
  const float l = g[p];
  const float* r = g + plane + static_cast<std::size_t>(y) * w;
  const float outside = data_cost_outside(lambda, tau);
  for (int d = 0; d < L; ++d) D[d * plane + p] = x - d >= 0 ? data_cost(l, r[x - d], lambda, tau) : outside;
}

// Coarse pixel (x, y) of level k+1: the existing pixels of the 2x2 block, raster order.
LB_HD void pyramid(const float* f, int fw, int fh, float* c, int cw, int ch, int L, int x, int y) {
  const std::size_t fp = static_cast<std::size_t>(fw) * fh, cp = static_cast<std::size_t>(cw) * ch;
  const bool x1 = 2 * x + 1 < fw, y1 = 2 * y + 1 < fh;
  const std::size_t i00 = static_cast<std::size_t>(2 * y) * fw + 2 * x;
  for (int d = 0; d < L; ++d) {
    const float* s = f + d * fp;
    float v = add(0.0f, s[i00]);
    if (x1) v = add(v, s[i00 + 1]);
    if (y1) v = add(v, s[i00 + fw]);
    if (x1 && y1) v = add(v, s[i00 + fw + 1]);
    c[d * cp + static_cast<std::size_t>(y) * cw + x] = v;
  }
}

struct MsgArgs {
  int w, h, L, S, parity;
  std::size_t plane;  // w * h
  const float* D;     // [d][y][x]
  float* m;           // 4 directions, each [d][y][x]
  float tau_disc;
};

// Active pixel of a checkerboard half-iteration: thread (i, y) handles x = 2 i + ((y +
// parity) & 1), i.e. the pixels with (x + y + parity) even; false when outside.
LB_HD bool active_pixel(const MsgArgs& a, int i, int y, int* x) {
  *x = 2 * i + ((y + a.parity) & 1);
  return y < a.h && *x < a.w;
}

// Pixel (x, y) sends its four messages (to the existing neighbours). sh: this thread's
// shared slice (element j at sh[j * stride]).
template <int R, int LC>
LB_HD void send_messages(const MsgArgs& a, int x, int y, float* sh, int stride) {
  const std::size_t p = static_cast<std::size_t>(y) * a.w + x;
  const std::size_t dir = a.plane * a.L;
  const float* D = a.D + p;
  LB_BP_NO_UNROLL  // four copies of an unrolled message would only bloat the code
  for (int k = 0; k < 4; ++k) {
    // Neighbour of direction k (up, down, left, right) and the three other directions in
    // increasing order, by arithmetic (indexed arrays would go to the stack on the GPU).
    const int qx = x + (k == 2 ? -1 : k == 3 ? 1 : 0), qy = y + (k == 0 ? -1 : k == 1 ? 1 : 0);
    if (qx < 0 || qy < 0 || qx >= a.w || qy >= a.h) continue;
    const int o0 = k == 0 ? 1 : 0, o1 = k <= 1 ? 2 : 1, o2 = k <= 2 ? 3 : 2;
    const float* ia = a.m + o0 * dir + p;
    const float* ib = a.m + o1 * dir + p;
    const float* ic = a.m + o2 * dir + p;
    float* out = a.m + opposite(k) * dir + static_cast<std::size_t>(qy) * a.w + qx;
    const std::size_t plane = a.plane;
    // The incoming messages of active pixels are not written during a half-iteration (only
    // those of the other colour are): read-only loads are safe.
    auto load = [&](int d) {
      const std::size_t o = static_cast<std::size_t>(d) * plane;
      return h_sum(LB_BP_LDG(D + o), LB_BP_LDG(ia + o), LB_BP_LDG(ib + o), LB_BP_LDG(ic + o));
    };
    auto store = [&](int d, float v) { out[static_cast<std::size_t>(d) * plane] = v; };
    message<R, LC>(load, store, a.L, a.S, sh, stride, a.tau_disc);
  }
}

// Fine pixel (x, y) starts with its parent's messages (4 directions, all d).
LB_HD void copy_down(const float* mc, int cw, int ch, float* mf, int fw, int fh, int L, int x, int y) {
  const std::size_t cp = static_cast<std::size_t>(cw) * ch, fp = static_cast<std::size_t>(fw) * fh;
  const std::size_t ci = static_cast<std::size_t>(y / 2) * cw + x / 2, fi = static_cast<std::size_t>(y) * fw + x;
  for (int k = 0; k < 4; ++k)
    for (int d = 0; d < L; ++d)
      mf[(k * static_cast<std::size_t>(L) + d) * fp + fi] = mc[(k * static_cast<std::size_t>(L) + d) * cp + ci];
}

// Winner takes all at (x, y) of level 0: the first d minimising D + the four incoming.
LB_HD int wta(const float* D, const float* m, int w, int h, int L, int x, int y) {
  const std::size_t plane = static_cast<std::size_t>(w) * h, p = static_cast<std::size_t>(y) * w + x,
                    dir = plane * L;
  float best = INFINITY;
  int bd = 0;
  for (int d = 0; d < L; ++d) {
    const std::size_t o = d * plane + p;
    const float b = add(add(add(add(D[o], m[o]), m[dir + o]), m[2 * dir + o]), m[3 * dir + o]);
    if (b < best) best = b, bd = d;
  }
  return bd;
}

}  // namespace lb::stereo::bpp
