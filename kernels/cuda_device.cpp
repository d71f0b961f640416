// CUDA device discovery: whether a usable device exists (a context can be made and a
// kernel image for its architecture exists) and what it is.
#include <cuda_runtime_api.h>

#include <string>

#include "cuda_check.cuh"
#include "lightbench/cuda_api.hpp"
#include "plenoptic/render_launch.hpp"  // probe_kernels

namespace lb::cuda {

namespace {

std::string error_text(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

std::string version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

}  // namespace

DeviceInfo device_info(int device) {
  DeviceInfo d;
  d.index = device;
  std::string why;
  if (!device_available(&why)) {
    d.why = why;
    return d;
  }
  int count = 0;
  CUDA_CHECK_THROW(cudaGetDeviceCount(&count));
  if (device < 0 || device >= count) {
    d.why = "device " + std::to_string(device) + " does not exist (" + std::to_string(count) +
            " CUDA devices)";
    return d;
  }
  cudaDeviceProp prop{};
  CUDA_CHECK_THROW(cudaGetDeviceProperties(&prop, device));
  d.available = true;
  d.name = prop.name;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.total_memory = prop.totalGlobalMem;
  d.l2_bytes = prop.l2CacheSize;
  int clock_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) == cudaSuccess)
    d.peak_gbps = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  (void)cudaGetLastError();
  int v = 0;
  if (cudaDriverGetVersion(&v) == cudaSuccess) d.driver = version_text(v);
  if (cudaRuntimeGetVersion(&v) == cudaSuccess) d.runtime = version_text(v);
  return d;
}

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
}

bool device_available(std::string* why) {
  auto fail = [why](const std::string& w) {
    if (why) *why = w;
    return false;
  };
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return fail("no CUDA device (" + error_text(e) + ")");
  }
  if (count <= 0) return fail("no CUDA device (cudaGetDeviceCount returned 0)");
  int current = 0;
  e = cudaGetDevice(&current);
  if (e == cudaSuccess) e = cudaFree(nullptr);  // creates the context
  if (e == cudaSuccess) e = detail::probe_kernels();
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    cudaDeviceProp prop{};
    const std::string name =
        cudaGetDeviceProperties(&prop, current) == cudaSuccess ? std::string(prop.name) : "device";
    (void)cudaGetLastError();
    return fail("CUDA device " + std::to_string(current) + " (" + name + ", sm_" +
                std::to_string(prop.major) + std::to_string(prop.minor) +
                ") unusable: " + error_text(e));
  }
  if (why) why->clear();
  return true;
}

}  // namespace lb::cuda
