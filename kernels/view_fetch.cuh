#pragma once
// Internal to lb_kernels (CUDA only): pixel (px, py) of view (u, v) of the light field on the
// device (DeviceLightField's layout: views row-major, each w x h RGBA8) as refocus::Rgb8, the
// fetch refocus_math.hpp's refocus_sums calls. Shared by the refocus and the defocus cost.
#include <cuda_runtime.h>

#include <cstddef>

#include "lightbench/refocus_math.hpp"

namespace lb::cuda::detail {

struct ViewFetch {
  const uchar4* views;
  int nu, width;
  std::size_t plane;  // pixels per view
  __device__ __forceinline__ refocus::Rgb8 operator()(int u, int v, int px, int py) const {
    const uchar4 p = __ldg(views + (static_cast<std::size_t>(v) * nu + static_cast<std::size_t>(u)) * plane +
                           static_cast<std::size_t>(py) * width + static_cast<std::size_t>(px));
    return refocus::Rgb8{p.x, p.y, p.z};
  }
};

// The same views by rows (lfr::defocus_raw's access): row(u, v, py)[px].
struct ViewRows {
  const uchar4* views;
  int nu, width;
  std::size_t plane;  // pixels per view
  struct Row {
    const uchar4* p;
    __device__ __forceinline__ refocus::Rgb8 operator[](int px) const {
      const uchar4 q = __ldg(p + px);
      return refocus::Rgb8{q.x, q.y, q.z};
    }
  };
  __device__ __forceinline__ Row row(int u, int v, int py) const {
    return Row{views + (static_cast<std::size_t>(v) * nu + static_cast<std::size_t>(u)) * plane +
               static_cast<std::size_t>(py) * width};
  }
};

}  // namespace lb::cuda::detail
