// Plenoptic rendering kernels: Original, Sync and NoSync (seed sections 3-4), and the
// "simple copy" bandwidth reference. Every kernel computes exactly lb::render_pixel:
// integer weights and sums (plenoptic_math.hpp), so the summation order does not matter
// and every variant is bit-exact with the CPU reference.
//
// Instantiations (kept few: CI compiles this file for several architectures):
//   original<RGBA in {0,1}, writer in {surface, pitched u32, pitched bytes}>        6
//   sync / nosync (direct loads) <LIM in {2 (seed, compile-time lim), 0 (run-time
//                 lim)}, writer in {surface, pitched u32}>                         8
//   nosync_staged<LIM = 2, writer> (sm_90+ body; the default NoSync)                2
//   copy16, l2_flush, raster_read<4 B | 16 B> (benchmark references)                4
// The Original's other two switches (reciprocal division, barrier at the end of each
// neighbour iteration) are uniform run-time flags: one branch per pixel or per iteration.
// Launch shapes: KernelTuning (cuda_api.hpp), defaults tuned on an H200.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "cuda_check.cuh"
#include "render_launch.hpp"

namespace lb::cuda::detail {
namespace {

constexpr int kMaxRows = 2 * kMaxLim + 1;  // vertical neighbours of one output row
// Largest Sync/NoSync block: one row of (2*kMaxLim+1)*kMaxPatch = 576 threads fits; the
// bound leaves the compiler up to 80 registers per thread.
constexpr int kMaxInputBlock = 768;

struct KParams {
  RenderLayout L;
  TablesDevice T;
  const std::uint8_t* rgb;
  std::size_t rgb_pitch;        // bytes
  const std::uint32_t* rgba;
  std::uint32_t rgba_pitch_w;   // words
  int chunk;                    // Sync/NoSync: micro-image columns per block
  int rows;                     // Sync/NoSync: output rows per block
  int stages;                   // staged NoSync: ring of step buffers
  int reciprocal;               // divide through __frcp_rn + exact fix-up
  int sync_at_end;              // Original: __syncthreads() after each neighbour
};

// ---------------------------------------------------------------------------------------
// Output writers
// ---------------------------------------------------------------------------------------
struct SurfaceWriter {
  cudaSurfaceObject_t surf;
  __device__ __forceinline__ void put(int x, int y, std::uint32_t v) const {
    surf2Dwrite(v, surf, x * 4, y);  // always one 4-byte store
  }
};

template <bool Vector>
struct PitchedWriter {
  std::uint8_t* ptr;
  std::size_t pitch;
  __device__ __forceinline__ void put(int x, int y, std::uint32_t v) const {
    std::uint8_t* p = ptr + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * 4;
    if constexpr (Vector) {
      *reinterpret_cast<std::uint32_t*>(p) = v;
    } else {  // one store per channel (the seed's un-vectorised result)
      p[0] = static_cast<std::uint8_t>(v);
      p[1] = static_cast<std::uint8_t>(v >> 8);
      p[2] = static_cast<std::uint8_t>(v >> 16);
      p[3] = static_cast<std::uint8_t>(v >> 24);
    }
  }
};

__device__ __forceinline__ std::uint32_t finish(std::uint32_t r, std::uint32_t g, std::uint32_t b,
                                                std::uint32_t w, bool reciprocal) {
  if (reciprocal) {
    const float rcp = __frcp_rn(static_cast<float>(w));
    return pack_rgba(divide_round_rcp(r, w, rcp), divide_round_rcp(g, w, rcp),
                     divide_round_rcp(b, w, rcp));
  }
  return pack_rgba(divide_round(r, w), divide_round(g, w), divide_round(b, w));
}

// ---------------------------------------------------------------------------------------
// Original: one thread per output pixel (Algorithm 1), flattened 1D over the output.
// ---------------------------------------------------------------------------------------
template <bool RGBA, class W>
__global__ void __launch_bounds__(1024) original_kernel(const KParams P, const W out) {
  const RenderLayout& L = P.L;
  const int total = L.out_w * L.out_h;
  const int idx = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  // No early return: with sync_at_end every thread of the block must reach the barriers.
  const bool active = idx < total;
  int x = 0, y = 0;
  if (active) {
    y = idx / L.out_w;
    x = idx - y * L.out_w;
  }
  const int M = L.patch, lim = L.lim;
  const int nx = x / M, a = x - nx * M;
  const int ny = y / M, b = y - ny * M;
  std::uint32_t sr = 0, sg = 0, sb = 0, sw = 0;
  for (int j = -lim; j <= lim; ++j) {
    const int my = ny + j;
    const bool row_ok = active && my >= 0 && my < L.grid_ny;
    int row = 0;
    std::uint32_t wyv = 0;
    if (row_ok) {
      row = sample_coord(__ldg(P.T.row_start + my), b, j, M, L.raw_h);
      wyv = __ldg(P.T.wy + weight_index(b, j, M, lim));
    }
    for (int i = -lim; i <= lim; ++i) {
      const int mx = nx + i;
      if (row_ok && mx >= 0 && mx < L.grid_nx) {
        const int col = sample_coord(__ldg(P.T.col_start + mx), a, i, M, L.raw_w);
        const std::uint32_t w = __ldg(P.T.wx + weight_index(a, i, M, lim)) * wyv;
        if constexpr (RGBA) {
          const std::uint32_t v =
              __ldg(P.rgba + static_cast<std::size_t>(row) * P.rgba_pitch_w + col);
          sr += (v & 0xffu) * w;
          sg += ((v >> 8) & 0xffu) * w;
          sb += ((v >> 16) & 0xffu) * w;
        } else {
          const std::uint8_t* p =
              P.rgb + static_cast<std::size_t>(row) * P.rgb_pitch + static_cast<std::size_t>(col) * 3;
          sr += static_cast<std::uint32_t>(__ldg(p)) * w;
          sg += static_cast<std::uint32_t>(__ldg(p + 1)) * w;
          sb += static_cast<std::uint32_t>(__ldg(p + 2)) * w;
        }
        sw += w;
      }
      if (P.sync_at_end) __syncthreads();
    }
  }
  if (active) out.put(x, y, finish(sr, sg, sb, sw, P.reciprocal != 0));
}

// ---------------------------------------------------------------------------------------
// Input-side kernels (Sync, NoSync): shared pieces.
//
// A block covers `rows` output rows y (b = y % M, ny = y / M) and a chunk of micro-image
// columns [cs, ce). Each output row has (2lim+1)*M threads. At micro-image column m the
// (2lim+1)*M threads of a row together load the contiguous raw columns
// col_start[m] - lim*M + k, k = 0 .. (2lim+1)*M - 1 (clamped), from each vertical
// neighbour j = -lim..lim (raw row row_start[ny+j] + b - j*M, clamped; a neighbour outside
// the grid gets weight 0). Load position k is output offset a = k % M seen through
// neighbour i = lim - k / M, i.e. it contributes to output column o = m - lim + k / M with
// weight wx[k] * wy[weight_index(b, j)]. Output o receives its last contribution at
// m = o + lim (through k / M = 0).
//
// Steps are numbered t = 0, 1, ... with m = cs - lim - 1 + t; step 0 is idle (it only makes
// the walk start one step before the first column so that, with S = 2lim+1, the write
// rhythm of both kernels is "once per S steps, at the end of a period of S steps").
//
// Exactness and cost: per raw column the vertical sum sum_j p_j * wy_j is formed with the
// 16x8-bit dot-product instruction (__dp2a: weight * selected byte, accumulated), one
// instruction per channel and pixel with no byte extraction; then one multiply by wx[k]
// per channel. sum_j p_j * wx * wy_j = wx * sum_j p_j * wy_j holds exactly in 32-bit
// unsigned arithmetic (wrap-around is a ring homomorphism and every final sum is below
// 2^31).
//
// Latency hiding: the raw loads of one step are issued a whole period (S steps) before
// they are used (a register ring of S x S words in the fixed-lim kernels, PF steps in the
// generic ones). The micro-image column starts of the chunk and the row table are staged
// in shared memory first, so no load address depends on another global load.
// ---------------------------------------------------------------------------------------
constexpr int kNoColumn = INT_MIN;  // column table entry of an idle step / missing column
constexpr int kGenericPrefetch = 2; // steps of loads in flight in the run-time-lim kernels

struct InputShared {
  std::uint32_t* wx;    // [span]
  std::uint32_t* roff;  // [rows][S]: word offset of raw row of neighbour j = q - lim
  std::uint32_t* wy;    // [rows][S]: its wy factor (0: neighbour outside the grid)
  int* col;             // [ncols]: col_start[cs - lim - 1 + t], or kNoColumn
};

__host__ __device__ constexpr std::size_t input_shared_words(int span, int rows, int S, int ncols) {
  return static_cast<std::size_t>(span) + 2u * static_cast<std::size_t>(rows) * S + ncols;
}

// Column-table length a chunk needs (both kernels, plus prefetch slack).
__host__ __device__ constexpr int input_columns(int chunk, int S) {
  return ((chunk + S - 1) / S + 2) * S + kGenericPrefetch;
}

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

// ---------------------------------------------------------------------------------------
// Sync (seed Fig. 7a): thread k of a row always loads position k; partial sums live in a
// circular shared-memory buffer of S = 2lim+1 slots x M (uint4 AoS: r, g, b, w), the slot
// of output o being o mod S. Group k/M == 2lim opens the slot of a new output, group 0
// completes the oldest one, divides and writes it (M contiguous pixels). One barrier per
// step protects the slots. LIM > 0: lim fixed at compile time (the period of S steps is
// unrolled, loads a period ahead); LIM == 0: run-time lim.
// ---------------------------------------------------------------------------------------
template <int LIM, class W>
__global__ void __launch_bounds__(kMaxInputBlock, 1) sync_kernel(const KParams P, const W out) {
  constexpr int MAXR = LIM > 0 ? 2 * LIM + 1 : kMaxRows;
  constexpr int PF = LIM > 0 ? 2 * LIM + 1 : kGenericPrefetch;  // steps of loads in flight
  const RenderLayout& L = P.L;
  const int lim = LIM > 0 ? LIM : L.lim;
  const int S = LIM > 0 ? 2 * LIM + 1 : 2 * lim + 1;
  const int M = L.patch, span = S * M;
  extern __shared__ uint4 smem_sync[];
  uint4* s_acc = smem_sync;  // [rows][S][M]
  const int cs = static_cast<int>(blockIdx.x) * P.chunk;
  const int ce = min(cs + P.chunk, L.grid_nx);
  const int T = ce - cs + S;  // steps t = 0 .. T-1 (m = cs - lim - 1 + t up to ce + lim - 1)
  const int ncols = input_columns(P.chunk, S);
  const InputShared sh =
      carve_input_shared(reinterpret_cast<std::uint32_t*>(s_acc + P.rows * span), span, P.rows, S);

  const int r = static_cast<int>(threadIdx.x) / span;
  const int k = static_cast<int>(threadIdx.x) - r * span;
  const int g = k / M, a = k - g * M;
  const int y = static_cast<int>(blockIdx.y) * P.rows + r;
  const bool row_active = y < L.out_h;

  setup_input(P, lim, S, span, cs, ncols, sh);
  s_acc[threadIdx.x] = make_uint4(0, 0, 0, 0);
  __syncthreads();

  RowRegs<MAXR> R;
  R.load(sh, r, S);
  const std::uint32_t wxk = sh.wx[k];
  const std::uint32_t wsum = wxk * R.swy;
  const int koff = k - lim * M;
  uint4* const acc = s_acc + r * span + a;
  // Slot of this thread's output at step t: (cs + g + t) mod S.
  int slot = (cs + g) % S;

  std::uint32_t ring[PF][MAXR];
#pragma unroll
  for (int u = 0; u < PF; ++u) {
    const int c = u < T ? sh.col[u] : kNoColumn;
    if (row_active && c != kNoColumn) load_column(column_ptr(P, c, koff), R, S, ring[u]);
  }
  for (int base = 0; base < T; base += PF) {
#pragma unroll
    for (int u = 0; u < PF; ++u) {
      const int t = base + u;
      if (t < T) {  // uniform over the block (the barrier below is reached by all)
        const int c = sh.col[t];
        uint4 v = make_uint4(0, 0, 0, 0);
        if (row_active && c != kNoColumn) {
          const uint3 s = column_sum(ring[u], R, S);
          v = make_uint4(s.x * wxk, s.y * wxk, s.z * wxk, wsum);
        }
        if (t + PF < T) {  // prefetch step t + PF into the registers just consumed
          const int cn = sh.col[t + PF];
          if (row_active && cn != kNoColumn) load_column(column_ptr(P, cn, koff), R, S, ring[u]);
        }
        uint4* cell = acc + slot * M;
        if (g != 2 * lim) {  // not the first contribution of this output: add the slot
          const uint4 old = *cell;
          v.x += old.x; v.y += old.y; v.z += old.z; v.w += old.w;
        }
        if (g == 0) {  // last contribution: output o = m - lim is complete
          const int o = cs - S + t;
          if (row_active && o >= cs)
            out.put(o * M + a, y, finish(v.x, v.y, v.z, v.w, P.reciprocal != 0));
        } else {
          *cell = v;
        }
        slot = slot + 1 == S ? 0 : slot + 1;
        __syncthreads();
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// NoSync (seed Fig. 7b): thread t of a row owns output offset a = t % M of the outputs
// o = p (mod S), p = t / M. It accumulates privately in registers and moves its LOAD
// position instead of a buffer: at step u of a period of S steps it loads group
// g = (p - u) mod S. Contributions of steps u <= p complete the output of the previous
// period ("fin"), the others start the next one ("nxt") -- the seed's double buffer. At the
// end of each period all threads write together: S*M contiguous pixels, thread t -> pixel t.
// No barrier in the loop; the only shared-memory reads are broadcasts of the column table.
// LIM > 0 only (lim fixed at compile time); other lims use nosync_generic_kernel.
// ---------------------------------------------------------------------------------------
template <int LIM, class W>
__global__ void __launch_bounds__(kMaxInputBlock, 1) nosync_kernel(const KParams P, const W out) {
  constexpr int S = 2 * LIM + 1;
  const RenderLayout& L = P.L;
  const int M = L.patch, span = S * M;
  extern __shared__ uint4 smem_nosync[];
  const int cs = static_cast<int>(blockIdx.x) * P.chunk;
  const int len = min(P.chunk, L.grid_nx - cs);
  const int Q = (len + S - 1) / S + 1;  // periods; the first only fills the double buffer
  const int ncols = input_columns(P.chunk, S);
  const InputShared sh = carve_input_shared(reinterpret_cast<std::uint32_t*>(smem_nosync), span, P.rows, S);

  const int r = static_cast<int>(threadIdx.x) / span;
  const int t = static_cast<int>(threadIdx.x) - r * span;
  const int p = t / M, a = t - p * M;
  const int y = static_cast<int>(blockIdx.y) * P.rows + r;

  setup_input(P, LIM, S, span, cs, ncols, sh);
  __syncthreads();
  if (y >= L.out_h) return;  // no barrier after this point

  RowRegs<S> R;
  R.load(sh, r, S);
  // Per step u of a period: load offset and weight of group g = (p - u) mod S.
  int koff[S];
  std::uint32_t wxu[S], wsu[S];
#pragma unroll
  for (int u = 0; u < S; ++u) {
    const int g = p >= u ? p - u : p - u + S;
    koff[u] = g * M + a - LIM * M;
    wxu[u] = sh.wx[g * M + a];
    wsu[u] = wxu[u] * R.swy;
  }
  std::uint32_t ring[S][S];
#pragma unroll
  for (int u = 0; u < S; ++u) {
    const int c = sh.col[u];
    if (c != kNoColumn) load_column(column_ptr(P, c, koff[u]), R, S, ring[u]);
  }
  uint4 fin = make_uint4(0, 0, 0, 0), nxt = make_uint4(0, 0, 0, 0);
  int x_out = (cs + p - S) * M + a;  // output (q - 1) * S + p of the chunk
  for (int q = 0; q < Q; ++q) {
    const bool more = q + 1 < Q;
#pragma unroll
    for (int u = 0; u < S; ++u) {
      const int c = sh.col[q * S + u];
      if (c != kNoColumn) {  // uniform
        const uint3 s = column_sum(ring[u], R, S);
        if (u <= p) {
          fin.x += s.x * wxu[u]; fin.y += s.y * wxu[u]; fin.z += s.z * wxu[u]; fin.w += wsu[u];
        } else {
          nxt.x += s.x * wxu[u]; nxt.y += s.y * wxu[u]; nxt.z += s.z * wxu[u]; nxt.w += wsu[u];
        }
      }
      if (more) {
        const int cn = sh.col[(q + 1) * S + u];
        if (cn != kNoColumn) load_column(column_ptr(P, cn, koff[u]), R, S, ring[u]);
      }
    }
    // Every thread's "fin" output (period q - 1) is complete: store them together.
    if (q > 0 && (q - 1) * S + p < len) out.put(x_out, y, finish(fin.x, fin.y, fin.z, fin.w, P.reciprocal != 0));
    fin = nxt;
    nxt = make_uint4(0, 0, 0, 0);
    x_out += S * M;
  }
}

// NoSync with run-time lim: same scheme step by step (g counts down, a swap of the two
// accumulators when it reaches 0), loads kGenericPrefetch steps ahead.
template <class W>
__global__ void __launch_bounds__(kMaxInputBlock, 1) nosync_generic_kernel(const KParams P, const W out) {
  constexpr int MAXR = kMaxRows, PF = kGenericPrefetch;
  const RenderLayout& L = P.L;
  const int lim = L.lim, S = 2 * lim + 1, M = L.patch, span = S * M;
  extern __shared__ uint4 smem_nosync_g[];
  const int cs = static_cast<int>(blockIdx.x) * P.chunk;
  const int len = min(P.chunk, L.grid_nx - cs);
  const int T = ((len + S - 1) / S + 1) * S;
  const int ncols = input_columns(P.chunk, S);
  const InputShared sh = carve_input_shared(reinterpret_cast<std::uint32_t*>(smem_nosync_g), span, P.rows, S);

  const int r = static_cast<int>(threadIdx.x) / span;
  const int t = static_cast<int>(threadIdx.x) - r * span;
  const int p = t / M, a = t - p * M;
  const int y = static_cast<int>(blockIdx.y) * P.rows + r;

  setup_input(P, lim, S, span, cs, ncols, sh);
  __syncthreads();
  if (y >= L.out_h) return;

  RowRegs<MAXR> R;
  R.load(sh, r, S);
  const int aoff = a - lim * M;
  int g = p;   // group at step t: (p - t) mod S
  int gl = p;  // group of the step being loaded
  std::uint32_t ring[PF][MAXR];
#pragma unroll
  for (int u = 0; u < PF; ++u) {
    const int c = u < T ? sh.col[u] : kNoColumn;
    if (c != kNoColumn) load_column(column_ptr(P, c, gl * M + aoff), R, S, ring[u]);
    gl = gl == 0 ? S - 1 : gl - 1;
  }
  uint4 cur = make_uint4(0, 0, 0, 0), done = make_uint4(0, 0, 0, 0);
  int x_out = (cs + p - S) * M + a;  // output o_rel of the chunk
  int o_rel = p - S;
  int pos = 0;  // step within the period of S steps
  for (int base = 0; base < T; base += PF) {
#pragma unroll
    for (int u = 0; u < PF; ++u) {
      const int tt = base + u;
      if (tt < T) {
        const int c = sh.col[tt];
        if (c != kNoColumn) {
          const uint3 s = column_sum(ring[u], R, S);
          const std::uint32_t wk = sh.wx[g * M + a];
          cur.x += s.x * wk;
          cur.y += s.y * wk;
          cur.z += s.z * wk;
          cur.w += R.swy * wk;
        }
        if (tt + PF < T) {
          const int cn = sh.col[tt + PF];
          if (cn != kNoColumn) load_column(column_ptr(P, cn, gl * M + aoff), R, S, ring[u]);
        }
        gl = gl == 0 ? S - 1 : gl - 1;
        if (g == 0) {  // output complete: park it, open the next one
          done = cur;
          cur = make_uint4(0, 0, 0, 0);
          g = S - 1;
        } else {
          --g;
        }
        if (pos == S - 1) {  // end of a period (uniform): store the parked outputs together
          if (o_rel >= 0 && o_rel < len)
            out.put(x_out, y, finish(done.x, done.y, done.z, done.w, P.reciprocal != 0));
          x_out += S * M;
          o_rel += S;
          pos = 0;
        } else {
          ++pos;
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Staged NoSync (Hopper adaptation; the default NoSync path for lim = 2 on sm_90+).
//
// The direct kernels above read the raw with one 4-byte load per thread, pixel and
// vertical neighbour, as the seed does. On an H200 such narrow loads cannot keep enough
// bytes in flight: a plain raster read of exactly the touched pixels with 4-byte loads
// reaches about a quarter of the copy bandwidth, with 16-byte loads about 60 %
// (lb_bench_render --diag, docs/PERFORMANCE.md). The staged kernel keeps the NoSync
// thread mapping and its private double-buffered accumulators, but the raw reaches the
// threads through shared memory: one extra producer warp copies, for each step, the S row
// segments of S*M pixels (16-byte aligned, qmax quads each, 15 for the seed) with 16-byte
// cp.async into a ring of kStagedSteps step buffers; after issuing a step's copies each
// producer lane hands them to the step's "full" mbarrier (cp.async.mbarrier.arrive.noinc:
// the barrier phase completes when every lane's copies have landed). The NoSync threads
// wait on that mbarrier, read their pixels and release the buffer on its "empty" mbarrier,
// every thread arriving for its own reads. (An earlier version let one lane per warp arrive
// after __syncwarp: correct under the memory model, since __syncwarp orders the lanes'
// reads before lane 0's release, but compute-sanitizer's racecheck does not model that
// chain and reported WAR hazards on every reuse of a buffer. Per-thread arrivals are
// racecheck-clean and cost about 2 % on the H100: docs/PERFORMANCE.md.) There is still no
// __syncthreads after the setup: the NoSync threads only wait for data, never for each
// other. (Tried and dropped, slower on the H200: a cp.async.bulk producer with one copy per
// segment, a Sync kernel staged the same way, and NoSync staging a period per barrier.)
//
// The RGBA raw on the device carries replicated border columns (RawDevice pads), so a
// segment is fetched and indexed without clamping. Step buffer layout:
// uint4 [rows][S][qmax] (segment-major), a warp reads consecutive words.
// ---------------------------------------------------------------------------------------

// Quads (16 bytes) fetched per row segment: S*M pixels at any alignment.
__host__ __device__ constexpr int staged_quads(int span) { return (span + 6) / 4; }

template <int S>
__device__ __forceinline__ void load_row_weights(const InputShared& sh, int r, std::uint32_t (&wlo)[S],
                                                 std::uint32_t (&whi)[S], std::uint32_t& swy) {
  swy = 0;
#pragma unroll
  for (int q = 0; q < S; ++q) {
    wlo[q] = sh.wy[r * S + q];
    whi[q] = wlo[q] << 16;
    swy += wlo[q];
  }
}

constexpr int kStagedSteps = 8;  // ring of step buffers


#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbar_init(std::uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
// Arrives on `bar` once every cp.async this thread issued before has landed; .noinc: the
// arrival is one of the counts the barrier was initialised with.
__device__ __forceinline__ void cp_async_mbar_arrive_noinc(std::uint64_t* bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
__device__ __forceinline__ void mbar_wait(std::uint64_t* bar, unsigned parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(parity)
      : "memory");
}
#endif

constexpr int kLsuItemsPerLane = 8;  // cp.async items per producer lane and step (bound)

template <int LIM, class W>
__global__ void __launch_bounds__(kMaxInputBlock, 1) nosync_staged_kernel(const KParams P, const W out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int S = 2 * LIM + 1;
  const int NST = P.stages;
  const RenderLayout& L = P.L;
  const int M = L.patch, span = S * M, qmax = staged_quads(span);
  const int seg_quads = qmax, step_quads = P.rows * S * qmax;
  const int consumers = P.rows * span;              // the NoSync threads
  const int consumer_threads = (consumers + 31) / 32 * 32;  // whole warps (idle tail lanes)
  extern __shared__ uint4 smem_nosync_staged[];
  uint4* s_stage = smem_nosync_staged;  // [NST][rows][S][qmax]
  auto* s_full = reinterpret_cast<std::uint64_t*>(s_stage + NST * step_quads);
  std::uint64_t* s_empty = s_full + NST;
  const int cs = static_cast<int>(blockIdx.x) * P.chunk;
  const int len = min(P.chunk, L.grid_nx - cs);
  const int Q = (len + S - 1) / S + 1;
  const int T = Q * S;
  const int ncols = input_columns(P.chunk, S);
  const InputShared sh =
      carve_input_shared(reinterpret_cast<std::uint32_t*>(s_empty + NST), span, P.rows, S);
  const int seg0 = LIM * M;

  setup_input(P, LIM, S, span, cs, ncols, sh);
  if (threadIdx.x == 0) {
    for (int i = 0; i < NST; ++i) {
      mbar_init(s_full + i, 32u);
      mbar_init(s_empty + i, static_cast<unsigned>(consumer_threads));
    }
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();

  if (static_cast<int>(threadIdx.x) >= consumer_threads) {
    const int lane = static_cast<int>(threadIdx.x) - consumer_threads;
    if (lane >= 32) return;
    {
      // Producer warp: all 32 lanes copy 16-byte quads (cp.async); the completion of a
      // lane's copies of step t is its arrival on step t's "full" barrier.
      const std::uint32_t* src[kLsuItemsPerLane];
      int dst[kLsuItemsPerLane];
#pragma unroll
      for (int n = 0; n < kLsuItemsPerLane; ++n) {
        const int item = lane + 32 * n;
        if (item < step_quads) {
          const int seg = item / seg_quads, i = item - seg * seg_quads;
          src[n] = P.rgba + sh.roff[seg] + 4 * i;
          dst[n] = item;
        } else {
          src[n] = P.rgba;
          dst[n] = -1;
        }
      }
      int st = 0;  // stage being filled
      unsigned use = 0;
      for (int t = 0; t < T; ++t) {
        if (use > 0) mbar_wait(s_empty + st, (use - 1) & 1u);
        const int c = sh.col[t];
        if (c != kNoColumn) {
          const int q0 = (c - seg0) >> 2;
          uint4* buf = s_stage + st * step_quads;
#pragma unroll
          for (int n = 0; n < kLsuItemsPerLane; ++n)
            if (dst[n] >= 0) cp_async16(buf + dst[n], src[n] + 4 * q0);
        }
        cp_async_mbar_arrive_noinc(s_full + st);  // the copies' completion publishes step t
        if (++st == NST) {
          st = 0;
          ++use;
        }
      }
      cp_async_wait<0>();
    }
    return;
  }

  // Lanes past the last consumer (when rows*span is not a multiple of 32) run along idle:
  // they arrive on the "empty" barriers too (its count is consumer_threads).
  const bool consumer = static_cast<int>(threadIdx.x) < consumers;
  const int r = consumer ? static_cast<int>(threadIdx.x) / span : 0;
  const int t = consumer ? static_cast<int>(threadIdx.x) - r * span : 0;
  const int p = t / M, a = t - p * M;
  const int y = static_cast<int>(blockIdx.y) * P.rows + r;
  const bool row_active = consumer && y < L.out_h;
  std::uint32_t wlo[S], whi[S], swy;
  load_row_weights<S>(sh, r, wlo, whi, swy);
  int ku[S];
  std::uint32_t wxu[S], wsu[S];
#pragma unroll
  for (int u = 0; u < S; ++u) {
    const int g = p >= u ? p - u : p - u + S;
    ku[u] = g * M + a;
    wxu[u] = sh.wx[ku[u]];
    wsu[u] = wxu[u] * swy;
  }
  uint4 fin = make_uint4(0, 0, 0, 0), nxt = make_uint4(0, 0, 0, 0);
  int x_out = (cs + p - S) * M + a;
  int st = 0;
  unsigned parity = 0;
  for (int q = 0; q < Q; ++q) {
#pragma unroll
    for (int u = 0; u < S; ++u) {
      const int c = sh.col[q * S + u];
      mbar_wait(s_full + st, parity);
      if (row_active && c != kNoColumn) {  // uniform per row
        const std::uint32_t* base = reinterpret_cast<const std::uint32_t*>(s_stage + st * step_quads + r * S * seg_quads) +
                                    ((c - seg0) & 3) + ku[u];
        uint3 s3 = make_uint3(0, 0, 0);
#pragma unroll
        for (int qq = 0; qq < S; ++qq) {
          const std::uint32_t v = base[qq * seg_quads * 4];
          s3.x = __dp2a_lo(wlo[qq], v, s3.x);
          s3.y = __dp2a_lo(whi[qq], v, s3.y);
          s3.z = __dp2a_hi(wlo[qq], v, s3.z);
        }
        if (u <= p) {
          fin.x += s3.x * wxu[u]; fin.y += s3.y * wxu[u]; fin.z += s3.z * wxu[u]; fin.w += wsu[u];
        } else {
          nxt.x += s3.x * wxu[u]; nxt.y += s3.y * wxu[u]; nxt.z += s3.z * wxu[u]; nxt.w += wsu[u];
        }
      }
      mbar_arrive(s_empty + st);  // each thread releases its own reads (see above)
      if (++st == NST) {
        st = 0;
        parity ^= 1u;
      }
    }
    if (row_active && q > 0 && (q - 1) * S + p < len)
      out.put(x_out, y, finish(fin.x, fin.y, fin.z, fin.w, P.reciprocal != 0));
    fin = nxt;
    nxt = make_uint4(0, 0, 0, 0);
    x_out += S * M;
  }
#endif
}

// ---------------------------------------------------------------------------------------
// Simple copy (bandwidth reference): read-then-write, 16 bytes per thread.
// ---------------------------------------------------------------------------------------
__global__ void __launch_bounds__(256) copy16_kernel(const uint4* __restrict__ src,
                                                     uint4* __restrict__ dst, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

// Reads a buffer (larger than L2) so that the next timed kernel starts with a cold L2
// holding only clean lines (a memset would leave dirty lines to be written back during
// the timed kernel). The sink is written only if the data hold an impossible pattern.
__global__ void __launch_bounds__(256) l2_flush_kernel(const uint4* __restrict__ src, std::size_t n,
                                                       unsigned* sink) {
  std::uint32_t acc = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const uint4 v = src[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u && sink) *sink = acc;
}

// Diagnostic raster reads: for every listed row and every listed index, one load of
// 4 bytes (word index = column) or 16 bytes (index = column / 4). Measures what the DRAM
// delivers for a given access set and load width, free of any render's arithmetic.
template <bool Wide>
__global__ void __launch_bounds__(256) raster_read_kernel(const std::uint32_t* __restrict__ rgba,
                                                          std::uint32_t pitch_w,
                                                          const int* __restrict__ rows, int nrows,
                                                          const int* __restrict__ idx, int nidx,
                                                          int column_major, unsigned* sink) {
  // Each warp reads a piece of 32 consecutive list entries of one row. Row-major order:
  // consecutive warps along a row; column-major: consecutive warps down the rows (the
  // access order of a column sweep such as the input-side renders' walk).
  const int pieces = (nidx + 31) / 32;
  const long long gw = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (gw >= static_cast<long long>(pieces) * nrows) return;
  const int by = column_major ? static_cast<int>(gw % nrows) : static_cast<int>(gw / pieces);
  const int piece = column_major ? static_cast<int>(gw / nrows) : static_cast<int>(gw % pieces);
  const int i = piece * 32 + static_cast<int>(threadIdx.x % 32);
  if (i >= nidx) return;
  const std::uint32_t* row = rgba + static_cast<std::size_t>(__ldg(rows + by)) * pitch_w;
  std::uint32_t acc;
  if constexpr (Wide) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(row) + __ldg(idx + i));
    acc = v.x ^ v.y ^ v.z ^ v.w;
  } else {
    acc = __ldg(row + __ldg(idx + i));
  }
  if (acc == 0x9e3779b9u && sink) *sink = acc;
}

// ---------------------------------------------------------------------------------------
// Dispatch
// ---------------------------------------------------------------------------------------
// Shared memory of the staged NoSync kernel (bytes).
std::size_t staged_shmem(const KParams& P) {
  const int S = 2 * P.L.lim + 1, span = S * P.L.patch;
  const std::size_t tables = input_shared_words(span, P.rows, S, input_columns(P.chunk, S)) * 4;
  const std::size_t step = static_cast<std::size_t>(P.rows) * S * staged_quads(span) * sizeof(uint4);
  return P.stages * step + 2u * P.stages * sizeof(std::uint64_t) + tables;
}

template <class K>
void allow_shared(K kernel, std::size_t bytes) {
  if (bytes > 48u * 1024u)
    CUDA_CHECK_THROW(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
}

// The staged NoSync kernel, when it applies: lim = 2, sm_90+, a padded and 16-byte aligned
// raw, shared memory within the device limit. Returns whether it was launched.
template <class W>
bool launch_nosync_staged(const KParams& P, const RawDevice& raw, const W& w, cudaStream_t stream) {
  const int lim = P.L.lim, S = 2 * lim + 1, span = S * P.L.patch;
  if (lim != 2) return false;
  if (raw.rgba_pad_left < lim * P.L.patch + 3 || raw.rgba_pad_right < (lim + 1) * P.L.patch + 6)
    return false;
  if (reinterpret_cast<std::uintptr_t>(P.rgba) % 16 != 0 || P.rgba_pitch_w % 4 != 0) return false;
  int dev = 0, major = 0, optin = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (major < 9) return false;
  KParams Pt = P;  // + one producer warp: rows such that the block stays within its bound
  while (Pt.rows > 1 && (Pt.rows * span + 31) / 32 * 32 + 32 > kMaxInputBlock) --Pt.rows;
  if (Pt.rows * S * staged_quads(span) > 32 * kLsuItemsPerLane) return false;
  const std::size_t shmem = staged_shmem(Pt);
  if (shmem > static_cast<std::size_t>(optin)) return false;
  const dim3 block(static_cast<unsigned>((span * Pt.rows + 31) / 32 * 32 + 32));
  const dim3 grid(static_cast<unsigned>((P.L.grid_nx + P.chunk - 1) / P.chunk),
                  static_cast<unsigned>((P.L.out_h + Pt.rows - 1) / Pt.rows));
  allow_shared(nosync_staged_kernel<2, W>, shmem);
  nosync_staged_kernel<2, W><<<grid, block, shmem, stream>>>(Pt, w);
  CUDA_CHECK_LAUNCH();
  return true;
}

template <class W>
void launch_input_side(const KParams& P, const RawDevice& raw, RenderVariant v, bool direct,
                       const W& w, cudaStream_t stream) {
  if (v == RenderVariant::NoSync && !direct && launch_nosync_staged(P, raw, w, stream)) return;
  const int lim = P.L.lim, S = 2 * lim + 1, span = S * P.L.patch;
  const dim3 block(static_cast<unsigned>(span * P.rows));
  const dim3 grid(static_cast<unsigned>((P.L.grid_nx + P.chunk - 1) / P.chunk),
                  static_cast<unsigned>((P.L.out_h + P.rows - 1) / P.rows));
  const std::size_t shmem_nosync =
      input_shared_words(span, P.rows, S, input_columns(P.chunk, S)) * 4;
  const std::size_t shmem_sync = static_cast<std::size_t>(P.rows) * span * sizeof(uint4) + shmem_nosync;
  LB_REQUIRE(shmem_sync <= 48u * 1024u, "render: chunk or rows too large for shared memory");
  if (v == RenderVariant::Sync) {
    if (lim == 2) sync_kernel<2, W><<<grid, block, shmem_sync, stream>>>(P, w);
    else sync_kernel<0, W><<<grid, block, shmem_sync, stream>>>(P, w);
  } else {
    if (lim == 2) nosync_kernel<2, W><<<grid, block, shmem_nosync, stream>>>(P, w);
    else nosync_generic_kernel<W><<<grid, block, shmem_nosync, stream>>>(P, w);
  }
  CUDA_CHECK_LAUNCH();
}

template <class W>
void launch_original(const KParams& P, bool rgba, int block_threads, const W& w, cudaStream_t stream) {
  const long long total = static_cast<long long>(P.L.out_w) * P.L.out_h;
  const dim3 block(static_cast<unsigned>(block_threads));
  const dim3 grid(static_cast<unsigned>((total + block_threads - 1) / block_threads));
  if (rgba) original_kernel<true, W><<<grid, block, 0, stream>>>(P, w);
  else original_kernel<false, W><<<grid, block, 0, stream>>>(P, w);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void launch_render(const RenderLayout& L, const TablesDevice& T, const RawDevice& raw,
                   const RenderConfig& config, const KernelTuning& tuning_in,
                   const OutputDevice& out, cudaStream_t stream) {
  const KernelTuning tuning = resolve(tuning_in, config.variant);
  LB_REQUIRE(L.patch >= 1 && L.patch <= kMaxPatch && L.lim >= 0 && L.lim <= kMaxLim,
             "render: patch or range limit out of range");
  LB_REQUIRE(L.grid_nx >= 1 && L.grid_ny >= 1 && L.out_w == L.grid_nx * L.patch &&
                 L.out_h == L.grid_ny * L.patch,
             "render: inconsistent layout");
  LB_REQUIRE(raw.width == L.raw_w && raw.height == L.raw_h && raw.rgba && raw.rgb,
             "render: raw on the device does not match the tables");
  LB_REQUIRE(raw.rgba_pitch % 4 == 0 &&
                 static_cast<unsigned long long>(raw.rgba_pitch / 4) * raw.height < (1ull << 32),
             "render: raw image too large for 32-bit word offsets");
  KParams P{};
  P.L = L;
  P.T = T;
  P.rgb = raw.rgb;
  P.rgb_pitch = raw.rgb_pitch;
  P.rgba = raw.rgba;
  P.rgba_pitch_w = static_cast<std::uint32_t>(raw.rgba_pitch / 4);
  P.stages = kStagedSteps;
  P.reciprocal = config.original.reciprocal ? 1 : 0;
  P.sync_at_end = config.original.sync_at_end ? 1 : 0;

  const int span = (2 * L.lim + 1) * L.patch;  // <= 9 * 64 = 576 threads: always fits
  static_assert((2 * kMaxLim + 1) * kMaxPatch <= kMaxInputBlock, "one row must fit a block");
  P.chunk = std::clamp(tuning.chunk, 1, std::min(L.grid_nx, 1024));
  P.rows = std::clamp(tuning.rows, 1, std::max(1, kMaxInputBlock / span));
  P.rows = std::min(P.rows, L.out_h);
  const int block = std::clamp(tuning.original_block, 32, 1024);

  const bool surface = out.kind == OutputDevice::Kind::Surface;
  LB_REQUIRE(surface ? out.surface != 0 : out.ptr != nullptr, "render: no output target");
  LB_REQUIRE(surface || out.pitch >= static_cast<std::size_t>(L.out_w) * 4,
             "render: output pitch too small");
  if (config.variant == RenderVariant::Original) {
    const OriginalSwitches& sw = config.original;
    if (surface) {
      launch_original(P, sw.rgba_input, block, SurfaceWriter{out.surface}, stream);
    } else if (sw.vector_store) {
      launch_original(P, sw.rgba_input, block,
                      PitchedWriter<true>{static_cast<std::uint8_t*>(out.ptr), out.pitch}, stream);
    } else {
      launch_original(P, sw.rgba_input, block,
                      PitchedWriter<false>{static_cast<std::uint8_t*>(out.ptr), out.pitch}, stream);
    }
  } else {
    if (surface) {
      launch_input_side(P, raw, config.variant, tuning.direct_loads, SurfaceWriter{out.surface}, stream);
    } else {
      LB_REQUIRE(out.pitch % 4 == 0, "render: output pitch must be a multiple of 4");
      launch_input_side(P, raw, config.variant, tuning.direct_loads,
                        PitchedWriter<true>{static_cast<std::uint8_t*>(out.ptr), out.pitch}, stream);
    }
  }
}

void launch_copy(const void* src, void* dst, std::size_t bytes, cudaStream_t stream) {
  LB_REQUIRE(bytes % 16 == 0, "copy: size must be a multiple of 16 bytes");
  const std::size_t n = bytes / 16;
  if (n == 0) return;
  const unsigned threads = 256;
  const dim3 grid(static_cast<unsigned>((n + threads - 1) / threads));
  copy16_kernel<<<grid, threads, 0, stream>>>(static_cast<const uint4*>(src), static_cast<uint4*>(dst), n);
  CUDA_CHECK_LAUNCH();
}

void launch_l2_flush(const void* buf, std::size_t bytes, unsigned* sink, cudaStream_t stream) {
  const std::size_t n = bytes / 16;
  if (n == 0) return;
  int sms = 0, dev = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const unsigned blocks = static_cast<unsigned>(std::max(1, sms) * 8);
  l2_flush_kernel<<<blocks, 256, 0, stream>>>(static_cast<const uint4*>(buf), n, sink);
  CUDA_CHECK_LAUNCH();
}

void launch_raster_read(const std::uint32_t* rgba, std::size_t pitch_bytes, const int* rows,
                        int nrows, const int* idx, int nidx, bool wide, int column_major,
                        unsigned* sink, cudaStream_t stream) {
  LB_REQUIRE(nrows > 0 && nidx > 0, "raster read: bad lists");
  const long long warps = static_cast<long long>((nidx + 31) / 32) * nrows;
  const dim3 grid(static_cast<unsigned>((warps + 7) / 8));
  const auto pw = static_cast<std::uint32_t>(pitch_bytes / 4);
  if (wide) raster_read_kernel<true><<<grid, 256, 0, stream>>>(rgba, pw, rows, nrows, idx, nidx, column_major, sink);
  else raster_read_kernel<false><<<grid, 256, 0, stream>>>(rgba, pw, rows, nrows, idx, nidx, column_major, sink);
  CUDA_CHECK_LAUNCH();
}

cudaError_t probe_kernels() {
  cudaFuncAttributes attr{};
  return cudaFuncGetAttributes(&attr, copy16_kernel);
}

}  // namespace lb::cuda::detail
