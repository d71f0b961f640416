#pragma once
// Belief-propagation arithmetic shared by the CPU reference and the CUDA kernels (LB_HD).
// Every operation is an explicitly rounded float op (no FMA contraction on the device, and
// the host builds without FMA), in a fixed order, so both sides compute identical bits.
#include <cmath>

#include "lightbench/hd.hpp"

namespace lb::stereo::bpm {

LB_HD float add(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
LB_HD float sub(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fsub_rn(a, b);
#else
  return a - b;
#endif
}
LB_HD float mul(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
LB_HD float divf(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
LB_HD float fmin2(float a, float b) { return a < b ? a : b; }

// ITU-R 601 luma of 8-bit RGB.
LB_HD float gray(float r, float g, float b) { return add(add(mul(0.299f, r), mul(0.587f, g)), mul(0.114f, b)); }

// One output of FH's even convolution: taps[0] * s[0] + sum_i taps[i] * (s[-i] + s[+i]),
// accumulated from i = 1 upwards; at(i) returns the clamped sample at offset i.
template <class At>
LB_HD float convolve_even(const float* taps, int ntaps, const At& at) {
  float s = mul(taps[0], at(0));
  for (int i = 1; i < ntaps; ++i) s = add(s, mul(taps[i], add(at(-i), at(i))));
  return s;
}

// Data cost of a gray difference.
LB_HD float data_cost(float l, float r, float lambda, float tau_data) {
  return mul(lambda, fmin2(fabsf(sub(l, r)), tau_data));
}
LB_HD float data_cost_outside(float lambda, float tau_data) { return mul(lambda, tau_data); }

// The message steps, in the order the callers apply them:
//   h(d) = ((D + a) + b) + c              (h_sum; the three incoming in direction order)
//   forward  f(d) = min(f(d), f(d-1) + 1) for d = 1 .. L-1
//   backward f(d) = min(f(d), f(d+1) + 1) for d = L-2 .. 0 (on the untruncated values),
//   truncate f(d) = min(f(d), min_h + tau_disc) as each value is final,
//   mean     (((f(L-1) + f(L-2)) + ...) + f(0)) / L (truncated values),  out(d) = f(d) - mean
LB_HD float h_sum(float D, float a, float b, float c) { return add(add(add(D, a), b), c); }
LB_HD float dt_step(float prev, float cur) { return fmin2(add(prev, 1.0f), cur); }

// Largest disparity count (= lb::stereo::kBpMaxDisp).
constexpr int kMaxDisp = 256;

#if defined(__CUDA_ARCH__)
#define LB_BP_UNROLL _Pragma("unroll")
#else
#define LB_BP_UNROLL
#endif

// One message, the steps above, with the L values held in three places (the CUDA variants
// of Grauer-Gray & Cavazos; the CPU reference runs <0, 0> with S = 0): values 0 .. R-1 in a
// register array (R compile-time), R .. R+S-1 in `sh` (element i at sh[i * stride]: one
// thread's slice of an interleaved shared-memory array), the rest in a local array. LC > 0
// fixes L = LC = R at compile time (the registers variant). load(d) returns h(d) (called for
// d ascending, once each); store(d, m) receives the message (d ascending). Requires R <= L,
// R + S <= L, L <= kMaxDisp. The order of the float operations does not depend on R and S.
template <int R, int LC, class Load, class Store>
LB_HD void message(const Load& load, const Store& store, int Lrt, int S, float* sh, int stride, float tau_disc) {
  const int L = LC > 0 ? LC : Lrt;
  float reg[R > 0 ? R : 1];
  float loc[LC > 0 ? 1 : kMaxDisp - R];
  float mn = INFINITY, prev = 0.0f;
  // Pass 1: h, its minimum, the forward distance transform.
  LB_BP_UNROLL
  for (int d = 0; d < R; ++d) {
    float v = load(d);
    mn = fmin2(v, mn);
    if (d > 0) v = dt_step(prev, v);
    reg[d] = v;
    prev = v;
  }
  if (LC == 0) {
    for (int d = R; d < R + S; ++d) {
      float v = load(d);
      mn = fmin2(v, mn);
      if (d > 0) v = dt_step(prev, v);
      sh[(d - R) * stride] = v;
      prev = v;
    }
    for (int d = R + S; d < L; ++d) {
      float v = load(d);
      mn = fmin2(v, mn);
      if (d > 0) v = dt_step(prev, v);
      loc[d - R - S] = v;
      prev = v;
    }
  }
  // Pass 2 (d descending): backward transform, truncation, the sum.
  const float cap = add(mn, tau_disc);
  float carry = 0.0f, s = 0.0f;
  if (LC == 0) {
    for (int d = L - 1; d >= R + S; --d) {
      float v = loc[d - R - S];
      if (d < L - 1) v = dt_step(carry, v);
      carry = v;
      v = fmin2(v, cap);
      loc[d - R - S] = v;
      s = d == L - 1 ? v : add(s, v);
    }
    for (int d = R + S - 1; d >= R; --d) {
      float v = sh[(d - R) * stride];
      if (d < L - 1) v = dt_step(carry, v);
      carry = v;
      v = fmin2(v, cap);
      sh[(d - R) * stride] = v;
      s = d == L - 1 ? v : add(s, v);
    }
  }
  LB_BP_UNROLL
  for (int d = R - 1; d >= 0; --d) {
    float v = reg[d];
    if (d < L - 1) v = dt_step(carry, v);
    carry = v;
    v = fmin2(v, cap);
    reg[d] = v;
    s = d == L - 1 ? v : add(s, v);
  }
  // Pass 3: minus the mean.
  const float mean = divf(s, static_cast<float>(L));
  LB_BP_UNROLL
  for (int d = 0; d < R; ++d) store(d, sub(reg[d], mean));
  if (LC == 0) {
    for (int d = R; d < R + S; ++d) store(d, sub(sh[(d - R) * stride], mean));
    for (int d = R + S; d < L; ++d) store(d, sub(loc[d - R - S], mean));
  }
}

// Directions: the neighbour a message comes from (receiver-stored messages).
enum Dir { kUp = 0, kDown = 1, kLeft = 2, kRight = 3 };
// Sending to the neighbour in direction k fills that neighbour's slot opposite(k).
LB_HD int opposite(int k) { return k ^ 1; }

}  // namespace lb::stereo::bpm
