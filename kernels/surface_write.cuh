#pragma once
// Device side of surface_write.hpp, for the .cu files of lb_kernels: pixel writers for the
// two DeviceTarget kinds and the host dispatch that picks one. A kernel templated on the
// writer W calls out.put(x, y, value); dispatch_* validates the target and calls
// launch(writer) with the writer of its kind.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "surface_write.hpp"

namespace lb::cuda::detail {

struct RgbaSurfaceOut {
  cudaSurfaceObject_t surf;
  __device__ __forceinline__ void put(int x, int y, uchar4 v) const { surf2Dwrite(v, surf, x * 4, y); }
};
struct RgbaPitchedOut {
  std::uint8_t* ptr;
  std::size_t pitch;
  __device__ __forceinline__ void put(int x, int y, uchar4 v) const {
    *reinterpret_cast<uchar4*>(ptr + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * 4) = v;
  }
};
struct FloatSurfaceOut {
  cudaSurfaceObject_t surf;
  __device__ __forceinline__ void put(int x, int y, float v) const { surf2Dwrite(v, surf, x * 4, y); }
};
struct FloatPitchedOut {
  std::uint8_t* ptr;
  std::size_t pitch;
  __device__ __forceinline__ void put(int x, int y, float v) const {
    *reinterpret_cast<float*>(ptr + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x) * 4) = v;
  }
};

// Row y of a device plane.
template <class T>
__device__ __forceinline__ const T* plane_row(const T* ptr, std::size_t pitch, int y) {
  return reinterpret_cast<const T*>(reinterpret_cast<const std::uint8_t*>(ptr) + static_cast<std::size_t>(y) * pitch);
}

// One thread per pixel of a w x h image.
inline dim3 pixel_block() { return dim3(32, 8); }
inline dim3 pixel_grid(int w, int h) {
  return dim3(static_cast<unsigned>((w + 31) / 32), static_cast<unsigned>((h + 7) / 8));
}

template <class F>
void dispatch_rgba(const DeviceTarget& t, int w, int h, const char* what, F&& launch) {
  require_target(t, w, h, what);
  if (t.kind == DeviceTarget::Kind::SurfaceObject)
    launch(RgbaSurfaceOut{static_cast<cudaSurfaceObject_t>(t.surface)});
  else
    launch(RgbaPitchedOut{static_cast<std::uint8_t*>(t.ptr), t.pitch});
}
template <class F>
void dispatch_float(const DeviceTarget& t, int w, int h, const char* what, F&& launch) {
  require_target(t, w, h, what);
  if (t.kind == DeviceTarget::Kind::SurfaceObject)
    launch(FloatSurfaceOut{static_cast<cudaSurfaceObject_t>(t.surface)});
  else
    launch(FloatPitchedOut{static_cast<std::uint8_t*>(t.ptr), t.pitch});
}

}  // namespace lb::cuda::detail
