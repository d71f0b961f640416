#pragma once
// Small RAII owners for CUDA runtime resources (internal to lb_kernels). Destructors never
// throw: a failure there is printed (CUDA_CHECK_PRINT) and ignored.
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "cuda_check.cuh"
#include "lightbench/error.hpp"
#include "lightbench/memory_budget.hpp"

namespace lb::cuda::detail {

// Device memory accounting: every device allocation of lb_kernels (DeviceBuffer,
// PitchedBuffer, the CUDA arrays of surfaces and light fields, cuFFT work areas) reserves its
// bytes here first. Past the process-wide limit (--max-device-memory, LB_MAX_DEVICE_MEMORY;
// memory_budget.hpp) it fails like the device would, with one line:
//   "out of device memory: allocating 3.1 GiB for <what> (free 1.2 GiB of 4.0 GiB)"
inline std::atomic<std::uint64_t>& device_bytes_in_use() {
  static std::atomic<std::uint64_t> n{0};
  return n;
}
inline void device_reserve(std::size_t bytes, const char* what) {
  const std::uint64_t limit = ::lb::max_device_memory();
  std::atomic<std::uint64_t>& used = device_bytes_in_use();
  const std::uint64_t before = used.fetch_add(bytes);
  if (limit && before + bytes > limit) {
    used.fetch_sub(bytes);
    throw ::lb::Error(::lb::device_oom_message(bytes, what, limit > before ? limit - before : 0, limit) +
                      " [device limit: --max-device-memory / LB_MAX_DEVICE_MEMORY]");
  }
}
inline void device_unreserve(std::size_t bytes) { device_bytes_in_use().fetch_sub(bytes); }

// The result of a device allocation that reserved `bytes`: on failure the reservation is
// returned; cudaErrorMemoryAllocation becomes the one-line out-of-memory lb::Error (the error
// is not sticky: it is cleared so the context stays usable), anything else the usual CUDA error.
inline void device_alloc_result(cudaError_t e, std::size_t bytes, const char* what, const char* call) {
  if (e == cudaSuccess) return;
  device_unreserve(bytes);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    std::size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) (void)cudaGetLastError();
    throw ::lb::Error(::lb::device_oom_message(bytes, what, free_b, total_b));
  }
  throw ::lb::Error(cuda_error_text(call, e));
}
// Pinned host memory (cudaMallocHost): not counted against the device limit, but an
// allocation failure is named the same way.
inline void host_pinned_alloc(void** p, std::size_t bytes, const char* what) {
  const cudaError_t e = cudaMallocHost(p, bytes);
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();
  if (e == cudaErrorMemoryAllocation)
    throw ::lb::Error("out of pinned host memory: allocating " + ::lb::format_bytes(bytes) + " for " + what);
  throw ::lb::Error(cuda_error_text("cudaMallocHost", e));
}

// Linear device memory.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes, const char* what = "a device buffer") { allocate(bytes, what); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept { swap(o); return *this; }

  // Reallocates only when more room is needed. Contents become undefined when it does.
  void reserve(std::size_t bytes, const char* what = "a device buffer") {
    if (bytes > bytes_) allocate(bytes, what);
  }
  void allocate(std::size_t bytes, const char* what = "a device buffer") {
    release();
    if (bytes == 0) return;
    device_reserve(bytes, what);
    void* p = nullptr;  // ptr_ stays null when the allocation fails
    device_alloc_result(cudaMalloc(&p, bytes), bytes, what, "cudaMalloc");
    ptr_ = p;
    bytes_ = bytes;
  }
  void release() {
    if (ptr_) {
      CUDA_CHECK_PRINT(cudaFree(ptr_));
      device_unreserve(bytes_);
    }
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
  void resize(std::size_t width_bytes, std::size_t height, const char* what = "a pitched device buffer") {
    if (ptr_ && width_bytes == width_bytes_ && height == height_) return;
    release();
    if (width_bytes == 0 || height == 0) return;
    device_reserve(width_bytes * height, what);
    void* p = nullptr;  // ptr_ stays null when the allocation fails
    std::size_t pitch = 0;
    device_alloc_result(cudaMallocPitch(&p, &pitch, width_bytes, height), width_bytes * height, what,
                        "cudaMallocPitch");
    ptr_ = p;
    pitch_ = pitch;
    reserved_ = width_bytes * height;
    width_bytes_ = width_bytes;
    height_ = height;
  }
  void release() {
    if (ptr_) {
      CUDA_CHECK_PRINT(cudaFree(ptr_));
      device_unreserve(reserved_);
    }
    ptr_ = nullptr;
    pitch_ = width_bytes_ = height_ = reserved_ = 0;
  }
  void* get() const { return ptr_; }
  std::size_t pitch() const { return pitch_; }
  std::size_t width_bytes() const { return width_bytes_; }
  std::size_t height() const { return height_; }

 private:
  void* ptr_ = nullptr;
  std::size_t pitch_ = 0, width_bytes_ = 0, height_ = 0, reserved_ = 0;
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
