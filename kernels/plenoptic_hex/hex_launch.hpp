#pragma once
// Internal interface between the host code of lb_kernels (the general-grid engine,
// hex_cuda_engine.cpp; the hex bench) and the general-grid kernels (hex_render.cu,
// hex_depth.cu). CUDA runtime types only, no device code. Every kernel computes the shared
// per-pixel math of hex_math.hpp, so its output is bit-identical to the CPU passes of
// render_hex_cpu.cpp.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "cuda_util.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "lightbench/surface.hpp"

namespace lb::cuda::detail {

// Kernel variants of every general-grid pass (HexConfig::variant):
//   "original"     one thread per output pixel, the tables read from global memory (L1);
//   "smem-tables"  the same mapping, the small tables (lattice offsets, weights, per-P masks
//                  and reaches) staged in shared memory per block first;
//   "pruned"       smem-tables, and render / all-in-focus search only the prefix of the
//                  lattice offsets (sorted by length) that can reach a contributing lens at
//                  that patch size (HexNearPrefix); depth as smem-tables.
// (Tried and dropped, docs/PERFORMANCE.md: batched gathers per pixel, block-coherent lens walks.)
enum class HexVariant { Original, SmemTables, Pruned };
// Throws lb::Error naming the variant and the known ones.
HexVariant parse_hex_variant(const std::string& name);
const char* to_string(HexVariant v);

// The raw on the device: RGBA8 words (R in the low byte), rows `pitch` bytes apart.
struct HexRawDevice {
  const std::uint8_t* rgba = nullptr;
  std::size_t pitch = 0;
  int width = 0, height = 0;
};

// Per patch size P, how many leading entries of the `near` offsets (sorted by length) a
// render at P must search: a lens contributes only within the reach (reach2_of_patch[P]) and
// with its sample inside the usable circle (|P (s - l)| <= sqrt(usable2)), and s lies within
// `cell` = (|base_x| + |base_y|) / 2 of its rounded lattice point, so an offset longer than
// min(reach, sqrt(usable2) / P) + cell (+ 0.01 lens units for float rounding) never adds to
// the sums: dropping it leaves them (integers, order-free) unchanged. Not valid for depth
// (its main-lens search has no reach limit).
struct HexNearPrefix {
  int n[hex::kMaxPatchIndex + 1] = {};
};
HexNearPrefix hex_near_prefix(const HexTablesHost& t);

// The tables of one HexTablesHost in one device buffer; `view` points into it.
struct HexTablesDevice {
  hex::HexLayout layout{};
  hex::HexTables view{};
  HexNearPrefix prefix;
  DeviceBuffer buf;
};
// Uploads t on `stream` and synchronises it (t may go away afterwards). Callers make sure no
// queued kernel still reads the old contents of `out` (the engine synchronises first).
void upload_hex_tables(const HexTablesHost& t, HexTablesDevice& out, cudaStream_t stream);

// Render of the frame at patch P (the layout's patch for a plain render) into an RGBA8
// target (surface object or pitched buffer, at least out_w x out_h). Validates, checks the
// launch.
void launch_hex_render(HexVariant v, const HexTablesDevice& t, const HexRawDevice& raw, int P, float view_x,
                       float view_y, float inv2s2, const DeviceTarget& out, cudaStream_t stream);
// All-in-focus: each pixel at its own patch size from a pitched float depth map of the frame
// (render_all_in_focus_hex's rule: 0, non-finite or out of 1..kMaxPatchIndex -> black).
void launch_hex_aif(HexVariant v, const HexTablesDevice& t, const HexRawDevice& raw, const float* depth,
                    std::size_t depth_pitch, float view_x, float view_y, float inv2s2, const DeviceTarget& out,
                    cudaStream_t stream);

// Depth (depth_hex): cost per candidate P = pmin..pmax (hex::depth_cost with the pair cap
// hex::pair_cap(truncate)), the k x k window
// aggregation (integer, valid costs only) and the argmin (ties: the smaller P; 0 = none)
// into a pitched float map (out, out_pitch bytes per row). window == 1: one fused kernel;
// else the cost volume goes to `scratch` (hex_depth_scratch_bytes) first.
std::size_t hex_depth_scratch_bytes(const hex::HexLayout& L, int pmin, int pmax, int window);
void launch_hex_depth(HexVariant v, const HexTablesDevice& t, const HexRawDevice& raw, int pmin, int pmax,
                      float aperture2, std::uint32_t cap, int window, std::uint32_t* scratch, float* out,
                      std::size_t out_pitch, cudaStream_t stream);
// depth_hex's squared aperture radius (aperture * D / 2, rounded to float, squared in float).
float hex_aperture2(const hex::HexLayout& L, float aperture);

// Distinct raw pixels a pass reads (for the bytes a pass must move): the render at patch P,
// or the depth over pmin..pmax. Runs the pass's sampling with a marking fetch into a
// temporary raw-sized byte map; synchronises the stream.
std::uint64_t hex_touched_render(const HexTablesDevice& t, const HexRawDevice& raw, int P, cudaStream_t stream);
std::uint64_t hex_touched_depth(const HexTablesDevice& t, const HexRawDevice& raw, int pmin, int pmax,
                                float aperture2, cudaStream_t stream);

// score_hex_depth on the device: pixels with a finite truth > 0; of those, with an estimate
// (finite map value > 0), exact (map == truth) and sum |map - truth|. Blocks until the sums
// are on the host. The error sum is added per block then block by block (not the CPU's
// order: equal to the CPU's for integer-valued truths, within rounding otherwise).
struct HexScoreSums {
  unsigned long long pixels = 0, with = 0, exact = 0;
  double abs_err = 0.0;
};
HexScoreSums hex_score_device(const float* map, std::size_t map_pitch, const float* truth, int w, int h,
                              cudaStream_t stream);

}  // namespace lb::cuda::detail
