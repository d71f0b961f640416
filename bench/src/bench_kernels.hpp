#pragma once
// Bandwidth references of the benchmarks (bench_kernels.cu): the seed's "simple copy", the
// L2 flush of the timer and the render benchmark's diagnostic raster reads. CUDA runtime
// types only. Every call enqueues on `stream` and checks its launch (throws lb::Error).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace lb::bench {

// The seed's "simple copy" reference: read-then-write, 16 bytes per thread. `bytes` must be
// a multiple of 16; both pointers 16-byte aligned.
void launch_copy(const void* src, void* dst, std::size_t bytes, cudaStream_t stream);

// Reads `bytes` of buf (make it at least twice the L2 size) to evict the L2 between timed
// launches; `sink` (4 bytes of device memory) is almost never written.
void launch_l2_flush(const void* buf, std::size_t bytes, unsigned* sink, cudaStream_t stream);

// Diagnostic: for each of rows[0..nrows), reads word idx[i] (wide: 16-byte quad idx[i])
// of that row for all i, in raster order. Requires a 16-byte aligned pitch when wide.
void launch_raster_read(const std::uint32_t* rgba, std::size_t pitch_bytes, const int* rows,
                        int nrows, const int* idx, int nidx, bool wide, int column_major,
                        unsigned* sink, cudaStream_t stream);

}  // namespace lb::bench
