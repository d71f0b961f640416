#pragma once
// Arithmetic rounded once per operation on both sides (LB_HD), for the CPU references and
// CUDA kernels that must compute the same bits: on the device each +, -, *, / is the
// explicitly rounded intrinsic, which nvcc never contracts into an FMA (a plain a * b + c
// would become fma(a, b, c) and round once instead of twice); on the host they are plain
// operators, and the host build targets baseline x86-64 without FMA instructions (see
// CMakeLists.txt), so GCC cannot contract them either. Float and double overloads: a call
// with mixed argument types does not compile rather than silently picking a precision.
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
