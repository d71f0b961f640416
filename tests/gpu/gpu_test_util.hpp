#pragma once
// Helpers of the GPU tests: device presence (skip or fail), random raws, exact comparison.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb::test {

// Whether a usable CUDA device exists; *why names the reason when not.
bool gpu_present(std::string* why);
// "SKIPPED: no CUDA device (<reason>)".
std::string skip_message(const std::string& why);
// LB_REQUIRE_GPU=1 in the environment: a missing device is a failure, not a skip.
bool gpu_required();

// Random raw of the given size and channel count (3: RGB, 4: RGBA with random alpha).
ImageU8 random_raw(int width, int height, int channels, std::uint64_t seed);
// Smallest raw that holds the grid, plus `extra` pixels on each axis.
int raw_extent(int n, double pitch, double origin, int extra);

// Number of pixels (RGBA words) that differ; fills *first with "x,y: got .. want .." for
// the first one.
std::uint64_t count_mismatches(const ImageU8& got, const ImageU8& want, std::string* first);

std::string describe_case(const PlenopticGrid& g, const RenderParams& p);

// A file name in the temporary directory unique to this process (name + ".<pid>" before the
// extension): test runs side by side (scripts/gpu-sanitize runs a case under several tools
// at once) must not remove or rewrite each other's files, e.g. the BP tuner's cache.
std::string process_temp_path(const std::string& stem, const std::string& ext);

}  // namespace lb::test

// At the top of every GPU test case: without a device, print the skip and return (or fail
// when LB_REQUIRE_GPU=1). With a device the test always runs.
#define LB_GPU_TEST_GUARD()                                                              \
  do {                                                                                   \
    std::string lb_gpu_why_;                                                             \
    if (!::lb::test::gpu_present(&lb_gpu_why_)) {                                       \
      if (::lb::test::gpu_required())                                                    \
        FAIL("LB_REQUIRE_GPU=1 but no usable CUDA device: " << lb_gpu_why_);             \
      MESSAGE(::lb::test::skip_message(lb_gpu_why_));                                    \
      return;                                                                            \
    }                                                                                    \
  } while (0)
