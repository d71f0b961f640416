#pragma once
// 16-byte global -> shared copies for the render kernels that stage the raw through shared
// memory (render_tiled.cu, render_nosync.cu's staged kernel). Device code only.
#include <cuda_runtime.h>

namespace lb::cuda::detail {
namespace {

// Quads (16 bytes) that hold a row segment of `span` pixels at any alignment.
__host__ __device__ constexpr int staged_quads(int span) { return (span + 6) / 4; }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// cp.async of 16 bytes, with an L2 prefetch of the surrounding 256-byte block: the row
// pieces the render kernels stage (220 B at the seed's M) and their neighbours in the same
// raw row then come from DRAM in fewer, larger requests (staged NoSync, H100: 53.2 ->
// 50-52 us, three A/B runs).
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
// Waits for every cp.async this thread issued (committed to a group or not).
__device__ __forceinline__ void cp_async_wait_all() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }
// The same copy without the L2 prefetch hint.
__device__ __forceinline__ void cp_async16_plain(void* smem, const void* gmem) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}
#endif

}  // namespace
}  // namespace lb::cuda::detail
