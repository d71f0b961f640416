// Device images into output surfaces (surface_write.hpp): the copy kernels, the target
// checks and the map / pass / unmap sequence with its host-upload fallback.
#include <cuda_runtime.h>

#include <string>

#include "cuda_check.cuh"
#include "surface_write.cuh"

namespace lb::cuda::detail {
namespace {

// Source pixel -> target pixel: float to R32F, RGBA8 as is, packed RGB8 with alpha 255.
__device__ __forceinline__ float to_target(float v) { return v; }
__device__ __forceinline__ uchar4 to_target(uchar4 v) { return v; }
__device__ __forceinline__ uchar4 to_target(Rgb8Pixel v) { return make_uchar4(v.r, v.g, v.b, 255); }

// Copies src (w x h) to the writer.
template <class T, class W>
__global__ void surface_copy_plane_kernel(const T* src, std::size_t pitch, int w, int h, W out) {
  const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= w || y >= h) return;
  out.put(x, y, to_target(plane_row(src, pitch, y)[x]));
}

const char* format_name(SurfaceFormat f) { return f == SurfaceFormat::RGBA8 ? "RGBA8" : "R32F"; }

}  // namespace

void require_target(const DeviceTarget& t, int w, int h, const char* what) {
  const std::string w_ = what;
  LB_REQUIRE(w > 0 && h > 0, w_ + ": empty image");
  switch (t.kind) {
    case DeviceTarget::Kind::SurfaceObject:
      LB_REQUIRE(t.surface != 0, w_ + ": no surface object to write");
      break;
    case DeviceTarget::Kind::Pitched:
      LB_REQUIRE(t.ptr != nullptr && reinterpret_cast<std::uintptr_t>(t.ptr) % 4 == 0 && t.pitch % 4 == 0 &&
                     t.pitch >= static_cast<std::size_t>(w) * 4,
                 w_ + ": the output buffer is null, misaligned or its pitch (" + std::to_string(t.pitch) +
                     " bytes) is shorter than a row of " + std::to_string(w) + " pixels");
      break;
    case DeviceTarget::Kind::None:
      throw Error(w_ + ": the output takes no device writes");
  }
  LB_REQUIRE(t.width >= w && t.height >= h, w_ + ": the mapped output (" + std::to_string(t.width) + "x" +
                                                std::to_string(t.height) + ") is smaller than the image (" +
                                                std::to_string(w) + "x" + std::to_string(h) + ")");
}

void write_r32f(const DeviceTarget& t, const DeviceFloatPlane& src, cudaStream_t s) {
  require_plane(src, "write R32F");
  dispatch_float(t, src.width, src.height, "write R32F", [&](auto out) {
    surface_copy_plane_kernel<<<pixel_grid(src.width, src.height), pixel_block(), 0, s>>>(src.ptr, src.pitch, src.width,
                                                                                          src.height, out);
  });
  CUDA_CHECK_LAUNCH();
}

void write_rgba8(const DeviceTarget& t, const DeviceRgbaPlane& src, cudaStream_t s) {
  require_plane(src, "write RGBA8");
  dispatch_rgba(t, src.width, src.height, "write RGBA8", [&](auto out) {
    surface_copy_plane_kernel<<<pixel_grid(src.width, src.height), pixel_block(), 0, s>>>(src.ptr, src.pitch, src.width,
                                                                                          src.height, out);
  });
  CUDA_CHECK_LAUNCH();
}

void write_rgb8(const DeviceTarget& t, const DeviceRgbPlane& src, cudaStream_t s) {
  require_plane(src, "write RGB8");
  dispatch_rgba(t, src.width, src.height, "write RGB8", [&](auto out) {
    surface_copy_plane_kernel<<<pixel_grid(src.width, src.height), pixel_block(), 0, s>>>(src.ptr, src.pitch, src.width,
                                                                                          src.height, out);
  });
  CUDA_CHECK_LAUNCH();
}

bool write_surface(Surface& out, SurfaceFormat format, int w, int h, cudaStream_t s, const char* what,
                   const TargetPass& pass, PitchedBuffer* staging) {
  LB_REQUIRE(out.format() == format,
             std::string(what) + ": the output surface must be " + format_name(format));
  LB_REQUIRE(w > 0 && h > 0, std::string(what) + ": empty image");
  out.resize(w, h);
  const DeviceTarget t = out.map_device(s);
  if (t.kind == DeviceTarget::Kind::None) {
    // The surface takes host images only: the pass writes a staging buffer, uploaded from
    // the host. (RGBA8 and R32F pixels are both 4 bytes.)
    PitchedBuffer local;
    PitchedBuffer& buf = staging ? *staging : local;
    buf.resize(static_cast<std::size_t>(w) * 4, static_cast<std::size_t>(h));
    DeviceTarget st;
    st.kind = DeviceTarget::Kind::Pitched;
    st.ptr = buf.get();
    st.pitch = buf.pitch();
    st.width = w;
    st.height = h;
    pass(st);
    if (format == SurfaceFormat::RGBA8)
      out.upload_host(download(DeviceRgbaPlane{static_cast<const uchar4*>(buf.get()), buf.pitch(), w, h}, s));
    else
      out.upload_host(download(DeviceFloatPlane{static_cast<const float*>(buf.get()), buf.pitch(), w, h}, s));
    return false;
  }
  // Unmap on every path; while unwinding from another error an unmap failure must not
  // replace it.
  try {
    require_target(t, w, h, what);
    pass(t);
  } catch (...) {
    try {
      out.unmap_device(s);
    } catch (...) {
    }
    throw;
  }
  out.unmap_device(s);
  return true;
}

bool write_surface_r32f(Surface& out, const DeviceFloatPlane& src, cudaStream_t s, PitchedBuffer* staging) {
  require_plane(src, "write R32F");
  return write_surface(out, SurfaceFormat::R32F, src.width, src.height, s, "write R32F",
                       [&](const DeviceTarget& t) { write_r32f(t, src, s); }, staging);
}

bool write_surface_rgba8(Surface& out, const DeviceRgbaPlane& src, cudaStream_t s, PitchedBuffer* staging) {
  require_plane(src, "write RGBA8");
  return write_surface(out, SurfaceFormat::RGBA8, src.width, src.height, s, "write RGBA8",
                       [&](const DeviceTarget& t) { write_rgba8(t, src, s); }, staging);
}

bool write_surface_rgb8(Surface& out, const DeviceRgbPlane& src, cudaStream_t s, PitchedBuffer* staging) {
  require_plane(src, "write RGB8");
  return write_surface(out, SurfaceFormat::RGBA8, src.width, src.height, s, "write RGB8",
                       [&](const DeviceTarget& t) { write_rgb8(t, src, s); }, staging);
}

}  // namespace lb::cuda::detail
