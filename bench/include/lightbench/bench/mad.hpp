#pragma once
// `lightbench-cli bench mad`: the whole MAD metric per backend / variant and its
// local-statistics kernels (kernels/mad/mad.cu, kernels/mad/mad_stats.cu).
#include <string>

#include "lightbench/bench/report.hpp"

namespace lb::bench {

struct MadBenchOptions {
  int warmup = 5;
  int reps = 50;
  int device = 0;
  std::string iqa_dir;  // ../shared/data/iqa for the 512x384 pairs ("" or absent: synthetic)
  // Workloads with more pixels are left out (0: none). The GPU test sets it under
  // compute-sanitizer, where racecheck needs minutes per 1920x1080 metric.
  long long max_pixels = 0;
};

// At 512x384 (the iqa pairs I03, I04, I06, or a synthetic pair), 512x512 and 1920x1080
// (synthetic natural-ish image + noise + blur): the CPU reference and every CUDA statistics
// variant on the whole metric (rows "what" = "metric", their score in "mad"; times: the
// metric's own, wall clock on the CPU, CUDA events on the GPU), then the statistics kernel
// alone per variant on the 40 |log-Gabor| maps of one size ("what" = "stats"; bytes: maps
// read once + statistics written, "gbps" against a copy kernel of the same process,
// "copy_gbps"). Metric rows of CUDA carry "launches" and "pipeline"; beside the default r2c
// pipeline ("cuda/<variant>") the previous c2c one ("cuda-c2c/fused") and r2c with 2, 10 and
// 40 responses per inverse batch ("cuda-r2c-b<B>/fused") and r2c with cuFFT JIT callbacks
// ("cuda-r2c-cb/fused"; when cuFFT cannot link them, a note says why and its rows are absent).
// Table "stages": per workload the stages of the default pipeline, c2c and the callbacks
// (fused statistics) from the same timed runs
// (keys workload, stage, variant = pipeline label, median_ms ..., bytes = the stage's floor,
// gbps).
Report bench_mad(const MadBenchOptions& options);

}  // namespace lb::bench
