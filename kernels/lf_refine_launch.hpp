#pragma once
// Internal to lb_kernels: the light-field refinement kernels (lf_refine.cu); the guided
// filter itself is guided_filter.hpp.
#include <cuda_runtime_api.h>

#include "lightfield_refocus.hpp"

namespace lb::cuda::detail {

// The views of the `views` x `views` aperture in float (float4 per pixel, the bytes' values,
// row-major over the aperture), which the defocus cost reads faster than the bytes:
// lf_views_float_bytes of device memory.
std::size_t lf_views_float_bytes(const LightFieldViews& lf, int views);
void launch_lf_views_to_float(const LightFieldViews& lf, int views, float4* out, cudaStream_t s);
// The defocus cost volume ([label][y][x] of the w x h region at (rx, ry)) of `views` x
// `views` views and labels over [dmin, dmax]: lfr::defocus_raw (bit-identical to the CPU),
// then the box mean of radius `radius` (float); tmp: as large as out. views_f: the views
// in float (launch_lf_views_to_float with the same `views`), or null to read the bytes (the
// same bits, slower).
void launch_lf_defocus(const LightFieldViews& lf, const float4* views_f, int views, float dmin, float dmax, int labels,
                       int rx, int ry, int w, int h, int radius, float* out, float* tmp, cudaStream_t s);
// The box mean of radius `radius` of a raw defocus volume into out (launch_lf_defocus's second
// half, for the raw volume exact_chan writes in the CAE pass); tmp: as large as out. The raw
// volume must be at lf_defocus_raw_target(radius, out, tmp): tmp for radii 1 and 2 (one pass
// into out), else out (two passes through tmp, or none at radius 0).
float* lf_defocus_raw_target(int radius, float* out, float* tmp);
// Volumes launch_lf_defocus_box reads and writes at this radius (none, one pass or two).
int lf_defocus_box_volumes(int radius);
void launch_lf_defocus_box(int w, int h, int labels, int radius, float* out, float* tmp, cudaStream_t s);
// Each pixel's costs ([label][pixel], npx pixels) min-max normalised in place; with a
// defocus volume (may be null) blended with its normalised costs (lfr::blend), or, when
// separate, normalised in place too.
void launch_lf_normalize(float* cost, float* defocus, float defocus_weight, bool separate, long long npx, int labels,
                         cudaStream_t s);
// Confidence fusion of the two filtered volumes into cost (lf_refine.hpp's fuse step).
void launch_lf_fuse(float* cost, const float* defocus, float defocus_weight, long long npx, int labels,
                    cudaStream_t s);
// Winner takes all (first minimum), one pass: label_disp (may be null) its integer label's
// disparity, disp with lfr::subpixel_offset's offset when subpixel (wide: the 5-point fit),
// conf (may be null) lfr::confidence of conf_cost's curve (null: cost's; the semi-global
// step passes the fused volume it aggregated). cost is [label][pixel], or [pixel][label]
// when pixel_major (launch_lf_semi_global's sum); conf_cost is [label][pixel].
void launch_lf_wta(const float* cost, bool pixel_major, const float* conf_cost, long long npx, int labels, float dmin,
                   float dmax, bool subpixel, bool wide, float* label_disp, float* disp, float* conf, cudaStream_t s);
// Semi-global aggregation of cost ([label][pixel] of w x h) into out, one volume, PIXEL-major
// ([pixel][label]; may not alias cost): the 4 paths of lfr::sgm_step, each into its own
// volume of paths (scratch: 4 volumes, then 2 planes for the edges' jump prices), summed in
// the CPU's order (semi_global_cpu's
// bits, transposed). guide: guide_channels planes. weighted: each pixel's curve times
// lfr::sgm_data_weight first (weight: a w x h plane of scratch).
void launch_lf_semi_global(const float* cost, const float* guide, int guide_channels, int w, int h, int labels,
                           float p1, float p2, float edge, bool weighted, float* weight, float* paths, float* out,
                           cudaStream_t s);
// One weighted-median pass (window radius m); guide: guide_channels planes of w x h.
void launch_lf_median(const float* disp, const float* conf, const float* guide, int guide_channels, int w, int h,
                      int m, float sigma, float* out, cudaStream_t s);

}  // namespace lb::cuda::detail
