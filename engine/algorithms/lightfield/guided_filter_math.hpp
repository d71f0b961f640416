#pragma once
// Per-pixel arithmetic of the colour guided filter (He, Sun & Tang, "Guided Image Filtering",
// Eq. 14-16: a 3-channel guide I, a scalar input p), shared by the double CPU reference
// (guided_filter_cpu.cpp) and the float CUDA kernels (kernels/lightfield/guided_filter.cu) through LB_HD
// and a template on the scalar type. The two paths then differ only in precision and in how
// they sum the box windows, never in the formula, so the GPU test's tolerance measures float
// rounding alone.
//
// Conventions: a symmetric 3x3 matrix is stored as its 6 upper entries in the order
// (xx, xy, xz, yy, yz, zz); the guide's channel products I_i I_j are numbered the same way
// (kProducts of them: rr, rg, rb, gg, gb, bb), so mean(I_i I_j) index k fills entry k.
#include "lightbench/hd.hpp"

namespace lb::gf {

constexpr int kChannels = 3;
constexpr int kProducts = 6;  // distinct entries of a symmetric 3x3 matrix

template <typename T>
struct Sym3 {
  T m[kProducts];  // xx, xy, xz, yy, yz, zz
};

// The two channels (i <= j) of product / matrix entry k (0..5). A switch rather than a table
// so that device code needs no constant-memory array.
LB_HD void product_channels(int k, int& i, int& j) {
  switch (k) {
    case 0: i = 0, j = 0; return;
    case 1: i = 0, j = 1; return;
    case 2: i = 0, j = 2; return;
    case 3: i = 1, j = 1; return;
    case 4: i = 1, j = 2; return;
    default: i = 2, j = 2; return;
  }
}

// Sigma = cov(I) over a window from the window's means: mean(I_i I_j) - mean_I_i mean_I_j.
template <typename T>
LB_HD Sym3<T> covariance(const T (&mean_i)[kChannels], const T (&mean_products)[kProducts]) {
  Sym3<T> s;
  for (int k = 0; k < kProducts; ++k) {
    int i, j;
    product_channels(k, i, j);
    s.m[k] = mean_products[k] - mean_i[i] * mean_i[j];
  }
  return s;
}

// (Sigma + eps U)^-1 by the adjugate over the determinant. Why this and not an elimination:
// Sigma is a covariance (positive semi-definite), so Sigma + eps U is symmetric positive
// definite with every eigenvalue >= eps > 0; it is always invertible, needs no pivoting, and
// the closed form is branch-free (no divergence on the GPU) and symmetric (6 entries, not 9).
// Its weakness, cancellation in the cofactors when Sigma is nearly singular (a guide whose
// channels are nearly proportional), is the conditioning of the problem itself, bounded by
// eps; in double it stays within ~1e-12 even for identical channels (the engine test's
// case), the float path's error is what the GPU test measures.
template <typename T>
LB_HD Sym3<T> regularized_inverse(const Sym3<T>& s, T eps) {
  const T a = s.m[0] + eps, b = s.m[1], c = s.m[2], d = s.m[3] + eps, e = s.m[4], f = s.m[5] + eps;
  Sym3<T> adj;
  adj.m[0] = d * f - e * e;
  adj.m[1] = c * e - b * f;
  adj.m[2] = b * e - c * d;
  adj.m[3] = a * f - c * c;
  adj.m[4] = b * c - a * e;
  adj.m[5] = a * d - b * b;
  const T inv_det = T(1) / (a * adj.m[0] + b * adj.m[1] + c * adj.m[2]);
  for (int k = 0; k < kProducts; ++k) adj.m[k] *= inv_det;
  return adj;
}

// s v for the symmetric s (upper storage: row 0 = m0 m1 m2, row 1 = m1 m3 m4, row 2 = m2 m4 m5).
template <typename T>
LB_HD void multiply(const Sym3<T>& s, const T (&v)[kChannels], T (&out)[kChannels]) {
  out[0] = s.m[0] * v[0] + s.m[1] * v[1] + s.m[2] * v[2];
  out[1] = s.m[1] * v[0] + s.m[3] * v[1] + s.m[4] * v[2];
  out[2] = s.m[2] * v[0] + s.m[4] * v[1] + s.m[5] * v[2];
}

// The linear coefficients of one window (Eq. 14-15):
//   a = (Sigma + eps U)^-1 cov(I, p),  cov(I, p)_c = mean(I_c p) - mean_I_c mean_p,
//   b = mean_p - a . mean_I.
template <typename T>
struct Coefficients {
  T a[kChannels];
  T b;
};

template <typename T>
LB_HD Coefficients<T> coefficients(const Sym3<T>& inverse, const T (&mean_i)[kChannels], T mean_p,
                                   const T (&mean_ip)[kChannels]) {
  T cov_ip[kChannels];
  for (int c = 0; c < kChannels; ++c) cov_ip[c] = mean_ip[c] - mean_i[c] * mean_p;
  Coefficients<T> k;
  multiply(inverse, cov_ip, k.a);
  k.b = mean_p - (k.a[0] * mean_i[0] + k.a[1] * mean_i[1] + k.a[2] * mean_i[2]);
  return k;
}

// The output (Eq. 16): q = mean_a . I + mean_b at one pixel.
template <typename T>
LB_HD T output(const T (&mean_a)[kChannels], T mean_b, const T (&guide)[kChannels]) {
  return mean_a[0] * guide[0] + mean_a[1] * guide[1] + mean_a[2] * guide[2] + mean_b;
}

}  // namespace lb::gf
