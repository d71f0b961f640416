// CUDA MAD evaluator: the whole metric on the device in float (lightbench/mad_cuda.hpp).
// Per image size: cuFFT plans (batch 2 for the CSF and the forward transforms, batch 40 for
// the inverse log-Gabor bank), the CSF and the 20 log-Gabor filters (computed once on the
// device in double, stored as float) and all work buffers stay resident.
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>
#include <cufft.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/engines/cuda.hpp"
#include "lightbench/engines/mad.hpp"
#include "lightbench/mad_cuda.hpp"
#include "lightbench/mad_math.hpp"
#include "mad_launch.hpp"
#include "surface_write.hpp"

#define CUFFT_CHECK_THROW(x)                                                                  \
  do {                                                                                        \
    const cufftResult lb_cufft_result_ = (x);                                                 \
    if (lb_cufft_result_ != CUFFT_SUCCESS)                                                    \
      ::lb::throw_at(__FILE__, __LINE__, std::string(#x) + ": cuFFT error " +                 \
                                             std::to_string(static_cast<int>(lb_cufft_result_))); \
  } while (0)

namespace lb::cuda {

namespace {

using detail::DeviceBuffer;
using detail::Event;
using detail::MadStatsKernel;
using detail::Stream;

__constant__ float c_lut[256];  // 8-bit luminance LUT (with the 255 -> 254 quirk)

constexpr int kThreads = 256;
inline unsigned grid_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

__global__ void fill_csf_kernel(float* csf, int M, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  csf[i] = static_cast<float>(mad::csf<double>(i / N, i % N, M, N));
}

__global__ void fill_gabor_kernel(float* g, int M, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = blockIdx.y;
  if (i >= M * N) return;
  g[static_cast<size_t>(k) * M * N + i] =
      static_cast<float>(mad::log_gabor<double>(k / mad::kOrients, k % mad::kOrients, i / N, i % N, M, N));
}

// Two planes (ref, dst) of gray values -> complex luminance (1.1) or complex pixel values.
__global__ void to_complex_kernel(const float* img, float2* out, size_t count, int mode) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float v = img[i];
  float r = v;
  if (mode == 1) r = c_lut[static_cast<int>(v)];
  if (mode == 2) r = mad::luminance<float>(v);
  out[i] = make_float2(r, 0.f);
}

__global__ void mul_real_kernel(float2* spec, const float* filt, size_t n, size_t count) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float f = filt[i % n];
  spec[i].x *= f;
  spec[i].y *= f;
}

// 1.3-1.4 per block: std_E, mean_R, std_R (min of four 8x8), masking.
__global__ void detect_blocks_kernel(const float2* __restrict__ filt, float scale, int w, int h, int nbx, int nby,
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

__device__ __forceinline__ int reflect(int i, int n) { return i < 0 ? -i - 1 : (i >= n ? 2 * n - i - 1 : i); }

// 1.5-1.6 HI = msk (cell) * lmse (16x16 box mean of (ref - dst)^2, offsets -7..+8, symmetric
// border). A 32x8 output tile stages the squared errors of its (32+15)x(8+15) footprint in
// shared memory, sums 16 along rows, then 16 along columns: 32 adds per pixel, not 256.
constexpr int HX = 32, HY = 8;
__global__ void __launch_bounds__(HX * HY) hi_kernel(const float* __restrict__ img, const float* __restrict__ msk, int w,
                                                int h, int nbx, int nby, float* hi) {
  __shared__ float e2[HY + 15][HX + 15 + 1];
  __shared__ float rs[HY + 15][HX + 1];
  const int x0 = blockIdx.x * HX - 7, y0 = blockIdx.y * HY - 7;
  const size_t n = static_cast<size_t>(w) * h;
  const int tid = threadIdx.y * HX + threadIdx.x;
  for (int i = tid; i < (HY + 15) * (HX + 15); i += HX * HY) {
    const int ty = i / (HX + 15), tx = i % (HX + 15);
    const size_t p = static_cast<size_t>(reflect(y0 + ty, h)) * w + reflect(x0 + tx, w);
    const float e = img[p] - img[n + p];
    e2[ty][tx] = e * e;
  }
  __syncthreads();
  for (int i = tid; i < (HY + 15) * HX; i += HX * HY) {
    const int ty = i / HX, tx = i % HX;
    float s = 0.f;
#pragma unroll
    for (int d = 0; d < 16; ++d) s += e2[ty][tx + d];
    rs[ty][tx] = s;
  }
  __syncthreads();
  const int x = blockIdx.x * HX + threadIdx.x, y = blockIdx.y * HY + threadIdx.y;
  if (x >= w || y >= h) return;
  float s = 0.f;
#pragma unroll
  for (int d = 0; d < 16; ++d) s += rs[threadIdx.y + d][threadIdx.x];
  const int bx = x / 4, by = y / 4;
  const float m = bx < nbx && by < nby ? msk[by * nbx + bx] : 0.f;
  hi[static_cast<size_t>(y) * w + x] = m * (s / 256.f);
}

// Sum of squares over the crop 16..size-18, one block (deterministic), double accumulation.
__global__ void crop_sumsq_kernel(const float* map, int w, int h, double* out) {
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
__global__ void gabor_mul_kernel(const float2* __restrict__ spec, const float* __restrict__ gabor, float2* resp,
                            size_t n) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int q = blockIdx.y;
  if (i >= n) return;
  const int r = q / 2, im = q % 2;
  const float2 s = spec[static_cast<size_t>(im) * n + i];
  const float g = gabor[static_cast<size_t>(r) * n + i];
  resp[static_cast<size_t>(q) * n + i] = make_float2(s.x * g, s.y * g);
}

__global__ void magnitude_kernel(const float2* __restrict__ c, float* m, float scale, size_t count) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float2 v = c[i];
  m[i] = sqrtf(v.x * v.x + v.y * v.y) * scale;
}

// 2.3 LO per block from the statistics of the 40 planes.
__global__ void lo_blocks_kernel(const float* __restrict__ st, int nb, float* lo) {
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

__global__ void expand_kernel(const float* __restrict__ blocks, int w, int h, int nbx, int nby, float* map) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const int bx = x / 4, by = y / 4;
  map[static_cast<size_t>(y) * w + x] = bx < nbx && by < nby ? blocks[by * nbx + bx] : 0.f;
}

class FftPlan {
 public:
  FftPlan(int h, int w, int batch, cudaStream_t s) {
    int dims[2] = {h, w};
    const int dist = h * w;
    // The plan's work area counts against the device limit (cuda_util.hpp) like a buffer.
    std::size_t work = 0;
    if (cufftEstimateMany(2, dims, nullptr, 1, dist, nullptr, 1, dist, CUFFT_C2C, batch, &work) != CUFFT_SUCCESS)
      work = 0;
    detail::device_reserve(work, "the cuFFT plan");
    const cufftResult r = cufftPlanMany(&plan_, 2, dims, nullptr, 1, dist, nullptr, 1, dist, CUFFT_C2C, batch);
    if (r != CUFFT_SUCCESS) {
      detail::device_unreserve(work);
      plan_ = 0;
      if (r == CUFFT_ALLOC_FAILED) {
        (void)cudaGetLastError();
        std::size_t free_b = 0, total_b = 0;
        if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) (void)cudaGetLastError();
        throw Error(device_oom_message(work, "the cuFFT plan", free_b, total_b));
      }
      CUFFT_CHECK_THROW(r);
    }
    work_ = work;
    CUFFT_CHECK_THROW(cufftSetStream(plan_, s));
  }
  ~FftPlan() {
    if (plan_) {
      cufftDestroy(plan_);
      detail::device_unreserve(work_);
    }
  }
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
  void exec(void* in, void* out, int dir) {
    CUFFT_CHECK_THROW(cufftExecC2C(plan_, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out), dir));
  }

 private:
  cufftHandle plan_ = 0;
  std::size_t work_ = 0;
};

// Everything for one image size.
struct SizeState {
  int w = 0, h = 0, nbx = 0, nby = 0;
  std::size_t n = 0;
  std::unique_ptr<FftPlan> plan2, plan40;
  DeviceBuffer img, csf, gabor, spec, work, msk, hi, resp, mag, stats, lo_blocks, lo, sums;
  SizeState(int w_, int h_, cudaStream_t s) : w(w_), h(h_) {
    n = static_cast<std::size_t>(w) * h;
    nbx = mad::block_count(w);
    nby = mad::block_count(h);
    const std::size_t nb = static_cast<std::size_t>(nbx) * nby;
    plan2 = std::make_unique<FftPlan>(h, w, 2, s);
    plan40 = std::make_unique<FftPlan>(h, w, 2 * mad::kResponses, s);
    img.allocate(2 * n * sizeof(float));
    csf.allocate(n * sizeof(float));
    gabor.allocate(mad::kResponses * n * sizeof(float));
    spec.allocate(2 * n * sizeof(float2));
    work.allocate(2 * n * sizeof(float2));
    msk.allocate(nb * sizeof(float));
    hi.allocate(n * sizeof(float));
    resp.allocate(2 * mad::kResponses * n * sizeof(float2));
    mag.allocate(2 * mad::kResponses * n * sizeof(float));
    stats.allocate(2 * mad::kResponses * nb * 3 * sizeof(float));
    lo_blocks.allocate(nb * sizeof(float));
    lo.allocate(n * sizeof(float));
    sums.allocate(2 * sizeof(double));
    fill_csf_kernel<<<grid_for(n), kThreads, 0, s>>>(csf.as<float>(), h, w);
    CUDA_CHECK_LAUNCH();
    fill_gabor_kernel<<<dim3(grid_for(n), mad::kResponses), kThreads, 0, s>>>(gabor.as<float>(), h, w);
    CUDA_CHECK_LAUNCH();
  }
};

double elapsed(const Event& a, const Event& b) {
  float ms = 0;
  CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, a.get(), b.get()));
  return ms;
}

class MadCuda final : public MadEngine {
 public:
  explicit MadCuda(int device) : device_(device) {
    info_ = device_info(device);
    if (!info_.available) throw Error("CUDA MAD: " + info_.why);
    CUDA_CHECK_THROW(cudaSetDevice(device));
    stream_ = std::make_unique<Stream>();
    ev_ = std::vector<Event>(6);
    float lut[256];
    for (int i = 0; i < 256; ++i) lut[i] = static_cast<float>(mad::luminance<double>(mad::lut_index_8bit(i)));
    CUDA_CHECK_THROW(cudaMemcpyToSymbol(c_lut, lut, sizeof lut));
  }
  BackendKind kind() const override { return BackendKind::Cuda; }
  std::string device_name() const override { return info_.describe(); }
  std::vector<std::string> variants() const override { return mad_stats_variants(); }
  std::string default_variant() const override { return "fused"; }

  MadResult run(const ImageD& ref, const ImageD& dst, const std::string& variant_in, const MadOptions& o) override {
    const std::string variant = variant_in.empty() ? default_variant() : variant_in;
    const MadStatsKernel sk = detail::parse_mad_stats_kernel(variant);
    int w = 0, h = 0;
    validate_mad_input(ref, dst, o, &w, &h);
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const cudaStream_t s = stream_->get();
    SizeState& st = state(w, h);
    const std::size_t n = st.n;
    const std::size_t nb = static_cast<std::size_t>(st.nbx) * st.nby;
    host_.resize(2 * n);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        host_[static_cast<std::size_t>(y) * w + x] = static_cast<float>(ref.at(x, y));
        host_[n + static_cast<std::size_t>(y) * w + x] = static_cast<float>(dst.at(x, y));
      }
    const float inv_n = 1.0f / static_cast<float>(n);
    const dim3 t2(32, 8), g2((w + 31) / 32, (h + 7) / 8);
    // The upload is not timed: "mad/total" is the metric on the device.
    CUDA_CHECK_THROW(cudaMemcpyAsync(st.img.get(), host_.data(), 2 * n * sizeof(float), cudaMemcpyHostToDevice, s));
    CUDA_CHECK_THROW(cudaEventRecord(ev_[0].get(), s));
    // 1.1-1.2 luminance + CSF (ref and dst as one batch of 2)
    to_complex_kernel<<<grid_for(2 * n), kThreads, 0, s>>>(st.img.as<float>(), st.work.as<float2>(), 2 * n,
                                                      o.eight_bit ? 1 : 2);
    CUDA_CHECK_LAUNCH();
    st.plan2->exec(st.work.get(), st.spec.get(), CUFFT_FORWARD);
    mul_real_kernel<<<grid_for(2 * n), kThreads, 0, s>>>(st.spec.as<float2>(), st.csf.as<float>(), n, 2 * n);
    CUDA_CHECK_LAUNCH();
    st.plan2->exec(st.spec.get(), st.work.get(), CUFFT_INVERSE);
    CUDA_CHECK_THROW(cudaEventRecord(ev_[1].get(), s));
    // 1.3-1.6 detection
    detect_blocks_kernel<<<dim3((st.nbx + 15) / 16, (st.nby + 15) / 16), dim3(16, 16), 0, s>>>(
        st.work.as<float2>(), inv_n, w, h, st.nbx, st.nby, st.msk.as<float>());
    CUDA_CHECK_LAUNCH();
    hi_kernel<<<dim3((w + HX - 1) / HX, (h + HY - 1) / HY), dim3(HX, HY), 0, s>>>(st.img.as<float>(), st.msk.as<float>(), w,
                                                                           h, st.nbx, st.nby, st.hi.as<float>());
    CUDA_CHECK_LAUNCH();
    crop_sumsq_kernel<<<1, 1024, 0, s>>>(st.hi.as<float>(), w, h, st.sums.as<double>());
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK_THROW(cudaEventRecord(ev_[2].get(), s));
    // 2.1 log-Gabor bank: forward FFT of both images, 40 products, one batched inverse
    to_complex_kernel<<<grid_for(2 * n), kThreads, 0, s>>>(st.img.as<float>(), st.work.as<float2>(), 2 * n, 0);
    CUDA_CHECK_LAUNCH();
    st.plan2->exec(st.work.get(), st.spec.get(), CUFFT_FORWARD);
    gabor_mul_kernel<<<dim3(grid_for(n), 2 * mad::kResponses), kThreads, 0, s>>>(st.spec.as<float2>(), st.gabor.as<float>(),
                                                                          st.resp.as<float2>(), n);
    CUDA_CHECK_LAUNCH();
    st.plan40->exec(st.resp.get(), st.resp.get(), CUFFT_INVERSE);
    CUDA_CHECK_THROW(cudaEventRecord(ev_[3].get(), s));
    // 2.2 statistics (fused reads |EO| straight from the complex responses)
    const int planes = 2 * mad::kResponses;
    if (sk == MadStatsKernel::Fused) {
      detail::launch_mad_block_stats(sk, nullptr, st.resp.get(), inv_n, w, h, planes, st.stats.as<float>(), s);
    } else {
      magnitude_kernel<<<grid_for(planes * n), kThreads, 0, s>>>(st.resp.as<float2>(), st.mag.as<float>(), inv_n,
                                                             planes * n);
      CUDA_CHECK_LAUNCH();
      detail::launch_mad_block_stats(sk, st.mag.as<float>(), nullptr, 1.f, w, h, planes, st.stats.as<float>(), s);
    }
    CUDA_CHECK_THROW(cudaEventRecord(ev_[4].get(), s));
    // 2.3-2.4 LO and its RMS
    lo_blocks_kernel<<<grid_for(nb), kThreads, 0, s>>>(st.stats.as<float>(), static_cast<int>(nb), st.lo_blocks.as<float>());
    CUDA_CHECK_LAUNCH();
    expand_kernel<<<g2, t2, 0, s>>>(st.lo_blocks.as<float>(), w, h, st.nbx, st.nby, st.lo.as<float>());
    CUDA_CHECK_LAUNCH();
    crop_sumsq_kernel<<<1, 1024, 0, s>>>(st.lo.as<float>(), w, h, st.sums.as<double>() + 1);
    CUDA_CHECK_LAUNCH();
    double sums[2] = {0, 0};
    CUDA_CHECK_THROW(cudaMemcpyAsync(sums, st.sums.get(), sizeof sums, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaEventRecord(ev_[5].get(), s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));

    MadResult r;
    r.width = w;
    r.height = h;
    r.cropped_odd = w != ref.width || h != ref.height;
    r.variant = variant;
    const double count = static_cast<double>(mad::crop_hi(w) - mad::crop_lo() + 1) * (mad::crop_hi(h) - mad::crop_lo() + 1);
    r.d_detect = 200.0 * std::sqrt(sums[0] / count);
    r.d_appear = std::sqrt(sums[1] / count);
    r.mad = mad::combine(r.d_detect, r.d_appear);
    timings_.record("mad/csf", elapsed(ev_[0], ev_[1]));
    timings_.record("mad/detect", elapsed(ev_[1], ev_[2]));
    timings_.record("mad/gabor", elapsed(ev_[2], ev_[3]));
    // statistics: read 40 complex (fused) or float maps once, write 3 floats per block and plane
    // (fused: complex read once; others: the magnitude pass reads 8 and writes 4 bytes per
    // sample, the statistics read 4 more)
    const std::uint64_t stat_bytes = static_cast<std::uint64_t>(planes) *
                                     (n * (sk == MadStatsKernel::Fused ? 8 : 16) + nb * 12);
    timings_.record("mad/stats/" + variant, elapsed(ev_[3], ev_[4]), stat_bytes);
    r.ms = elapsed(ev_[0], ev_[5]);
    timings_.record("mad/total", r.ms);
    if (o.keep_maps) {
      std::vector<float> buf(n);
      for (int k = 0; k < 2; ++k) {
        CUDA_CHECK_THROW(cudaMemcpy(buf.data(), (k == 0 ? st.hi : st.lo).get(), n * sizeof(float), cudaMemcpyDeviceToHost));
        ImageD& m = k == 0 ? r.hi : r.lo;
        m.reset(w, h, 1);
        std::copy(buf.begin(), buf.end(), m.data.begin());
      }
    }
    return r;
  }

  // The HI / LO maps stay on the device (run_keep downloads none); map_to_surface writes
  // them straight into the surface (a registered GL texture: CUDA-GL interop).
  MadResult run_keep(const ImageD& ref, const ImageD& dst, const std::string& variant, const MadOptions& o) override {
    MadOptions device_only = o;
    device_only.keep_maps = false;
    last_ = run(ref, dst, variant, device_only);
    last_state_ = &state(last_.width, last_.height);
    has_last_ = true;
    return last_;
  }
  void map_to_surface(bool hi, Surface& out) override {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    detail::write_surface_r32f(out, map_plane(hi), stream_->get(), &staging_);
  }
  // Sorted on the device (a copy; radix sort), one value read back.
  float map_quantile(bool hi, double q) override {
    CUDA_CHECK_THROW(cudaSetDevice(device_));
    const detail::DeviceFloatPlane m = map_plane(hi);
    const std::size_t n = static_cast<std::size_t>(m.width) * m.height;
    const cudaStream_t s = stream_->get();
    thrust::device_vector<float> v(thrust::device_pointer_cast(m.ptr), thrust::device_pointer_cast(m.ptr) + n);
    thrust::sort(thrust::cuda::par.on(s), v.begin(), v.end());
    const std::size_t k = std::min(n - 1, static_cast<std::size_t>(static_cast<double>(n) * q));
    float x = 0;
    CUDA_CHECK_THROW(cudaMemcpyAsync(&x, thrust::raw_pointer_cast(v.data()) + k, 4, cudaMemcpyDeviceToHost, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    return x;
  }

 private:
  detail::DeviceFloatPlane map_plane(bool hi) const {
    LB_REQUIRE(has_last_ && last_state_ != nullptr, "MAD: no maps computed yet");
    detail::DeviceFloatPlane p;
    p.ptr = (hi ? last_state_->hi : last_state_->lo).as<float>();
    p.width = last_.width;
    p.height = last_.height;
    p.pitch = static_cast<std::size_t>(p.width) * 4;
    return p;
  }
  const SizeState* last_state_ = nullptr;  // the buffers of the last run_keep
  detail::PitchedBuffer staging_;
  SizeState& state(int w, int h) {
    const auto key = std::make_pair(w, h);
    auto it = states_.find(key);
    if (it == states_.end()) {
      if (states_.size() >= 3) {  // a few sizes resident at a time
        states_.clear();
        last_state_ = nullptr;
        has_last_ = false;
      }
      it = states_.emplace(key, std::make_unique<SizeState>(w, h, stream_->get())).first;
    }
    return *it->second;
  }
  int device_;
  DeviceInfo info_;
  std::unique_ptr<Stream> stream_;
  std::vector<Event> ev_;  // created after the device checks
  std::vector<float> host_;
  std::map<std::pair<int, int>, std::unique_ptr<SizeState>> states_;
};

}  // namespace

std::vector<std::string> mad_stats_variants() { return {"gather", "shared", "shared_nc", "fused"}; }

std::unique_ptr<MadEngine> make_mad_engine_cuda(int device) { return std::make_unique<MadCuda>(device); }

std::vector<std::vector<mad_cpu_detail::BlockStatsD>> mad_block_stats_cuda(const std::vector<float>& planes, int w,
                                                                            int h, int nplanes,
                                                                            const std::string& variant) {
  const MadStatsKernel k = detail::parse_mad_stats_kernel(variant);
  LB_REQUIRE(w >= 16 && h >= 16 && nplanes >= 1 && planes.size() == static_cast<std::size_t>(w) * h * nplanes,
             "mad statistics: planes must hold nplanes x w x h floats (w, h >= 16)");
  const DeviceInfo info = device_info(0);
  if (!info.available) throw Error("CUDA MAD statistics: " + info.why);
  const std::size_t nb = static_cast<std::size_t>(mad::block_count(w)) * mad::block_count(h);
  DeviceBuffer in(planes.size() * sizeof(float)), out(nplanes * nb * 3 * sizeof(float));
  CUDA_CHECK_THROW(cudaMemcpy(in.get(), planes.data(), planes.size() * sizeof(float), cudaMemcpyHostToDevice));
  detail::launch_mad_block_stats(k, in.as<float>(), nullptr, 1.f, w, h, nplanes, out.as<float>(), nullptr);
  std::vector<float> host(nplanes * nb * 3);
  CUDA_CHECK_THROW(cudaMemcpy(host.data(), out.get(), host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<std::vector<mad_cpu_detail::BlockStatsD>> res(nplanes, std::vector<mad_cpu_detail::BlockStatsD>(nb));
  for (int p = 0; p < nplanes; ++p)
    for (std::size_t b = 0; b < nb; ++b) {
      const float* v = host.data() + (p * nb + b) * 3;
      res[p][b] = {v[0], v[1], v[2]};
    }
  return res;
}

}  // namespace lb::cuda
