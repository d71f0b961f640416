// MAD local statistics (spec 2.2) on the GPU: std (n-1), skewness and kurtosis (population
// variance) of every 16x16 block at stride 4, four variants (mad/mad_cuda.hpp).
#include <cuComplex.h>

#include "cuda_check.cuh"
#include "mad/mad_math.hpp"
#include "mad/mad_launch.hpp"

namespace lb::cuda::detail {

namespace {

constexpr int B = mad::kBlock;
constexpr int S = mad::kStride;
// Output blocks per thread block (shared variants and fused): 16 x 8.
constexpr int TBX = 16, TBY = 8;
constexpr int TILE_W = (TBX - 1) * S + B;  // 76 pixels
constexpr int TILE_H = (TBY - 1) * S + B;  // 44 pixels

__device__ __forceinline__ void write_stats(float* out, int plane, int nb, int b, float m2, float m3, float m4) {
  const mad::BlockStats<float> st = mad::stats_from_central<float>(float(B * B), m2, m3, m4);
  float* o = out + (static_cast<size_t>(plane) * nb + b) * 3;
  o[0] = st.std;
  o[1] = st.skew;
  o[2] = st.kurt;
}

// --- gather: the seed's original. One thread per block, 256 samples into a local array.
__global__ void mad_stats_gather_kernel(const float* __restrict__ img, int w, int h, int nbx, int nby, float* out) {
  const int bx = blockIdx.x * blockDim.x + threadIdx.x;
  const int by = blockIdx.y * blockDim.y + threadIdx.y;
  const int plane = blockIdx.z;
  if (bx >= nbx || by >= nby) return;
  const float* p = img + static_cast<size_t>(plane) * w * h + static_cast<size_t>(by * S) * w + bx * S;
  float v[B * B];
  float sum = 0.f;
  for (int y = 0; y < B; ++y)
    for (int x = 0; x < B; ++x) {
      v[y * B + x] = p[static_cast<size_t>(y) * w + x];
      sum += v[y * B + x];
    }
  const float mean = sum / float(B * B);
  float m2 = 0.f, m3 = 0.f, m4 = 0.f;
  for (int i = 0; i < B * B; ++i) {
    const float d = v[i] - mean, d2 = d * d;
    m2 += d2;
    m3 += d2 * d;
    m4 += d2 * d2;
  }
  write_stats(out, plane, nbx * nby, by * nbx + bx, m2, m3, m4);
}

// --- shared / shared_nc: a 16x8 tile of output blocks stages its 76x44-pixel footprint.
// Transposed = the paper's first version: tile[x][y] (threads of a warp walk a column:
// bank conflicts on the staging stores and the window reads). Otherwise tile[y][x] with
// pitch 76 (= 4 mod 8) and a per-thread rotation of the column order: the 16 threads of a
// row read 16 distinct banks (4 tx + (k + tx) mod 16 = 5 tx + k mod 16 ...), the second
// row of the warp the other 16 (76 * 4 = 16 mod 32): conflict-free.
template <bool Transposed>
__global__ void __launch_bounds__(TBX* TBY)
    mad_stats_shared_kernel(const float* __restrict__ img, int w, int h, int nbx, int nby, float* out) {
  __shared__ float tile[TILE_W * TILE_H];
  const int plane = blockIdx.z;
  const float* src = img + static_cast<size_t>(plane) * w * h;
  const int x0 = blockIdx.x * TBX * S, y0 = blockIdx.y * TBY * S;
  const int tid = threadIdx.y * TBX + threadIdx.x;
  for (int i = tid; i < TILE_W * TILE_H; i += TBX * TBY) {
    const int tx = i % TILE_W, ty = i / TILE_W;
    const int gx = x0 + tx, gy = y0 + ty;
    const float v = gx < w && gy < h ? src[static_cast<size_t>(gy) * w + gx] : 0.f;
    if (Transposed)
      tile[tx * TILE_H + ty] = v;
    else
      tile[ty * TILE_W + tx] = v;
  }
  __syncthreads();
  const int bx = blockIdx.x * TBX + threadIdx.x, by = blockIdx.y * TBY + threadIdx.y;
  if (bx >= nbx || by >= nby) return;
  const int lx = threadIdx.x * S, ly = threadIdx.y * S;
  const int rot = Transposed ? 0 : threadIdx.x;
  auto at = [&](int y, int k) {
    const int x = (k + rot) & (B - 1);
    return Transposed ? tile[(lx + x) * TILE_H + ly + y] : tile[(ly + y) * TILE_W + lx + x];
  };
  float sum = 0.f;
#pragma unroll 4
  for (int y = 0; y < B; ++y)
#pragma unroll
    for (int k = 0; k < B; ++k) sum += at(y, k);
  const float mean = sum / float(B * B);
  float m2 = 0.f, m3 = 0.f, m4 = 0.f;
#pragma unroll 4
  for (int y = 0; y < B; ++y)
#pragma unroll
    for (int k = 0; k < B; ++k) {
      const float d = at(y, k) - mean, d2 = d * d;
      m2 += d2;
      m3 += d2 * d;
      m4 += d2 * d2;
    }
  write_stats(out, plane, nbx * nby, by * nbx + bx, m2, m3, m4);
}

// --- fused: moments of each 4x4 cell once (two-pass over 16 registers), then every block
// merges its 16 cells pairwise (equal halves, a balanced tree). Input float or complex
// (magnitude * scale fused in). Cells of the tile: (TBX+3) x (TBY+3).
constexpr int CX = TBX + 3, CY = TBY + 3;

template <bool Complex>
__device__ __forceinline__ float sample(const float* real, const float2* cplx, size_t i, float scale) {
  if (Complex) {
    const float2 c = cplx[i];
    return sqrtf(c.x * c.x + c.y * c.y) * scale;
  }
  return real[i];
}

template <bool Complex>
__global__ void __launch_bounds__(TBX* TBY)
    mad_stats_fused_kernel(const float* __restrict__ real, const float2* __restrict__ cplx, float scale, int w, int h,
                           int nbx, int nby, float* out) {
  __shared__ mad::Moments<float> cells[CY][CX];
  const int plane = blockIdx.z;
  const size_t base = static_cast<size_t>(plane) * w * h;
  const int cx0 = blockIdx.x * TBX, cy0 = blockIdx.y * TBY;  // first cell of the tile
  const int tid = threadIdx.y * TBX + threadIdx.x;
  for (int c = tid; c < CX * CY; c += TBX * TBY) {
    const int cx = c % CX, cy = c / CX;
    const int gx = (cx0 + cx) * S, gy = (cy0 + cy) * S;
    float v[S * S];
    if (gx + S <= w && gy + S <= h) {
#pragma unroll
      for (int y = 0; y < S; ++y)
#pragma unroll
        for (int x = 0; x < S; ++x)
          v[y * S + x] = sample<Complex>(real, cplx, base + static_cast<size_t>(gy + y) * w + gx + x, scale);
    } else {
#pragma unroll
      for (int i = 0; i < S * S; ++i) v[i] = 0.f;  // outside the image: never used by a valid block
    }
    cells[cy][cx] = mad::moments_of(v);
  }
  __syncthreads();
  const int bx = cx0 + threadIdx.x, by = cy0 + threadIdx.y;
  if (bx >= nbx || by >= nby) return;
  mad::Moments<float> rows[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const mad::Moments<float>* c = cells[threadIdx.y + r] + threadIdx.x;
    rows[r] = mad::merge(mad::merge(c[0], c[1]), mad::merge(c[2], c[3]));
  }
  const mad::Moments<float> m = mad::merge(mad::merge(rows[0], rows[1]), mad::merge(rows[2], rows[3]));
  write_stats(out, plane, nbx * nby, by * nbx + bx, m.m2, m.m3, m.m4);
}

}  // namespace

MadStatsKernel parse_mad_stats_kernel(const std::string& name) {
  if (name == "gather") return MadStatsKernel::Gather;
  if (name == "shared") return MadStatsKernel::Shared;
  if (name == "shared_nc") return MadStatsKernel::SharedNc;
  if (name == "fused") return MadStatsKernel::Fused;
  throw Error("mad variant '" + name + "': use gather, shared, shared_nc or fused");
}

const char* mad_stats_kernel_name(MadStatsKernel k) {
  switch (k) {
    case MadStatsKernel::Gather: return "gather";
    case MadStatsKernel::Shared: return "shared";
    case MadStatsKernel::SharedNc: return "shared_nc";
    case MadStatsKernel::Fused: return "fused";
  }
  return "?";
}

void launch_mad_block_stats(MadStatsKernel k, const float* real, const void* cplx, float scale, int w, int h,
                            int nplanes, float* out, cudaStream_t s) {
  const int nbx = mad::block_count(w), nby = mad::block_count(h);
  if (nbx == 0 || nby == 0 || nplanes == 0) return;
  if ((real == nullptr) == (cplx == nullptr)) throw Error("mad statistics: give either float or complex input");
  if (k != MadStatsKernel::Fused && !real)
    throw Error(std::string("mad statistics: variant ") + mad_stats_kernel_name(k) + " needs float input");
  const dim3 tiles((nbx + TBX - 1) / TBX, (nby + TBY - 1) / TBY, nplanes);
  const dim3 threads(TBX, TBY);
  switch (k) {
    case MadStatsKernel::Gather: {
      const dim3 t(32, 4);
      const dim3 g((nbx + 31) / 32, (nby + 3) / 4, nplanes);
      mad_stats_gather_kernel<<<g, t, 0, s>>>(real, w, h, nbx, nby, out);
      break;
    }
    case MadStatsKernel::Shared:
      mad_stats_shared_kernel<true><<<tiles, threads, 0, s>>>(real, w, h, nbx, nby, out);
      break;
    case MadStatsKernel::SharedNc:
      mad_stats_shared_kernel<false><<<tiles, threads, 0, s>>>(real, w, h, nbx, nby, out);
      break;
    case MadStatsKernel::Fused:
      if (cplx)
        mad_stats_fused_kernel<true>
            <<<tiles, threads, 0, s>>>(nullptr, static_cast<const float2*>(cplx), scale, w, h, nbx, nby, out);
      else mad_stats_fused_kernel<false><<<tiles, threads, 0, s>>>(real, nullptr, 1.f, w, h, nbx, nby, out);
      break;
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace lb::cuda::detail
