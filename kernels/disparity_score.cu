// Disparity scores and error maps on the device (disparity_score.hpp). Per-pixel rules from
// hci_math.hpp / stereo_score_math.hpp (shared with the CPU reference); the scores are a
// two-kernel reduction in a fixed order: blocks of kReduceThreads over a grid-stride range,
// a tree in shared memory, one partial per block, then one block sums the partials.
#include <cuda_runtime.h>

#include <string>

#include "cuda_check.cuh"
#include "disparity_score.hpp"
#include "lightbench/hci_math.hpp"
#include "lightbench/stereo_score_math.hpp"
#include "surface_write.cuh"

namespace lb::cuda::detail {
namespace {

constexpr int kReduceThreads = 256;
constexpr int kMaxReduceBlocks = 1024;

// Shared memory for kReduceThreads sums. (Raw storage: __shared__ variables cannot have
// the constructors the sums' default member initialisers give them.)
template <class Acc>
__device__ __forceinline__ Acc* reduce_smem() {
  static_assert(alignof(Acc) <= alignof(double), "sums are at most 8-byte aligned");
  __shared__ double raw[(sizeof(Acc) * kReduceThreads + sizeof(double) - 1) / sizeof(double)];
  return reinterpret_cast<Acc*>(raw);
}

// Tree sum of the block's values into smem[0]: merge() of the sums' namespace (ADL), the
// same pairs in the same order on every run.
template <class Acc>
__device__ void block_reduce(Acc v, Acc* smem) {
  smem[threadIdx.x] = v;
  __syncthreads();
  for (int stride = kReduceThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) merge(smem[threadIdx.x], smem[threadIdx.x + stride]);
    __syncthreads();
  }
}

// Pass 1: pixel(i, acc) adds pixel i of n; partials[blockIdx.x] = the block's sum.
template <class Acc, class Pixel>
__global__ void __launch_bounds__(kReduceThreads) score_reduce_pixels_kernel(long long n, Pixel pixel, Acc* partials) {
  Acc* smem = reduce_smem<Acc>();
  Acc acc{};
  const long long step = static_cast<long long>(gridDim.x) * kReduceThreads;
  for (long long i = static_cast<long long>(blockIdx.x) * kReduceThreads + threadIdx.x; i < n; i += step)
    pixel(i, acc);
  block_reduce(acc, smem);
  if (threadIdx.x == 0) partials[blockIdx.x] = smem[0];
}

// Pass 2 (one block): *total = the sum of partials[0..count) in a fixed order.
template <class Acc>
__global__ void __launch_bounds__(kReduceThreads)
    score_reduce_partials_kernel(const Acc* partials, int count, Acc* total) {
  Acc* smem = reduce_smem<Acc>();
  Acc acc{};
  for (int i = static_cast<int>(threadIdx.x); i < count; i += kReduceThreads) merge(acc, partials[i]);
  block_reduce(acc, smem);
  if (threadIdx.x == 0) *total = smem[0];
}

// Sum of pixel(i, acc) over i < n, downloaded (synchronises s).
template <class Acc, class Pixel>
Acc reduce_pixels(long long n, const Pixel& pixel, ScoreScratch& scratch, cudaStream_t s) {
  const long long want = (n + kReduceThreads - 1) / kReduceThreads;
  const int blocks = static_cast<int>(want < kMaxReduceBlocks ? (want > 0 ? want : 1) : kMaxReduceBlocks);
  Acc* partials = static_cast<Acc*>(scratch.get((static_cast<std::size_t>(blocks) + 1) * sizeof(Acc)));
  Acc* total = partials + blocks;
  score_reduce_pixels_kernel<Acc><<<blocks, kReduceThreads, 0, s>>>(n, pixel, partials);
  CUDA_CHECK_LAUNCH();
  score_reduce_partials_kernel<Acc><<<1, kReduceThreads, 0, s>>>(partials, blocks, total);
  CUDA_CHECK_LAUNCH();
  Acc host{};
  CUDA_CHECK_THROW(cudaMemcpyAsync(&host, total, sizeof(Acc), cudaMemcpyDeviceToHost, s));
  CUDA_CHECK_THROW(cudaStreamSynchronize(s));
  return host;
}

__device__ __forceinline__ float at(const DeviceFloatPlane& p, int x, int y) { return plane_row(p.ptr, p.pitch, y)[x]; }

// ---- HCI ---------------------------------------------------------------------------------
void check_hci_region(const DeviceFloatPlane& disp, const DeviceHciTruth& gt, int ox, int oy) {
  LB_REQUIRE(!gt.empty(), "score: no ground truth on the device");
  require_plane(disp, "score");
  LB_REQUIRE(ox >= 0 && oy >= 0 && ox + disp.width <= gt.width() && oy + disp.height <= gt.height(),
             "score: the disparity map (" + std::to_string(disp.width) + "x" + std::to_string(disp.height) + " at " +
                 std::to_string(ox) + "," + std::to_string(oy) + ") is not inside the " + std::to_string(gt.width()) +
                 "x" + std::to_string(gt.height()) + " ground truth");
}

template <class W>
__global__ void score_hci_error_kernel(DeviceFloatPlane disp, DeviceFloatPlane gt, int ox, int oy, W out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= disp.width || y >= disp.height) return;
  out.put(x, y, hci::error_value(at(disp, x, y), at(gt, ox + x, oy + y)));
}

struct HciPixel {
  DeviceFloatPlane disp, gt;
  int ox, oy, border;
  __device__ void operator()(long long i, hci::Sums& acc) const {
    const int x = static_cast<int>(i % disp.width), y = static_cast<int>(i / disp.width);
    const int gx = ox + x, gy = oy + y;
    if (hci::inside_border(gx, gy, gt.width, gt.height, border)) hci::accumulate(acc, at(disp, x, y), at(gt, gx, gy));
  }
};

// ---- Stereo ------------------------------------------------------------------------------
void check_stereo(const DeviceFloatPlane& disp, const DeviceStereoTruth& gt) {
  LB_REQUIRE(!gt.empty(), "stereo score: no ground truth");
  LB_REQUIRE(!disp.empty() && disp.pitch >= static_cast<std::size_t>(disp.width) * 4,
             "stereo score: the disparity map must be one non-empty channel");
  LB_REQUIRE(gt.width() == disp.width && gt.height() == disp.height,
             "stereo score: ground truth is " + std::to_string(gt.width()) + "x" + std::to_string(gt.height()) +
                 " but the disparity map is " + std::to_string(disp.width) + "x" + std::to_string(disp.height));
}

__device__ __forceinline__ bool mask_selects(const DeviceBytePlane& m, int x, int y) {
  return m.ptr == nullptr || stereo::scoring::selected(plane_row(m.ptr, m.pitch, y)[x]);
}

template <class W>
__global__ void score_stereo_error_kernel(DeviceFloatPlane disp, DeviceFloatPlane gt, DeviceBytePlane mask_all,
                                          double threshold, float k, W out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= disp.width || y >= disp.height) return;
  const stereo::scoring::Rgb8 c =
      stereo::scoring::error_colour(at(disp, x, y), at(gt, x, y), mask_selects(mask_all, x, y), threshold, k);
  out.put(x, y, make_uchar4(c.r, c.g, c.b, 255));
}

struct StereoPixel {
  DeviceFloatPlane disp, gt;
  DeviceBytePlane masks[3];
  double threshold;
  __device__ void operator()(long long i, stereo::scoring::Counts& acc) const {
    const int x = static_cast<int>(i % disp.width), y = static_cast<int>(i / disp.width);
    const bool sel[3] = {mask_selects(masks[0], x, y), mask_selects(masks[1], x, y), mask_selects(masks[2], x, y)};
    stereo::scoring::accumulate(acc, at(disp, x, y), at(gt, x, y), sel, threshold);
  }
};

}  // namespace

// ---- HCI ---------------------------------------------------------------------------------
void DeviceHciTruth::upload(const ImageF& gt, cudaStream_t s) {
  LB_REQUIRE(!gt.empty() && gt.channels == 1, "score: the ground truth must be one non-empty channel");
  gt_.upload(gt, s);
}

void launch_hci_error_map(const DeviceFloatPlane& disp, const DeviceHciTruth& gt, int ox, int oy,
                          const DeviceTarget& t, cudaStream_t s) {
  check_hci_region(disp, gt, ox, oy);
  const DeviceFloatPlane g = gt.plane();
  dispatch_float(t, disp.width, disp.height, "error map", [&](auto out) {
    score_hci_error_kernel<<<pixel_grid(disp.width, disp.height), pixel_block(), 0, s>>>(disp, g, ox, oy, out);
  });
  CUDA_CHECK_LAUNCH();
}

bool hci_error_map_to_surface(const DeviceFloatPlane& disp, const DeviceHciTruth& gt, int ox, int oy, Surface& out,
                              cudaStream_t s, PitchedBuffer* staging) {
  check_hci_region(disp, gt, ox, oy);
  return write_surface(out, SurfaceFormat::R32F, disp.width, disp.height, s, "error map",
                       [&](const DeviceTarget& t) { launch_hci_error_map(disp, gt, ox, oy, t, s); }, staging);
}

HciScore hci_score_region_device(const DeviceFloatPlane& disp, const DeviceHciTruth& gt, int ox, int oy, int border,
                                 cudaStream_t s) {
  check_hci_region(disp, gt, ox, oy);
  LB_REQUIRE(border >= 0, "score: border must be >= 0");
  const HciPixel pixel{disp, gt.plane(), ox, oy, border};
  const long long n = static_cast<long long>(disp.width) * disp.height;
  return hci::finish(reduce_pixels<hci::Sums>(n, pixel, gt.scratch(), s), border);
}

HciScore hci_score_device(const DeviceFloatPlane& disp, const DeviceHciTruth& gt, int border, cudaStream_t s) {
  LB_REQUIRE(disp.width == gt.width() && disp.height == gt.height(),
             "score: disparity " + std::to_string(disp.width) + "x" + std::to_string(disp.height) +
                 " vs ground truth " + std::to_string(gt.width()) + "x" + std::to_string(gt.height()));
  return hci_score_region_device(disp, gt, 0, 0, border, s);
}

// ---- Stereo ------------------------------------------------------------------------------
void DeviceStereoTruth::upload(const stereo::StereoGroundTruth& gt, cudaStream_t s) {
  LB_REQUIRE(!gt.empty(), "stereo score: no ground truth");
  const ImageF& d = gt.disparity;
  LB_REQUIRE(d.channels == 1, "stereo score: the ground truth must be one channel");
  const ImageU8* masks[3] = {&gt.mask_nonocc, &gt.mask_all, &gt.mask_disc};
  const char* names[3] = {"nonocc", "all", "disc"};
  for (int r = 0; r < 3; ++r)
    LB_REQUIRE(masks[r]->empty() || (masks[r]->width == d.width && masks[r]->height == d.height),
               std::string("stereo score: mask ") + names[r] + " does not have the disparity map's size");
  disparity_.upload(d, s);
  for (int r = 0; r < 3; ++r) {
    if (masks[r]->empty())
      masks_[r].release();
    else
      upload_channel(*masks[r], 0, masks_[r], s);
  }
  finite_max_ = stereo::scoring::finite_max(d);
}

void launch_stereo_error_map(const DeviceFloatPlane& disp, const DeviceStereoTruth& gt, double threshold,
                             float max_disp, const DeviceTarget& t, cudaStream_t s) {
  check_stereo(disp, gt);
  const float k = stereo::scoring::error_gain(stereo::scoring::error_scale(max_disp, gt.finite_max()));
  const DeviceFloatPlane g = gt.disparity();
  const DeviceBytePlane all = gt.mask(1);
  dispatch_rgba(t, disp.width, disp.height, "stereo error map", [&](auto out) {
    score_stereo_error_kernel<<<pixel_grid(disp.width, disp.height), pixel_block(), 0, s>>>(disp, g, all, threshold, k,
                                                                                            out);
  });
  CUDA_CHECK_LAUNCH();
}

bool stereo_error_map_to_surface(const DeviceFloatPlane& disp, const DeviceStereoTruth& gt, double threshold,
                                 float max_disp, Surface& out, cudaStream_t s, PitchedBuffer* staging) {
  check_stereo(disp, gt);
  return write_surface(
      out, SurfaceFormat::RGBA8, disp.width, disp.height, s, "stereo error map",
      [&](const DeviceTarget& t) { launch_stereo_error_map(disp, gt, threshold, max_disp, t, s); }, staging);
}

stereo::StereoScore score_stereo_device(const DeviceFloatPlane& disp, const DeviceStereoTruth& gt, double threshold,
                                        cudaStream_t s) {
  check_stereo(disp, gt);
  const StereoPixel pixel{disp, gt.disparity(), {gt.mask(0), gt.mask(1), gt.mask(2)}, threshold};
  const long long n = static_cast<long long>(disp.width) * disp.height;
  const stereo::scoring::Counts c = reduce_pixels<stereo::scoring::Counts>(n, pixel, gt.scratch(), s);
  stereo::StereoScore r;
  r.threshold = threshold;
  r.nonocc = stereo::scoring::finish(c.bad[0], c.pixels[0]);
  r.all = stereo::scoring::finish(c.bad[1], c.pixels[1]);
  r.disc = stereo::scoring::finish(c.bad[2], c.pixels[2]);
  return r;
}

}  // namespace lb::cuda::detail
