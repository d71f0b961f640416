// Plenoptic rendering, Tiled (lightbench's kernel, not the seed's): the Original's
// output-side mapping, one thread per output pixel, over a tile of one output row x `chunk`
// micro-image columns whose raw pieces the block first copies into shared memory with
// 16-byte cp.async. Bit-exact with the CPU reference (integer sums, plenoptic_math.hpp).
//
// Why: the render is a gather whose cost is how its loads become DRAM bandwidth. The
// Original's 4-byte loads reach a quarter of the copy bandwidth, 16-byte loads of the same
// pixels most of it (docs/PERFORMANCE.md). The input-side NoSync, staged the same way,
// sweeps whole rows in one wave of equal blocks and ends with its slowest SM (~80 % of a
// raster read of the same quads). Small one-shot tiles are balanced by the hardware, as that
// raster read is, and need no lead-in: a raw pixel feeds exactly one output column (column
// col_start[m] + a - i*M only output (m - i)*M + a), so a tile copies just the pixels its
// outputs use, in whole quads (neighbouring tiles share at most a segment's edge quads).
// With 9504 tiles of ~10 KB the SMs stay fed to the end. What it costs is instructions
// (every SM runs ~14 tiles at once): the copies are unrolled over the S lines with the row
// offsets in registers, and the sums have no branches (missing rows and columns are
// zero-filled and weighted 0). ncu at the seed workload (H100): 18 M instructions, issue
// slots 49 % busy, DRAM 72 % (the raster read: 73 %).
//
// Instantiations: render_tiled_kernel<LIM in {2 (compile-time), 0 (run-time)}, writer in
// {surface, pitched u32}> (4).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda_check.cuh"
#include "lightbench/fast_div.hpp"
#include "plenoptic/render_async.cuh"
#include "plenoptic/render_kernels.cuh"

namespace lb::cuda::detail {
namespace {

constexpr int kTiledMaxThreads = 256;
constexpr std::uint32_t kNoLine = 0xffffffffu;  // row-offset entry of a neighbour outside the grid

// Shared memory of a tile (one output row, `chunk` micro-image columns): the raw pieces,
// [lines = S][slots = chunk + 2 lim][qmax] quads (slot s: micro-image column o0 - lim + s,
// its segment of S*M pixels from col_start - lim*M; line q: neighbour row j = q - lim),
// then the tables: per slot the segment's first column and the range of its quads the tile
// uses, per line the raw row's word offset and weight, wx.
struct TiledLayout {
  int S, span, qmax, slots, line_quads;
  __host__ __device__ TiledLayout(int lim, int patch, int chunk)
      : S(2 * lim + 1), span(S * patch), qmax(staged_quads(span)), slots(chunk + 2 * lim), line_quads(slots * qmax) {}
  __host__ __device__ std::size_t raw_quads() const { return static_cast<std::size_t>(S) * line_quads; }
  __host__ __device__ std::size_t table_words() const {
    return 3u * static_cast<std::size_t>(slots) + 2u * static_cast<std::size_t>(S) + span;
  }
  __host__ __device__ std::size_t bytes() const { return raw_quads() * 16 + table_words() * 4; }
};

// Copies quad q of a slot's piece in every line (MAXR >= S lines, unrolled): the raw's
// words at roff[line] + col_word + 4q, or zeros where the line or the column is missing.
template <int MAXR>
__device__ __forceinline__ void copy_quad_lines(const std::uint32_t* __restrict__ rgba, const std::uint32_t (&roff)[MAXR],
                                                int S, bool column, std::uint32_t col_word, uint4* dst, int line_quads) {
#pragma unroll
  for (int l = 0; l < MAXR; ++l) {
    if (l < S) {
      uint4* d = dst + l * line_quads;
      if (column && roff[l] != kNoLine) {
        const std::uint32_t* src = rgba + (roff[l] + col_word);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        cp_async16_plain(d, src);
#else
        *d = __ldg(reinterpret_cast<const uint4*>(src));
#endif
      } else {
        *d = make_uint4(0, 0, 0, 0);
      }
    }
  }
}

template <int LIM, class W>
__global__ void __launch_bounds__(kTiledMaxThreads) render_tiled_kernel(const KParams P, const FastDiv by_m, const W out) {
  constexpr int MAXR = LIM > 0 ? 2 * LIM + 1 : kMaxRows;
  const RenderLayout& L = P.L;
  const int lim = LIM > 0 ? LIM : L.lim, M = L.patch;
  const int TC = P.chunk;
  const TiledLayout G(lim, M, TC);
  const int S = G.S;
  extern __shared__ uint4 smem_tiled[];
  uint4* const s_raw = smem_tiled;
  int* const s_seg = reinterpret_cast<int*>(s_raw + G.raw_quads());  // [slots] first column or kNoColumn
  int* const s_qlo = s_seg + G.slots;                                 // [slots] first quad used
  int* const s_qhi = s_qlo + G.slots;                                 // [slots] last quad used
  std::uint32_t* const s_roff = reinterpret_cast<std::uint32_t*>(s_qhi + G.slots);  // [S] or kNoLine
  std::uint32_t* const s_wy = s_roff + S;                                           // [S]
  std::uint32_t* const s_wx = s_wy + S;                                             // [span]

  const int o0 = static_cast<int>(blockIdx.x) * TC, y = static_cast<int>(blockIdx.y);
  const int oe = min(o0 + TC, L.grid_nx);  // tile's output micro-columns [o0, oe)
  const int tid = static_cast<int>(threadIdx.x), nt = static_cast<int>(blockDim.x);

  for (int t = tid; t < G.span; t += nt) s_wx[t] = __ldg(P.T.wx + t);
  for (int s = tid; s < G.slots; s += nt) {
    // Column m feeds outputs m - i, i = -lim..lim; the tile's are i in [ilo, ihi], which
    // are segment pixels k = a - i*M + lim*M in [(lim - ihi)*M, (lim - ilo)*M + M - 1].
    const int m = o0 - lim + s;
    const int ilo = max(-lim, m - (oe - 1)), ihi = min(lim, m - o0);
    if (m < 0 || m >= L.grid_nx || ilo > ihi) {
      s_seg[s] = kNoColumn;
      continue;
    }
    const int seg = __ldg(P.T.col_start + m) - lim * M, off = seg & 3;
    s_seg[s] = seg;
    s_qlo[s] = (off + (lim - ihi) * M) >> 2;
    s_qhi[s] = (off + (lim - ilo) * M + M - 1) >> 2;
  }
  const int ny = y / M, b = y - ny * M;
  for (int l = tid; l < S; l += nt) {
    const int j = l - lim, my = ny + j;
    if (my >= 0 && my < L.grid_ny) {
      const int row = sample_coord(__ldg(P.T.row_start + my), b, j, M, L.raw_h);
      s_roff[l] = static_cast<std::uint32_t>(row) * P.rgba_pitch_w;
      s_wy[l] = __ldg(P.T.wy + weight_index(b, j, M, lim));
    } else {
      s_roff[l] = kNoLine;
      s_wy[l] = 0;
    }
  }
  __syncthreads();

  // Copy the used quads of every (line, slot) piece: a group of lanes per slot (half a warp
  // when a segment has at most 16 quads), lane q copying quad qlo + q (+ lanes, ...) of the
  // slot's piece in every line. The raw carries replicated border columns (RawDevice pads),
  // so a segment is fetched without clamping; 32-bit word offsets (launch_render checks).
  // What the sums read but no raw pixel fills -- a neighbour row or micro-image column
  // outside the grid, weighted 0 -- is zeroed, so that the sums need no branches.
  {
    std::uint32_t roff[MAXR];
#pragma unroll
    for (int l = 0; l < MAXR; ++l) roff[l] = l < S ? s_roff[l] : kNoLine;
    const int lanes = G.qmax <= 16 ? 16 : 32;
    const int group = tid / lanes, lane = tid - group * lanes, groups = nt / lanes;
    for (int s = group; s < G.slots; s += groups) {
      const int seg = s_seg[s];
      const bool column = seg != kNoColumn;
      const int q0 = column ? s_qlo[s] : 0, q1 = column ? s_qhi[s] : G.qmax - 1;
      const std::uint32_t seg_word = column ? 4u * static_cast<std::uint32_t>(seg >> 2) : 0u;
      uint4* const dst = s_raw + s * G.qmax;
      int q = q0 + lane;
      if (q <= q1)
        copy_quad_lines<MAXR>(P.rgba, roff, S, column, seg_word + 4u * q, dst + q, G.line_quads);
      for (q += lanes; q <= q1; q += lanes)  // segments of more than `lanes` quads (M > 24)
        copy_quad_lines<MAXR>(P.rgba, roff, S, column, seg_word + 4u * q, dst + q, G.line_quads);
    }
  }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  cp_async_wait_all();
#endif
  __syncthreads();

  // One thread per output pixel: sum_i wx_k * sum_j wy_j p_ij with k = a - i*M + lim*M (the
  // staged NoSync's factorisation; exact in 32-bit unsigned arithmetic, render_kernels.cuh).
  const int line_words = G.line_quads * 4, slot_words = G.qmax * 4;
  const std::uint32_t* const raw_words = reinterpret_cast<const std::uint32_t*>(s_raw);
  std::uint32_t wlo[MAXR], whi[MAXR], swy = 0;
#pragma unroll
  for (int q = 0; q < MAXR; ++q) {
    wlo[q] = q < S ? s_wy[q] : 0u;  // 0: neighbour row outside the grid (its line is zeroed)
    whi[q] = wlo[q] << 16;
    swy += wlo[q];
  }
  for (int idx = tid; idx < TC * M; idx += nt) {
    const int oc = by_m.div(idx), a = idx - oc * M;  // by_m: fast_div(M)
    const int o = o0 + oc;
    if (o >= L.grid_nx) break;  // idx only grows
    // Slot oc + ii holds column m = o + i (i = ii - lim); this output's pixel in it is
    // k = a - i*M + lim*M = a + (2 lim - ii) M.
    const std::uint32_t* const row_base = raw_words + oc * slot_words + a + 2 * lim * M;
    uint4 acc = make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int ii = 0; ii < MAXR; ++ii) {
      if (ii >= S) break;
      const int seg = s_seg[oc + ii];
      const int k = a + (2 * lim - ii) * M;
      // A column outside the grid: its slot is zeroed and its weight is 0.
      const std::uint32_t wk = seg != kNoColumn ? s_wx[k] : 0u;
      const std::uint32_t* const base = row_base + ii * (slot_words - M) + (seg & 3);
      uint3 s3 = make_uint3(0, 0, 0);
#pragma unroll
      for (int q = 0; q < MAXR; ++q) {
        if (q < S) {
          const std::uint32_t v = base[q * line_words];
          s3.x = __dp2a_lo(wlo[q], v, s3.x);  // wy * byte 0 (R)
          s3.y = __dp2a_lo(whi[q], v, s3.y);  // wy * byte 1 (G)
          s3.z = __dp2a_hi(wlo[q], v, s3.z);  // wy * byte 2 (B)
        }
      }
      acc.x += s3.x * wk;
      acc.y += s3.y * wk;
      acc.z += s3.z * wk;
      acc.w += swy * wk;
    }
    out.put(o * M + a, y, finish(acc.x, acc.y, acc.z, acc.w, P.reciprocal != 0));
  }
}

}  // namespace

int tiled_chunk(const KParams& P, const RawDevice& raw, int smem_optin) {
  if (!raw_ready_for_staging(P, raw)) return 0;
  const int lim = P.L.lim, M = P.L.patch;
  // One output row per tile; its columns shrink until the tile fits the shared memory; none
  // fits: the caller runs the Original (direct loads) instead.
  int chunk = P.chunk;
  while (TiledLayout(lim, M, chunk).bytes() > static_cast<std::size_t>(smem_optin) && chunk > 1) --chunk;
  return TiledLayout(lim, M, chunk).bytes() > static_cast<std::size_t>(smem_optin) ? 0 : chunk;
}

template <class W>
void launch_render_tiled(const KParams& P, const W& w, cudaStream_t stream) {
  const int lim = P.L.lim, M = P.L.patch;
  const std::size_t bytes = TiledLayout(lim, M, P.chunk).bytes();
  const int outputs = P.chunk * M;
  const FastDiv by_m = fast_div(M);  // output column of a tile's thread: idx / M
  const dim3 block(static_cast<unsigned>(std::min(kTiledMaxThreads, (outputs + 31) / 32 * 32)));
  const dim3 grid(static_cast<unsigned>((P.L.grid_nx + P.chunk - 1) / P.chunk), static_cast<unsigned>(P.L.out_h));
  if (lim == 2) {
    allow_dynamic_shared(render_tiled_kernel<2, W>, bytes);
    render_tiled_kernel<2, W><<<grid, block, bytes, stream>>>(P, by_m, w);
  } else {
    allow_dynamic_shared(render_tiled_kernel<0, W>, bytes);
    render_tiled_kernel<0, W><<<grid, block, bytes, stream>>>(P, by_m, w);
  }
  CUDA_CHECK_LAUNCH();
}
template void launch_render_tiled<SurfaceWriter>(const KParams&, const SurfaceWriter&, cudaStream_t);
template void launch_render_tiled<PitchedWriter<true>>(const KParams&, const PitchedWriter<true>&, cudaStream_t);

}  // namespace lb::cuda::detail
