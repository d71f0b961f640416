#pragma once
// Internal to lb_kernels: the light-field refinement kernels (lf_refine.cu); the guided
// filter itself is guided_filter.hpp.
#include <cuda_runtime_api.h>

#include "lightfield/lightfield_refocus.hpp"

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
// For the confidence fusion at box radii 1 and 2 (lf_box_ranges_apply; lf_defocus_box.cu):
// launch_lf_defocus_box's mean of the raw volume (anywhere but out) into out, and 4 planes of
// ranges (lfr::curve_range per pixel): the CAE cost's min and max, then the boxed defocus
// cost's; launch_lf_normalize's separate normalisation is then the guided filter's in_lo /
// in_hi (within 2 ulp, no normalised volumes).
bool lf_box_ranges_apply(int radius);
void launch_lf_box_ranges(const float* raw, const float* cost, int w, int h, int labels, int radius, float* out,
                          float* ranges, cudaStream_t s);
// Each pixel's costs ([label][pixel], npx pixels) min-max normalised in place; with a
// defocus volume (may be null) blended with its normalised costs (lfr::blend), or, when
// separate, normalised in place too.
void launch_lf_normalize(float* cost, float* defocus, float defocus_weight, bool separate, long long npx, int labels,
                         cudaStream_t s);
// Confidence fusion of the two filtered volumes into cost (lf_refine.hpp's fuse step).
void launch_lf_fuse(float* cost, const float* defocus, float defocus_weight, long long npx, int labels,
                    cudaStream_t s);
// Confidence fusion (as launch_lf_fuse; lf_fuse_wta.cu) of the two filtered volumes ([label][pixel]) straight
// into the semi-global step's input: out PIXEL-major ([pixel][label]), each curve times
// lfr::sgm_data_weight when weighted (launch_lf_semi_global's weight and transposition, the
// same bits), and conf the WTA's confidence of the fused curve. Up to
// lf_fuse_pixel_major_pixels(labels) > 0 (about 190 labels); out may not alias the inputs.
int lf_fuse_pixel_major_pixels(int labels);
void launch_lf_fuse_pixel_major(const float* cost, const float* defocus, float defocus_weight, long long npx,
                                int labels, bool weighted, float* out, float* conf, cudaStream_t s);
// Winner takes all (first minimum), one pass: label_disp (may be null) its integer label's
// disparity, disp with lfr::subpixel_offset's offset when subpixel (wide: the 5-point fit),
// conf (may be null) lfr::confidence of conf_cost's curve (null: cost's; the semi-global
// step passes the fused volume it aggregated). cost is [label][pixel], or [pixel][label]
// when pixel_major; then the curve may be the sum of `layers` consecutive volumes
// (launch_lf_semi_global's paths, summed in its order: its sum's bits); conf_cost is
// [label][pixel].
void launch_lf_wta(const float* cost, bool pixel_major, int layers, const float* conf_cost, long long npx, int labels,
                   float dmin, float dmax, bool subpixel, bool wide, float* label_disp, float* disp, float* conf,
                   cudaStream_t s);
// launch_lf_wta's pixel-major case staged in shared memory (lf_fuse_wta.cu), where a tile of
// 32 pixels fits (about 380 labels); false (nothing queued) beyond.
bool launch_lf_wta_staged(const float* cost, int layers, const float* conf_cost, long long npx, int labels, float dmin,
                          float dmax, bool subpixel, bool wide, float* label_disp, float* disp, float* conf,
                          cudaStream_t s);
// Semi-global aggregation of cost ([label][pixel] of w x h): the 4 paths of lfr::sgm_step,
// each into its own PIXEL-major ([pixel][label]) volume of paths (scratch: 4 volumes, then 2
// planes for the edges' jump prices); out (one volume, may not alias cost) holds the
// pixel-major input while they run and, when sum, their sum in the CPU's order
// (semi_global_cpu's bits, transposed). Without the sum, launch_lf_wta reads the paths
// (layers lfr::kSgmPaths). guide: guide_channels planes. weighted: each pixel's curve times
// lfr::sgm_data_weight first (weight: a w x h plane of scratch).
void launch_lf_semi_global(const float* cost, const float* guide, int guide_channels, int w, int h, int labels,
                           float p1, float p2, float edge, bool weighted, float* weight, float* paths, float* out,
                           bool sum, cudaStream_t s);
// The semi-global paths alone from a pixel-major input (launch_lf_semi_global's second half):
// paths as there (4 volumes, then 2 planes).
void launch_lf_sgm_paths(const float* input, const float* guide, int guide_channels, int w, int h, int labels,
                         float p1, float p2, float edge, float* paths, cudaStream_t s);
// One weighted-median pass (window radius m); guide: guide_channels planes of w x h.
void launch_lf_median(const float* disp, const float* conf, const float* guide, int guide_channels, int w, int h,
                      int m, float sigma, float* out, cudaStream_t s);

}  // namespace lb::cuda::detail
