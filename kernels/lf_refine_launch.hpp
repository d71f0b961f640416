#pragma once
// Internal to lb_kernels: the light-field refinement kernels (lf_refine.cu); the guided
// filter itself is guided_filter.hpp.
#include <cuda_runtime_api.h>

namespace lb::cuda::detail {

// Each pixel's costs ([label][pixel], npx pixels) min-max normalised in place.
void launch_lf_normalize(float* cost, long long npx, int labels, cudaStream_t s);
// Winner takes all (first minimum), one pass: label_disp (may be null) its integer label's
// disparity, disp with the parabola's offset when subpixel, conf (may be null)
// lfr::confidence.
void launch_lf_wta(const float* cost, long long npx, int labels, float dmin, float dmax, bool subpixel,
                   float* label_disp, float* disp, float* conf, cudaStream_t s);
// One weighted-median pass (window radius m).
void launch_lf_median(const float* disp, const float* conf, const float* guide, int w, int h, int m, float sigma,
                      float* out, cudaStream_t s);
// Gray guide in [0, 1] of n RGBA8 pixels.
void launch_lf_guide(const void* rgba, long long n, float* guide, cudaStream_t s);

}  // namespace lb::cuda::detail
