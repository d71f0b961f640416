// Plenoptic rendering, Sync (seed section 4, Fig. 7a): input-side, partial sums in a
// circular shared-memory buffer, one barrier per step. Bit-exact with the CPU reference
// (integer sums, plenoptic_math.hpp).
//
// Instantiations: render_sync_kernel<LIM in {2 (seed, compile-time lim), 0 (run-time lim)},
// writer in {surface, pitched u32}> (4).
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda_check.cuh"
#include "plenoptic/render_input_side.cuh"

namespace lb::cuda::detail {
namespace {

// ---------------------------------------------------------------------------------------
// Sync (seed Fig. 7a): thread k of a row always loads position k; partial sums live in a
// circular shared-memory buffer of S = 2lim+1 slots x M (uint4 AoS: r, g, b, w), the slot
// of output o being o mod S. Group k/M == 2lim opens the slot of a new output, group 0
// completes the oldest one, divides and writes it (M contiguous pixels). One barrier per
// step protects the slots. LIM > 0: lim fixed at compile time (the period of S steps is
// unrolled, loads a period ahead); LIM == 0: run-time lim.
// ---------------------------------------------------------------------------------------
template <int LIM, class W>
__global__ void __launch_bounds__(kMaxInputBlock, 1) render_sync_kernel(const KParams P, const W out) {
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

}  // namespace

template <class W>
void launch_render_sync(const KParams& P, dim3 grid, dim3 block, std::size_t shmem, const W& w,
                        cudaStream_t stream) {
  if (P.L.lim == 2) render_sync_kernel<2, W><<<grid, block, shmem, stream>>>(P, w);
  else render_sync_kernel<0, W><<<grid, block, shmem, stream>>>(P, w);
  CUDA_CHECK_LAUNCH();
}
template void launch_render_sync<SurfaceWriter>(const KParams&, dim3, dim3, std::size_t, const SurfaceWriter&,
                                                cudaStream_t);
template void launch_render_sync<PitchedWriter<true>>(const KParams&, dim3, dim3, std::size_t,
                                                      const PitchedWriter<true>&, cudaStream_t);

}  // namespace lb::cuda::detail
