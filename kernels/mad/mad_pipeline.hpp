#pragma once
// Internal to lb_kernels: the two device pipelines of the CUDA MAD engine (kernels/mad/mad.cu)
// and what they share: a cuFFT plan that counts its work area against the device limit, the
// per-stage clock (CUDA events) and the filter-table launchers (kernels/mad/mad_tables.cu).
//   r2c (kernels/mad/mad_r2c.cu, the default): one batch-4 R2C forward of the raw and luminance
//       images, the CSF as its even part on the half spectrum + C2R, the detection stage in
//       one kernel, the log-Gabor products formed from the half spectrum and inverted in
//       L2-sized batches, each batch's statistics read straight after its inverse.
//   c2c (kernels/mad/mad_c2c.cu): the previous pipeline (complex transforms of both paths, one
//       batch-40 inverse), kept for comparison (tests, `bench mad`).
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuda_util.hpp"
#include "lightbench/engines/cuda.hpp"  // MadInverse
#include "mad/mad_launch.hpp"

namespace lb::cuda::detail {

class MadFftPlan {
 public:
  // A batch of `batch` contiguous h x w transforms; R2C / C2R use the half spectrum
  // h x (w/2 + 1) on the complex side.
  MadFftPlan(int h, int w, int batch, cufftType type, cudaStream_t s);
  // C2C with the r2c pipeline's JIT callbacks (mad_callbacks.cu): load = the log-Gabor
  // product, store = |EO| * scale as float; load_info / store_info: device pointers to
  // MadGaborLoadInfo / MadMagStoreInfo. Throws a one-line lb::Error when cuFFT cannot link them.
  MadFftPlan(int h, int w, int batch, cudaStream_t s, void* load_info, void* store_info);
  // `rows` contiguous 1D C2C transforms of length w (the row inverses after MadColumnPass).
  static std::unique_ptr<MadFftPlan> rows_c2c(int w, int rows, cudaStream_t s);
  ~MadFftPlan();
  MadFftPlan(const MadFftPlan&) = delete;
  MadFftPlan& operator=(const MadFftPlan&) = delete;
  void c2c(void* in, void* out, int dir);
  void r2c(float* in, float2* out);
  void c2r(float2* in, float* out);  // overwrites `in` (cuFFT)
  int batch() const { return batch_; }

 private:
  MadFftPlan() = default;
  // Plans `batch` contiguous transforms (basic layout) on stream s, its work area counted
  // against the device limit; an allocation failure throws the device's one-line OOM message.
  void plan_many(int rank, int* dims, int idist, int odist, cufftType type, int batch, cudaStream_t s);
  cufftHandle plan_ = 0;
  std::size_t work_ = 0;
  int batch_ = 0;
};

// The r2c pipeline's fused column pass (kernels/mad/mad_colfft.cu): for `planes` response planes
// from r0 (plane q: response r0 + q / 2 of image q % 2), the products of the half spectra and
// the log-Gabor table, inverted along y (unnormalised, exponent +) and written row-major to
// resp + q w h; a batched row C2C (MadFftPlan::rows_c2c) completes each 2D inverse.
class MadColumnPass {
 public:
  static constexpr int kMaxStages = 24;
  // nullptr where h is not a product of 2, 3, 5 and 7 or two blocks' shared memory do not fit
  // an SM (the caller keeps the cuFFT 2D inverse). gabor: the 20 row-major log-Gabor planes
  // (launch_fill_gabor), copied tile-major on stream s (the caller may free them after s).
  // columns: per block, 4 or 8; 0 = automatic.
  static std::unique_ptr<MadColumnPass> make(int w, int h, const float* gabor, cudaStream_t s, int columns = 0);
  void run(const float2* half, float2* resp, int r0, int planes, cudaStream_t s) const;
  std::string describe() const;

 private:
  MadColumnPass() = default;
  int w_ = 0, h_ = 0, cols_ = 0;
  std::size_t smem_ = 0;
  std::vector<int> radices_;
  DeviceBuffer tw_;  // exp(+2 pi i k / h), k < h
  DeviceBuffer tg_;  // the log-Gabor table, tile-major
};
// The radices (2-10, 12, 15, 16), ascending, of an n-point column transform with `cols`
// columns a block: the fewest rounds of the block's threads over the stages (kernels/
// mad_colfft.cu); empty when n has a prime factor past 7.
std::vector<int> mad_column_radices(int n, int cols = 4);

// Per-stage device times of one call: mark(stage) records an event that ends `stage` (the
// time since the previous mark); a stage marked several times (one per batch) adds up.
// Events are made once; a call allocates nothing.
class MadStageClock {
 public:
  static constexpr int kMaxMarks = 128;
  static constexpr int kMaxStages = 16;
  MadStageClock();
  void start(cudaStream_t s);
  // A stage ends on stream s: its time runs from the previous mark on s (start, fork).
  void mark(const char* stage, std::uint64_t bytes, cudaStream_t s);
  // Stream `to` waits for the last mark on `from` (fork: its first stage is timed from there;
  // join: `from`'s work is done before `to`'s next stage, whose time includes the wait).
  void fork(cudaStream_t from, cudaStream_t to);
  void join(cudaStream_t from, cudaStream_t to);
  // After the stream has finished: per-stage sums in order of first appearance.
  void collect();
  int stages() const { return nstages_; }
  const char* name(int i) const { return names_[i]; }
  double ms(int i) const { return ms_[i]; }
  std::uint64_t bytes(int i) const { return bytes_[i]; }
  // From the end of `after` (nullptr: the start) to the last mark.
  double ms_from(const char* after) const;

 private:
  int last_on(cudaStream_t s) const;  // the last mark on s (throws when s has none)
  Event events_[kMaxMarks];
  int prev_[kMaxMarks] = {};  // the mark each stage is timed from
  static constexpr int kMaxStreams = 4;
  cudaStream_t streams_[kMaxStreams] = {};
  int last_[kMaxStreams] = {};
  int nstreams_ = 0;
  const char* mark_names_[kMaxMarks] = {};
  std::uint64_t mark_bytes_[kMaxMarks] = {};
  int nmarks_ = 0;
  const char* names_[kMaxStages] = {};
  double ms_[kMaxStages] = {};
  std::uint64_t bytes_[kMaxStages] = {};
  int nstages_ = 0;
};

// One image size of one pipeline: plans, tables and buffers resident.
class MadPipeline {
 public:
  virtual ~MadPipeline() = default;
  // 2 w h floats, pinned: the reference then the distorted gray values (the engine fills it).
  virtual float* host_input() = 0;
  // Uploads, runs the metric, waits; sums = the cropped sums of squares of HI and LO.
  virtual void run(MadStatsKernel k, bool eight_bit, MadStageClock& clock, cudaStream_t s, double sums[2]) = 0;
  virtual const float* hi() const = 0;  // w x h on the device
  virtual const float* lo() const = 0;
  // Kernel launches (cuFFT executions count one each) of the last run.
  int launches() const { return launches_; }
  virtual std::string describe() const = 0;

 protected:
  int launches_ = 0;
};

// batch_planes: responses inverted per cuFFT batch (an even divisor of 40; 0: the largest
// whose complex planes take at most half the L2, or 40 when even 2 do not fit). callbacks:
// the products and magnitudes inside the inverse (cuFFT JIT callbacks), one batch of 40.
// inverse: lightbench/engines/cuda.hpp (MadInverse); the column pass falls back to the cuFFT 2D
// inverses where MadColumnPass::make gives none.
std::unique_ptr<MadPipeline> make_mad_pipeline_r2c(int w, int h, int batch_planes, bool callbacks, MadInverse inverse,
                                                   cudaStream_t s);
// MadInverse::Auto's choice: the column pass when two complex w x h planes take more than half
// the L2.
bool mad_auto_column_pass(int w, int h, std::size_t l2_bytes);
std::unique_ptr<MadPipeline> make_mad_pipeline_c2c(int w, int h, cudaStream_t s);
int mad_auto_batch_planes(int w, int h, std::size_t l2_bytes);

// Pinned host memory owner.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t bytes, const char* what) { host_pinned_alloc(&p_, bytes, what); }
  ~PinnedBuffer() {
    if (p_) CUDA_CHECK_PRINT(cudaFreeHost(p_));
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& o) noexcept { std::swap(p_, o.p_); }
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  void* get() const { return p_; }
  template <class T> T* as() const { return static_cast<T*>(p_); }

 private:
  void* p_ = nullptr;
};

// Filter tables (kernels/mad/mad_tables.cu), computed in double, stored as float.
void launch_fill_csf(float* csf, int h, int w, cudaStream_t s);              // h x w, unshifted
void launch_fill_csf_even_half(float* csf, int h, int w, cudaStream_t s);    // h x (w/2+1): (C(f)+C(-f))/2
void launch_fill_gabor(float* gabor, int h, int w, cudaStream_t s);          // 20 planes h x w
// 256 floats: the 8-bit luminance LUT (with the 255 -> 254 quirk) on the device.
void upload_luminance_lut(DeviceBuffer& lut);
// |c| * scale of `count` complex samples (the non-fused statistics variants' input).
void launch_magnitude(const float2* c, float* m, float scale, std::size_t count, cudaStream_t s);

}  // namespace lb::cuda::detail
