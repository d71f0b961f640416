#pragma once
// Internal to the refinement's kernels: one pixel's winner takes all over its curve at(a)
// (lf_refine.cu reads it from a volume, lf_fuse_wta.cu from shared memory; the same
// functions on the same values, so the same bits).
#include <cuda_runtime.h>

#include "lightfield/lf_refine_math.hpp"

namespace lb::cuda::detail {

// The winner's integer-label disparity into label_disp[p] (may be null), with
// lfr::subpixel_offset's offset when subpixel (wide: the 5-point fit) into disp[p], and the
// confidence (conf may be null) of conf_cost's curve ([label][pixel]; null: at's).
template <class At>
__device__ __forceinline__ void wta_pixel(const At& at, const float* __restrict__ conf_cost, long long npx,
                                          long long p, int labels, float dmin, float dmax, bool subpixel, bool wide,
                                          float* __restrict__ label_disp, float* __restrict__ disp,
                                          float* __restrict__ conf) {
  const lfr::CurveStats c = lfr::curve_stats(at, labels, 1);  // the first minimum
  const float off = subpixel ? lfr::subpixel_offset(at, labels, c.best, wide) : 0.0f;
  if (label_disp) label_disp[p] = lfr::label_to_disparity(dmin, dmax, labels, static_cast<float>(c.best));
  disp[p] = lfr::label_to_disparity(dmin, dmax, labels, static_cast<float>(c.best) + off);
  if (!conf) return;
  const lfr::CurveStats f =
      conf_cost ? lfr::curve_stats([&](int a) { return conf_cost[a * npx + p]; }, labels, 1) : c;
  conf[p] = lfr::confidence(f.min, f.second);
}

}  // namespace lb::cuda::detail
