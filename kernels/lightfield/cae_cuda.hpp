#pragma once
// CUDA CAE depth for 4D light fields (no CUDA types; stubs throw in builds without CUDA).
//
// Kernel variants (the seed's optimisation steps, each selectable; all write a float cost
// volume [label][y][x] and share one winner-takes-all kernel; costs in float):
//   baseline   one thread per (pixel, label), label fastest in the thread index; each colour
//              channel sampled separately from packed RGB8 global memory; 256-bin histogram
//              per channel in local memory, zeroed and scanned per (pixel, label).    [cae]
//   vec        + RGBA8 (uchar4) loads and float4 bilinear: 3 channels in one pass.     [cae]
//   tex        + shearing through a layered cudaTextureObject with hardware bilinear
//              filtering (8-bit fixed-point weights: samples can differ by one level
//              from the exact bilinear; tolerance below).                               [cae]
//   coalesced  2D pixel blocks (x fastest, label per grid z): each view's loads are
//              row-contiguous across a warp (coalesced / cache lines fully used); manual
//              float4 bilinear from read-only loads, views visited column-wise.        [cae]
//   binned     coalesced + 64-bin histogram, weights at the bin centre.            [binned]
//   binned_fast  binned with the conversion-free sampling of exact (bytes -> floats by a
//              byte permute onto 2^23, floor by a round-down add; bit-identical samples):
//              the fair baseline for exact's speed.                                 [binned]
//   exact      the 256-bin CAE over the occupied bins only, without a 256-bin scan: the
//              fastest bit-identical exact kernel for the window on an H100, exact_sort at
//              3x3, exact_stash to 9x9, exact_chan beyond (cae_launch.cpp). Bit-identical
//              costs and labels to coalesced; faster than binned at every window.   [exact]
//   exact_chan one channel at a time: 256 B of counts a thread (18 warps per SM), the
//              word walk of exact_smem_table, the raw defocus cost summed from the same
//              samples (the refinement's cue) in the same pass. Bit-identical.      [exact]
//   exact_stash exact_chan loading each texel once per label: the first channel counted,
//              the other two levels stashed as bytes in shared memory and counted after
//              its walk (a third of the texel loads), each channel's walk over its
//              level range (no scan; H100 9x9: 5.94 ms; exact_chan 7.78 there before
//              it walked ranges too).
//              Bit-identical, defocus cost too.                                      [exact]
//   exact_smem per thread 8-bit counts (3 x 64 words) in shared memory, word k of thread t
//              at [k * 96 + t] (bank = lane whatever k: every data-dependent increment is
//              one conflict-free atomicAdd); per channel a 64-bit mask of the non-empty
//              words (one scan), then one loop over the thread's occupied bins in ascending
//              order, the three channels interleaved (warp cost: the largest per-thread
//              count, not the union over the warp), each word read once and written back 0
//              (counts stay zero across labels), each bin's term computed as coalesced's
//              add_term (weight from a 1 KiB shared copy of the table; logf as nvcc's
//              sequence without its branches for denormals / inf / 0, which no term hits:
//              bit-identical, checked on every float by cae_log_mismatches).
//              Blocks 32 x 3, 73 KiB dynamic shared memory (counts 72 KiB + weights), 3
//              blocks (9 warps) per SM (ptxas: 109-168 registers, no spills), 5 labels per
//              thread; x taps per view column and y taps per view row once per label,
//              texels read without the x1 / y1 clamp (weight exactly 0 there; the views
//              are padded). Any n <= 15. Bit-identical to coalesced.              [exact]
//   exact_smem_table  exact_smem walking non-empty words, each word's four bins' (g, logf g)
//              read from a (count, level - centre) table (as exact_sort's, ~226 KiB):
//              fewer instructions, but the lanes' loads scatter over the table (up to 32
//              L1 wavefronts per warp load). Bit-identical to coalesced.          [exact]
//   exact_terms  the same exact (unbinned) CAE summed over the SAMPLES instead of the bins:
//              with c_s the count of sample s's level and w_s its weight, G = sum w_s,
//              S = sum w_s (log w_s + log c_s): H = log(n*n) - S / G (spec), log G - S / G
//              (normalized_log). Pass 1 counts the levels in exact_smem's shared counters
//              and keeps them (registers up to 7x7, shared memory beyond); pass 2 reads every
//              sample's count back and adds its term (log w analytic: -(L - c)^2 / (2 sigma^2)
//              clamped at log 1e-30; w and log c by ex2 / lg2.approx), per view row then in
//              total; pass 3 zeroes the counters. No bin walk, no divergence. Different
//              float summation: NOT bit-identical to coalesced; CPU tolerances below (and
//              tested at every window 1..15, normalized_log, sigma 2 and 60). Blocks 32 x 3,
//              72 KiB shared (3 blocks per SM, <= 224 registers) up to 7x7, 102 KiB at 9x9
//              (2 blocks per SM); ptxas: no spills.                               [exact]
//   exact_sort the n*n samples' three levels packed into one word per sample, sorted per
//              channel by a SWAR sorting network (Batcher, pruned to n*n keys); runs of
//              equal levels are the occupied bins in ascending order, their terms come from
//              a (count, |level - centre|) table of the exact (g, logf g) values computed on
//              the device, positions inside a run add exact zeros. Conversion-free sampling.
//              n = 3..9 (O(n^2 log^2 n) compare-exchanges: loses to binned from 7x7); other
//              n: the kernel exact runs there. Bit-identical to coalesced.        [exact]
// A named exact kernel that cannot run a window (exact_sort outside 3..9; exact_smem* and
// exact_terms beyond 4 G texels of views, their 32-bit offsets) runs exact's kernel for that
// window; where none fits, coalesced (bit-identical). Dropped after they were measured on an
// H200 (antinous, 75 labels): exact_mask (coalesced + occupancy masks, counts kept zero
// between labels; 6.5 / 18.2 / 38.4 / 63.3 ms at 3x3 / 5x5 / 7x7 / 9x9, slower than
// exact_smem at every window) and exact_bitonic (samples in registers, a bitonic sort per
// channel; 1.86 / 9.1 / 28.5 ms at 3x3 / 5x5 / 7x7 against exact_sort's 1.24 / 3.54 / 9.36).
// Tolerances vs the CPU reference (double): the GPU computes the shear position, the
// bilinear sample and the entropy in float, so a sample near a half level may round to the
// neighbouring bin, and exactly tied labels are broken differently. Tested bounds
// (tests/lightfield/test_cae_gpu.cpp, random full-contrast noise): <= 2 % of pixels whose GPU
// label costs more than 1e-5 above the CPU minimum, <= 5 % of cost entries off by > 1e-4;
// tex (hardware bilinear, 8-bit weights): <= 25 % beyond 0.05 (antinous: 1.9-4.2 %).
// baseline, vec, coalesced and all exact* variants but exact_terms are bit-identical to each
// other (same float operations, same bin order); binned_fast is bit-identical to binned.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lightfield/cae.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/lightfield.hpp"

namespace lb::cuda {

// "baseline", "vec", "tex", "coalesced", "binned", "binned_fast", "exact", "exact_smem",
// "exact_smem_table", "exact_terms", "exact_sort", "exact_chan", "exact_stash".
std::vector<std::string> cae_variants();
// The method a variant computes (binned -> Binned, exact -> Exact, others -> Cae). Throws
// lb::Error for an unknown name.
CaeMethod cae_variant_method(const std::string& variant);
// Self-check of exact_smem's logf for its terms (positive normal floats): the number of
// floats in [FLT_MIN, 2] where it differs from CUDA's logf (must be 0). Throws without CUDA.
std::uint64_t cae_log_mismatches(int device = 0);

// The CUDA engine (make_lightfield_engine_cuda) is internal: lightbench/engines/cuda.hpp.

}  // namespace lb::cuda
