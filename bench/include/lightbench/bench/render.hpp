#pragma once
// `lightbench-cli bench render`: the plenoptic render variants (kernels/render*.cu) and a
// 16-byte copy kernel, timed on the same device.
#include <string>
#include <vector>

#include "lightbench/bench/report.hpp"
#include "lightbench/cuda_api.hpp"
#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"

namespace lb::bench {

struct RenderBenchVariant {
  std::string label;          // empty: cuda::variant_label(config) (+ tuning when not default)
  RenderConfig config;
  cuda::KernelTuning tuning;  // 0 fields: defaults
};
// Original with each of the 16 switch combinations, then Sync, NoSync (default, staged
// loads) and NoSync with the seed's direct loads.
std::vector<RenderBenchVariant> default_render_variants();
// Original over block sizes; Sync, NoSync and NoSync direct over chunk lengths and rows per
// block (tuning).
std::vector<RenderBenchVariant> tuning_render_variants();

struct RenderBenchOptions {
  int warmup = 20;           // untimed launches per variant (at least 1 is run)
  int reps = 100;            // timed launches per variant (at least 50 are run)
  bool flush_l2 = true;      // overwrite a 2 x L2 scratch buffer before every timed launch
  bool check_cpu = true;     // also compare the reference Original with lb::render_cpu
  int device = 0;
  bool diagnostics = false;  // also time raster reads of the touched pixel set (table "diagnostics")
  bool trace = false;        // also trace the default NoSync's blocks (notes; JSON "trace")
};

// Times every variant on the raw (RGB or RGBA8; resident on the device for the whole run),
// writing to a pitched device buffer, then the copy kernel on a buffer of the raw's RGBA
// size. Each variant's output is compared bit for bit with Original[rgba,vec,div,-] once,
// outside the timing. Tables "variants", "copy" (one row), "floor" (one row: a raster read of
// the touched pixels' 16-byte quads, no arithmetic: the render row's floor) and "diagnostics"; rows carry
// "best_gbps" (bytes / min time). all_exact: every output identical to the reference, the
// reference to lb::render_cpu (when checked) and the copy verified. Throws lb::Error when
// CUDA is unusable or a parameter is invalid.
Report bench_render(const ImageU8& raw, const PlenopticGrid& grid, const RenderParams& params,
                    const std::vector<RenderBenchVariant>& variants, const RenderBenchOptions& options);

}  // namespace lb::bench
