#pragma once
// Device helpers of the input-side render kernels (Sync: render_sync.cu; NoSync:
// render_nosync.cu): the shared-memory carve-up, the table set-up, the register row table
// and the dot-product column sums. Internal to each including file (anonymous namespace).
#include "plenoptic/render_kernels.cuh"

namespace lb::cuda::detail {
namespace {

__device__ __forceinline__ InputShared carve_input_shared(std::uint32_t* base, int span, int rows, int S) {
  InputShared s;
  s.wx = base;
  s.roff = s.wx + span;
  s.wy = s.roff + rows * S;
  s.col = reinterpret_cast<int*>(s.wy + rows * S);
  return s;
}

__device__ void setup_input(const KParams& P, int lim, int S, int span, int cs, int ncols,
                            const InputShared& sh) {
  const RenderLayout& L = P.L;
  for (int t = threadIdx.x; t < span; t += blockDim.x) sh.wx[t] = __ldg(P.T.wx + t);
  for (int t = threadIdx.x; t < ncols; t += blockDim.x) {
    const int m = cs - lim - 1 + t;
    sh.col[t] = t > 0 && m >= 0 && m < L.grid_nx ? __ldg(P.T.col_start + m) : kNoColumn;
  }
  for (int t = threadIdx.x; t < P.rows * S; t += blockDim.x) {
    const int r = t / S, q = t - r * S, j = q - lim;
    const int y = static_cast<int>(blockIdx.y) * P.rows + r;
    const int ny = y / L.patch, b = y - ny * L.patch, my = ny + j;
    const bool ok = y < L.out_h && my >= 0 && my < L.grid_ny;
    std::uint32_t roff = 0, w = 0;
    if (ok) {
      const int row = sample_coord(__ldg(P.T.row_start + my), b, j, L.patch, L.raw_h);
      roff = static_cast<std::uint32_t>(row) * P.rgba_pitch_w;
      w = __ldg(P.T.wy + weight_index(b, j, L.patch, lim));
    }
    sh.roff[t] = roff;  // a missing neighbour reads row 0 with weight 0
    sh.wy[t] = w;
  }
}

// This thread's row of the row table, in registers: offsets and the dot-product weights
// (wy in the low half selects byte 0 (dp2a_lo) or byte 2 (dp2a_hi); wy << 16 selects byte 1).
template <int MAXR>
struct RowRegs {
  std::uint32_t roff[MAXR], wlo[MAXR], whi[MAXR];
  std::uint32_t swy;
  __device__ void load(const InputShared& sh, int r, int S) {
    swy = 0;
#pragma unroll
    for (int q = 0; q < MAXR; ++q) {
      const bool in = q < S;
      roff[q] = in ? sh.roff[r * S + q] : 0u;
      const std::uint32_t w = in ? sh.wy[r * S + q] : 0u;
      wlo[q] = w;
      whi[q] = w << 16;
      swy += w;
    }
  }
};

// Issues the loads of one raw column (every vertical neighbour of this thread's row).
template <int MAXR>
__device__ __forceinline__ void load_column(const std::uint32_t* __restrict__ colp, const RowRegs<MAXR>& R,
                                            int S, std::uint32_t (&v)[MAXR]) {
#pragma unroll
  for (int q = 0; q < MAXR; ++q)
    if (q < S) v[q] = __ldg(colp + R.roff[q]);
}

// sum_j p_j * wy_j per channel (r, g, b) of a loaded column.
template <int MAXR>
__device__ __forceinline__ uint3 column_sum(const std::uint32_t (&v)[MAXR], const RowRegs<MAXR>& R, int S) {
  uint3 s = make_uint3(0, 0, 0);
#pragma unroll
  for (int q = 0; q < MAXR; ++q) {
    if (q < S) {
      s.x = __dp2a_lo(R.wlo[q], v[q], s.x);  // wy * byte 0 (R)
      s.y = __dp2a_lo(R.whi[q], v[q], s.y);  // wy * byte 1 (G)
      s.z = __dp2a_hi(R.wlo[q], v[q], s.z);  // wy * byte 2 (B)
    }
  }
  return s;
}

__device__ __forceinline__ const std::uint32_t* column_ptr(const KParams& P, int c, int koff) {
  return P.rgba + clamp_int(c + koff, 0, P.L.raw_w - 1);
}

}  // namespace
}  // namespace lb::cuda::detail
