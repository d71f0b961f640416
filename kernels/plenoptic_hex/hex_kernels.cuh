#pragma once
// Device pieces shared by the general-grid kernels (hex_render.cu, hex_depth.cu): the raw
// fetch functors handed to hex_math.hpp's per-pixel sums, and the shared-memory staging of
// the small tables (variant "smem-tables"). Device code: included by .cu files only.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "plenoptic_hex/hex_launch.hpp"
#include "plenoptic_hex/hex_math.hpp"

namespace lb::cuda::detail {

// Reads raw pixel (X, Y) as R, G, B. hex_math.hpp calls it only for pixels inside the raw
// (raw_pixel checked the bounds; depth's bilinear taps are clamped by hex::fetch_clamped before
// the call), so no clamp here. Host side never runs (the CPU has its own).
struct HexRawFetch {
  const std::uint8_t* base;
  std::size_t pitch;
  LB_HD void operator()(int X, int Y, std::uint32_t px[3]) const {
#if defined(__CUDA_ARCH__)
    const std::uint32_t v =
        __ldg(reinterpret_cast<const unsigned int*>(base + static_cast<std::size_t>(Y) * pitch) + X);
#else
    const std::uint32_t v = 0;
#endif
    px[0] = v & 0xffu;
    px[1] = (v >> 8) & 0xffu;
    px[2] = (v >> 16) & 0xffu;
  }
};

// Marks raw pixel (X, Y) as read (byte map, raw_w per row) and returns black: the sampling
// of a pass without its arithmetic mattering, for the touched-pixel counts.
struct HexMarkFetch {
  std::uint8_t* mark;
  int raw_w;
  LB_HD void operator()(int X, int Y, std::uint32_t px[3]) const {
    mark[static_cast<std::size_t>(Y) * raw_w + X] = 1;
    px[0] = px[1] = px[2] = 0;
  }
};

// Shared-memory bytes of the staged tables (16-byte aligned pieces).
__host__ __device__ inline std::size_t hex_align16(std::size_t n) { return (n + 15) & ~std::size_t{15}; }
__host__ __device__ inline std::size_t hex_smem_bytes(const hex::HexLayout& L) {
  const std::size_t per_patch = hex_align16(sizeof(std::uint32_t) * (hex::kMaxPatchIndex + 1));
  return hex_align16(sizeof(std::uint32_t) * hex::kWeightBins) + 4 * per_patch +
         hex_align16(sizeof(hex::Offset) * static_cast<std::size_t>(L.n_near)) +
         hex_align16(sizeof(hex::Offset) * static_cast<std::size_t>(L.n_nbr)) +
         hex_align16(sizeof(std::uint32_t) * (hex::kCells + 1)) +
         hex_align16(sizeof(hex::Offset) * static_cast<std::size_t>(L.n_cell_near));
}

template <class T>
__device__ __forceinline__ void hex_stage(T* dst, const T* src, int n, int tid, int nthreads) {
  for (int k = tid; k < n; k += nthreads) dst[k] = src[k];
}

// Copies the small tables into dynamic shared memory (every thread of the block must call
// it: it ends with a barrier) and returns the view on them; the type table stays global.
__device__ __forceinline__ hex::HexTables hex_stage_tables(const hex::HexLayout& L, const hex::HexTables& g,
                                                           unsigned char* smem) {
  const int tid = static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  const int nt = static_cast<int>(blockDim.x * blockDim.y * blockDim.z);
  const std::size_t per_patch = hex_align16(sizeof(std::uint32_t) * (hex::kMaxPatchIndex + 1));
  unsigned char* p = smem;
  auto* weights = reinterpret_cast<std::uint32_t*>(p);
  p += hex_align16(sizeof(std::uint32_t) * hex::kWeightBins);
  auto* mask = reinterpret_cast<std::uint32_t*>(p);
  p += per_patch;
  auto* reach2 = reinterpret_cast<float*>(p);
  p += per_patch;
  auto* nbr2 = reinterpret_cast<float*>(p);
  p += per_patch;
  auto* blur = reinterpret_cast<std::uint32_t*>(p);
  p += per_patch;
  auto* near = reinterpret_cast<hex::Offset*>(p);
  p += hex_align16(sizeof(hex::Offset) * static_cast<std::size_t>(L.n_near));
  auto* nbr = reinterpret_cast<hex::Offset*>(p);
  p += hex_align16(sizeof(hex::Offset) * static_cast<std::size_t>(L.n_nbr));
  auto* cell_start = reinterpret_cast<std::uint32_t*>(p);
  p += hex_align16(sizeof(std::uint32_t) * (hex::kCells + 1));
  auto* cell_near = reinterpret_cast<hex::Offset*>(p);
  hex_stage(weights, g.weights, hex::kWeightBins, tid, nt);
  hex_stage(mask, g.mask_of_patch, hex::kMaxPatchIndex + 1, tid, nt);
  hex_stage(reach2, g.reach2_of_patch, hex::kMaxPatchIndex + 1, tid, nt);
  hex_stage(nbr2, g.nbr2_of_patch, hex::kMaxPatchIndex + 1, tid, nt);
  hex_stage(blur, g.blur_of_patch, hex::kMaxPatchIndex + 1, tid, nt);
  hex_stage(near, g.near, L.n_near, tid, nt);
  hex_stage(nbr, g.nbr, L.n_nbr, tid, nt);
  hex_stage(cell_start, g.cell_start, hex::kCells + 1, tid, nt);
  hex_stage(cell_near, g.cell_near, L.n_cell_near, tid, nt);
  __syncthreads();
  return hex::HexTables{g.types, near, nbr, weights, mask, reach2, nbr2, cell_start, cell_near, blur};
}

// The tables a thread reads: staged (Smem) or as given. Every thread of the block calls it.
template <bool Smem>
__device__ __forceinline__ hex::HexTables hex_tables_for(const hex::HexLayout& L, const hex::HexTables& g) {
  if constexpr (Smem) {
    extern __shared__ __align__(16) unsigned char hex_smem[];
    return hex_stage_tables(L, g, hex_smem);
  } else {
    return g;
  }
}

// Validates a launch of variant v (its shared memory within the device's default limit) and
// returns the dynamic shared-memory bytes to pass.
std::size_t hex_launch_smem(HexVariant v, const hex::HexLayout& L);

// The number of non-zero bytes of a device byte map (hex_depth.cu); synchronises the stream.
std::uint64_t hex_count_marked(const std::uint8_t* mark, std::size_t n, cudaStream_t stream);

// One thread per output pixel: 32 x 8 blocks over the frame.
inline dim3 hex_block() { return dim3(32, 8); }
inline dim3 hex_grid(int w, int h) {
  return dim3(static_cast<unsigned>((w + 31) / 32), static_cast<unsigned>((h + 7) / 8));
}

}  // namespace lb::cuda::detail
