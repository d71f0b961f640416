// Winner takes all over the CAE cost volume: per pixel the first minimum over the labels
// -> disparity, label, and confidence (mean cost - minimum).
#include <cmath>

#include "lightfield/cae_launch.hpp"
#include "cuda_check.cuh"
#include "lightfield/cae_math.hpp"

namespace lb::cuda::detail {

namespace {

__global__ void cae_wta_kernel(int rw, int rh, int A, float dmin, float dmax, const float* __restrict__ cost,
                      float* disparity, int* label, float* confidence) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= rw || py >= rh) return;
  const size_t plane = static_cast<size_t>(rw) * rh, i = static_cast<size_t>(py) * rw + px;
  float best = INFINITY, sum = 0.0f;
  int best_a = 0;
  for (int a = 0; a < A; ++a) {
    const float c = cost[a * plane + i];
    sum += c;
    if (c < best) {
      best = c;
      best_a = a;
    }
  }
  disparity[i] = cae::label_disparity(dmin, dmax, A, best_a);
  label[i] = best_a;
  confidence[i] = sum / static_cast<float>(A) - best;
}

}  // namespace

void launch_cae_wta(const CaeParams& p, const CaeRoi& roi, const float* cost, float* disparity, int* label,
                    float* confidence, cudaStream_t s) {
  const dim3 block(32, 8), grid((roi.w + 31) / 32, (roi.h + 7) / 8);
  cae_wta_kernel<<<grid, block, 0, s>>>(roi.w, roi.h, p.labels, p.dmin, p.dmax, cost, disparity, label, confidence);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
