// The CUDA MAD pipeline "r2c" (kernels/mad/mad_pipeline.hpp), per call:
//   lum      the R2C input: both raw images and their luminance (LUT or power law)
//   fwd      one batch-4 R2C: raw ref, raw dst, luminance ref, luminance dst (half spectra;
//            the real inputs make the other half redundant: half the work and bytes of C2C)
//   csf_inv  luminance spectra times the CSF's even part (in place), batch-2 C2R: the real
//            part the detection stage reads (mad_tables.cu says why that is exact)
//   detect   one kernel: 4x4-cell moments of the CSF images -> the masking of its blocks
//            (merged cells, as the fused statistics do), the 16x16 local MSE, HI and the
//            tile's cropped sum of squares (the three kernels and the one-block reduction of c2c)
//   per batch of B responses (B: mad_auto_batch_planes, sized to stay in L2):
//     gabor_mul  B products from the half spectra (the other half by Hermitian symmetry; the
//                log-Gabor filters are one-sided, so the products are not Hermitian)
//     gabor_inv  batch-B C2C inverse in place (the responses are complex: MAD uses |EO|)
//     stats      the statistics of those B planes, read while they are in L2
//   with callbacks (cuFFT JIT, kernels/mad/mad_callbacks.cu): no gabor_mul; one batch-40 inverse
//            whose load forms the products and whose store writes |EO| as float, then the
//            statistics of the 40 float planes
//   combine  LO per 4x4 cell written to its pixels with the tile's cropped sum of squares;
//            the last block adds the tile sums of HI and LO (deterministic order), one launch
//   csf_inv and detect run on a second stream beside gabor_mul .. stats (independent after
//   fwd; at small sizes neither branch fills the GPU)
#include <cmath>

#include "cuda_check.cuh"
#include "mad/mad_math.hpp"
#include "mad/mad_callback_info.hpp"
#include "mad/mad_local_mse.cuh"
#include "mad/mad_pipeline.hpp"

namespace lb::cuda::detail {

namespace {

constexpr int kThreads = 256;
inline unsigned grid_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// The transform's input: a copy of the raw images, then their luminance (cuFFT does not
// promise to keep the input of a real transform, and the detection stage reads the raw images).
__global__ void mad_lum_kernel(const float* __restrict__ raw, float* real4, size_t count, int eight_bit,
                               const float* __restrict__ lut) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float v = raw[i];
  real4[i] = v;
  real4[count + i] = eight_bit ? lut[static_cast<int>(v)] : mad::luminance<float>(v);
}

__global__ void mad_csf_mul_kernel(float2* spec, const float* __restrict__ csf, size_t nh, size_t count) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const float f = csf[i % nh];
  float2 v = spec[i];
  v.x *= f;
  v.y *= f;
  spec[i] = v;
}

// Count, mean and centred sum of squares of a sample set; merge = mad::merge's first moments.
struct Mom2 {
  float n, mean, m2;
};
__device__ __forceinline__ Mom2 merge2(const Mom2& a, const Mom2& b) {
  Mom2 r;
  r.n = a.n + b.n;
  const float d = b.mean - a.mean, dn = d / r.n;
  r.mean = a.mean + dn * b.n;
  r.m2 = a.m2 + b.m2 + d * dn * a.n * b.n;
  return r;
}
__device__ __forceinline__ Mom2 merge4(const Mom2* c) { return merge2(merge2(c[0], c[1]), merge2(c[2], c[3])); }

__device__ __forceinline__ bool in_crop(int x, int y, int w, int h) {
  return x >= mad::crop_lo() && x <= mad::crop_hi(w) && y >= mad::crop_lo() && y <= mad::crop_hi(h);
}

// Tile sum of 256 doubles in shared memory, fixed order; thread 0 writes it.
__device__ __forceinline__ void block_sum_256(double* red, double v, double* out) {
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  red[tid] = v;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (tid < k) red[tid] += red[tid + k];
    __syncthreads();
  }
  if (tid == 0) *out = red[0];
}

// 1.3-1.6 in one pass. A tile of DCX x DCY mask cells (DPX x DPY pixels): the moments of
// its (DCX+3) x (DCY+3) 4x4 cells of the CSF images (ref and error dst - ref), each block's
// masking from its 16 cells (std_E, mean_R) and the 2x2-cell 8x8 candidates (std_R); the
// squared raw errors of the (DPX+15) x (DPY+15) footprint, summed 16 along rows then columns
// (the local MSE, symmetric border: mad_local_mse.cuh); HI = mask x MSE and the tile's
// cropped sum of squares.
constexpr int DCX = 8, DCY = 4, DPX = DCX * 4, DPY = DCY * 4;
__global__ void __launch_bounds__(256)
    mad_detect_kernel(const float* __restrict__ filt, const float* __restrict__ img, float scale, int w, int h, int nbx,
                      int nby, float* hi, double* partial) {
  __shared__ Mom2 cr[DCY + 3][DCX + 3], ce[DCY + 3][DCX + 3];
  __shared__ float msk[DCY][DCX];
  __shared__ LocalMseTile<DPX, DPY> tile;
  __shared__ double red[256];
  const int tid = threadIdx.x;
  const int cx0 = blockIdx.x * DCX, cy0 = blockIdx.y * DCY;
  const size_t n = static_cast<size_t>(w) * h;
  for (int c = tid; c < (DCX + 3) * (DCY + 3); c += 256) {
    const int cx = c % (DCX + 3), cy = c / (DCX + 3);
    const int gx = (cx0 + cx) * 4, gy = (cy0 + cy) * 4;
    Mom2 mr{16.f, 0.f, 0.f}, me{16.f, 0.f, 0.f};
    if (gx + 4 <= w && gy + 4 <= h) {  // else never used by a valid block
      float r[16], e[16], sr = 0.f, se = 0.f;
#pragma unroll
      for (int k = 0; k < 16; ++k) {
        const size_t p = static_cast<size_t>(gy + k / 4) * w + gx + k % 4;
        const float a = filt[p] * scale, b = filt[n + p] * scale;
        r[k] = a;
        e[k] = b - a;
        sr += a;
        se += e[k];
      }
      mr.mean = sr / 16.f;
      me.mean = se / 16.f;
#pragma unroll
      for (int k = 0; k < 16; ++k) {
        const float dr = r[k] - mr.mean, de = e[k] - me.mean;
        mr.m2 += dr * dr;
        me.m2 += de * de;
      }
    }
    cr[cy][cx] = mr;
    ce[cy][cx] = me;
  }
  stage_squared_errors<DPX, DPY, 256>(tile, img, w, h, cx0 * 4 - 7, cy0 * 4 - 7, tid);
  __syncthreads();
  if (tid < DCX * DCY) {
    const int lx = tid % DCX, ly = tid / DCX, bx = cx0 + lx, by = cy0 + ly;
    float m = 0.f;
    if (bx < nbx && by < nby) {
      Mom2 rr[4], re[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        rr[k] = merge4(&cr[ly + k][lx]);
        re[k] = merge4(&ce[ly + k][lx]);
      }
      const Mom2 R = merge4(rr), E = merge4(re);
      const float std_e = sqrtf(E.m2 / 255.f);
      float std_r = INFINITY;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int oy = q & 1, ox = q >> 1;
        if (!mad::std_r_candidate_used(by * 4 + oy * 4, bx * 4 + ox * 4, q, h, w)) continue;
        const Mom2 a = merge2(merge2(cr[ly + oy][lx + ox], cr[ly + oy][lx + ox + 1]),
                              merge2(cr[ly + oy + 1][lx + ox], cr[ly + oy + 1][lx + ox + 1]));
        std_r = fminf(std_r, sqrtf(a.m2 / 63.f));
      }
      m = mad::masking<float>(std_r, R.mean, std_e);
    }
    msk[ly][lx] = m;
  }
  sum_rows16<DPX, DPY, 256>(tile, tid);
  __syncthreads();
  double acc = 0;
  for (int k = tid; k < DPX * DPY; k += 256) {
    const int lx = k % DPX, ly = k / DPX, x = cx0 * 4 + lx, y = cy0 * 4 + ly;
    if (x >= w || y >= h) continue;
    const float v = msk[ly / 4][lx / 4] * local_mse(tile, lx, ly);
    hi[static_cast<size_t>(y) * w + x] = v;
    if (in_crop(x, y, w, h)) acc += static_cast<double>(v) * v;
  }
  block_sum_256(red, acc, partial + blockIdx.y * gridDim.x + blockIdx.x);
}

// 2.1 responses r0..r1-1 of both images: plane 2 (r - r0) + image = spectrum .* filter r,
// the spectrum read from the R2C half (column x > w/2: conj of the mirrored bin).
__global__ void mad_gabor_half_mul_kernel(const float2* __restrict__ half, const float* __restrict__ gabor,
                                          float2* resp, int w, int h, int r0, int r1) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  const int wh = w / 2 + 1;
  const size_t nh = static_cast<size_t>(h) * wh, n = static_cast<size_t>(w) * h;
  float2 a, b;
  if (x < wh) {
    const size_t j = static_cast<size_t>(y) * wh + x;
    a = half[j];
    b = half[nh + j];
  } else {
    const size_t j = static_cast<size_t>((h - y) % h) * wh + (w - x);
    a = half[j];
    b = half[nh + j];
    a.y = -a.y;
    b.y = -b.y;
  }
  const size_t i = static_cast<size_t>(y) * w + x;
  for (int r = r0; r < r1; ++r) {
    const float g = gabor[static_cast<size_t>(r) * n + i];
    float2* o = resp + static_cast<size_t>(2 * (r - r0)) * n + i;
    o[0] = make_float2(a.x * g, a.y * g);
    o[n] = make_float2(b.x * g, b.y * g);
  }
}

// 2.3-2.4 one thread per 4x4 cell (cells past the blocks: 0): LO from the 40 planes'
// statistics, written to the cell's pixels, the tile's cropped sum of squares.
// LO per 4x4 cell written to its pixels and the tile's cropped sum of squares; the last block
// to finish (a counter, reset by it for the next call) then adds the tile sums of HI and LO
// in a fixed order (the result does not depend on scheduling): one launch instead of two.
__global__ void mad_lo_kernel(const float* __restrict__ st, int w, int h, int nbx, int nby, float* lo, double* partial,
                              const double* p_hi, int n_hi, unsigned* done, double* sums) {
  __shared__ double red[256];
  __shared__ bool last;
  const int cx = blockIdx.x * 16 + threadIdx.x, cy = blockIdx.y * 16 + threadIdx.y;
  double acc = 0;
  if (cx * 4 < w && cy * 4 < h) {
    float v = 0.f;
    if (cx < nbx && cy < nby) {
      const size_t nb = static_cast<size_t>(nbx) * nby, b = static_cast<size_t>(cy) * nbx + cx;
      for (int r = 0; r < mad::kResponses; ++r) {
        const float* a = st + (static_cast<size_t>(2 * r) * nb + b) * 3;
        const float* d = st + (static_cast<size_t>(2 * r + 1) * nb + b) * 3;
        v += mad::scale_weight<float>(r / mad::kOrients) *
             mad::appearance_term<float>({a[0], a[1], a[2]}, {d[0], d[1], d[2]});
      }
    }
    for (int y = cy * 4; y < cy * 4 + 4 && y < h; ++y)
      for (int x = cx * 4; x < cx * 4 + 4 && x < w; ++x) {
        lo[static_cast<size_t>(y) * w + x] = v;
        if (in_crop(x, y, w, h)) acc += static_cast<double>(v) * v;
      }
  }
  const int n_lo = static_cast<int>(gridDim.x * gridDim.y);
  block_sum_256(red, acc, partial + blockIdx.y * gridDim.x + blockIdx.x);
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid == 0) {
    __threadfence();  // this block's partial is visible before it counts itself done
    last = atomicAdd(done, 1u) == static_cast<unsigned>(n_lo - 1);
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  for (int which = 0; which < 2; ++which) {
    const double* p = which == 0 ? p_hi : partial;
    const int cnt = which == 0 ? n_hi : n_lo;
    double sum = 0;
    for (int i = tid; i < cnt; i += 256) sum += __ldcg(p + i);  // past L1: other blocks wrote them
    block_sum_256(red, sum, sums + which);
    __syncthreads();
  }
  if (tid == 0) *done = 0u;
}

class R2cPipeline final : public MadPipeline {
 public:
  R2cPipeline(int w_, int h_, int batch, bool callbacks, bool column_pass, cudaStream_t s)
      : w(w_), h(h_), B(batch), cb(callbacks) {
    n = static_cast<std::size_t>(w) * h;
    nh = static_cast<std::size_t>(w / 2 + 1) * h;
    nbx = mad::block_count(w);
    nby = mad::block_count(h);
    const std::size_t nb = static_cast<std::size_t>(nbx) * nby;
    det_grid = dim3((w + DPX - 1) / DPX, (h + DPY - 1) / DPY);
    lo_grid = dim3(((w + 3) / 4 + 15) / 16, ((h + 3) / 4 + 15) / 16);
    fwd = std::make_unique<MadFftPlan>(h, w, 4, CUFFT_R2C, s);
    csf_inv = std::make_unique<MadFftPlan>(h, w, 2, CUFFT_C2R, side_.get());
    img.allocate(2 * n * sizeof(float));
    real4.allocate(4 * n * sizeof(float));
    half4.allocate(4 * nh * sizeof(float2));
    csf.allocate(nh * sizeof(float));
    filt.allocate(2 * n * sizeof(float));
    gabor.allocate(mad::kResponses * n * sizeof(float));
    resp.allocate(B * n * sizeof(float2));
    mag.allocate(B * n * sizeof(float));
    stats.allocate(2 * mad::kResponses * nb * 3 * sizeof(float));
    hi_.allocate(n * sizeof(float));
    lo_.allocate(n * sizeof(float));
    part_hi.allocate(std::size_t{det_grid.x} * det_grid.y * sizeof(double));
    part_lo.allocate(std::size_t{lo_grid.x} * lo_grid.y * sizeof(double));
    sums.allocate(2 * sizeof(double));
    done.allocate(sizeof(unsigned));
    CUDA_CHECK_THROW(cudaMemsetAsync(done.get(), 0, sizeof(unsigned), s));
    upload_luminance_lut(lut);
    host_in = PinnedBuffer(2 * n * sizeof(float), "the MAD input");
    host_out = PinnedBuffer(2 * sizeof(double), "the MAD sums");
    launch_fill_csf_even_half(csf.as<float>(), h, w, s);
    launch_fill_gabor(gabor.as<float>(), h, w, s);
    if (cb) {
      const MadGaborLoadInfo li{half4.as<float2>(), gabor.as<float>(), static_cast<unsigned>(n), w, h};
      const MadMagStoreInfo si{mag.as<float>(), 1.0f / static_cast<float>(n)};
      load_info.allocate(sizeof li, "the MAD callback data");
      store_info.allocate(sizeof si, "the MAD callback data");
      CUDA_CHECK_THROW(cudaMemcpy(load_info.get(), &li, sizeof li, cudaMemcpyHostToDevice));
      CUDA_CHECK_THROW(cudaMemcpy(store_info.get(), &si, sizeof si, cudaMemcpyHostToDevice));
      inv = std::make_unique<MadFftPlan>(h, w, B, s, load_info.get(), store_info.get());
    } else {
      if (column_pass) {
        col = MadColumnPass::make(w, h, gabor.as<float>(), s);
        if (col) {  // the pass keeps its tiled copy
          CUDA_CHECK_THROW(cudaStreamSynchronize(s));
          gabor.release();
        }
      }
      inv = col ? MadFftPlan::rows_c2c(w, h * B, s) : std::make_unique<MadFftPlan>(h, w, B, CUFFT_C2C, s);
    }
  }
  float* host_input() override { return host_in.as<float>(); }
  const float* hi() const override { return hi_.as<float>(); }
  const float* lo() const override { return lo_.as<float>(); }
  std::string describe() const override {
    if (cb) return "r2c, cuFFT callbacks";
    const std::string b = "r2c, " + std::to_string(B) + " responses per inverse batch";
    return col ? b + ", fused column pass (" + col->describe() + ") + cuFFT rows" : b + ", cuFFT 2D inverses";
  }

  void run(MadStatsKernel sk, bool eight_bit, MadStageClock& clk, cudaStream_t s, double out[2]) override {
    const std::size_t nb = static_cast<std::size_t>(nbx) * nby;
    const std::uint64_t N = n, C = 8 * N, H = 8 * nh;  // bytes: float plane / complex plane / half spectrum
    const float inv_n = 1.0f / static_cast<float>(n);
    float* raw = img.as<float>();
    float2* spec = half4.as<float2>();
    int k = 0;
    clk.start(s);
    CUDA_CHECK_THROW(cudaMemcpyAsync(raw, host_in.get(), 2 * n * sizeof(float), cudaMemcpyHostToDevice, s));
    clk.mark("upload", 8 * N, s);
    mad_lum_kernel<<<grid_for(2 * n), kThreads, 0, s>>>(raw, real4.as<float>(), 2 * n, eight_bit ? 1 : 0,
                                                        lut.as<float>());
    CUDA_CHECK_LAUNCH();
    ++k;
    clk.mark("lum", 24 * N, s);
    fwd->r2c(real4.as<float>(), spec);
    ++k;
    clk.mark("fwd", 16 * N + 4 * H, s);
    // The detection branch (CSF, detect) on the side stream, beside the appearance branch
    // (products, inverses, statistics): independent after the forward transform (they read
    // and write disjoint buffers), and neither fills the GPU at small sizes.
    const cudaStream_t s2 = side_.get();
    clk.fork(s, s2);
    mad_csf_mul_kernel<<<grid_for(2 * nh), kThreads, 0, s2>>>(spec + 2 * nh, csf.as<float>(), nh, 2 * nh);
    CUDA_CHECK_LAUNCH();
    csf_inv->c2r(spec + 2 * nh, filt.as<float>());
    k += 2;
    clk.mark("csf_inv", 2 * H + 4 * nh + 8 * N, s2);  // floor: spectra + table read, images written once
    mad_detect_kernel<<<det_grid, 256, 0, s2>>>(filt.as<float>(), raw, inv_n, w, h, nbx, nby, hi_.as<float>(),
                                                part_hi.as<double>());
    CUDA_CHECK_LAUNCH();
    ++k;
    clk.mark("detect", 16 * N + 4 * N, s2);
    const dim3 mul_grid((w + kThreads - 1) / kThreads, h);
    if (cb) {  // products in the load, |EO| in the store: the 40 float maps in `mag`
      inv->c2c(resp.get(), resp.get(), CUFFT_INVERSE);
      clk.mark("gabor_inv", 2 * H + mad::kResponses * 4 * N + 2 * mad::kResponses * 4 * N, s);
      launch_mad_block_stats(sk, mag.as<float>(), nullptr, 1.f, w, h, B, stats.as<float>(), s);
      k += 2;
      clk.mark("stats", B * 4 * N + B * nb * 12, s);
    }
    for (int q0 = 0; q0 < 2 * mad::kResponses && !cb; q0 += B) {
      if (col) {  // products + column inverses in one kernel, then the row inverses
        col->run(spec, resp.as<float2>(), q0 / 2, B, s);
        clk.mark("gabor_col", 2 * H + (B / 2) * 4 * N + B * C, s);
        inv->c2c(resp.get(), resp.get(), CUFFT_INVERSE);
        clk.mark("gabor_row", 2ull * B * C, s);
      } else {
        mad_gabor_half_mul_kernel<<<mul_grid, kThreads, 0, s>>>(spec, gabor.as<float>(), resp.as<float2>(), w, h,
                                                                q0 / 2, (q0 + B) / 2);
        CUDA_CHECK_LAUNCH();
        clk.mark("gabor_mul", 2 * H + (B / 2) * 4 * N + B * C, s);
        inv->c2c(resp.get(), resp.get(), CUFFT_INVERSE);
        clk.mark("gabor_inv", 2ull * B * C, s);
      }
      float* st = stats.as<float>() + static_cast<std::size_t>(q0) * nb * 3;
      if (sk == MadStatsKernel::Fused) {
        launch_mad_block_stats(sk, nullptr, resp.get(), inv_n, w, h, B, st, s);
      } else {
        launch_magnitude(resp.as<float2>(), mag.as<float>(), inv_n, B * n, s);
        launch_mad_block_stats(sk, mag.as<float>(), nullptr, 1.f, w, h, B, st, s);
        ++k;
      }
      k += 3;
      clk.mark("stats", B * (sk == MadStatsKernel::Fused ? C : C + 8 * N) + B * nb * 12, s);
    }
    clk.join(s2, s);  // the detection branch's HI sums
    mad_lo_kernel<<<lo_grid, dim3(16, 16), 0, s>>>(
        stats.as<float>(), w, h, nbx, nby, lo_.as<float>(), part_lo.as<double>(), part_hi.as<double>(),
        static_cast<int>(det_grid.x * det_grid.y), done.as<unsigned>(), sums.as<double>());
    CUDA_CHECK_LAUNCH();
    ++k;
    CUDA_CHECK_THROW(cudaMemcpyAsync(host_out.get(), sums.get(), 2 * sizeof(double), cudaMemcpyDeviceToHost, s));
    clk.mark("combine", 2 * mad::kResponses * nb * 12 + 4 * N, s);
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
    out[0] = host_out.as<double>()[0];
    out[1] = host_out.as<double>()[1];
    launches_ = k;
  }

 private:
  int w = 0, h = 0, B = 0, nbx = 0, nby = 0;
  bool cb = false;
  std::size_t n = 0, nh = 0;
  dim3 det_grid, lo_grid;
  Stream side_;  // the detection branch (declared before the plans: csf_inv runs on it)
  std::unique_ptr<MadFftPlan> fwd, csf_inv, inv;  // inv: the 2D inverses, or the row inverses after `col`
  std::unique_ptr<MadColumnPass> col;              // the fused column pass (null: cuFFT 2D inverses)
  DeviceBuffer img, real4, half4, csf, filt, gabor, resp, mag, stats, hi_, lo_, part_hi, part_lo, sums, done, lut,
      load_info, store_info;
  PinnedBuffer host_in, host_out;
};

}  // namespace

bool mad_auto_column_pass(int w, int h, std::size_t l2_bytes) {
  return 2 * static_cast<std::size_t>(w) * h * 8 > l2_bytes / 2;
}

std::unique_ptr<MadPipeline> make_mad_pipeline_r2c(int w, int h, int batch_planes, bool callbacks, MadInverse inverse,
                                                   cudaStream_t s) {
  if (callbacks) {
    // The callbacks index the 40 planes with 32-bit offsets.
    if (static_cast<unsigned long long>(w) * h * 2 * mad::kResponses >= (1ull << 32))
      throw Error("MAD r2c with cuFFT callbacks: " + std::to_string(w) + "x" + std::to_string(h) +
                  " is too large (40 planes past 2^32 samples)");
    return std::make_unique<R2cPipeline>(w, h, 2 * mad::kResponses, true, false, s);
  }
  int dev = 0, l2 = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  if (batch_planes == 0) batch_planes = mad_auto_batch_planes(w, h, static_cast<std::size_t>(l2));
  const bool column_pass = inverse == MadInverse::ColumnPass ||
                           (inverse == MadInverse::Auto && mad_auto_column_pass(w, h, static_cast<std::size_t>(l2)));
  if (batch_planes < 2 || batch_planes % 2 != 0 || (2 * mad::kResponses) % batch_planes != 0)
    throw Error("MAD r2c pipeline: responses per inverse batch must be an even divisor of 40, not " +
                std::to_string(batch_planes));
  return std::make_unique<R2cPipeline>(w, h, batch_planes, false, column_pass, s);
}

}  // namespace lb::cuda::detail
