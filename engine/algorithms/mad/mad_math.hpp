#pragma once
// MAD (Most Apparent Distortion) math shared by the CPU reference (double) and the CUDA
// kernels (float): luminance, CSF, log-Gabor bank, block-statistics formulas, masking and
// combination. Every formula follows ../shared/specs/mad.md; section numbers refer to it.
// Templates on the scalar type T so the two paths compute the same expressions.
#include <cmath>

#include "lightbench/hd.hpp"

namespace lb::mad {

// Block layout (1.3, 2.2): 16x16 blocks, top-left corners every 4 pixels while
// corner <= size - 16; each block's values go to the 4x4 cell at its corner.
constexpr int kBlock = 16;
constexpr int kStride = 4;
constexpr int kScales = 5;
constexpr int kOrients = 4;
constexpr int kResponses = kScales * kOrients;  // 20 log-Gabor responses per image
constexpr int kMinSize = 34;

// Number of block corners along an axis of `size` pixels.
LB_HD int block_count(int size) { return size >= kBlock ? (size - kBlock) / kStride + 1 : 0; }
// Crop of 1.6 / 2.4: rows and columns 16 .. size-18 (0-based, inclusive).
LB_HD int crop_lo() { return 16; }
LB_HD int crop_hi(int size) { return size - 18; }

// 1.3 std_R: minimum over the 8x8 blocks at (i, j), (i+4, j), (i, j+4), (i+4, j+4) (q = 0..3:
// row offset 4 (q & 1), column offset 4 (q >> 1); (y0, x0) the candidate's start). The
// reference mex (ical_std.c) reads the candidate's std from the 4x4 cell map at
// (i+5, j+5) and uses it only when that probe is < size-15, i.e. an offset candidate
// needs start + 1 <= size - 16 on its offset axis (the spec's "start <= size-16" is off by
// one: with it I03's d_detect is 204287.66 instead of the reference 204110.41).
LB_HD bool std_r_candidate_used(int y0, int x0, int q, int M, int N) {
  if ((q & 1) && y0 + 1 > M - 16) return false;
  if ((q >> 1) && x0 + 1 > N - 16) return false;
  return true;
}

// 1.1 luminance of a gray value: 0.02874 * I^(2.2/3).
template <class T>
LB_HD T luminance(T v) {
  return T(0.02874) * pow(v, T(2.2) / T(3));
}
// 8-bit input goes through MATLAB's LUT(img + 1) with uint8 saturation: 255 + 1 stays 255,
// so gray 255 reads the entry of 254.
LB_HD int lut_index_8bit(int v) { return v >= 255 ? 254 : v; }

// Index of the centred (fftshift) grid that holds unshifted FFT index k (even n).
LB_HD int shifted_index(int k, int n) { return k + n / 2 >= n ? k - n / 2 : k + n / 2; }

// 1.2 CSF at unshifted FFT index (r, c) of an M x N (rows x columns) spectrum.
template <class T>
LB_HD T csf(int r, int c, int M, int N) {
  const T u = T(shifted_index(c, N) - N / 2) + T(0.5);
  const T v = T(shifted_index(r, M) - M / 2) + T(0.5);
  const T f = sqrt(u * u + v * v) / T(N) * T(64);
  const T theta = atan2(v, u);
  const T fp = f / (T(0.15) * cos(T(4) * theta) + T(0.85));
  if (fp < T(7.8909)) return T(0.9809);
  const T a = T(0.114) * fp;
  return T(2.6) * (T(0.0192) + a) * exp(-pow(a, T(1.1)));
}

// 2.1 log-Gabor filter (scale s 0..4 finest first, orientation o 0..3) at unshifted FFT
// index (r, c): the spec's grid value at the fftshift position of (r, c).
template <class T>
LB_HD T log_gabor(int s, int o, int r, int c, int M, int N) {
  const int rs = shifted_index(r, M), cs = shifted_index(c, N);
  if (rs == M / 2 && cs == N / 2) return T(0);  // radial part is 0 at DC
  const T x = T(cs - N / 2) / T(N / 2);
  const T y = T(rs - M / 2) / T(M / 2);
  const T rad = sqrt(x * x + y * y);
  const T phi = atan2(-y, x);
  T wavelength = T(3);
  for (int k = 0; k < s; ++k) wavelength *= T(3);
  const T rfo = T(2) / wavelength;
  const T lr = log(rad) - log(rfo);
  const T ls = log(T(0.55));
  const T radial = exp(-(lr * lr) / (T(2) * ls * ls));
  const T pi = T(3.14159265358979323846);
  const T th = T(o) * pi / T(4);
  const T sp = sin(phi), cp = cos(phi), st = sin(th), ct = cos(th);
  const T dtheta = fabs(atan2(sp * ct - cp * st, cp * ct + sp * st));
  const T sigma = pi / T(4) / T(1.5);
  const T angular = exp(-(dtheta * dtheta) / (T(2) * sigma * sigma));
  return radial * angular;
}

// 2.3 per-scale weights [0.5, 0.75, 1, 5, 6] / 13.25 (finest to coarsest).
template <class T>
LB_HD T scale_weight(int s) {
  const T w[kScales] = {T(0.5), T(0.75), T(1), T(5), T(6)};
  return w[s] / T(13.25);
}

// Central moments of n samples -> statistics of 2.2: std (n-1), skewness and kurtosis with
// the population variance (n); zero variance gives skew = kurt = 0.
template <class T>
struct BlockStats {
  T std = 0, skew = 0, kurt = 0;
};
template <class T>
LB_HD BlockStats<T> stats_from_central(T n, T m2sum, T m3sum, T m4sum) {
  BlockStats<T> b;
  b.std = sqrt(m2sum / (n - T(1)));
  const T v = m2sum / n;
  if (v > T(0)) {
    b.skew = (m3sum / n) / (v * sqrt(v));
    b.kurt = (m4sum / n) / (v * v);
  }
  return b;
}

// Running central moments of a sample set: count, mean and sums of centred powers M2..M4.
// merge() is the pairwise update (Chan et al. / Pebay 2008), exact in exact arithmetic and
// numerically stable: the fused GPU variant computes each 4x4 cell once and merges 16 cells
// per 16x16 block instead of re-reading 256 samples.
template <class T>
struct Moments {
  T n, mean, m2, m3, m4;  // no initialisers: usable as a __shared__ array
};
template <class T>
LB_HD Moments<T> merge(const Moments<T>& a, const Moments<T>& b) {
  Moments<T> r{};
  r.n = a.n + b.n;
  const T d = b.mean - a.mean;
  const T dn = d / r.n;
  const T dn2 = dn * dn;
  const T nab = a.n * b.n;
  r.mean = a.mean + dn * b.n;
  r.m2 = a.m2 + b.m2 + d * dn * nab;
  r.m3 = a.m3 + b.m3 + d * dn2 * nab * (a.n - b.n) + T(3) * dn * (a.n * b.m2 - b.n * a.m2);
  r.m4 = a.m4 + b.m4 + d * dn2 * dn * nab * (a.n * a.n - nab + b.n * b.n) +
         T(6) * dn2 * (a.n * a.n * b.m2 + b.n * b.n * a.m2) + T(4) * dn * (a.n * b.m3 - b.n * a.m3);
  return r;
}
// Moments of k samples, two-pass (mean, then centred powers).
template <class T, int K>
LB_HD Moments<T> moments_of(const T (&v)[K]) {
  Moments<T> r{};
  T s = 0;
  for (int i = 0; i < K; ++i) s += v[i];
  r.n = T(K);
  r.mean = s / T(K);
  for (int i = 0; i < K; ++i) {
    const T d = v[i] - r.mean, d2 = d * d;
    r.m2 += d2;
    r.m3 += d2 * d;
    r.m4 += d2 * d2;
  }
  return r;
}

// Contribution of one response pair to LO (2.3) at a block.
template <class T>
LB_HD T appearance_term(const BlockStats<T>& r, const BlockStats<T>& d) {
  return fabs(r.std - d.std) + T(2) * fabs(r.skew - d.skew) + fabs(r.kurt - d.kurt);
}

// 1.4 masking from std_R, mean_R (reference) and std_E (error). Written without logs of
// non-positive numbers: mean_R < 0.5 (incl. negative) gives C_dst = -inf -> msk = 0;
// std_R = 0 gives C_ref = -inf (<= -5); std_E = 0 gives C_dst = -inf -> msk = 0.
template <class T>
LB_HD T masking(T std_r, T mean_r, T std_e) {
  if (!(mean_r >= T(0.5)) || !(std_e > T(0))) return T(0);
  const T c_dst = log(std_e / mean_r);
  if (std_r > T(0)) {
    const T c_ref = log(std_r / mean_r);
    if (c_ref > T(-5)) return c_dst > c_ref ? c_dst - c_ref : T(0);
  }
  return c_dst > T(-5) ? c_dst + T(5) : T(0);
}

// 3 combination.
inline double combine(double d_detect, double d_appear) {
  if (!(d_detect > 0)) return 0.0;
  const double beta1 = std::exp(-2.55 / 3.35);
  const double beta2 = 1.0 / (std::log(10.0) * 3.35);
  const double alpha = 1.0 / (1.0 + beta1 * std::pow(d_detect, beta2));
  return std::pow(d_detect, alpha) * std::pow(d_appear, 1.0 - alpha);
}

}  // namespace lb::mad
