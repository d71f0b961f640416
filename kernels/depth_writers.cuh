#pragma once
// Internal to lb_kernels: the float map writers of the depth kernels (depth.cu) and of the
// map copy (depth_aif.cu): an R32F surface object or a pitched float buffer.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace lb::cuda::detail {

struct FloatSurfaceWriter {
  cudaSurfaceObject_t surf;
  __device__ __forceinline__ void put(int x, int y, float v) const { surf2Dwrite(v, surf, x * 4, y); }
};
struct FloatPitchedWriter {
  std::uint8_t* ptr;
  std::size_t pitch;
  __device__ __forceinline__ void put(int x, int y, float v) const {
    *reinterpret_cast<float*>(ptr + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * 4) = v;
  }
};

}  // namespace lb::cuda::detail
