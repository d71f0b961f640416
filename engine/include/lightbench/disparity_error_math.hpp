#pragma once
// The per-pixel error of a disparity estimate, shared by every scorer (Middlebury / KITTI in
// stereo_score_math.hpp, HCI in hci_math.hpp) on the CPU and in the CUDA reductions (LB_HD):
// one definition, so the protocols cannot drift apart.
//
// Exactness: |d - g| is one double subtraction of two floats, correctly rounded on both sides
// (the device uses __dsub_rn, which nvcc never contracts), so every comparison against a
// threshold decides the same way on the CPU and the GPU.
#include <cmath>

#include "lightbench/hd.hpp"

namespace lb::disparity_math {

LB_HD bool finite(float v) {
#if defined(__CUDA_ARCH__)
  return isfinite(v);
#else
  return std::isfinite(v);
#endif
}

// e = |d - g| in double from the two floats.
LB_HD double abs_error(float d, float g) {
#if defined(__CUDA_ARCH__)
  return fabs(__dsub_rn(static_cast<double>(d), static_cast<double>(g)));
#else
  return std::fabs(static_cast<double>(d) - static_cast<double>(g));
#endif
}

}  // namespace lb::disparity_math
