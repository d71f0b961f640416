// Plenoptic rendering, Original (seed section 3, Algorithm 1): one thread per output pixel.
// Computes exactly lb::render_pixel (integer weights and sums, plenoptic_math.hpp), so it is
// bit-exact with the CPU reference with every switch.
//
// Instantiations: render_original_kernel<RGBA in {0,1}, writer in {surface, pitched u32,
// pitched bytes}> (6). The other two switches (reciprocal division, barrier at the end of
// each neighbour iteration) are uniform run-time flags: one branch per pixel or iteration.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda_check.cuh"
#include "plenoptic/render_kernels.cuh"

namespace lb::cuda::detail {
namespace {

// ---------------------------------------------------------------------------------------
// Original: one thread per output pixel (Algorithm 1), flattened 1D over the output.
// ---------------------------------------------------------------------------------------
template <bool RGBA, class W>
__global__ void __launch_bounds__(1024) render_original_kernel(const KParams P, const W out) {
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

}  // namespace

template <class W>
void launch_render_original(const KParams& P, bool rgba, int block_threads, const W& w, cudaStream_t stream) {
  const long long total = static_cast<long long>(P.L.out_w) * P.L.out_h;
  const dim3 block(static_cast<unsigned>(block_threads));
  const dim3 grid(static_cast<unsigned>((total + block_threads - 1) / block_threads));
  if (rgba) render_original_kernel<true, W><<<grid, block, 0, stream>>>(P, w);
  else render_original_kernel<false, W><<<grid, block, 0, stream>>>(P, w);
  CUDA_CHECK_LAUNCH();
}
template void launch_render_original<SurfaceWriter>(const KParams&, bool, int, const SurfaceWriter&, cudaStream_t);
template void launch_render_original<PitchedWriter<true>>(const KParams&, bool, int, const PitchedWriter<true>&,
                                                          cudaStream_t);
template void launch_render_original<PitchedWriter<false>>(const KParams&, bool, int, const PitchedWriter<false>&,
                                                           cudaStream_t);

// Any kernel of lb_kernels answers for all of them: they are built for the same architectures.
cudaError_t probe_kernels() {
  cudaFuncAttributes attr{};
  return cudaFuncGetAttributes(&attr, render_original_kernel<true, SurfaceWriter>);
}

}  // namespace lb::cuda::detail
