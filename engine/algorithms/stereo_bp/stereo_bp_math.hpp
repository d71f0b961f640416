#pragma once
// Belief-propagation arithmetic shared by the CPU reference and the CUDA kernels (LB_HD).
// Every operation is an explicitly rounded float op (no FMA contraction on the device, and
// the host builds without FMA), in a fixed order, so both sides compute identical bits.
#include <cmath>

#include "lightbench/hd.hpp"
#include "lightbench/rounded_math.hpp"

namespace lb::stereo::bpm {

// Once-rounded float operations (rounded_math.hpp).
using rnd::add;
using rnd::mul;
using rnd::sub;
LB_HD float divf(float a, float b) { return rnd::div(a, b); }
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

// The message steps, in the order the callers apply them (the distance transform of the
// truncated linear cost written as two prefix minima, so that it is the same function
// whether one thread walks d in order or the lanes of a warp scan it; see
// docs/ALGORITHMS.md, "BP message"):
//   h(d)  = ((D + a) + b) + c                 (h_sum; the three incoming in direction order)
//   mn    = min_d h(d)
//   F(d)  = min_{d' <= d} (h(d') - d')        forward: prefix minimum of the rounded keys
//   f1(d) = F(d) + d
//   G(d)  = min_{d' >= d} ((f1(d') + d'))     backward: suffix minimum
//   f(d)  = min(G(d) - d, mn + tau_disc)      (in exact arithmetic min_d' h(d') + min(|d-d'|, tau))
//   s     = pairwise sum of f(0 .. L-1) over a perfect binary tree (leaves padded with zeros
//           to the next power of two; TreeSum), mean = s / L
//   out(d) = f(d) - mean
// Every step is one rounded float op or a minimum (exact and associative), and the sum's
// tree is fixed, so any evaluation order that respects it gives identical bits (the sign of
// a zero aside, which no later comparison or nonzero value can see).
LB_HD float h_sum(float D, float a, float b, float c) { return add(add(add(D, a), b), c); }
LB_HD float fwd_key(float h, int d) { return sub(h, static_cast<float>(d)); }
LB_HD float bwd_key(float F, int d) { return add(add(F, static_cast<float>(d)), static_cast<float>(d)); }
LB_HD float from_bwd(float G, int d) { return sub(G, static_cast<float>(d)); }

// Largest disparity count (= lb::stereo::kBpMaxDisp): Middlebury 2014 full size reaches ~800.
constexpr int kMaxDisp = 1024;
// Levels of the pairwise tree: 2^(kTreeLevels - 1) >= kMaxDisp leaves.
constexpr int kTreeLevels = 11;
static_assert((1 << (kTreeLevels - 1)) >= kMaxDisp, "the tree sum must hold kMaxDisp leaves");

#if defined(__CUDA_ARCH__)
#define LB_BP_UNROLL _Pragma("unroll")
#else
#define LB_BP_UNROLL
#endif

// Pairwise summation over a fixed perfect binary tree of P = 2^k leaves, fed from the last
// leaf down (the tree mirrored; IEEE addition is commutative, so each node's value is the
// same). The leaves past the values are zeros pushed up front in one go (x + 0 == x):
// construct with pad = P - L. lvl[i] holds a pending subtree of 2^i leaves while bit i of n
// is set; the levels are unrolled so that nothing is indexed at run time (a thread's stack
// would go to local memory on the GPU).
struct TreeSum {
  float lvl[kTreeLevels];
  unsigned n;
  LB_HD explicit TreeSum(unsigned pad) : n(pad) {
    LB_BP_UNROLL
    for (int i = 0; i < kTreeLevels; ++i) lvl[i] = 0.0f;
  }
  LB_HD void push(float v) {
    LB_BP_UNROLL
    for (int i = 0; i < kTreeLevels; ++i) {
      if (n & (1u << i)) {
        v = add(lvl[i], v);
      } else {
        lvl[i] = v;
        break;
      }
    }
    ++n;
  }
  // After P leaves in all: the root.
  LB_HD float total() const {
    float r = lvl[0];
    LB_BP_UNROLL
    for (int i = 1; i < kTreeLevels; ++i)
      if (n == (1u << i)) r = lvl[i];
    return r;
  }
};
LB_HD unsigned tree_span(int L) {
  unsigned P = 1;
  while (P < static_cast<unsigned>(L)) P *= 2;
  return P;
}

// One message, the steps above, with the L values held in three places (the CUDA variants
// of Grauer-Gray & Cavazos; the CPU reference runs <0, 0> with S = 0): values 0 .. R-1 in a
// register array (R compile-time), R .. R+S-1 in `sh` (element i at sh[i * stride]: one
// thread's slice of an interleaved shared-memory array), the rest in a local array. LC > 0
// fixes L = LC = R at compile time (the registers variant). load(d) returns h(d) (called for
// d ascending, once each); store(d, m) receives the message (d ascending). Requires R <= L,
// R + S <= L, L <= kMaxDisp. The float operations do not depend on R and S.
template <int R, int LC, class Load, class Store>
LB_HD void message(const Load& load, const Store& store, int Lrt, int S, float* sh, int stride, float tau_disc) {
  const int L = LC > 0 ? LC : Lrt;
  float reg[R > 0 ? R : 1];
  float loc[LC > 0 ? 1 : kMaxDisp - R];
  float mn = INFINITY, run = INFINITY;
  // Pass 1 (d ascending): h, its minimum, the forward prefix minimum; keeps bwd_key(F(d), d).
  auto pass1 = [&](int d) {
    const float v = load(d);
    mn = fmin2(v, mn);
    run = fmin2(fwd_key(v, d), run);
    return bwd_key(run, d);
  };
  LB_BP_UNROLL
  for (int d = 0; d < R; ++d) reg[d] = pass1(d);
  if (LC == 0) {
    for (int d = R; d < R + S; ++d) sh[(d - R) * stride] = pass1(d);
    for (int d = R + S; d < L; ++d) loc[d - R - S] = pass1(d);
  }
  // Pass 2 (d descending): the backward suffix minimum, the truncation and the tree sum;
  // keeps f(d).
  const float cap = add(mn, tau_disc);
  float g = INFINITY;
  TreeSum ts(tree_span(L) - static_cast<unsigned>(L));
  auto pass2 = [&](float k2, int d) {
    g = fmin2(k2, g);
    const float f = fmin2(from_bwd(g, d), cap);
    ts.push(f);
    return f;
  };
  if (LC == 0) {
    for (int d = L - 1; d >= R + S; --d) loc[d - R - S] = pass2(loc[d - R - S], d);
    for (int d = R + S - 1; d >= R; --d) sh[(d - R) * stride] = pass2(sh[(d - R) * stride], d);
  }
  LB_BP_UNROLL
  for (int d = R - 1; d >= 0; --d) reg[d] = pass2(reg[d], d);
  // Pass 3: minus the mean.
  const float mean = divf(ts.total(), static_cast<float>(L));
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
