// Headless CUDA output surfaces: a CUDA array with a surface object (what the viewer's GL
// texture looks like to the kernels once mapped) and a pitched device buffer.
#include <cuda_runtime_api.h>

#include <cstring>
#include <memory>

#include "cuda_check.cuh"
#include "cuda_util.hpp"
#include "lightbench/cuda_api.hpp"

namespace lb::cuda {
namespace detail {

// RGBA8 (uchar4) or R32F (float) CUDA array, cudaArraySurfaceLoadStore.
class CudaArraySurface final : public Surface {
 public:
  explicit CudaArraySurface(SurfaceFormat f) : format_(f) {}
  ~CudaArraySurface() override { release(); }
  CudaArraySurface(const CudaArraySurface&) = delete;
  CudaArraySurface& operator=(const CudaArraySurface&) = delete;

  int width() const override { return w_; }
  int height() const override { return h_; }
  SurfaceFormat format() const override { return format_; }

  void resize(int width, int height) override {
    LB_REQUIRE(width > 0 && height > 0, "surface size must be positive");
    if (width == w_ && height == h_ && array_) return;
    release();
    const cudaChannelFormatDesc desc = format_ == SurfaceFormat::RGBA8
                                           ? cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned)
                                           : cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    const std::size_t bytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
    detail::device_reserve(bytes, "a surface");
    detail::device_alloc_result(cudaMallocArray(&array_, &desc, static_cast<std::size_t>(width),
                                                static_cast<std::size_t>(height), cudaArraySurfaceLoadStore),
                                bytes, "a surface", "cudaMallocArray");
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array_;
    CUDA_CHECK_THROW(cudaCreateSurfaceObject(&surf_, &res));
    w_ = width;
    h_ = height;
  }

  DeviceTarget map_device(void*) override {
    LB_REQUIRE(array_ != nullptr, "surface: map_device before resize");
    DeviceTarget t;
    t.kind = DeviceTarget::Kind::SurfaceObject;
    t.surface = static_cast<std::uint64_t>(surf_);
    t.width = w_;
    t.height = h_;
    return t;
  }

  void upload_host(const ImageU8& img) override {
    LB_REQUIRE(format_ == SurfaceFormat::RGBA8, "surface: RGBA8 image into an R32F surface");
    const ImageU8 rgba = to_rgba(img);
    resize(rgba.width, rgba.height);
    CUDA_CHECK_THROW(cudaDeviceSynchronize());  // kernels writing the array are done
    CUDA_CHECK_THROW(cudaMemcpy2DToArray(array_, 0, 0, rgba.data.data(),
                                         static_cast<std::size_t>(rgba.width) * 4,
                                         static_cast<std::size_t>(rgba.width) * 4,
                                         static_cast<std::size_t>(rgba.height),
                                         cudaMemcpyHostToDevice));
    // A copy from pageable memory may return before its DMA lands; the kernels that write
    // this surface next run on non-blocking streams that do not wait for it (racecheck's
    // slower kernels caught the upload overwriting a render).
    CUDA_CHECK_THROW(cudaDeviceSynchronize());
  }

  void upload_host(const ImageF& img) override {
    LB_REQUIRE(format_ == SurfaceFormat::R32F && img.channels == 1,
               "surface: R32F surface needs a 1-channel float image");
    resize(img.width, img.height);
    CUDA_CHECK_THROW(cudaDeviceSynchronize());
    CUDA_CHECK_THROW(cudaMemcpy2DToArray(array_, 0, 0, img.data.data(),
                                         static_cast<std::size_t>(img.width) * 4,
                                         static_cast<std::size_t>(img.width) * 4,
                                         static_cast<std::size_t>(img.height),
                                         cudaMemcpyHostToDevice));
    CUDA_CHECK_THROW(cudaDeviceSynchronize());  // landed before the next kernel (see above)
  }

  std::string transport() const override { return "CUDA surface object (headless)"; }

  void read(void* dst, std::size_t bytes_per_pixel) const {
    LB_REQUIRE(array_ != nullptr, "surface: read back before resize");
    CUDA_CHECK_THROW(cudaDeviceSynchronize());
    CUDA_CHECK_THROW(cudaMemcpy2DFromArray(dst, static_cast<std::size_t>(w_) * bytes_per_pixel,
                                           array_, 0, 0,
                                           static_cast<std::size_t>(w_) * bytes_per_pixel,
                                           static_cast<std::size_t>(h_), cudaMemcpyDeviceToHost));
  }

 private:
  void release() {
    if (surf_) CUDA_CHECK_PRINT(cudaDestroySurfaceObject(surf_));
    if (array_) {
      CUDA_CHECK_PRINT(cudaFreeArray(array_));
      detail::device_unreserve(static_cast<std::size_t>(w_) * static_cast<std::size_t>(h_) * 4);
    }
    surf_ = 0;
    array_ = nullptr;
    w_ = h_ = 0;
  }

  SurfaceFormat format_;
  int w_ = 0, h_ = 0;
  cudaArray_t array_ = nullptr;
  cudaSurfaceObject_t surf_ = 0;
};

// Pitched RGBA8 device buffer.
class CudaBufferSurface final : public Surface {
 public:
  int width() const override { return w_; }
  int height() const override { return h_; }
  SurfaceFormat format() const override { return SurfaceFormat::RGBA8; }

  void resize(int width, int height) override {
    LB_REQUIRE(width > 0 && height > 0, "surface size must be positive");
    buf_.resize(static_cast<std::size_t>(width) * 4, static_cast<std::size_t>(height));
    w_ = width;
    h_ = height;
  }

  DeviceTarget map_device(void*) override {
    LB_REQUIRE(buf_.get() != nullptr, "surface: map_device before resize");
    DeviceTarget t;
    t.kind = DeviceTarget::Kind::Pitched;
    t.ptr = buf_.get();
    t.pitch = buf_.pitch();
    t.width = w_;
    t.height = h_;
    return t;
  }

  void upload_host(const ImageU8& img) override {
    const ImageU8 rgba = to_rgba(img);
    resize(rgba.width, rgba.height);
    CUDA_CHECK_THROW(cudaDeviceSynchronize());
    CUDA_CHECK_THROW(cudaMemcpy2D(buf_.get(), buf_.pitch(), rgba.data.data(),
                                  static_cast<std::size_t>(w_) * 4, static_cast<std::size_t>(w_) * 4,
                                  static_cast<std::size_t>(h_), cudaMemcpyHostToDevice));
    CUDA_CHECK_THROW(cudaDeviceSynchronize());  // landed before the next kernel (see above)
  }
  void upload_host(const ImageF&) override {
    throw Error("surface: the CUDA buffer surface holds RGBA8 only");
  }
  std::string transport() const override { return "CUDA pitched buffer (headless)"; }

  void read(void* dst) const {
    LB_REQUIRE(buf_.get() != nullptr, "surface: read back before resize");
    CUDA_CHECK_THROW(cudaDeviceSynchronize());
    CUDA_CHECK_THROW(cudaMemcpy2D(dst, static_cast<std::size_t>(w_) * 4, buf_.get(), buf_.pitch(),
                                  static_cast<std::size_t>(w_) * 4, static_cast<std::size_t>(h_),
                                  cudaMemcpyDeviceToHost));
  }

 private:
  int w_ = 0, h_ = 0;
  PitchedBuffer buf_;
};

}  // namespace detail

std::unique_ptr<Surface> make_cuda_surface(SurfaceFormat format) {
  std::string why;
  if (!device_available(&why)) throw Error("CUDA surface: " + why);
  return std::make_unique<detail::CudaArraySurface>(format);
}

std::unique_ptr<Surface> make_cuda_buffer_surface() {
  std::string why;
  if (!device_available(&why)) throw Error("CUDA surface: " + why);
  return std::make_unique<detail::CudaBufferSurface>();
}

ImageU8 read_back_rgba(Surface& s) {
  if (auto* h = dynamic_cast<HostSurface*>(&s)) {
    LB_REQUIRE(h->format() == SurfaceFormat::RGBA8, "read back: surface is not RGBA8");
    return h->rgba();
  }
  LB_REQUIRE(s.format() == SurfaceFormat::RGBA8, "read back: surface is not RGBA8");
  ImageU8 img(s.width(), s.height(), 4);
  if (auto* a = dynamic_cast<detail::CudaArraySurface*>(&s)) {
    a->read(img.data.data(), 4);
  } else if (auto* b = dynamic_cast<detail::CudaBufferSurface*>(&s)) {
    b->read(img.data.data());
  } else {
    throw Error("read back: unsupported surface (" + s.transport() + ")");
  }
  return img;
}

ImageF read_back_scalar(Surface& s) {
  if (auto* h = dynamic_cast<HostSurface*>(&s)) {
    LB_REQUIRE(h->format() == SurfaceFormat::R32F, "read back: surface is not R32F");
    return h->scalar();
  }
  auto* a = dynamic_cast<detail::CudaArraySurface*>(&s);
  LB_REQUIRE(a != nullptr && s.format() == SurfaceFormat::R32F,
             "read back: not an R32F CUDA surface (" + s.transport() + ")");
  ImageF img(s.width(), s.height(), 1);
  a->read(img.data.data(), 4);
  return img;
}

}  // namespace lb::cuda
