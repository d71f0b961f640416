#pragma once
// Small RAII owners for CUDA runtime resources (internal to lb_kernels). Destructors never
// throw: a failure there is printed (CUDA_CHECK_PRINT) and ignored.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "cuda_check.cuh"

namespace lb::cuda::detail {

// Linear device memory.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes) { allocate(bytes); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept { swap(o); return *this; }

  // Reallocates only when more room is needed. Contents become undefined when it does.
  void reserve(std::size_t bytes) {
    if (bytes > bytes_) allocate(bytes);
  }
  void allocate(std::size_t bytes) {
    release();
    if (bytes == 0) return;
    CUDA_CHECK_THROW(cudaMalloc(&ptr_, bytes));
    bytes_ = bytes;
  }
  void release() {
    if (ptr_) CUDA_CHECK_PRINT(cudaFree(ptr_));
    ptr_ = nullptr;
    bytes_ = 0;
  }
  void* get() const { return ptr_; }
  template <class T> T* as() const { return static_cast<T*>(ptr_); }
  std::size_t size() const { return bytes_; }
  void swap(DeviceBuffer& o) noexcept { std::swap(ptr_, o.ptr_); std::swap(bytes_, o.bytes_); }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// Pitched 2D device memory (cudaMallocPitch): rows of width_bytes, `pitch` apart.
class PitchedBuffer {
 public:
  PitchedBuffer() = default;
  ~PitchedBuffer() { release(); }
  PitchedBuffer(const PitchedBuffer&) = delete;
  PitchedBuffer& operator=(const PitchedBuffer&) = delete;

  // (Re)allocates when the shape changes.
  void resize(std::size_t width_bytes, std::size_t height) {
    if (ptr_ && width_bytes == width_bytes_ && height == height_) return;
    release();
    if (width_bytes == 0 || height == 0) return;
    CUDA_CHECK_THROW(cudaMallocPitch(&ptr_, &pitch_, width_bytes, height));
    width_bytes_ = width_bytes;
    height_ = height;
  }
  void release() {
    if (ptr_) CUDA_CHECK_PRINT(cudaFree(ptr_));
    ptr_ = nullptr;
    pitch_ = width_bytes_ = height_ = 0;
  }
  void* get() const { return ptr_; }
  std::size_t pitch() const { return pitch_; }
  std::size_t width_bytes() const { return width_bytes_; }
  std::size_t height() const { return height_; }

 private:
  void* ptr_ = nullptr;
  std::size_t pitch_ = 0, width_bytes_ = 0, height_ = 0;
};

class Stream {
 public:
  Stream() { CUDA_CHECK_THROW(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (s_) CUDA_CHECK_PRINT(cudaStreamDestroy(s_));
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  Event() { CUDA_CHECK_THROW(cudaEventCreate(&e_)); }
  ~Event() {
    if (e_) CUDA_CHECK_PRINT(cudaEventDestroy(e_));
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& o) noexcept : e_(o.e_) { o.e_ = nullptr; }
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace lb::cuda::detail
