#pragma once
// Constrained angular entropy (CAE) pieces shared by the CPU reference and the CUDA kernels
// (LB_HD): label -> disparity, rounding of a bilinear sample to its intensity bin, the
// index of the Gaussian weight tables. See ../shared/specs/lightfield4d-cae.md.
#include "lightbench/hd.hpp"

namespace lb::cae {

// Largest angular window (n x n views): per-bin counts are kept in 8 bits (n*n <= 255).
constexpr int kMaxWindow = 15;
constexpr int kMaxLabels = 1024;
// Sign of the shear. The spec writes L(x + (u - uc) d, ...) and leaves the sign to be
// checked on the data: on HCI antinous the centre-view point with ground-truth disparity d
// appears in view (u, v) at (x - d (u - uc), y - d (v - vc)) (SAD of view (8,4) against the
// centre view along +d: 26.1, along -d: 6.5 levels), so we shear by -d: the estimated
// disparity then has the HCI ground truth's sign and scale.
constexpr int kShearSign = -1;
// Floor of the Gaussian weights (CPU and GPU tables alike): in float exp(-(i-c)^2/(2 sigma^2))
// underflows to 0 beyond ~140 levels (sigma 10), which would make g = 0 and 0 * log 0 a NaN
// (or |g| = 0). With the floor every g > 0 stays a normal float; it only changes bins more
// than ~118 levels from the centre intensity (sigma 10), whose terms are negligible anyway.
constexpr double kWeightFloor = 1e-30;
constexpr int kBins = 256;        // CAE
constexpr int kBinnedBins = 64;   // binned CAE: 4 intensity levels per bin
constexpr int kBinnedWeights = 512;  // weight table of the binned CAE, see binned_weight_index

// d(alpha) = dmin + alpha * (dmax - dmin) / (A - 1), evaluated in float on both sides from
// the same float inputs (so the CPU and the GPU shear by the same amount).
// (Explicit roundings on the device: nvcc would otherwise contract to an FMA and the GPU
// would shear by a different float than the CPU.)
LB_HD float label_disparity(float dmin, float dmax, int labels, int alpha) {
  if (labels <= 1) return dmin;
#if defined(__CUDA_ARCH__)
  const float step = __fdiv_rn(__fsub_rn(dmax, dmin), static_cast<float>(labels - 1));
  return __fadd_rn(dmin, __fmul_rn(static_cast<float>(alpha), step));
#else
  const float step = (dmax - dmin) / static_cast<float>(labels - 1);
  const float off = static_cast<float>(alpha) * step;
  return dmin + off;
#endif
}

// Binned CAE: bin b holds intensities 4b .. 4b+3, its centre is 4b + 1.5; the weight of bin
// b for centre intensity c is exp(-(4b + 1.5 - c)^2 / (2 sigma^2)), tabulated by
// k = |8b + 3 - 2c| = 2 |4b + 1.5 - c| (an odd number in 1 .. 509).
LB_HD int binned_weight_index(int bin, int centre) {
  const int k = 8 * bin + 3 - 2 * centre;
  return k < 0 ? -k : k;
}

}  // namespace lb::cae
