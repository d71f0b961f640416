#pragma once
// Scoring of a plenoptic depth map on the device (lb::score_depth's definition, engine/src/
// plenoptic_depth.cpp): pixels whose truth is > 0; exact count and sum |depth - truth|.
// The map stays where the depth pass wrote it: no rerun, no download of the map.
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

namespace lb::cuda {

struct DepthScoreSums {
  unsigned long long pixels = 0, exact = 0;
  double abs_err = 0.0;  // summed per block, then blocks in order: not the CPU's order (see test)
};

// map: pitched floats (bytes per row map_pitch); truth: dense w x h floats on the device.
// Blocks until the sums are on the host.
DepthScoreSums depth_score_device(const float* map, std::size_t map_pitch, const float* truth, int w, int h,
                                  int border, cudaStream_t stream);
// |map - truth| into a pitched float buffer (out_pitch bytes per row).
void launch_depth_error(const float* map, std::size_t map_pitch, const float* truth, int w, int h, float* out,
                        std::size_t out_pitch, cudaStream_t stream);

}  // namespace lb::cuda
