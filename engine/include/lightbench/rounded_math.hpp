#pragma once
// Arithmetic rounded once per operation on both sides (LB_HD), for the CPU references and
// CUDA kernels that must compute the same bits: on the device each +, -, *, / is the
// explicitly rounded intrinsic, which nvcc never contracts into an FMA (a plain a * b + c
// would become fma(a, b, c) and round once instead of twice); on the host they are plain
// operators, and the host build targets baseline x86-64 without FMA instructions (see
// CMakeLists.txt), so GCC cannot contract them either. Float and double overloads: a call
// with mixed argument types does not compile rather than silently picking a precision.
#include <cstdint>
#include <cstring>

#include "lightbench/hd.hpp"

namespace lb::rnd {

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
LB_HD float div(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}

// a * b + c rounded once (the fused multiply-add). Device: the intrinsic. Host (built without
// FMA instructions, see above; glibc's fmaf would switch rounding modes per call): the
// double product is exact (24 x 24 bits); the double sum is made round-to-odd (TwoSum gives
// its exact error; an inexact sum with an even last bit moves one ulp towards the error);
// rounding that to float is the correctly rounded fma, as 53 >= 24 + 2 bits. Finite inputs
// whose result is finite (the callers' samples and positions); tests/engine checks it
// against std::fma on random and edge-case floats.
LB_HD float fma(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  const double p = static_cast<double>(a) * static_cast<double>(b);
  const double cd = c;
  double s = p + cd;
  const double bv = s - p;
  const double e = (p - (s - bv)) + (cd - bv);
  if (e != 0.0) {
    std::uint64_t bits;
    std::memcpy(&bits, &s, sizeof bits);
    if ((bits & 1u) == 0u) {
      // |s| grows by one ulp when the true sum lies further from zero than s, else shrinks.
      bits += ((e > 0.0) == (s > 0.0)) ? 1 : static_cast<std::uint64_t>(-1);
      std::memcpy(&s, &bits, sizeof bits);
    }
  }
  return static_cast<float>(s);
#endif
}

LB_HD double add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
LB_HD double sub(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
LB_HD double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
LB_HD double div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}

}  // namespace lb::rnd
