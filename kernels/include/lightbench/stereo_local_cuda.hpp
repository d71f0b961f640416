#pragma once
// CUDA center-biased local stereo (no CUDA types; stubs throw in builds without CUDA).
//
// Variants (../shared/specs/stereo-local.md, the seed's kernel-transformation phases; the
// pipelines are described in kernels/stereo_local.cu):
//   phase2  cost -> horizontal -> vertical -> WTA, separate kernels through global memory,
//           four disparities per uint4
//   phase3  the vertical pass split into a left-stream and a right-stream kernel
//   phase4  L0:3 R0:3 re-packed into L0:1 R0:1 / L2:3 R2:3; one WTA copy per vertical kernel
//   phase5  each WTA copy merged into its vertical kernel (running min / argmin over the
//           disparity batches; the WTA input never reaches global memory)
//   fused   one kernel per 32x32 tile and disparity batch: cost, both passes and the WTA
//           in shared memory / registers (the default)
// All variants use the integer arithmetic of lightbench/stereo_local_math.hpp: the maps are
// IDENTICAL to the CPU reference (stereo::local_disparity_cpu), checked exactly by
// tests/gpu/test_stereo_local_gpu.cpp and by the benchmark.
//
// StereoResult: ms = compute only (CUDA events, pair resident on the device), ms_total =
// upload of the pair (pinned) + compute + download of the map. Timings are recorded under
// "stereo/local/<variant>" (compute).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lightbench/cuda_api.hpp"
#include "lightbench/stereo_local.hpp"

namespace lb::cuda {

std::unique_ptr<stereo::StereoMatcher<stereo::LocalParams>> make_local_stereo_cuda(int device = 0);

// `lightbench-cli bench local`
struct LocalBenchWorkload {
  std::string name;             // "tsukuba", "venus", "synthetic 450x375"
  stereo::StereoPair pair;
  int ndisp = 16;
  ImageF truth;                 // disparity in pixels, 0 = unknown (may be empty)
  ImageU8 mask_nonocc;          // 255 = non-occluded (may be empty: all known pixels)
};

struct LocalBenchOptions {
  std::vector<std::string> variants;  // empty: all (stereo::local_variants())
  int warmup = 10;
  int reps = 100;               // timed runs per variant (fewer past max_seconds, >= 5)
  double max_seconds = 10.0;    // timed budget per variant and workload
  bool check_cpu = true;        // compare every map with the CPU reference (exact)
  int device = 0;
};

struct LocalBenchEntry {
  std::string workload, variant;
  int width = 0, height = 0, ndisp = 0;
  int reps = 0;
  double median_ms = 0, min_ms = 0;     // compute only, CUDA events
  double median_total_ms = 0;           // upload + compute + download
  double mde_per_s = 0;                 // million disparity estimations / s (w h ndisp / median_ms)
  double fps = 0, fps_total = 0;
  std::uint64_t bytes = 0;              // global memory a compute pass moves at least
  double gbps = 0;                      // bytes / median_ms
  bool checked = false, exact = false;  // vs the CPU reference
  std::uint64_t mismatches = 0;
  bool scored = false;
  double bad1_nonocc = 0, bad1_all = 0; // % of known pixels with |d - truth| > 1
};

struct LocalBenchReport {
  DeviceInfo device;
  stereo::LocalParams params;           // ndisp per workload
  LocalBenchOptions options;
  double copy_gbps = 0;                 // 16-byte copy kernel (read + write), same process
  std::vector<LocalBenchEntry> entries;
  bool all_exact() const;
};

LocalBenchReport bench_local_stereo(const std::vector<LocalBenchWorkload>& workloads, const stereo::LocalParams& params,
                                    const LocalBenchOptions& o);
std::string format_local_bench_report(const LocalBenchReport& r);
std::string local_bench_report_json(const LocalBenchReport& r);

}  // namespace lb::cuda
