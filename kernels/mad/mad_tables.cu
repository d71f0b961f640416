// What both MAD pipelines share (kernels/mad/mad_pipeline.hpp): filter tables, the luminance LUT,
// the magnitude pass, the cuFFT plan owner and the per-stage clock.
#include <cufftXt.h>

#include <cstring>

#include "cuda_check.cuh"
#include "mad/mad_math.hpp"
#include "mad_callbacks_fatbin.h"  // generated: lb_mad_callbacks_fatbin (kernels/CMakeLists.txt)
#include "mad/mad_pipeline.hpp"

#define CUFFT_CHECK_THROW(x)                                                                  \
  do {                                                                                        \
    const cufftResult lb_cufft_result_ = (x);                                                 \
    if (lb_cufft_result_ != CUFFT_SUCCESS)                                                    \
      ::lb::throw_at(__FILE__, __LINE__, std::string(#x) + ": cuFFT error " +                 \
                                             std::to_string(static_cast<int>(lb_cufft_result_))); \
  } while (0)

namespace lb::cuda::detail {

namespace {

constexpr int kThreads = 256;
inline unsigned grid_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

__global__ void mad_fill_csf_kernel(float* csf, int M, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * N) return;
  csf[i] = static_cast<float>(mad::csf<double>(i / N, i % N, M, N));
}

// The CSF is not symmetric under f -> -f (its grid is offset by half a bin), so the inverse
// of X.C is complex; the detection stage reads only its real part, which is the inverse of
// X.Ce with Ce(f) = (C(f) + C(-f)) / 2 (X Hermitian: X.Co inverts to an imaginary image).
// X.Ce is Hermitian, so a C2R gives that real part directly.
__global__ void mad_fill_csf_even_half_kernel(float* csf, int M, int N) {
  const int NH = N / 2 + 1;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M * NH) return;
  const int r = i / NH, c = i % NH;
  const double a = mad::csf<double>(r, c, M, N), b = mad::csf<double>((M - r) % M, (N - c) % N, M, N);
  csf[i] = static_cast<float>(0.5 * (a + b));
}

__global__ void mad_fill_gabor_kernel(float* g, int M, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = blockIdx.y;
  if (i >= M * N) return;
  g[static_cast<size_t>(k) * M * N + i] =
      static_cast<float>(mad::log_gabor<double>(k / mad::kOrients, k % mad::kOrients, i / N, i % N, M, N));
}

__global__ void mad_magnitude_kernel(const float2* __restrict__ c, float* m, float scale, size_t count) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float2 v = c[i];
  m[i] = sqrtf(v.x * v.x + v.y * v.y) * scale;
}

}  // namespace

void launch_fill_csf(float* csf, int h, int w, cudaStream_t s) {
  const std::size_t n = static_cast<std::size_t>(w) * h;
  mad_fill_csf_kernel<<<grid_for(n), kThreads, 0, s>>>(csf, h, w);
  CUDA_CHECK_LAUNCH();
}

void launch_fill_csf_even_half(float* csf, int h, int w, cudaStream_t s) {
  const std::size_t n = static_cast<std::size_t>(w / 2 + 1) * h;
  mad_fill_csf_even_half_kernel<<<grid_for(n), kThreads, 0, s>>>(csf, h, w);
  CUDA_CHECK_LAUNCH();
}

void launch_fill_gabor(float* gabor, int h, int w, cudaStream_t s) {
  const std::size_t n = static_cast<std::size_t>(w) * h;
  mad_fill_gabor_kernel<<<dim3(grid_for(n), mad::kResponses), kThreads, 0, s>>>(gabor, h, w);
  CUDA_CHECK_LAUNCH();
}

void upload_luminance_lut(DeviceBuffer& lut) {
  float host[256];
  for (int i = 0; i < 256; ++i) host[i] = static_cast<float>(mad::luminance<double>(mad::lut_index_8bit(i)));
  lut.allocate(sizeof host, "the MAD luminance table");
  CUDA_CHECK_THROW(cudaMemcpy(lut.get(), host, sizeof host, cudaMemcpyHostToDevice));
}

void launch_magnitude(const float2* c, float* m, float scale, std::size_t count, cudaStream_t s) {
  mad_magnitude_kernel<<<grid_for(count), kThreads, 0, s>>>(c, m, scale, count);
  CUDA_CHECK_LAUNCH();
}

MadFftPlan::MadFftPlan(int h, int w, int batch, cufftType type, cudaStream_t s) {
  int dims[2] = {h, w};
  const int real = h * w, half = h * (w / 2 + 1);
  plan_many(2, dims, type == CUFFT_C2R ? half : real, type == CUFFT_R2C ? half : real, type, batch, s);
}

void MadFftPlan::plan_many(int rank, int* dims, int idist, int odist, cufftType type, int batch, cudaStream_t s) {
  batch_ = batch;
  // The plan's work area counts against the device limit (cuda_util.hpp) like a buffer.
  std::size_t work = 0;
  if (cufftEstimateMany(rank, dims, nullptr, 1, idist, nullptr, 1, odist, type, batch, &work) != CUFFT_SUCCESS)
    work = 0;
  device_reserve(work, "the cuFFT plan");
  const cufftResult r = cufftPlanMany(&plan_, rank, dims, nullptr, 1, idist, nullptr, 1, odist, type, batch);
  if (r != CUFFT_SUCCESS) {
    device_unreserve(work);
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

MadFftPlan::MadFftPlan(int h, int w, int batch, cudaStream_t s, void* load_info, void* store_info) : batch_(batch) {
  int dims[2] = {h, w};
  const int dist = h * w;
  std::size_t work = 0;
  if (cufftEstimateMany(2, dims, nullptr, 1, dist, nullptr, 1, dist, CUFFT_C2C, batch, &work) != CUFFT_SUCCESS) work = 0;
  device_reserve(work, "the cuFFT plan");
  const char* step = "cufftCreate";
  cufftResult r = cufftCreate(&plan_);
  const bool created = r == CUFFT_SUCCESS;
  if (r == CUFFT_SUCCESS) {
    step = "cufftXtSetJITCallback (load)";
    r = cufftXtSetJITCallback(plan_, "lb_mad_gabor_load", lb_mad_callbacks_fatbin, sizeof lb_mad_callbacks_fatbin,
                              CUFFT_CB_LD_COMPLEX, &load_info);
  }
  if (r == CUFFT_SUCCESS) {
    step = "cufftXtSetJITCallback (store)";
    r = cufftXtSetJITCallback(plan_, "lb_mad_mag_store", lb_mad_callbacks_fatbin, sizeof lb_mad_callbacks_fatbin,
                              CUFFT_CB_ST_COMPLEX, &store_info);
  }
  std::size_t made = 0;
  if (r == CUFFT_SUCCESS) {
    step = "cufftMakePlanMany";
    r = cufftMakePlanMany(plan_, 2, dims, nullptr, 1, dist, nullptr, 1, dist, CUFFT_C2C, batch, &made);
  }
  if (r == CUFFT_SUCCESS) r = cufftSetStream(plan_, s);
  if (r != CUFFT_SUCCESS) {
    if (created) cufftDestroy(plan_);
    plan_ = 0;
    device_unreserve(work);
    (void)cudaGetLastError();
    throw Error(std::string("MAD r2c with cuFFT callbacks: ") + step + " failed (cuFFT error " +
                std::to_string(static_cast<int>(r)) + "; JIT callbacks need libnvJitLink at run time)");
  }
  work_ = work;
}

std::unique_ptr<MadFftPlan> MadFftPlan::rows_c2c(int w, int rows, cudaStream_t s) {
  auto p = std::unique_ptr<MadFftPlan>(new MadFftPlan());
  int n[1] = {w};
  p->plan_many(1, n, w, w, CUFFT_C2C, rows, s);  // basic layout: contiguous rows
  return p;
}

MadFftPlan::~MadFftPlan() {
  if (plan_) {
    cufftDestroy(plan_);
    device_unreserve(work_);
  }
}

void MadFftPlan::c2c(void* in, void* out, int dir) {
  CUFFT_CHECK_THROW(cufftExecC2C(plan_, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out), dir));
}
void MadFftPlan::r2c(float* in, float2* out) {
  CUFFT_CHECK_THROW(cufftExecR2C(plan_, in, reinterpret_cast<cufftComplex*>(out)));
}
void MadFftPlan::c2r(float2* in, float* out) {
  CUFFT_CHECK_THROW(cufftExecC2R(plan_, reinterpret_cast<cufftComplex*>(in), out));
}

MadStageClock::MadStageClock() = default;

void MadStageClock::start(cudaStream_t s) {
  nmarks_ = 0;
  nstreams_ = 1;
  streams_[0] = s;
  last_[0] = 0;
  CUDA_CHECK_THROW(cudaEventRecord(events_[0].get(), s));
  mark_names_[0] = nullptr;
  mark_bytes_[0] = 0;
  prev_[0] = 0;
  nmarks_ = 1;
}

int MadStageClock::last_on(cudaStream_t s) const {
  for (int k = 0; k < nstreams_; ++k)
    if (streams_[k] == s) return last_[k];
  throw Error("MAD stage clock: a mark on a stream that was neither started nor forked");
}

void MadStageClock::mark(const char* stage, std::uint64_t bytes, cudaStream_t s) {
  if (nmarks_ >= kMaxMarks) throw Error("MAD stage clock: more than 128 marks in one call");
  prev_[nmarks_] = last_on(s);
  CUDA_CHECK_THROW(cudaEventRecord(events_[nmarks_].get(), s));
  mark_names_[nmarks_] = stage;
  mark_bytes_[nmarks_] = bytes;
  for (int k = 0; k < nstreams_; ++k)
    if (streams_[k] == s) last_[k] = nmarks_;
  ++nmarks_;
}

void MadStageClock::fork(cudaStream_t from, cudaStream_t to) {
  const int m = last_on(from);
  CUDA_CHECK_THROW(cudaStreamWaitEvent(to, events_[m].get(), 0));
  int k = 0;
  while (k < nstreams_ && streams_[k] != to) ++k;
  if (k == nstreams_) {
    if (nstreams_ >= kMaxStreams) throw Error("MAD stage clock: more than 4 streams");
    streams_[nstreams_++] = to;
  }
  last_[k] = m;
}

void MadStageClock::join(cudaStream_t from, cudaStream_t to) {
  CUDA_CHECK_THROW(cudaStreamWaitEvent(to, events_[last_on(from)].get(), 0));
}

void MadStageClock::collect() {
  nstages_ = 0;
  for (int i = 1; i < nmarks_; ++i) {
    float ms = 0;
    CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, events_[prev_[i]].get(), events_[i].get()));
    int k = 0;
    while (k < nstages_ && std::strcmp(names_[k], mark_names_[i]) != 0) ++k;
    if (k == nstages_) {
      if (nstages_ >= kMaxStages) throw Error("MAD stage clock: more than 16 stages");
      names_[k] = mark_names_[i];
      ms_[k] = 0;
      bytes_[k] = 0;
      ++nstages_;
    }
    ms_[k] += ms;
    bytes_[k] += mark_bytes_[i];
  }
}

double MadStageClock::ms_from(const char* after) const {
  int from = 0;
  if (after)
    for (int i = 1; i < nmarks_; ++i)
      if (std::strcmp(mark_names_[i], after) == 0) from = i;
  if (nmarks_ < 2) return 0;
  float ms = 0;
  CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, events_[from].get(), events_[nmarks_ - 1].get()));
  return ms;
}

int mad_auto_batch_planes(int w, int h, std::size_t l2_bytes) {
  const std::size_t plane = static_cast<std::size_t>(w) * h * 8;  // one complex response
  const int divisors[] = {40, 20, 10, 8, 4, 2};  // even divisors of 40, largest first
  for (int k : divisors)
    if (k * plane <= l2_bytes / 2) return k;
  return 2 * mad::kResponses;  // even 2 planes overflow: one batch, fewest launches
}

}  // namespace lb::cuda::detail
