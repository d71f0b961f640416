#pragma once
// Internal to lb_kernels: 2D images in device memory. DevicePlane<T> is a non-owning view
// (what kernels and launchers take: the output of any pass, a mapped buffer, an upload);
// DeviceImage<T> owns a pitched allocation and uploads host images into it.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cuda_util.hpp"
#include "lightbench/image.hpp"

namespace lb::cuda::detail {

// Packed 8-bit RGB pixel (3 bytes, no alignment): an RGB8 image's element.
struct Rgb8Pixel {
  std::uint8_t r, g, b;
};
static_assert(sizeof(Rgb8Pixel) == 3, "packed RGB8");

// width x height pixels of T, row y at (const char*)ptr + y * pitch.
template <class T>
struct DevicePlane {
  const T* ptr = nullptr;
  std::size_t pitch = 0;  // bytes per row, >= width * sizeof(T)
  int width = 0, height = 0;
  bool empty() const { return ptr == nullptr || width <= 0 || height <= 0; }
};
using DeviceFloatPlane = DevicePlane<float>;      // disparity, depth, error maps
using DeviceRgbaPlane = DevicePlane<uchar4>;      // RGBA8
using DeviceRgbPlane = DevicePlane<Rgb8Pixel>;    // packed RGB8
using DeviceBytePlane = DevicePlane<std::uint8_t>;  // one 8-bit channel (masks)

// Throws lb::Error naming `what` unless p is non-empty and its pitch holds a row.
template <class T>
void require_plane(const DevicePlane<T>& p, const char* what) {
  LB_REQUIRE(!p.empty() && p.pitch >= static_cast<std::size_t>(p.width) * sizeof(T),
             std::string(what) + ": no device image, or its pitch is shorter than a row");
}

// An owned pitched device image of T. upload() copies a host image whose channels make up
// one T (ImageF 1 channel -> float; ImageU8 4 -> uchar4, 3 -> Rgb8Pixel, 1 -> uint8_t) and
// synchronises the stream (the host image may go away afterwards).
template <class T>
class DeviceImage {
 public:
  void allocate(int width, int height) {
    LB_REQUIRE(width > 0 && height > 0, "device image: size must be positive");
    buf_.resize(static_cast<std::size_t>(width) * sizeof(T), static_cast<std::size_t>(height));
    w_ = width;
    h_ = height;
  }
  template <class H>
  void upload(const Image<H>& img, cudaStream_t s) {
    static_assert(std::is_same_v<T, float> ? std::is_same_v<H, float> : std::is_same_v<H, std::uint8_t>,
                  "float planes come from ImageF, 8-bit ones from ImageU8");
    LB_REQUIRE(!img.empty() && sizeof(H) * static_cast<std::size_t>(img.channels) == sizeof(T),
               "device image: the host image's channels do not make one device pixel");
    allocate(img.width, img.height);
    const std::size_t row = static_cast<std::size_t>(img.width) * sizeof(T);
    CUDA_CHECK_THROW(cudaMemcpy2DAsync(buf_.get(), buf_.pitch(), img.data.data(), row, row,
                                       static_cast<std::size_t>(img.height), cudaMemcpyHostToDevice, s));
    CUDA_CHECK_THROW(cudaStreamSynchronize(s));
  }
  void release() {
    buf_.release();
    w_ = h_ = 0;
  }
  bool empty() const { return buf_.get() == nullptr; }
  int width() const { return w_; }
  int height() const { return h_; }
  T* data() const { return static_cast<T*>(buf_.get()); }
  std::size_t pitch() const { return buf_.pitch(); }
  DevicePlane<T> plane() const { return DevicePlane<T>{data(), pitch(), w_, h_}; }

 private:
  PitchedBuffer buf_;
  int w_ = 0, h_ = 0;
};

// One channel of an 8-bit host image (e.g. the first channel of a mask) as a byte plane.
void upload_channel(const ImageU8& img, int channel, DeviceImage<std::uint8_t>& out, cudaStream_t s);

// Device plane -> host image (synchronises the stream). For the host-upload fallback and
// for tests.
ImageF download(const DeviceFloatPlane& p, cudaStream_t s);
ImageU8 download(const DeviceRgbaPlane& p, cudaStream_t s);

}  // namespace lb::cuda::detail
