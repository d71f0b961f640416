// The previous CUDA MAD pipeline ("c2c", kernels/mad/mad_pipeline.hpp), unchanged but for the
// stage marks: complex transforms of both images for the CSF and the log-Gabor paths, a
// detection stage of three kernels, 40 full products written before one batch-40 inverse.
// Kept so the tests and `bench mad` can compare it with the r2c pipeline.
#include <cmath>

#include "cuda_check.cuh"
#include "mad/mad_math.hpp"
#include "mad/mad_local_mse.cuh"
#include "mad/mad_pipeline.hpp"

namespace lb::cuda::detail {

namespace {

constexpr int kThreads = 256;
inline unsigned grid_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// Two planes (ref, dst) of gray values -> complex luminance (1.1) or complex pixel values.
__global__ void mad_to_complex_kernel(const float* img, float2* out, size_t count, int mode,
                                      const float* __restrict__ lut) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float v = img[i];
  float r = v;
  if (mode == 1) r = lut[static_cast<int>(v)];
  if (mode == 2) r = mad::luminance<float>(v);
  out[i] = make_float2(r, 0.f);
}

__global__ void mad_mul_real_kernel(float2* spec, const float* filt, size_t n, size_t count) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float f = filt[i % n];
  spec[i].x *= f;
  spec[i].y *= f;
}

// 1.3-1.4 per block: std_E, mean_R, std_R (min of four 8x8), masking.
__global__ void mad_detect_blocks_kernel(const float2* __restrict__ filt, float scale, int w, int h, int nbx, int nby,
                                         float* msk) {
  const int bx = blockIdx.x * blockDim.x + threadIdx.x, by = blockIdx.y * blockDim.y + threadIdx.y;
  if (bx >= nbx || by >= nby) return;
  const size_t n = static_cast<size_t>(w) * h;
  const int i0 = by * 4, j0 = bx * 4;
  float se = 0.f, sr = 0.f;
  for (int y = i0; y < i0 + 16; ++y)
    for (int x = j0; x < j0 + 16; ++x) {
      const size_t p = static_cast<size_t>(y) * w + x;
      const float fr = filt[p].x * scale, fd = filt[n + p].x * scale;
      se += fd - fr;
      sr += fr;
    }
  const float me = se / 256.f, mean_r = sr / 256.f;
  float ve = 0.f;
  for (int y = i0; y < i0 + 16; ++y)
    for (int x = j0; x < j0 + 16; ++x) {
      const size_t p = static_cast<size_t>(y) * w + x;
      const float d = (filt[n + p].x - filt[p].x) * scale - me;
      ve += d * d;
    }
  const float std_e = sqrtf(ve / 255.f);
  float std_r = INFINITY;
  for (int q = 0; q < 4; ++q) {
    const int y0 = i0 + (q & 1) * 4, x0 = j0 + (q >> 1) * 4;
    if (!mad::std_r_candidate_used(y0, x0, q, h, w)) continue;
    float s8 = 0.f;
    for (int y = y0; y < y0 + 8; ++y)
      for (int x = x0; x < x0 + 8; ++x) s8 += filt[static_cast<size_t>(y) * w + x].x * scale;
    const float m8 = s8 / 64.f;
    float v8 = 0.f;
    for (int y = y0; y < y0 + 8; ++y)
      for (int x = x0; x < x0 + 8; ++x) {
        const float d = filt[static_cast<size_t>(y) * w + x].x * scale - m8;
        v8 += d * d;
      }
    std_r = fminf(std_r, sqrtf(v8 / 63.f));
  }
  msk[by * nbx + bx] = mad::masking<float>(std_r, mean_r, std_e);
}

// 1.5-1.6 HI = msk (cell) * lmse (mad_local_mse.cuh) per 32x8 output tile.
constexpr int HX = 32, HY = 8;
__global__ void __launch_bounds__(HX* HY) mad_hi_kernel(const float* __restrict__ img, const float* __restrict__ msk,
                                                        int w, int h, int nbx, int nby, float* hi) {
  __shared__ LocalMseTile<HX, HY> tile;
  const int tid = threadIdx.y * HX + threadIdx.x;
  stage_squared_errors<HX, HY, HX * HY>(tile, img, w, h, static_cast<int>(blockIdx.x) * HX - 7,
                                         static_cast<int>(blockIdx.y) * HY - 7, tid);
  __syncthreads();
  sum_rows16<HX, HY, HX * HY>(tile, tid);
  __syncthreads();
  const int x = blockIdx.x * HX + threadIdx.x, y = blockIdx.y * HY + threadIdx.y;
  if (x >= w || y >= h) return;
  const int bx = x / 4, by = y / 4;
  const float m = bx < nbx && by < nby ? msk[by * nbx + bx] : 0.f;
  hi[static_cast<size_t>(y) * w + x] = m * local_mse(tile, threadIdx.x, threadIdx.y);
}

// Sum of squares over the crop 16..size-18, one block (deterministic), double accumulation.
__global__ void mad_crop_sumsq_kernel(const float* map, int w, int h, double* out) {
  __shared__ double part[1024];
  const int x0 = mad::crop_lo(), x1 = mad::crop_hi(w), y0 = mad::crop_lo(), y1 = mad::crop_hi(h);
  const int cw = x1 - x0 + 1, ch = y1 - y0 + 1;
  double s = 0;
  for (int i = threadIdx.x; i < cw * ch; i += blockDim.x) {
    const double v = map[static_cast<size_t>(y0 + i / cw) * w + x0 + i % cw];
    s += v * v;
  }
  part[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) part[threadIdx.x] += part[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = part[0];
}

// 2.1 responses: plane q = 2 r + image (r = scale * 4 + orientation) = spectrum .* filter r.
__global__ void mad_gabor_mul_kernel(const float2* __restrict__ spec, const float* __restrict__ gabor, float2* resp,
                                     size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int q = blockIdx.y;
  if (i >= n) return;
  const int r = q / 2, im = q % 2;
  const float2 s = spec[static_cast<size_t>(im) * n + i];
  const float g = gabor[static_cast<size_t>(r) * n + i];
  resp[static_cast<size_t>(q) * n + i] = make_float2(s.x * g, s.y * g);
}

// 2.3 LO per block from the statistics of the 40 planes.
__global__ void mad_lo_blocks_kernel(const float* __restrict__ st, int nb, float* lo) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= nb) return;
  float s = 0.f;
  for (int r = 0; r < mad::kResponses; ++r) {
    const float* a = st + (static_cast<size_t>(2 * r) * nb + b) * 3;
    const float* d = st + (static_cast<size_t>(2 * r + 1) * nb + b) * 3;
    s += mad::scale_weight<float>(r / mad::kOrients) *
         mad::appearance_term<float>({a[0], a[1], a[2]}, {d[0], d[1], d[2]});
  }
  lo[b] = s;
}

__global__ void mad_expand_kernel(const float* __restrict__ blocks, int w, int h, int nbx, int nby, float* map) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const int bx = x / 4, by = y / 4;
  map[static_cast<size_t>(y) * w + x] = bx < nbx && by < nby ? blocks[by * nbx + bx] : 0.f;
}

class C2cPipeline final : public MadPipeline {
 public:
  C2cPipeline(int w_, int h_, cudaStream_t s) : w(w_), h(h_) {
    n = static_cast<std::size_t>(w) * h;
    nbx = mad::block_count(w);
    nby = mad::block_count(h);
    const std::size_t nb = static_cast<std::size_t>(nbx) * nby;
    plan2 = std::make_unique<MadFftPlan>(h, w, 2, CUFFT_C2C, s);
    plan40 = std::make_unique<MadFftPlan>(h, w, 2 * mad::kResponses, CUFFT_C2C, s);
    img.allocate(2 * n * sizeof(float));
    csf.allocate(n * sizeof(float));
    gabor.allocate(mad::kResponses * n * sizeof(float));
    spec.allocate(2 * n * sizeof(float2));
    work.allocate(2 * n * sizeof(float2));
    msk.allocate(nb * sizeof(float));
    hi_.allocate(n * sizeof(float));
    resp.allocate(2 * mad::kResponses * n * sizeof(float2));
    mag.allocate(2 * mad::kResponses * n * sizeof(float));
    stats.allocate(2 * mad::kResponses * nb * 3 * sizeof(float));
    lo_blocks.allocate(nb * sizeof(float));
    lo_.allocate(n * sizeof(float));
    sums.allocate(2 * sizeof(double));
    upload_luminance_lut(lut);
    host_in = PinnedBuffer(2 * n * sizeof(float), "the MAD input");
    host_out = PinnedBuffer(2 * sizeof(double), "the MAD sums");
    launch_fill_csf(csf.as<float>(), h, w, s);
    launch_fill_gabor(gabor.as<float>(), h, w, s);
  }
  float* host_input() override { return host_in.as<float>(); }
  const float* hi() const override { return hi_.as<float>(); }
  const float* lo() const override { return lo_.as<float>(); }
  std::string describe() const override { return "c2c"; }

  void run(MadStatsKernel sk, bool eight_bit, MadStageClock& clk, cudaStream_t s, double out[2]) override {
    const std::size_t nb = static_cast<std::size_t>(nbx) * nby;
    const std::uint64_t N = n, C = 8 * N;  // bytes of one complex plane
    const float inv_n = 1.0f / static_cast<float>(n);
    const dim3 t2(32, 8), g2((w + 31) / 32, (h + 7) / 8);
    const int planes = 2 * mad::kResponses;
    int k = 0;  // launches
    clk.start(s);
    CUDA_CHECK_THROW(cudaMemcpyAsync(img.get(), host_in.get(), 2 * n * sizeof(float), cudaMemcpyHostToDevice, s));
    clk.mark("upload", 8 * N, s);
    // 1.1-1.2 luminance + CSF (ref and dst as one batch of 2)
    mad_to_complex_kernel<<<grid_for(2 * n), kThreads, 0, s>>>(img.as<float>(), work.as<float2>(), 2 * n,
                                                               eight_bit ? 1 : 2, lut.as<float>());
    CUDA_CHECK_LAUNCH();
    plan2->c2c(work.get(), spec.get(), CUFFT_FORWARD);
    k += 2;
    clk.mark("csf_fwd", 8 * N + 2 * C + 2 * 2 * C, s);  // to_complex, then the transform's read + write
    mad_mul_real_kernel<<<grid_for(2 * n), kThreads, 0, s>>>(spec.as<float2>(), csf.as<float>(), n, 2 * n);
    CUDA_CHECK_LAUNCH();
    plan2->c2c(spec.get(), work.get(), CUFFT_INVERSE);
    k += 2;
    clk.mark("csf_inv", 4 * C + 4 * N + 4 * C, s);
    // 1.3-1.6 detection
    mad_detect_blocks_kernel<<<dim3((nbx + 15) / 16, (nby + 15) / 16), dim3(16, 16), 0, s>>>(
        work.as<float2>(), inv_n, w, h, nbx, nby, msk.as<float>());
    CUDA_CHECK_LAUNCH();
    mad_hi_kernel<<<dim3((w + HX - 1) / HX, (h + HY - 1) / HY), dim3(HX, HY), 0, s>>>(img.as<float>(), msk.as<float>(),
                                                                                      w, h, nbx, nby, hi_.as<float>());
    CUDA_CHECK_LAUNCH();
    mad_crop_sumsq_kernel<<<1, 1024, 0, s>>>(hi_.as<float>(), w, h, sums.as<double>());
    CUDA_CHECK_LAUNCH();
    k += 3;
    clk.mark("detect", 2 * C + 8 * N + 4 * N, s);
    // 2.1 log-Gabor bank: forward FFT of both images, 40 products, one batched inverse
    mad_to_complex_kernel<<<grid_for(2 * n), kThreads, 0, s>>>(img.as<float>(), work.as<float2>(), 2 * n, 0,
                                                               lut.as<float>());
    CUDA_CHECK_LAUNCH();
    plan2->c2c(work.get(), spec.get(), CUFFT_FORWARD);
    k += 2;
    clk.mark("gabor_fwd", 8 * N + 2 * C + 2 * 2 * C, s);
    mad_gabor_mul_kernel<<<dim3(grid_for(n), planes), kThreads, 0, s>>>(spec.as<float2>(), gabor.as<float>(),
                                                                        resp.as<float2>(), n);
    CUDA_CHECK_LAUNCH();
    ++k;
    clk.mark("gabor_mul", 2 * C + mad::kResponses * 4 * N + planes * C, s);
    plan40->c2c(resp.get(), resp.get(), CUFFT_INVERSE);
    ++k;
    clk.mark("gabor_inv", 2ull * planes * C, s);
    // 2.2 statistics (fused reads |EO| straight from the complex responses)
    if (sk == MadStatsKernel::Fused) {
      launch_mad_block_stats(sk, nullptr, resp.get(), inv_n, w, h, planes, stats.as<float>(), s);
    } else {
      launch_magnitude(resp.as<float2>(), mag.as<float>(), inv_n, planes * n, s);
      launch_mad_block_stats(sk, mag.as<float>(), nullptr, 1.f, w, h, planes, stats.as<float>(), s);
      ++k;
    }
    ++k;
    clk.mark("stats", planes * (sk == MadStatsKernel::Fused ? C : C + 8 * N) + planes * nb * 12, s);
    // 2.3-2.4 LO and its RMS
    mad_lo_blocks_kernel<<<grid_for(nb), kThreads, 0, s>>>(stats.as<float>(), static_cast<int>(nb),
                                                           lo_blocks.as<float>());
    CUDA_CHECK_LAUNCH();
    mad_expand_kernel<<<g2, t2, 0, s>>>(lo_blocks.as<float>(), w, h, nbx, nby, lo_.as<float>());
    CUDA_CHECK_LAUNCH();
    mad_crop_sumsq_kernel<<<1, 1024, 0, s>>>(lo_.as<float>(), w, h, sums.as<double>() + 1);
    CUDA_CHECK_LAUNCH();
    k += 3;
    CUDA_CHECK_THROW(cudaMemcpyAsync(host_out.get(), sums.get(), 2 * sizeof(double), cudaMemcpyDeviceToHost, s));
    clk.mark("combine", planes * nb * 12 + 2 * 4 * N, s);
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    out[0] = host_out.as<double>()[0];
    out[1] = host_out.as<double>()[1];
    launches_ = k;
  }

 private:
  int w = 0, h = 0, nbx = 0, nby = 0;
  std::size_t n = 0;
  std::unique_ptr<MadFftPlan> plan2, plan40;
  DeviceBuffer img, csf, gabor, spec, work, msk, hi_, resp, mag, stats, lo_blocks, lo_, sums, lut;
  PinnedBuffer host_in, host_out;
};

}  // namespace

std::unique_ptr<MadPipeline> make_mad_pipeline_c2c(int w, int h, cudaStream_t s) {
  return std::make_unique<C2cPipeline>(w, h, s);
}

}  // namespace lb::cuda::detail
