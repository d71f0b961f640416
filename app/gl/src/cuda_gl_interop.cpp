// CUDA-GL interop for GlTextureSurface (host-side runtime calls; compiled as C++).
// epoxy's gl.h comes first (through cuda_gl_interop.hpp), so cuda_gl_interop.h's
// <GL/gl.h> is a no-op and every GL symbol goes through epoxy.
#include "cuda_gl_interop.hpp"

#include "lightbench/error.hpp"
#include "lightbench/gl/device_buffer.hpp"

#if !defined(LB_GL_HAVE_CUDA)
// Built without CUDA: interop is never possible, results always arrive by glTexSubImage2D.
namespace lb::gl::detail {

std::unique_ptr<InteropLink> register_texture(GLuint, std::string* why) {
  if (why) *why = "this build has no CUDA";
  return nullptr;
}

bool interop_compiled() { return false; }

void* device_alloc_pitch(std::size_t, int, std::size_t*) { throw Error("this build has no CUDA"); }
void device_free(void*) {}
void device_download(void*, std::size_t, const void*, std::size_t, std::size_t, int) {
  throw Error("this build has no CUDA");
}

}  // namespace lb::gl::detail

namespace lb::gl {
std::unique_ptr<DeviceBufferSurface> make_device_buffer_surface(SurfaceFormat) { return nullptr; }
long long device_memory_used() { return -1; }
}  // namespace lb::gl
#else

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>

#include "lightbench/error.hpp"

#define LB_GL_CUDA_CHECK(call)                                                          \
  do {                                                                                  \
    const cudaError_t lb_err_ = (call);                                                 \
    if (lb_err_ != cudaSuccess)                                                         \
      ::lb::throw_at(__FILE__, __LINE__, std::string(#call) + ": " +                    \
                                             cudaGetErrorName(lb_err_) + " (" +         \
                                             cudaGetErrorString(lb_err_) + ")");        \
  } while (0)

namespace lb::gl::detail {
namespace {

std::string cuda_error(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

class CudaInteropLink final : public InteropLink {
 public:
  explicit CudaInteropLink(cudaGraphicsResource_t res) : res_(res) {}
  ~CudaInteropLink() override {
    // Best effort: destructors must not throw; report instead.
    if (surface_) cudaDestroySurfaceObject(surface_);
    if (mapped_) cudaGraphicsUnmapResources(1, &res_, nullptr);
    const cudaError_t e = cudaGraphicsUnregisterResource(res_);
    if (e != cudaSuccess)
      std::fprintf(stderr, "lightbench: cudaGraphicsUnregisterResource: %s\n", cuda_error(e).c_str());
  }

  DeviceTarget map(void* stream, int width, int height) override {
    LB_REQUIRE(!mapped_, "interop: texture is already mapped");
    auto s = static_cast<cudaStream_t>(stream);
    LB_GL_CUDA_CHECK(cudaGraphicsMapResources(1, &res_, s));
    mapped_ = true;
    try {
      cudaArray_t array = nullptr;
      LB_GL_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, res_, 0, 0));
      cudaResourceDesc desc{};
      desc.resType = cudaResourceTypeArray;
      desc.res.array.array = array;
      LB_GL_CUDA_CHECK(cudaCreateSurfaceObject(&surface_, &desc));
    } catch (...) {
      cudaGraphicsUnmapResources(1, &res_, s);
      mapped_ = false;
      throw;
    }
    DeviceTarget t;
    t.kind = DeviceTarget::Kind::SurfaceObject;
    t.surface = static_cast<std::uint64_t>(surface_);
    t.width = width;
    t.height = height;
    return t;
  }

  void copy_from(const void* src, std::size_t pitch, std::size_t row_bytes, int height) override {
    LB_REQUIRE(!mapped_, "interop: texture is already mapped");
    // The GL thread's own non-blocking stream: the legacy default stream would wait for
    // every kernel a run worker has in flight on its stream (the window would stall for a
    // long CUDA run). The worker synchronized its stream before handing the buffer over;
    // unmapping orders the copy before GL's next use of the texture; the final stream
    // synchronize (microseconds: only this copy) lets the worker reuse the buffer at once.
    static const cudaStream_t s = [] {
      cudaStream_t st = nullptr;
      if (cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess) {
        cudaGetLastError();
        st = nullptr;  // the default stream then (correct, may wait)
      }
      return st;
    }();
    LB_GL_CUDA_CHECK(cudaGraphicsMapResources(1, &res_, s));
    cudaArray_t array = nullptr;
    cudaError_t e = cudaGraphicsSubResourceGetMappedArray(&array, res_, 0, 0);
    if (e == cudaSuccess)
      e = cudaMemcpy2DToArrayAsync(array, 0, 0, src, pitch, row_bytes, static_cast<std::size_t>(height),
                                   cudaMemcpyDeviceToDevice, s);
    const cudaError_t u = cudaGraphicsUnmapResources(1, &res_, s);
    const cudaError_t w = cudaStreamSynchronize(s);
    if (e != cudaSuccess) throw Error("interop copy: " + cuda_error(e));
    if (u != cudaSuccess) throw Error("cudaGraphicsUnmapResources: " + cuda_error(u));
    if (w != cudaSuccess) throw Error("interop copy: " + cuda_error(w));
  }

  void unmap(void* stream) override {
    if (!mapped_) return;
    auto s = static_cast<cudaStream_t>(stream);
    const cudaSurfaceObject_t surf = surface_;
    surface_ = 0;
    mapped_ = false;
    if (surf) LB_GL_CUDA_CHECK(cudaDestroySurfaceObject(surf));
    LB_GL_CUDA_CHECK(cudaGraphicsUnmapResources(1, &res_, s));
  }

 private:
  cudaGraphicsResource_t res_;
  cudaSurfaceObject_t surface_ = 0;
  bool mapped_ = false;
};

}  // namespace

std::unique_ptr<InteropLink> register_texture(GLuint tex, std::string* why) {
  auto fail = [&](const std::string& m) -> std::unique_ptr<InteropLink> {
    cudaGetLastError();  // clear the (non-sticky) error so later checks start clean
    if (why) *why = m;
    return nullptr;
  };
  int current = -1;
  cudaError_t e = cudaGetDevice(&current);
  if (e != cudaSuccess) return fail("no current CUDA device (" + cuda_error(e) + ")");

  unsigned int count = 0;
  int devices[16];
  e = cudaGLGetDevices(&count, devices, 16, cudaGLDeviceListAll);
  if (e != cudaSuccess || count == 0)
    return fail("the OpenGL context is not on a CUDA device (cudaGLGetDevices: " +
                (e != cudaSuccess ? cuda_error(e) : std::string("none")) + ")");
  const unsigned int n = std::min(count, 16u);
  if (std::find(devices, devices + n, current) == devices + n)
    return fail("the OpenGL context runs on CUDA device " + std::to_string(devices[0]) +
                ", the CUDA backend on device " + std::to_string(current));

  cudaGraphicsResource_t res = nullptr;
  e = cudaGraphicsGLRegisterImage(&res, tex, GL_TEXTURE_2D,
                                  cudaGraphicsRegisterFlagsSurfaceLoadStore);
  if (e != cudaSuccess) return fail("cudaGraphicsGLRegisterImage failed (" + cuda_error(e) + ")");
  return std::make_unique<CudaInteropLink>(res);
}

bool interop_compiled() { return true; }

void* device_alloc_pitch(std::size_t row_bytes, int height, std::size_t* pitch) {
  void* p = nullptr;
  LB_GL_CUDA_CHECK(cudaMallocPitch(&p, pitch, std::max<std::size_t>(row_bytes, 1),
                                   static_cast<std::size_t>(std::max(height, 1))));
  return p;
}

void device_free(void* ptr) {
  if (ptr) cudaFree(ptr);
}

void device_download(void* dst, std::size_t dst_pitch, const void* src, std::size_t pitch, std::size_t row_bytes,
                     int height) {
  LB_GL_CUDA_CHECK(cudaMemcpy2D(dst, dst_pitch, src, pitch, row_bytes, static_cast<std::size_t>(height),
                                cudaMemcpyDeviceToHost));
}

}  // namespace lb::gl::detail

namespace lb::gl {

std::unique_ptr<DeviceBufferSurface> make_device_buffer_surface(SurfaceFormat format) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    cudaGetLastError();
    return nullptr;
  }
  return std::make_unique<DeviceBufferSurface>(format);
}

long long device_memory_used() {
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return static_cast<long long>(total_b - free_b);
}

}  // namespace lb::gl

#endif  // LB_GL_HAVE_CUDA
