// Plenoptic depth-extraction kernels (spec "Depth extraction", seed sections 3.1 and 4.1,
// Fig. 6): SAD over candidate patch sizes P = pmin..pmax, in three variants that compute
// exactly the CPU reference (integer costs and an exact argmin, depth_math.hpp):
//   * Original: one thread per output pixel, the patch-size loop outermost (the seed's
//     extension of the rendering kernel). By default (lim <= 3) its body is
//     lb::depth_cost_table: the bounds and aperture tests come from a host-built neighbour
//     table, so a sample costs a predicated load, its address and two SAD instructions
//     (1.70x); DepthTuning::original_kernel = 1 runs lb::depth_cost itself, per-sample tests.
//   * Sync / NoSync: the render's input-side mapping: a block covers `rows` output rows and
//     a chunk of micro-image columns; each output row has (2lim+1)*M threads that walk the
//     micro-images m of the row together, so that at every step the threads load contiguous
//     raw segments of micro-image m (one per vertical neighbour). Inside a step the vertical
//     neighbour j is the outer loop and the patch size the innermost, from large to small
//     (seed Fig. 6): the rows of P and P-1 overlap almost entirely, so the second read of a
//     row hits L1. A thread at load position group g (0..2lim) of step m serves output
//     o = m - lim + g through neighbour i = lim - g.
//       - Sync (Fig. 7a): g fixed per thread; the partial SAD of an output (per P) and its
//         main pixels live in a shared-memory ring of 2lim+1 slots; group 2lim opens a slot
//         (loads the main pixels), group 0 closes it and writes; one barrier per step.
//       - NoSync (Fig. 7b): each thread keeps its output for 2lim+1 steps in registers and
//         shifts its load position (g = (p - m) mod (2lim+1) for its phase p) instead of
//         the buffer: no shared accumulators, no barrier, every thread writes on its own.
//   SAD of two RGBA8 words: __vabsdiffu4 (per-byte |a-b|) then __dp4a with (1,1,1,0) (sum of
//   R, G, B) -- two instructions per sample, in lb::depth_sad.
// window > 1: the variant's kernel writes the cost volume, then depth_aggregate_kernel does
// the k x k box sum + argmin (lb::depth_select, the reference's own function).
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "cuda_check.cuh"
#include "dynamic_shared.cuh"
#include "plenoptic/depth_launch.hpp"
#include "surface_write.cuh"
#include "plenoptic/plenoptic_math.hpp"
#include "plenoptic/render_tables.hpp"

namespace lb::cuda::detail {
namespace {

constexpr int kMaxDepthBlock = 1024;
constexpr std::uint32_t kNoRow = 0xffffffffu;  // vertical neighbour outside the grid

struct DParams {
  DepthLayout L;
  const int* cs;  // col_start [count][grid_nx]
  const int* rs;  // row_start [count][grid_ny]
  const std::uint64_t* nb;  // neighbour entries [count][M][M] (null: lim > kDepthTableLim)
  const std::uint32_t* rgba;
  std::uint32_t pitch_w;  // words per raw row
  int chunk, rows;
  int original_kernel;    // DepthTuning::original_kernel
  std::uint32_t* cost;    // cost volume (window > 1), else null
};

struct NoWriter {};  // cost-volume passes write no map

__device__ __forceinline__ std::uint32_t ld(const DParams& P, std::uint32_t row_off, int col) {
  return __ldg(P.rgba + row_off + col);
}

__device__ __forceinline__ std::size_t cost_index(const DepthLayout& L, int q, int x, int y) {
  return (static_cast<std::size_t>(q) * L.out_h + y) * L.out_w + x;
}

// Fused argmin (window 1) or cost-volume store of one output pixel's candidate sums.
template <bool Fused, int MAXP, class W>
__device__ __forceinline__ void emit(const DParams& P, const W& out, const std::uint32_t (&acc)[MAXP],
                                     int x, int y) {
  const DepthLayout& L = P.L;
  if constexpr (Fused) {
    std::uint32_t best = acc[0];
    int best_P = L.pmin;
#pragma unroll
    for (int q = 1; q < MAXP; ++q)
      if (q < L.count() && depth_better(depth_pack_sum(acc[q]), depth_pack_count(acc[q]), L.pmin + q,
                                        depth_pack_sum(best), depth_pack_count(best), best_P)) {
        best = acc[q];
        best_P = L.pmin + q;
      }
    out.put(x, y, static_cast<float>(best_P));
  } else {
#pragma unroll
    for (int q = 0; q < MAXP; ++q)
      if (q < L.count()) P.cost[cost_index(L, q, x, y)] = acc[q];
  }
}

// One output pixel's candidates q = 0 .. count - 1 in order, cost(q) its cost pair at q: the
// fused argmin written to the map (window 1) or each pair stored in the cost volume.
template <bool Fused, class W, class Cost>
__device__ __forceinline__ void candidates(const DParams& P, const W& out, int x, int y, const Cost& cost) {
  const DepthLayout& L = P.L;
  std::uint32_t best = 0;
  int best_P = L.pmin;
  for (int q = 0; q < L.count(); ++q) {  // patch size: the outermost loop
    const std::uint32_t s = cost(q);
    if constexpr (Fused) {
      if (q == 0 || depth_better(depth_pack_sum(s), depth_pack_count(s), L.pmin + q,
                                 depth_pack_sum(best), depth_pack_count(best), best_P)) {
        best = s;
        best_P = L.pmin + q;
      }
    } else {
      P.cost[cost_index(L, q, x, y)] = s;
    }
  }
  if constexpr (Fused) out.put(x, y, static_cast<float>(best_P));
}

// ---------------------------------------------------------------------------------------
// Original: one thread per output pixel, patch size outermost; lb::depth_cost per P.
// ---------------------------------------------------------------------------------------
template <bool Fused, int LIM, class W>
__global__ void __launch_bounds__(1024) depth_original_kernel(const DParams P, const W out) {
  const DepthLayout& L = P.L;
  const int idx = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (idx >= L.out_w * L.out_h) return;
  const int y = idx / L.out_w, x = idx - y * L.out_w;
  const DepthTables T{P.cs, P.rs};
  auto load = [&P](int col, int row) {
    return __ldg(P.rgba + static_cast<std::size_t>(row) * P.pitch_w + col);
  };
  candidates<Fused>(P, out, x, y, [&](int q) { return depth_cost<LIM>(L, T, load, x, y, q); });
}

// ---------------------------------------------------------------------------------------
// Original from the neighbour table (the default for lim <= kDepthTableLim): the same pixel
// per thread, its grid mask once, then per candidate one table entry (aperture mask, a', b')
// and only the samples whose bit is set: lb::depth_cost_table, the same integers as
// lb::depth_cost. The per-sample bounds and aperture tests were ~4 of every 5 instructions of
// depth_original_kernel (162 M instructions at the seed workload, ncu).
// ---------------------------------------------------------------------------------------
// Registers: 64 at lim 2 (the loads of a candidate in flight together); capping them at 48 /
// 40 / 32 (8 .. 16 blocks of 128) took 0.174 / 0.177 / 0.391 ms against 0.144 (H100).
template <bool Fused, int LIM, class W>
__global__ void __launch_bounds__(1024) depth_table_kernel(const DParams P, const W out) {
  const DepthLayout& L = P.L;
  const int idx = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (idx >= L.out_w * L.out_h) return;
  const int y = idx / L.out_w, x = idx - y * L.out_w;
  const int nx = x / L.patch, a = x - nx * L.patch;
  const int ny = y / L.patch, b = y - ny * L.patch;
  const DepthTables T{P.cs, P.rs, P.nb};
  const std::uint32_t* const rgba = P.rgba;
  const std::uint32_t pw = P.pitch_w;
  // 32-bit word offsets (launch_depth checks that the raw fits).
  auto load = [rgba, pw](int col, int row) {
    return __ldg(rgba + (static_cast<std::uint32_t>(row) * pw + static_cast<std::uint32_t>(col)));
  };
  const std::uint64_t grid = depth_grid_mask(L, nx, ny);
  const std::uint64_t* const nb = P.nb + depth_entry_index(L, 0, a, b);
  const int stride = L.patch * L.patch;
  candidates<Fused>(P, out, x, y, [&](int q) {
    return depth_cost_table<LIM>(L, T, load, nx, ny, __ldg(nb + q * stride), grid, q);
  });
}

// ---------------------------------------------------------------------------------------
// Input-side kernels: shared setup. s_roff[r][q][jj]: word offset of the raw row of
// neighbour j = jj - lim of output row r at candidate q (kNoRow: outside the grid);
// s_y2 (right after s_roff, same layout): Y^2 of the aperture test.
// ---------------------------------------------------------------------------------------
__device__ void setup_rows(const DParams& P, int S, std::uint32_t* s_roff) {
  const DepthLayout& L = P.L;
  const int np = L.count(), per_row = np * S;
  for (int t = threadIdx.x; t < P.rows * per_row; t += blockDim.x) {
    const int r = t / per_row, rem = t - r * per_row, q = rem / S, jj = rem - q * S;
    const int j = jj - L.lim, Pq = L.pmin + q;
    const int y = static_cast<int>(blockIdx.y) * P.rows + r;
    const int ny = y / L.patch, b = y - ny * L.patch, my = ny + j;
    std::uint32_t off = kNoRow;
    s_roff[P.rows * per_row + t] = static_cast<std::uint32_t>(depth_sq(depth_axis(depth_scaled(b, Pq, L.patch), j, Pq)));
    if (y < L.out_h && my >= 0 && my < L.grid_ny)
      off = static_cast<std::uint32_t>(
                sample_coord(__ldg(P.rs + q * L.grid_ny + my), depth_scaled(b, Pq, L.patch), j, Pq, L.raw_h)) *
            P.pitch_w;
    s_roff[t] = off;
  }
}

// Adds the contributions of micro-image m seen through neighbour i (all vertical
// neighbours j, all candidates) to acc. j outer, P innermost from large to small.
template <int MAXP>
__device__ __forceinline__ void accumulate_step(const DParams& P, const std::uint32_t* roff, int S,
                                                int m, int i, const int (&apq)[MAXP],
                                                const std::uint32_t (&mainv)[MAXP], std::uint32_t (&acc)[MAXP]) {
  const DepthLayout& L = P.L;
  const std::uint32_t* y2 = roff + P.rows * L.count() * S;  // s_y2 of this row
  int col[MAXP];
  std::uint32_t x2[MAXP];
#pragma unroll
  for (int q = 0; q < MAXP; ++q)
    if (q < L.count()) {
      col[q] = clamp_int(__ldg(P.cs + q * L.grid_nx + m) + apq[q] - i * (L.pmin + q), 0, L.raw_w - 1);
      x2[q] = static_cast<std::uint32_t>(depth_sq(depth_axis(apq[q], i, L.pmin + q)));
    }
  const std::uint32_t T = static_cast<std::uint32_t>(L.aperture2);
  for (int jj = 0; jj < S; ++jj) {
    if (i == 0 && jj == L.lim) continue;  // the main micro-image itself
#pragma unroll
    for (int q = MAXP - 1; q >= 0; --q) {  // large to small patch size
      if (q < L.count()) {
        const std::uint32_t ro = roff[q * S + jj];
        if (ro != kNoRow && x2[q] + y2[q * S + jj] <= T)
          acc[q] += depth_sad(mainv[q], ld(P, ro, col[q])) + 0x10000u;  // s += sad, n += 1
      }
    }
  }
}

template <int MAXP>
__device__ __forceinline__ void load_main(const DParams& P, const std::uint32_t* roff, int S, int o,
                                          const int (&apq)[MAXP], std::uint32_t (&mainv)[MAXP]) {
  const DepthLayout& L = P.L;
#pragma unroll
  for (int q = 0; q < MAXP; ++q)
    if (q < L.count())
      mainv[q] = ld(P, roff[q * S + L.lim],
                    clamp_int(__ldg(P.cs + q * L.grid_nx + o) + apq[q], 0, L.raw_w - 1));
}

// ---------------------------------------------------------------------------------------
// NoSync (Fig. 7b): thread (r, p, a) handles the outputs o == p - lim (mod S) of its row, each
// for the S steps m = o - lim .. o + lim, in registers; no barrier after the setup.
// ---------------------------------------------------------------------------------------
template <bool Fused, int MAXP, class W>
__global__ void __launch_bounds__(kMaxDepthBlock) depth_nosync_kernel(const DParams P, const W out) {
  const DepthLayout& L = P.L;
  const int lim = L.lim, S = 2 * lim + 1, M = L.patch, span = S * M, np = L.count();
  extern __shared__ std::uint32_t smem_depth[];
  const int cs0 = static_cast<int>(blockIdx.x) * P.chunk;
  const int ce = min(cs0 + P.chunk, L.grid_nx);
  setup_rows(P, S, smem_depth);
  __syncthreads();
  const int r = static_cast<int>(threadIdx.x) / span;
  const int t = static_cast<int>(threadIdx.x) - r * span;
  const int p = t / M, a = t - p * M;
  const int y = static_cast<int>(blockIdx.y) * P.rows + r;
  if (r >= P.rows || y >= L.out_h) return;
  const std::uint32_t* roff = smem_depth + r * np * S;
  int apq[MAXP];
#pragma unroll
  for (int q = 0; q < MAXP; ++q) apq[q] = q < np ? depth_scaled(a, L.pmin + q, M) : 0;
  std::uint32_t acc[MAXP], mainv[MAXP];
#pragma unroll
  for (int q = 0; q < MAXP; ++q) acc[q] = mainv[q] = 0;
  // g = (p - m) mod S, kept incrementally: it decreases by one per step.
  int g = ((p - (cs0 - lim)) % S + S) % S;
  for (int m = cs0 - lim; m < ce + lim; ++m) {
    const int o = m - lim + g, i = lim - g;
    if (o >= cs0 && o < ce) {
      if (g == S - 1) {  // first contribution to o: open it
#pragma unroll
        for (int q = 0; q < MAXP; ++q) acc[q] = 0;
        load_main(P, roff, S, o, apq, mainv);
      }
      if (m >= 0 && m < L.grid_nx) accumulate_step(P, roff, S, m, i, apq, mainv, acc);
      if (g == 0) emit<Fused>(P, out, acc, o * M + a, y);  // last one: close it
    }
    g = g == 0 ? S - 1 : g - 1;
  }
}

// ---------------------------------------------------------------------------------------
// Sync (Fig. 7a): thread (r, g, a) always loads position group g; per output slot
// (o mod S) the partial sums and main pixels of every candidate sit in shared memory,
// layout [r][slot][q][a] (consecutive threads: consecutive banks). Barrier per step.
// ---------------------------------------------------------------------------------------
template <bool Fused, int MAXP, class W>
__global__ void __launch_bounds__(kMaxDepthBlock) depth_sync_kernel(const DParams P, const W out) {
  const DepthLayout& L = P.L;
  const int lim = L.lim, S = 2 * lim + 1, M = L.patch, span = S * M, np = L.count();
  extern __shared__ std::uint32_t smem_depth[];
  std::uint32_t* s_roff = smem_depth;                         // [rows][np][S]
  std::uint32_t* s_acc = s_roff + 2 * P.rows * np * S;        // [rows][S][np][M]
  std::uint32_t* s_main = s_acc + P.rows * S * np * M;        // [rows][S][np][M]
  const int cs0 = static_cast<int>(blockIdx.x) * P.chunk;
  const int ce = min(cs0 + P.chunk, L.grid_nx);
  setup_rows(P, S, s_roff);
  __syncthreads();
  const int r = static_cast<int>(threadIdx.x) / span;
  const int t = static_cast<int>(threadIdx.x) - r * span;
  const int g = t / M, a = t - g * M, i = lim - g;
  const int y = static_cast<int>(blockIdx.y) * P.rows + r;
  const bool row_active = r < P.rows && y < L.out_h;  // no early return: barriers below
  const std::uint32_t* roff = s_roff + (row_active ? r : 0) * np * S;
  int apq[MAXP];
#pragma unroll
  for (int q = 0; q < MAXP; ++q) apq[q] = q < np ? depth_scaled(a, L.pmin + q, M) : 0;
  for (int m = cs0 - lim; m < ce + lim; ++m) {
    const int o = m - lim + g;
    if (row_active && o >= cs0 && o < ce) {
      const int slot = (o + 2 * S) % S;  // o >= -2lim
      std::uint32_t* acc_s = s_acc + ((r * S + slot) * np) * M + a;
      std::uint32_t* main_s = s_main + ((r * S + slot) * np) * M + a;
      std::uint32_t acc[MAXP], mainv[MAXP];
      if (g == S - 1) {  // opens output o
#pragma unroll
        for (int q = 0; q < MAXP; ++q) acc[q] = 0;
        load_main(P, roff, S, o, apq, mainv);
      } else {
#pragma unroll
        for (int q = 0; q < MAXP; ++q)
          if (q < np) {
            acc[q] = acc_s[q * M];
            mainv[q] = main_s[q * M];
          }
      }
      if (m >= 0 && m < L.grid_nx) accumulate_step(P, roff, S, m, i, apq, mainv, acc);
      if (g == 0) {  // closes output o
        emit<Fused>(P, out, acc, o * M + a, y);
      } else {
#pragma unroll
        for (int q = 0; q < MAXP; ++q)
          if (q < np) {
            acc_s[q * M] = acc[q];
            if (g == S - 1) main_s[q * M] = mainv[q];
          }
      }
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------------------
// Window aggregation + argmin over the cost volume (window > 1): lb::depth_select.
// ---------------------------------------------------------------------------------------
template <class W>
__global__ void __launch_bounds__(256) depth_aggregate_kernel(const DParams P, const W out) {
  const DepthLayout& L = P.L;
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y);
  if (x >= L.out_w) return;
  const std::uint32_t* cost = P.cost;
  auto get = [&L, cost](int xx, int yy, int q) { return __ldg(cost + cost_index(L, q, xx, yy)); };
  out.put(x, y, static_cast<float>(depth_select(L, get, x, y)));
}

// ---------------------------------------------------------------------------------------
// Dispatch
// ---------------------------------------------------------------------------------------
template <bool Fused, int MAXP, class W>
void launch_input_side(const DParams& P, RenderVariant v, const W& w, cudaStream_t stream) {
  const DepthLayout& L = P.L;
  const int S = 2 * L.lim + 1, span = S * L.patch, np = L.count();
  const dim3 block(static_cast<unsigned>(span * P.rows));
  const dim3 grid(static_cast<unsigned>((L.grid_nx + P.chunk - 1) / P.chunk),
                  static_cast<unsigned>((L.out_h + P.rows - 1) / P.rows));
  const std::size_t roff_bytes = 2u * static_cast<std::size_t>(P.rows) * np * S * 4;  // roff + y2
  int dev = 0, optin = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&dev));
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (v == RenderVariant::Sync) {
    const std::size_t bytes = roff_bytes + 2u * static_cast<std::size_t>(P.rows) * S * np * L.patch * 4;
    LB_REQUIRE(bytes <= static_cast<std::size_t>(optin),
               "depth sync: " + std::to_string(bytes) + " bytes of shared memory needed, device allows " +
                   std::to_string(optin) + " (fewer rows, a smaller patch or range)");
    allow_dynamic_shared(depth_sync_kernel<Fused, MAXP, W>, bytes);
    depth_sync_kernel<Fused, MAXP, W><<<grid, block, bytes, stream>>>(P, w);
  } else {
    depth_nosync_kernel<Fused, MAXP, W><<<grid, block, roff_bytes, stream>>>(P, w);
  }
  CUDA_CHECK_LAUNCH();
}

template <bool Fused, class W>
void launch_variant(const DParams& P, RenderVariant v, int block, const W& w, cudaStream_t stream) {
  if (v == RenderVariant::Original) {
    const long long total = static_cast<long long>(P.L.out_w) * P.L.out_h;
    const unsigned grid = static_cast<unsigned>((total + block - 1) / block);
    if (P.nb != nullptr && P.original_kernel == 0) {
      switch (P.L.lim) {
        case 1: depth_table_kernel<Fused, 1, W><<<grid, block, 0, stream>>>(P, w); break;
        case 2: depth_table_kernel<Fused, 2, W><<<grid, block, 0, stream>>>(P, w); break;
        case 3: depth_table_kernel<Fused, 3, W><<<grid, block, 0, stream>>>(P, w); break;
        default: throw Error("depth: no neighbour-table kernel for lim " + std::to_string(P.L.lim));
      }
      CUDA_CHECK_LAUNCH();
      return;
    }
    // lim as a template argument for the common neighbourhoods (unrolled loops), else generic.
    switch (P.L.lim) {
      case 1: depth_original_kernel<Fused, 1, W><<<grid, block, 0, stream>>>(P, w); break;
      case 2: depth_original_kernel<Fused, 2, W><<<grid, block, 0, stream>>>(P, w); break;
      case 3: depth_original_kernel<Fused, 3, W><<<grid, block, 0, stream>>>(P, w); break;
      default: depth_original_kernel<Fused, 0, W><<<grid, block, 0, stream>>>(P, w); break;
    }
    CUDA_CHECK_LAUNCH();
  } else if (P.L.count() <= 8) {
    launch_input_side<Fused, 8>(P, v, w, stream);
  } else {
    launch_input_side<Fused, kMaxDepthCandidates>(P, v, w, stream);
  }
}

template <class W>
void launch_with_writer(const DParams& P, RenderVariant v, int block, const W& w, cudaStream_t stream) {
  if (P.L.window == 1) {
    launch_variant<true>(P, v, block, w, stream);
    return;
  }
  launch_variant<false>(P, v, block, NoWriter{}, stream);
  const dim3 grid(static_cast<unsigned>((P.L.out_w + 255) / 256), static_cast<unsigned>(P.L.out_h));
  depth_aggregate_kernel<W><<<grid, 256, 0, stream>>>(P, w);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

std::vector<std::uint64_t> pack_depth_tables(const DepthTablesHost& t) {
  const std::size_t nc = t.col_start.size(), nr = t.row_start.size();
  std::vector<std::uint64_t> pack(t.neighbours.size() + (nc + nr + 1) / 2, 0u);
  std::copy(t.neighbours.begin(), t.neighbours.end(), pack.begin());
  auto* ints = reinterpret_cast<int*>(pack.data() + t.neighbours.size());
  std::copy(t.col_start.begin(), t.col_start.end(), ints);
  std::copy(t.row_start.begin(), t.row_start.end(), ints + nc);
  return pack;
}

DepthTablesDevice depth_tables_on_device(const void* base, const DepthTablesHost& t) {
  const auto* words = static_cast<const std::uint64_t*>(base);
  const auto* ints = reinterpret_cast<const int*>(words + t.neighbours.size());
  DepthTablesDevice d;
  d.neighbours = t.neighbours.empty() ? nullptr : words;
  d.col_start = ints;
  d.row_start = ints + t.col_start.size();
  return d;
}

std::size_t depth_scratch_bytes(const DepthLayout& L) {
  if (L.window <= 1) return 0;
  return static_cast<std::size_t>(L.count()) * L.out_w * L.out_h * 4;
}

void launch_depth(const DepthLayout& L, const DepthTablesDevice& T, const RawDevice& raw,
                  RenderVariant variant_in, const DepthTuning& tuning_in, std::uint32_t* scratch,
                  const OutputDevice& out, cudaStream_t stream) {
  const DepthTuning tuning = resolve(tuning_in);
  // The depth has no tiled kernel: its Original is the same output-side mapping.
  const RenderVariant variant = variant_in == RenderVariant::Tiled ? RenderVariant::Original : variant_in;
  LB_REQUIRE(L.patch >= 1 && L.patch <= kMaxPatch && L.lim >= 1 && L.lim <= kMaxLim &&
                 L.pmin >= 1 && L.pmin <= L.pmax && L.count() <= kMaxDepthCandidates &&
                 L.window >= 1 && L.window % 2 == 1 && L.window <= kMaxDepthWindow,
             "depth: layout parameters out of range");
  LB_REQUIRE(L.grid_nx >= 1 && L.grid_ny >= 1 && L.out_w == L.grid_nx * L.patch &&
                 L.out_h == L.grid_ny * L.patch,
             "depth: inconsistent layout");
  LB_REQUIRE(raw.width == L.raw_w && raw.height == L.raw_h && raw.rgba,
             "depth: raw on the device does not match the tables");
  LB_REQUIRE(raw.rgba_pitch % 4 == 0 &&
                 static_cast<unsigned long long>(raw.rgba_pitch / 4) * raw.height < 0xffffffffull,
             "depth: raw image too large for 32-bit word offsets");
  LB_REQUIRE(L.window == 1 || scratch != nullptr, "depth: window > 1 needs the cost scratch");
  DParams P{};
  P.L = L;
  P.cs = T.col_start;
  P.rs = T.row_start;
  P.nb = T.neighbours;
  P.original_kernel = tuning.original_kernel;
  P.rgba = raw.rgba;
  P.pitch_w = static_cast<std::uint32_t>(raw.rgba_pitch / 4);
  P.cost = scratch;
  const int span = (2 * L.lim + 1) * L.patch;  // <= 9 * 64 = 576
  P.chunk = std::clamp(tuning.chunk, 1, L.grid_nx);
  P.rows = std::clamp(tuning.rows, 1, std::max(1, kMaxDepthBlock / span));
  P.rows = std::min(P.rows, L.out_h);
  const int block = std::clamp(tuning.original_block, 32, 1024);
  const bool surface = out.kind == OutputDevice::Kind::Surface;
  LB_REQUIRE(surface ? out.surface != 0 : out.ptr != nullptr, "depth: no output target");
  LB_REQUIRE(surface || (out.pitch >= static_cast<std::size_t>(L.out_w) * 4 && out.pitch % 4 == 0),
             "depth: output pitch too small");
  if (surface)
    launch_with_writer(P, variant, block, FloatSurfaceOut{out.surface}, stream);
  else
    launch_with_writer(P, variant, block, FloatPitchedOut{static_cast<std::uint8_t*>(out.ptr), out.pitch},
                       stream);
}

}  // namespace lb::cuda::detail
