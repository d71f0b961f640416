#pragma once
// Shared by the plenoptic render kernels (render_original.cu, render_sync.cu,
// render_nosync.cu) and their dispatch (render.cu): the kernel parameters, the output
// writers, the exact integer finish and the shared-memory layout of the input-side kernels,
// plus the per-family launchers. Device code: included by .cu files only.
#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>

#include "cuda_check.cuh"
#include "dynamic_shared.cuh"
#include "plenoptic/render_launch.hpp"

namespace lb::cuda::detail {

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
  // Staged NoSync only (bench diagnostic, nullptr: off): per block 4 words, its start and end
  // (%globaltimer, ns) and its SM (render_block_trace.hpp).
  unsigned long long* block_trace;
};

constexpr int kStagedSteps = 8;  // ring of step buffers (staged NoSync)

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

// ---------------------------------------------------------------------------------------
// Shared by the kernels that stage the raw through shared memory (staged NoSync, Tiled)
// ---------------------------------------------------------------------------------------
// Their segments of (2lim+1)*M pixels are fetched in 16-byte quads without clamping: the RGBA
// raw must carry enough replicated border columns and be 16-byte aligned row by row.
inline bool raw_ready_for_staging(const KParams& P, const RawDevice& raw) {
  const int lim = P.L.lim, M = P.L.patch;
  return raw.rgba_pad_left >= lim * M + 3 && raw.rgba_pad_right >= (lim + 1) * M + 6 &&
         reinterpret_cast<std::uintptr_t>(P.rgba) % 16 == 0 && P.rgba_pitch_w % 4 == 0;
}

// ---------------------------------------------------------------------------------------
// Per-family launchers (each checks its launch). W: SurfaceWriter, PitchedWriter<true>
// (and PitchedWriter<false> for the Original), instantiated in the family's file.
// ---------------------------------------------------------------------------------------
// render_original.cu: one thread per output pixel, 1D blocks of block_threads.
template <class W>
void launch_render_original(const KParams& P, bool rgba, int block_threads, const W& w, cudaStream_t stream);
// render_sync.cu: Sync with lim 2 (compile-time) or any lim (run-time).
template <class W>
void launch_render_sync(const KParams& P, dim3 grid, dim3 block, std::size_t shmem, const W& w,
                        cudaStream_t stream);
// render_nosync.cu: NoSync with direct loads, lim 2 (compile-time) or any lim (generic).
template <class W>
void launch_render_nosync(const KParams& P, dim3 grid, dim3 block, std::size_t shmem, const W& w,
                          cudaStream_t stream);
// render_nosync.cu: the staged NoSync kernel. staged_rows: whether it applies (lim = 2, sm_90+,
// a padded and 16-byte aligned raw, shared memory within the device limit): its rows per block,
// or 0. The launcher takes P with those rows.
int staged_rows(const KParams& P, const RawDevice& raw, int cc_major, int smem_optin);
// Whether the staged kernel's body is in this build for the current device (PTX of compute_90+).
bool nosync_staged_built();
template <class W>
void launch_render_nosync_staged(const KParams& P, const W& w, cudaStream_t stream);
// render_tiled.cu: the Original over output tiles staged through shared memory. tiled_chunk:
// whether it applies (a padded and aligned raw, a tile within the shared memory): its micro-image
// columns per tile (P.chunk or fewer), or 0. The launcher takes P with that chunk.
int tiled_chunk(const KParams& P, const RawDevice& raw, int smem_optin);
template <class W>
void launch_render_tiled(const KParams& P, const W& w, cudaStream_t stream);

}  // namespace lb::cuda::detail
