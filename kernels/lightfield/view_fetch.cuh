#pragma once
// Internal to lb_kernels (CUDA only): pixel (px, py) of view (u, v) of the light field on the
// device (DeviceLightField's layout: views row-major, each w x h RGBA8) as refocus::Rgb8, the
// fetch refocus_math.hpp's refocus_sums calls. Shared by the refocus and the defocus cost.
#include <cuda_runtime.h>

#include <cstddef>

#include "lightfield/refocus_math.hpp"

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

// The same views converted once to float (RGBA as float4, the values 0..255 exactly), by
// rows: the defocus cost reads four texels per view and label, and on the bytes the 12
// byte-to-float conversions per view (issued at a quarter of the FP32 rate) bound it.
struct RgbF {
  float r, g, b;
};
struct ViewRowsF {
  const float4* views;  // the aperture's views only: (u0, v0) first, nu_ap per row of views
  int u0, v0, nu_ap, width;
  std::size_t plane;  // pixels per view
  struct Row {
    const float4* p;
    __device__ __forceinline__ RgbF operator[](int px) const {
      const float4 q = __ldg(p + px);
      return RgbF{q.x, q.y, q.z};
    }
  };
  __device__ __forceinline__ Row row(int u, int v, int py) const {
    return Row{views + (static_cast<std::size_t>(v - v0) * nu_ap + static_cast<std::size_t>(u - u0)) * plane +
               static_cast<std::size_t>(py) * width};
  }
};

}  // namespace lb::cuda::detail
