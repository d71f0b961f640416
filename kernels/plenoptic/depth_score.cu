// Depth-map scoring and error map on the device (see depth_score.hpp).
#include "plenoptic/depth_score.hpp"

#include <algorithm>
#include <vector>

#include "cuda_check.cuh"
#include "cuda_util.hpp"

namespace lb::cuda {
namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ const float* row(const float* base, std::size_t pitch, int y) {
  return reinterpret_cast<const float*>(reinterpret_cast<const unsigned char*>(base) + pitch * y);
}

// One partial (pixels, exact, sum) per block; the host adds the blocks in order.
__global__ void depth_score_kernel(const float* map, std::size_t map_pitch, const float* truth, int w, int h,
                                   int border, unsigned long long* pixels, unsigned long long* exact,
                                   double* err) {
  __shared__ unsigned long long s_pix[kThreads], s_exact[kThreads];
  __shared__ double s_err[kThreads];
  const int iw = w - 2 * border, ih = h - 2 * border;
  const long long n = static_cast<long long>(iw) * ih;
  unsigned long long pix = 0, ex = 0;
  double e = 0.0;
  for (long long i = static_cast<long long>(blockIdx.x) * kThreads + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * kThreads) {
    const int x = border + static_cast<int>(i % iw), y = border + static_cast<int>(i / iw);
    const float t = truth[static_cast<std::size_t>(y) * w + x];
    if (!(t > 0.0f)) continue;
    ++pix;
    const double d = fabs(static_cast<double>(row(map, map_pitch, y)[x]) - static_cast<double>(t));
    ex += d == 0.0;
    e += d;
  }
  s_pix[threadIdx.x] = pix;
  s_exact[threadIdx.x] = ex;
  s_err[threadIdx.x] = e;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      s_pix[threadIdx.x] += s_pix[threadIdx.x + s];
      s_exact[threadIdx.x] += s_exact[threadIdx.x + s];
      s_err[threadIdx.x] += s_err[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    pixels[blockIdx.x] = s_pix[0];
    exact[blockIdx.x] = s_exact[0];
    err[blockIdx.x] = s_err[0];
  }
}

__global__ void depth_error_kernel(const float* map, std::size_t map_pitch, const float* truth, int w, int h,
                                   float* out, std::size_t out_pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float* o = reinterpret_cast<float*>(reinterpret_cast<unsigned char*>(out) + out_pitch * y);
  o[x] = fabsf(row(map, map_pitch, y)[x] - truth[static_cast<std::size_t>(y) * w + x]);
}

}  // namespace

DepthScoreSums depth_score_device(const float* map, std::size_t map_pitch, const float* truth, int w, int h,
                                  int border, cudaStream_t stream) {
  DepthScoreSums r;
  if (w - 2 * border <= 0 || h - 2 * border <= 0) return r;
  const long long n = static_cast<long long>(w - 2 * border) * (h - 2 * border);
  const int blocks = static_cast<int>(std::min<long long>((n + kThreads - 1) / kThreads, 1024));
  detail::DeviceBuffer buf;
  buf.allocate(static_cast<std::size_t>(blocks) * 24);
  auto* pix = buf.as<unsigned long long>();
  auto* ex = pix + blocks;
  auto* err = reinterpret_cast<double*>(ex + blocks);
  depth_score_kernel<<<blocks, kThreads, 0, stream>>>(map, map_pitch, truth, w, h, border, pix, ex, err);
  CUDA_CHECK_LAUNCH();
  std::vector<unsigned long long> hp(static_cast<std::size_t>(blocks) * 2);
  std::vector<double> he(static_cast<std::size_t>(blocks));
  CUDA_CHECK_THROW(cudaMemcpyAsync(hp.data(), pix, hp.size() * 8, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK_THROW(cudaMemcpyAsync(he.data(), err, he.size() * 8, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK_THROW(cudaStreamSynchronize(stream));
  for (int b = 0; b < blocks; ++b) {
    r.pixels += hp[static_cast<std::size_t>(b)];
    r.exact += hp[static_cast<std::size_t>(blocks + b)];
    r.abs_err += he[static_cast<std::size_t>(b)];
  }
  return r;
}

void launch_depth_error(const float* map, std::size_t map_pitch, const float* truth, int w, int h, float* out,
                        std::size_t out_pitch, cudaStream_t stream) {
  const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  depth_error_kernel<<<grid, block, 0, stream>>>(map, map_pitch, truth, w, h, out, out_pitch);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda
