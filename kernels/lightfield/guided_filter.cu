// Guided filter (He, Sun & Tang) on every slice of a volume, guided by one gray plane or by a
// colour guide of 3 planes, on CUDA (issue 12's cost-volume filtering). The box-window passes
// (O(1) per pixel whatever the radius, K planes at once) are box_passes.cuh's; per slice:
//   guided_col_slice_kernel column sums of p and I p (products, and p's normalisation, on the fly)
//   guided_row_coef_kernel  their row windows -> a, b (in shared memory) -> the row windows of a, b
//   guided_col_out_kernel   their column windows -> mean_a, mean_b -> q
// Gray steps per slice p (guide I, its box means mean_I and var_I computed once):
//   mean_p, mean_Ip -> a = (mean_Ip - mean_I mean_p) / (var_I + eps), b = mean_p - a mean_I
//   mean_a, mean_b  -> q = mean_a I + mean_b
// Colour (Eq. 14-16; the algebra in lightfield/guided_filter_math.hpp, shared with the CPU):
//   once       mean_I (3), mean(I_i I_j) (6) -> mean_I and (Sigma + eps U)^-1 (6 entries)
//   per slice  mean_p, mean(I_c p) (3)       -> a (3), b
//              mean_a (3), mean_b            -> q = mean_a . I + mean_b
// Float throughout; the CPU references (lf_refine_cpu.cpp, guided_filter_cpu.cpp) compute in
// double, the tests bound the difference.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>

#include "lightfield/box_passes.cuh"
#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightfield/guided_filter.hpp"
#include "lightfield/guided_filter_math.hpp"

namespace lb::cuda::detail {

namespace {

using namespace box;

// ---- Gray guide: the per-pixel steps.

// The guide's statistics (one slice) from mean(I), mean(I I): mean_I and var_I.
struct GrayStats {
  float* mean_i;
  float* var_i;
  __device__ __forceinline__ void operator()(const float (&m)[2], std::size_t, std::size_t g) const {
    mean_i[g] = m[0];
    var_i[g] = m[1] - m[0] * m[0];
  }
};

// Step 1 from mean(p), mean(I p): c = (a, b).
struct GrayCoefficients {
  const float* mean_i;
  const float* var_i;
  float eps;
  __device__ __forceinline__ void operator()(const float (&m)[2], std::size_t g, float (&c)[2]) const {
    const float mi = mean_i[g];
    const float av = (m[1] - mi * m[0]) / (var_i[g] + eps);
    c[0] = av;
    c[1] = m[0] - av * mi;
  }
};

// Step 2 from mean(a), mean(b): q = mean_a I + mean_b.
struct GrayOutput {
  const float* guide;
  float* q;
  __device__ __forceinline__ void operator()(const float (&m)[2], std::size_t v, std::size_t g) const {
    // Rounded product, then rounded sum (no FMA): the arithmetic of the gray filter before
    // the row kernels became one template, where control flow kept the two apart.
    q[v] = __fadd_rn(__fmul_rn(m[0], guide[g]), m[1]);
  }
};

// ---- Colour guide (3 planes): the per-pixel steps, the algebra from guided_filter_math.hpp.

constexpr int kRgbStatsTerms = gf::kChannels + gf::kProducts;  // mean_I (3), mean(I_i I_j) (6)
constexpr int kRgbSliceTerms = gf::kChannels + 1;              // p, I_c p (3) / a (3), b
constexpr unsigned kRgbStatsGuided = ((1u << gf::kProducts) - 1) << gf::kChannels;  // the I_i I_j terms

// The guide's statistics (one slice) from mean(I_c), mean(I_i I_j): mean_I (3 planes) and
// (Sigma + eps U)^-1 (6 planes, gf's entry order); eps is fixed for the call, so the inverse
// is computed once, not per slice.
struct RgbStats {
  Planes<gf::kChannels> mean_i;
  Planes<gf::kProducts> inverse;
  float eps;
  __device__ __forceinline__ void operator()(const float (&m)[kRgbStatsTerms], std::size_t, std::size_t g) const {
    float mi[gf::kChannels], mii[gf::kProducts];
#pragma unroll
    for (int c = 0; c < gf::kChannels; ++c) mi[c] = m[c];
#pragma unroll
    for (int k = 0; k < gf::kProducts; ++k) mii[k] = m[gf::kChannels + k];
    const gf::Sym3<float> inv = gf::regularized_inverse(gf::covariance(mi, mii), eps);
#pragma unroll
    for (int c = 0; c < gf::kChannels; ++c) mean_i.p[c][g] = mi[c];
#pragma unroll
    for (int k = 0; k < gf::kProducts; ++k) inverse.p[k][g] = inv.m[k];
  }
};

// Step 1 from mean(p), mean(I_c p): c = (a (3), b).
struct RgbCoefficients {
  const float* mean_i[gf::kChannels];
  const float* inverse[gf::kProducts];
  __device__ __forceinline__ void operator()(const float (&m)[kRgbSliceTerms], std::size_t g,
                                             float (&c)[kRgbSliceTerms]) const {
    float mi[gf::kChannels], mip[gf::kChannels];
    gf::Sym3<float> inv;
#pragma unroll
    for (int ch = 0; ch < gf::kChannels; ++ch) mi[ch] = mean_i[ch][g], mip[ch] = m[1 + ch];
#pragma unroll
    for (int k = 0; k < gf::kProducts; ++k) inv.m[k] = inverse[k][g];
    const gf::Coefficients<float> ab = gf::coefficients(inv, mi, m[0], mip);
#pragma unroll
    for (int ch = 0; ch < gf::kChannels; ++ch) c[ch] = ab.a[ch];
    c[gf::kChannels] = ab.b;
  }
};

// Step 2 from mean(a_c), mean(b): q = mean_a . I + mean_b.
struct RgbOutput {
  const float* guide[gf::kChannels];
  float* q;
  __device__ __forceinline__ void operator()(const float (&m)[kRgbSliceTerms], std::size_t v, std::size_t g) const {
    float ma[gf::kChannels], gi[gf::kChannels];
#pragma unroll
    for (int c = 0; c < gf::kChannels; ++c) ma[c] = m[c], gi[c] = guide[c][g];
    q[v] = gf::output(ma, m[gf::kChannels], gi);
  }
};

unsigned cols(int w) { return static_cast<unsigned>((w + 127) / 128); }

// Rows per column-pass thread: at least three windows. At the refinement's r 15 the fresh
// window (2r + 1 rows) costs a third of a 92-row segment's reads; 4r + 2 rows took 0.05 ms
// more of the refinement, 8r + 2 the same (H100).
int col_segment(int r) { return std::max(64, 6 * r + 2); }

dim3 col_grid(int w, int h, int slices, int r) {
  const unsigned segs = static_cast<unsigned>((h + col_segment(r) - 1) / col_segment(r));
  LB_REQUIRE(segs <= 65535u, "guided filter: too many rows");
  return dim3(cols(w), static_cast<unsigned>(slices), segs);
}

template <int K, unsigned kGuided>
void launch_cols(const ColTerms<K>& t, int w, int h, int slices, int r, const Planes<K>& out, cudaStream_t s) {
  for (int k = 0; k < K; ++k)
    if (((kGuided >> k) & 1u) != (t.mul[k] != nullptr))
      LB_THROW("guided filter: column term mask and guide planes disagree");
  guided_col_sum_kernel<K, kGuided><<<col_grid(w, h, slices, r), 128, 0, s>>>(t, w, h, r, col_segment(r), out);
  CUDA_CHECK_LAUNCH();
}

// Step 1's column pass: p (normalised when t.lo is set) and its products with the guide.
template <int K>
void launch_cols_slices(const SliceTerms<K>& t, int w, int h, int slices, int r, const Planes<K>& out,
                        cudaStream_t s) {
  guided_col_slice_kernel<K><<<col_grid(w, h, slices, r), 128, 0, s>>>(t, w, h, r, col_segment(r), out);
  CUDA_CHECK_LAUNCH();
}

// Step 2's column pass and the output (op) from the row sums of a, b.
template <int K, class Op>
void launch_cols_out(const Planes<K>& rows, int w, int h, int slices, int r, const Op& op, cudaStream_t s) {
  guided_col_out_kernel<K, Op><<<col_grid(w, h, slices, r), 128, 0, s>>>(rows, w, h, r, col_segment(r), op);
  CUDA_CHECK_LAUNCH();
}

// Allows `rows` rows of w floats of dynamic shared memory to `kernel` on the current device;
// rows too wide for the device's opt-in limit per block throw one line naming the limit
// (`what` names the filter). Returns the dynamic bytes.
std::size_t allow_row_smem(const void* kernel, int rows, int w, const char* what) {
  const std::size_t dynamic = static_cast<std::size_t>(rows) * static_cast<std::size_t>(w) * sizeof(float);
  cudaFuncAttributes attr{};
  CUDA_CHECK_THROW(cudaFuncGetAttributes(&attr, kernel));
  int device = 0, limit = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&device));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t need = dynamic + attr.sharedSizeBytes;
  LB_REQUIRE(need <= static_cast<std::size_t>(limit),
             std::string(what) + ": a row of " + std::to_string(w) + " pixels needs " + std::to_string(need) +
                 " bytes of shared memory per block, above this device's limit of " + std::to_string(limit) +
                 " (cudaDevAttrMaxSharedMemoryPerBlockOptin)");
  CUDA_CHECK_THROW(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamic)));
  return dynamic;
}

// Calls f(std::integral_constant<int, RD>{}) with RD = row_radius_arg(r): the row kernels'
// instantiation for this radius.
template <class F>
void with_row_radius(int r, F&& f) {
  switch (row_radius_arg(r)) {
    case 0: f(std::integral_constant<int, 0>{}); break;
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    default: f(std::integral_constant<int, -1>{}); break;
  }
}

// Both row kernels a filter of radius r uses, allowed their shared memory before anything is
// queued.
template <int KS, class StatsOp, int K, class CoefOp>
void allow_rows(int w, int r, const char* what) {
  with_row_radius(r, [&](auto rd) {
    constexpr int RD = decltype(rd)::value;
    allow_row_smem(reinterpret_cast<const void*>(guided_row_kernel<KS, RD, StatsOp>), KS, w, what);
    allow_row_smem(reinterpret_cast<const void*>(guided_row_coef_kernel<K, RD, CoefOp>), 2 * K, w, what);
  });
}

template <int K, class Op>
void launch_rows(const Planes<K>& col, int w, int h, int slices, int r, const Op& op, cudaStream_t s) {
  with_row_radius(r, [&](auto rd) {
    guided_row_kernel<K, decltype(rd)::value, Op>
        <<<dim3(static_cast<unsigned>(h), static_cast<unsigned>(slices)), kRowThreads,
           static_cast<std::size_t>(K) * w * sizeof(float), s>>>(col, w, h, r, op);
  });
  CUDA_CHECK_LAUNCH();
}

template <int K, class Op>
void launch_rows_coef(const Planes<K>& col, int w, int h, int slices, int r, const Op& op, const Planes<K>& out,
                      cudaStream_t s) {
  with_row_radius(r, [&](auto rd) {
    guided_row_coef_kernel<K, decltype(rd)::value, Op>
        <<<dim3(static_cast<unsigned>(h), static_cast<unsigned>(slices)), kRowThreads,
           2 * static_cast<std::size_t>(K) * w * sizeof(float), s>>>(col, w, h, r, op, out);
  });
  CUDA_CHECK_LAUNCH();
}

void require_volume(int w, int h, int slices, int r, const char* what) {
  LB_REQUIRE(w > 0 && h > 0 && slices > 0 && r >= 0, std::string(what) + ": empty volume or negative radius");
  LB_REQUIRE(slices <= 65535, std::string(what) + ": more than 65535 slices");
}
void require_ranges(const float* lo, const float* hi, const char* what) {
  LB_REQUIRE((lo == nullptr) == (hi == nullptr), std::string(what) + ": give both range planes or neither");
}

// ---- Colour filter: its scratch and its three phases.

constexpr const char* kRgbWhat = "guided filter rgb";
using RgbGuidePlanes = std::array<const float*, gf::kChannels>;

// The planes of the colour filter's scratch (layout: guided_filter_rgb_scratch_bytes).
struct RgbScratch {
  Planes<kRgbStatsTerms> guide_cols;  // the guide's column sums: the first 9 planes of the
                                      // per-slice space, read before the slices' passes write it
  Planes<kRgbSliceTerms> cols;        // per slice: column sums of p, I_c p
  Planes<kRgbSliceTerms> coef;        // per slice: the row sums of a_c (3), b
  Planes<gf::kChannels> mean_i;       // once
  Planes<gf::kProducts> inverse;      // once: (Sigma + eps U)^-1
};

// The per-slice space in planes: 8 per slice (4 column sums, row sums of a (3), b), at least the guide's 9
// column sums.
std::size_t rgb_work_planes(int slices) {
  return std::max<std::size_t>(8 * static_cast<std::size_t>(slices), kRgbStatsTerms);
}

RgbScratch rgb_scratch(float* scratch, int w, int h, int slices) {
  const std::size_t plane = static_cast<std::size_t>(w) * h, vol = plane * static_cast<std::size_t>(slices);
  float* stats = scratch + rgb_work_planes(slices) * plane;
  RgbScratch sc{};
  for (int k = 0; k < kRgbStatsTerms; ++k) sc.guide_cols.p[k] = scratch + k * plane;
  for (int k = 0; k < kRgbSliceTerms; ++k)
    sc.cols.p[k] = scratch + k * vol, sc.coef.p[k] = scratch + (kRgbSliceTerms + k) * vol;
  for (int c = 0; c < gf::kChannels; ++c) sc.mean_i.p[c] = stats + c * plane;
  for (int k = 0; k < gf::kProducts; ++k) sc.inverse.p[k] = stats + (gf::kChannels + k) * plane;
  return sc;
}

// Once per call: column sums of I_c and I_i I_j, then mean_I and (Sigma + eps U)^-1.
void queue_rgb_guide_stats(const RgbGuidePlanes& g, int w, int h, int r, float eps, const RgbScratch& sc,
                           cudaStream_t s) {
  ColTerms<kRgbStatsTerms> terms{};
  for (int k = 0; k < kRgbStatsTerms; ++k) {
    int i = k, j = -1;  // k < kChannels: channel k alone
    if (k >= gf::kChannels) gf::product_channels(k - gf::kChannels, i, j);
    terms.src[k] = g[i];
    terms.mul[k] = j >= 0 ? g[j] : nullptr;
    terms.slice_stride[k] = 0;
  }
  launch_cols<kRgbStatsTerms, kRgbStatsGuided>(terms, w, h, 1, r, sc.guide_cols, s);
  launch_rows(sc.guide_cols, w, h, 1, r, RgbStats{sc.mean_i, sc.inverse, eps}, s);
}

// Per slice: column sums of p and I_c p (into cols), then a (3) and b and their row windows
// (into coef), then their column windows and q = mean_a . I + mean_b (into out).
void queue_rgb_slices(const RgbGuidePlanes& g, int w, int h, const float* in, const float* in_lo, const float* in_hi,
                      int slices, int r, const RgbScratch& sc, float* out, cudaStream_t s) {
  SliceTerms<kRgbSliceTerms> terms{in, in_lo, in_hi, {g[0], g[1], g[2]}};
  RgbCoefficients coef{};
  for (int c = 0; c < gf::kChannels; ++c) coef.mean_i[c] = sc.mean_i.p[c];
  for (int k = 0; k < gf::kProducts; ++k) coef.inverse[k] = sc.inverse.p[k];
  RgbOutput op{};
  for (int c = 0; c < gf::kChannels; ++c) op.guide[c] = g[c];
  op.q = out;
  launch_cols_slices(terms, w, h, slices, r, sc.cols, s);
  launch_rows_coef(sc.cols, w, h, slices, r, coef, sc.coef, s);
  launch_cols_out(sc.coef, w, h, slices, r, op, s);
}

// The stats planes at `stats` (mean_I (3), then the inverse (6)).
void point_rgb_stats(float* stats, std::size_t plane, RgbScratch& sc) {
  for (int c = 0; c < gf::kChannels; ++c) sc.mean_i.p[c] = stats + c * plane;
  for (int k = 0; k < gf::kProducts; ++k) sc.inverse.p[k] = stats + (gf::kChannels + k) * plane;
}

// Once per gray call: column sums of I and I I (into col, slice 0), then mean_I and var_I.
void queue_gray_guide_stats(const float* guide, int w, int h, int r, float* mean_i, const Planes<2>& col,
                            cudaStream_t s) {
  launch_cols<2, 0b10u>({{guide, guide}, {nullptr, guide}, {0, 0}}, w, h, 1, r, col, s);
  launch_rows(col, w, h, 1, r, GrayStats{mean_i, mean_i + static_cast<std::size_t>(w) * h}, s);
}

}  // namespace

std::size_t guided_filter_scratch_bytes(int w, int h, int slices) {
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  return (4 * plane * static_cast<std::size_t>(slices) + 2 * plane) * sizeof(float);
}

void launch_guided_filter(const float* guide, int w, int h, const float* in, int slices, int r, float eps, float* out,
                          float* scratch, cudaStream_t s, const float* in_lo, const float* in_hi, const float* stats) {
  constexpr const char* what = "guided filter";
  require_volume(w, h, slices, r, what);
  require_ranges(in_lo, in_hi, what);
  const std::size_t plane = static_cast<std::size_t>(w) * h, vol = plane * static_cast<std::size_t>(slices);
  float* c0 = scratch;            // column sums of p, vol
  float* c1 = c0 + vol;           // column sums of I p, vol
  float* a = c1 + vol;            // row sums of a, vol
  float* b = a + vol;             // row sums of b, vol
  float* mean_i = b + vol;        // plane
  float* var_i = mean_i + plane;  // plane
  allow_rows<2, GrayStats, 2, GrayCoefficients>(w, r, what);  // a row too wide throws before anything is queued
  const Planes<2> col{{c0, c1}}, ab{{a, b}};
  if (stats)
    mean_i = const_cast<float*>(stats), var_i = mean_i + plane;  // only read from here on
  else
    queue_gray_guide_stats(guide, w, h, r, mean_i, col, s);
  // Per slice: p and I p, then a and b and their row windows, then q.
  launch_cols_slices(SliceTerms<2>{in, in_lo, in_hi, {guide}}, w, h, slices, r, col, s);
  launch_rows_coef(col, w, h, slices, r, GrayCoefficients{mean_i, var_i, eps}, ab, s);
  launch_cols_out(ab, w, h, slices, r, GrayOutput{guide, out}, s);
}

// Scratch of the colour filter, in planes of w x h floats:
//   work   max(8 * slices, 9): per slice 4 column sums (p, I_c p) and the row sums of the
//          coefficients a (3) and b; before that, the guide's 9 column sums (its first 9
//          planes, consumed before the slices' passes overwrite them: the stream orders them);
//   stats  9: mean_I (3) and (Sigma + eps U)^-1 (6), once per call.
std::size_t guided_filter_rgb_scratch_bytes(int w, int h, int slices) {
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  return (rgb_work_planes(slices) + kRgbStatsTerms) * plane * sizeof(float);
}

void launch_guided_filter_rgb(const float* guide, int w, int h, const float* in, int slices, int r, float eps,
                              float* out, float* scratch, cudaStream_t s, const float* in_lo, const float* in_hi,
                              const float* stats) {
  require_volume(w, h, slices, r, kRgbWhat);
  LB_REQUIRE(eps > 0.0f, "guided filter rgb: eps must be > 0");
  require_ranges(in_lo, in_hi, kRgbWhat);
  // A row too wide for the row kernels' shared memory throws before anything is queued.
  allow_rows<kRgbStatsTerms, RgbStats, kRgbSliceTerms, RgbCoefficients>(w, r, kRgbWhat);
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  const RgbGuidePlanes g = {guide, guide + plane, guide + 2 * plane};
  RgbScratch sc = rgb_scratch(scratch, w, h, slices);
  if (stats)
    point_rgb_stats(const_cast<float*>(stats), plane, sc);  // only read from here on
  else
    queue_rgb_guide_stats(g, w, h, r, eps, sc, s);
  queue_rgb_slices(g, w, h, in, in_lo, in_hi, slices, r, sc, out, s);
}

int guided_filter_stats_planes(int gc) {
  LB_REQUIRE(gc == 1 || gc == 3, "guided filter: the guide must have 1 or 3 channels");
  return gc == 3 ? kRgbStatsTerms : 2;
}

void launch_guided_filter_stats(const float* guide, int gc, int w, int h, int r, float eps, float* stats, float* tmp,
                                cudaStream_t s) {
  const int planes = guided_filter_stats_planes(gc);
  require_volume(w, h, 1, r, "guided filter stats");
  const std::size_t plane = static_cast<std::size_t>(w) * h;
  if (gc == 1) {
    allow_rows<2, GrayStats, 2, GrayCoefficients>(w, r, "guided filter");
    queue_gray_guide_stats(guide, w, h, r, stats, Planes<2>{{tmp, tmp + plane}}, s);
    return;
  }
  LB_REQUIRE(eps > 0.0f, "guided filter rgb: eps must be > 0");
  allow_rows<kRgbStatsTerms, RgbStats, kRgbSliceTerms, RgbCoefficients>(w, r, kRgbWhat);
  RgbScratch sc{};
  for (int k = 0; k < planes; ++k) sc.guide_cols.p[k] = tmp + k * plane;
  point_rgb_stats(stats, plane, sc);
  queue_rgb_guide_stats({guide, guide + plane, guide + 2 * plane}, w, h, r, eps, sc, s);
}

}  // namespace lb::cuda::detail
