#pragma once
// Internal to lb_kernels: bandwidth references for the benchmarks (`bench <id> --cold-l2`,
// `--floor`; not part of any algorithm): the seed's "simple copy", an L2 eviction between timed
// runs, and raster reads of a raw image (a render's memory-traffic floor). CUDA runtime types
// only. Every launch enqueues on `stream` and checks itself (throws lb::Error).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace lb::cuda::detail {

// The seed's "simple copy" reference: read-then-write, 16 bytes per thread. `bytes` must be
// a multiple of 16; both pointers 16-byte aligned.
void launch_copy(const void* src, void* dst, std::size_t bytes, cudaStream_t stream);

// For every row of rows[0..nrows), reads word idx[i] (wide: 16-byte quad idx[i]) of that row
// for all i, in raster order (column_major: warps walk down the rows first). Requires a
// 16-byte aligned pitch when wide. `sink` (4 bytes of device memory) is almost never written.
void launch_raster_read(const std::uint32_t* rgba, std::size_t pitch_bytes, const int* rows, int nrows, const int* idx,
                        int nidx, bool wide, int column_major, unsigned* sink, cudaStream_t stream);

// Evicts `device`'s L2: reads a buffer of max(64 MiB, 2 x L2) (made once per device, clean
// lines only, so nothing is written back during the next timed kernel) and waits for it.
void flush_l2(int device);

}  // namespace lb::cuda::detail
