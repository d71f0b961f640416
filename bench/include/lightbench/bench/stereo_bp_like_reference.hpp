#pragma once
// `lightbench-cli bench stereo --like-reference`: the BP CUDA matcher at the settings of the
// reference implementation (cudaBeliefProp: 5 levels, 7 iterations, lambda 0.1, data
// truncation 15, discontinuity truncation ndisp / 7.5, no smoothing) on pairs of its sizes,
// beside its figures measured on an NVIDIA H100 80GB HBM3 (../shared/anchors/
// bp-cudabeliefprop.md), with the speed-up against its best message type, the goal of issue
// 11 (>= 1.5x) and the share of the memory floor. Only the public API of the matcher
// (stereo_bp/stereo_cuda.hpp) times the runs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lightbench/bench/report.hpp"
#include "stereo_bp/stereo_bp.hpp"

namespace lb::bench {

// One pair size of the reference's table.
struct LikeReferenceSize {
  int width = 0, height = 0, ndisp = 0;
  std::string text() const;  // "450x375x64"
  bool operator==(const LikeReferenceSize&) const = default;
};

// The reference's figures of one size (ms, median of upload + compute + download); a type it
// has no figure for is empty. single_run: its single-run driver (the "~" figures).
struct LikeReferenceFigures {
  LikeReferenceSize size;
  std::string pair;  // "Tsukuba", "Cones quarter", ...
  std::optional<double> float_ms, bf16_ms, double_ms;
  bool single_run = false;
  double best_ms() const;        // the fastest type it has a figure for
  std::string best_type() const; // "float", "bf16" or "double"
};

// Every size of the reference's table, in its order (192x144x8 .. 900x750x256).
const std::vector<LikeReferenceFigures>& like_reference_table();
// The reference's settings for ndisp disparities (tau_disc = ndisp / 7.5).
stereo::BpParams like_reference_params(int ndisp);
// "450x375x64,192x144x8" -> those sizes in that order. Throws lb::Error with one line naming
// --sizes and the bad entry: bad syntax, a size not in the table, a repeated size, empty.
std::vector<LikeReferenceSize> parse_like_reference_sizes(const std::string& text);

// Bytes the message passing must move at least: per level k (each level halves, rounding up)
// and per iteration (one checkerboard half), each of its ceil(Wk * Hk / 2) active pixels reads
// 4 incoming and writes 4 outgoing messages of ndisp values of msg_bytes bytes, and reads
// its ndisp float data costs.
std::uint64_t bp_floor_bytes(int width, int height, int ndisp, int levels, int iterations, int msg_bytes);
// Bytes per message value of a variant by its resolved name: 2 when it contains "bf16" or
// "fp16", else 4 (float).
int bp_message_bytes(const std::string& variant);

struct LikeReferenceOptions {
  std::string data = "../shared/data/stereo";  // tsukuba/ and venus/; missing: synthetic
  std::vector<LikeReferenceSize> sizes;        // empty: every size of the table
  int warmup = 3;
  int reps = 30;
  bool all_variants = false;  // also every other variant of cuda::bp_stereo_variants()
  bool check = true;          // pixels differing from the CPU reference (not at the largest size)
  int device = 0;
};

// One row per (size, variant): median ms_total and ms over the reps (StereoResult), the
// reference's figures, speed-up against its best type, goal (best / 1.5) and whether it is
// met, the memory floor at the measured copy bandwidth and its share, the CPU check.
Report bench_stereo_like_reference(const LikeReferenceOptions& options);

}  // namespace lb::bench
