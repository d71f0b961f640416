// Bandwidth references of the benchmarks (bandwidth.hpp; not part of any algorithm): the
// seed's "simple copy", the L2 eviction of `bench --cold-l2`, raster reads of a raw image.
#include "bandwidth.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "cuda_check.cuh"
#include "cuda_util.hpp"

namespace lb::cuda::detail {
namespace {

// Simple copy (bandwidth reference): read-then-write, 16 bytes per thread.
__global__ void __launch_bounds__(256)
    bandwidth_copy16_kernel(const uint4* __restrict__ src, uint4* __restrict__ dst, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

// Reads a buffer (larger than L2) so that the next timed kernel starts with a cold L2
// holding only clean lines (a memset would leave dirty lines to be written back during
// the timed kernel). The sink is written only if the data hold an impossible pattern.
__global__ void __launch_bounds__(256)
    bandwidth_l2_flush_kernel(const uint4* __restrict__ src, std::size_t n, unsigned* sink) {
  std::uint32_t acc = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const uint4 v = src[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u && sink) *sink = acc;
}

// Raster reads: for every listed row and every listed index, one load of 4 bytes (word index
// = column) or 16 bytes (index = column / 4): what the DRAM delivers for an access set and
// load width, free of any render's arithmetic. Each warp reads 32 consecutive list entries of
// one row; row-major: consecutive warps along a row, column-major: down the rows.
template <bool Wide>
__global__ void __launch_bounds__(256)
    bandwidth_raster_read_kernel(const std::uint32_t* __restrict__ rgba, std::uint32_t pitch_w,
                                 const int* __restrict__ rows, int nrows, const int* __restrict__ idx, int nidx,
                                 int column_major, unsigned* sink) {
  const int pieces = (nidx + 31) / 32;
  const long long gw = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (gw >= static_cast<long long>(pieces) * nrows) return;
  const int by = column_major ? static_cast<int>(gw % nrows) : static_cast<int>(gw / pieces);
  const int piece = column_major ? static_cast<int>(gw / nrows) : static_cast<int>(gw % pieces);
  const int i = piece * 32 + static_cast<int>(threadIdx.x % 32);
  if (i >= nidx) return;
  const std::uint32_t* row = rgba + static_cast<std::size_t>(__ldg(rows + by)) * pitch_w;
  std::uint32_t acc;
  if constexpr (Wide) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(row) + __ldg(idx + i));
    acc = v.x ^ v.y ^ v.z ^ v.w;
  } else {
    acc = __ldg(row + __ldg(idx + i));
  }
  if (acc == 0x9e3779b9u && sink) *sink = acc;
}

// The eviction buffer of one device, made on first use and kept for the process.
struct FlushBuffer {
  DeviceBuffer buf, sink{16};
  std::unique_ptr<Stream> stream;
};

}  // namespace

void launch_copy(const void* src, void* dst, std::size_t bytes, cudaStream_t stream) {
  LB_REQUIRE(bytes % 16 == 0, "copy: size must be a multiple of 16 bytes");
  const std::size_t n = bytes / 16;
  if (n == 0) return;
  const unsigned threads = 256;
  const dim3 grid(static_cast<unsigned>((n + threads - 1) / threads));
  bandwidth_copy16_kernel<<<grid, threads, 0, stream>>>(static_cast<const uint4*>(src), static_cast<uint4*>(dst), n);
  CUDA_CHECK_LAUNCH();
}

void launch_raster_read(const std::uint32_t* rgba, std::size_t pitch_bytes, const int* rows, int nrows, const int* idx,
                        int nidx, bool wide, int column_major, unsigned* sink, cudaStream_t stream) {
  LB_REQUIRE(nrows > 0 && nidx > 0, "raster read: empty row or column list");
  const long long warps = static_cast<long long>((nidx + 31) / 32) * nrows;
  const dim3 grid(static_cast<unsigned>((warps + 7) / 8));
  const auto pw = static_cast<std::uint32_t>(pitch_bytes / 4);
  if (wide)
    bandwidth_raster_read_kernel<true>
        <<<grid, 256, 0, stream>>>(rgba, pw, rows, nrows, idx, nidx, column_major, sink);
  else
    bandwidth_raster_read_kernel<false>
        <<<grid, 256, 0, stream>>>(rgba, pw, rows, nrows, idx, nidx, column_major, sink);
  CUDA_CHECK_LAUNCH();
}

void flush_l2(int device) {
  static std::mutex mutex;
  // Kept for the process and never destroyed: freeing device memory during static destruction
  // races the CUDA runtime's own teardown (the process end frees it).
  static auto* buffers = new std::map<int, FlushBuffer>;
  const std::lock_guard<std::mutex> lock(mutex);
  CUDA_CHECK_THROW(cudaSetDevice(device));
  FlushBuffer& f = (*buffers)[device];
  if (f.buf.size() == 0) {
    int l2 = 0;
    CUDA_CHECK_THROW(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    const std::size_t bytes = std::max<std::size_t>(64u << 20, 2u * static_cast<std::size_t>(std::max(0, l2))) / 16 * 16;
    f.buf.allocate(bytes);
    CUDA_CHECK_THROW(cudaMemset(f.buf.get(), 0x3c, bytes));
    f.stream = std::make_unique<Stream>();
  }
  int sms = 0;
  CUDA_CHECK_THROW(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const unsigned blocks = static_cast<unsigned>(std::max(1, sms) * 8);
  bandwidth_l2_flush_kernel<<<blocks, 256, 0, f.stream->get()>>>(f.buf.as<uint4>(), f.buf.size() / 16,
                                                                   f.sink.as<unsigned>());
  CUDA_CHECK_LAUNCH();
  // Everything before it done too: the next run starts on a quiet device with a cold L2.
  CUDA_CHECK_THROW(cudaDeviceSynchronize());
}

}  // namespace lb::cuda::detail
