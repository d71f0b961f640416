#pragma once
// CUDA MAD (no CUDA types; stubs throw in builds without CUDA). Everything on the device in
// float: luminance + CSF (cuFFT, batched over ref/dst), detection statistics and masking,
// local MSE, the 5x4 log-Gabor bank (batched inverse cuFFTs of the 40 responses), the
// appearance statistics, the combination and the cropped RMS reductions. Plans, filter
// tables and buffers are made once per image size and stay resident. The device pipeline
// (r2c by default, the previous c2c for comparison): kernels/mad_pipeline.hpp.
//
// Local-statistics kernel variants (std / skewness / kurtosis of every 16x16 block at
// stride 4 over the 40 |log-Gabor| maps; all compute the same statistics):
//   gather     the seed's original: one thread per block copies its 16x16 samples from
//              global memory into a local array, then mean and central moments.
//   shared     the seed's shared-memory version: 16x8 output blocks per thread block stage
//              their 76x44-pixel footprint (the 16x16 windows overlap) in shared memory laid
//              out [x][y] as in the paper: 4-way conflicts on the staging stores, 8-way on
//              the window reads.
//   shared_nc  the same tile laid out [y][x] (pitch 76 = 4 mod 8) and each thread walking
//              its 16 columns rotated by its x index: every warp access hits 32 distinct
//              banks (checked exhaustively for all (row, column) steps).
//   fused      one pass over the overlapping-block structure: each 4x4 cell's mean and
//              central moments M2..M4 are computed once (from |EO| read as complex, the
//              magnitude fused in) and the 16 cells of each block are merged with the
//              pairwise central-moment formulas (Chan/Pebay), so every sample is read once
//              per map instead of 16 times; all 40 maps in one launch.
// Tolerance vs the CPU statistics (double): tests/mad/test_mad_gpu.cpp documents it.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lightbench/cuda_api.hpp"
#include "mad/mad.hpp"

namespace lb::cuda {

// "gather", "shared", "shared_nc", "fused".
std::vector<std::string> mad_stats_variants();

// The CUDA engine (make_mad_engine_cuda) is internal: lightbench/engines/cuda.hpp.

// Test hook: block statistics of `planes` float planes (w x h each, contiguous) with one
// kernel variant; result [plane][block] like mad_cpu_detail::block_stats.
std::vector<std::vector<mad_cpu_detail::BlockStatsD>> mad_block_stats_cuda(const std::vector<float>& planes,
                                                                            int w, int h, int nplanes,
                                                                            const std::string& variant);

}  // namespace lb::cuda
