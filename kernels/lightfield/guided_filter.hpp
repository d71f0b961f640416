#pragma once
// Internal to lb_kernels: the guided filter on every slice of a volume (guided_filter.cu),
// with a gray guide or a colour (3-plane) guide.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace lb::cuda::detail {

// Device scratch the filter needs for `slices` planes of w x h.
std::size_t guided_filter_scratch_bytes(int w, int h, int slices);
// out[s] = guided filter of in[s] (slices x h x w floats, dense) with guide (h x w), radius
// r (clipped windows), eps; scratch: guided_filter_scratch_bytes. in and out may not alias.
// With range planes in_lo, in_hi (h x w each, or both null) the filter's input is each
// pixel's lfr::normalized(in, in_lo, in_hi), normalised as it is read (with a fast division:
// within 2 ulp of normalising the volume first). stats: the guide's statistics for this
// radius and eps (launch_guided_filter_stats), or null to compute them.
void launch_guided_filter(const float* guide, int w, int h, const float* in, int slices, int r, float eps, float* out,
                          float* scratch, cudaStream_t s, const float* in_lo = nullptr, const float* in_hi = nullptr,
                          const float* stats = nullptr);

// Device scratch of the colour filter for `slices` planes of w x h:
//   (max(8 * slices, 9) + 9) * w * h floats
// (per slice 4 column sums, the row sums of a (3) and b; the guide's 9 column sums reuse that space; mean_I
// and (Sigma + eps U)^-1 once per call). 512 x 512 x 75 slices: 609 MiB.
std::size_t guided_filter_rgb_scratch_bytes(int w, int h, int slices);
// out[s] = colour guided filter (He et al., Eq. 14-16) of in[s] (slices x h x w floats,
// dense) with guide = 3 planes [c][y][x] of h x w (each channel in [0, 1]), radius r (clipped
// windows), eps > 0; the guide's statistics are computed once per call. scratch:
// guided_filter_rgb_scratch_bytes. in and out may not alias. Throws lb::Error when a row is
// wider than the device's shared memory per block allows (9 rows of floats, about 6400 pixels
// on an H100). in_lo, in_hi, stats: as launch_guided_filter's.
void launch_guided_filter_rgb(const float* guide, int w, int h, const float* in, int slices, int r, float eps,
                              float* out, float* scratch, cudaStream_t s, const float* in_lo = nullptr,
                              const float* in_hi = nullptr, const float* stats = nullptr);

// The guide's statistics a filter call computes first (gray: mean_I, var_I; colour: mean_I
// (3), (Sigma + eps U)^-1 (6)): guided_filter_stats_planes(gc) planes of w x h at stats, for
// radius r and eps; tmp: as many planes of scratch. Passed as `stats` to a filter of the same
// guide, radius and eps (not checked), the call skips them: they can run on another stream,
// e.g. while the cost volume is computed (the refinement: ~0.1 ms of two filters, whose
// one-slice column pass ran at 6 % occupancy).
int guided_filter_stats_planes(int gc);
void launch_guided_filter_stats(const float* guide, int gc, int w, int h, int r, float eps, float* stats, float* tmp,
                                cudaStream_t s);

}  // namespace lb::cuda::detail
