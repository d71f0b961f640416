#pragma once
// Public C++ API of the kernels library (lb_kernels). No CUDA types: front ends include
// this without the CUDA toolkit. In a build without CUDA every function exists; those that
// need a device throw lb::Error("... this build has no CUDA support") and device_info()
// reports available = false.
//
//   lb::select_backend / lb::cuda_available    (declared in lightbench/backend.hpp)
//   lb::cuda::make_cuda_backend                the CUDA ComputeBackend
//   lb::cuda::make_cuda_surface                headless RGBA8 / R32F CUDA array + surface object
//   lb::cuda::make_cuda_buffer_surface         pitched device buffer (DeviceTarget::Pitched)
//   lb::cuda::read_back_rgba                   any of those (or a HostSurface) -> host image
//   lb::cuda::bench_render                     `lightbench-cli bench render`
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lightbench/backend.hpp"
#include "lightbench/image.hpp"
#include "lightbench/plenoptic_params.hpp"
#include "lightbench/surface.hpp"

namespace lb::cuda {

// ---------------------------------------------------------------------------------------
// Device
// ---------------------------------------------------------------------------------------
struct DeviceInfo {
  bool available = false;
  std::string why;              // reason when !available ("no CUDA device (...)")
  int index = 0;                // CUDA device ordinal
  std::string name;             // "NVIDIA H100 80GB HBM3"
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::uint64_t total_memory = 0;  // bytes
  int l2_bytes = 0;
  double peak_gbps = 0.0;       // 2 * memory clock * bus width (datasheet-style), 0 if unknown
  std::string driver;           // "13.0" (driver's CUDA version)
  std::string runtime;          // "13.0" (runtime linked in)
  // One line: "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs, 79.1 GiB, L2 50 MiB)".
  std::string describe() const;
};
DeviceInfo device_info(int device = 0);

// ---------------------------------------------------------------------------------------
// Launch shapes of the render kernels. 0 fields mean "the tuned default" of the variant.
// ---------------------------------------------------------------------------------------
struct KernelTuning {
  int original_block = 0;  // Original: threads per block (1D, over the flattened output)
  int chunk = 0;           // Sync/NoSync: micro-image columns walked by one block
  int rows = 0;            // Sync/NoSync: output rows per block ((2lim+1)*M threads each)
  // NoSync: the seed's direct 4-byte loads instead of the default staging of the raw
  // through shared memory (16-byte cp.async by a producer warp; lim = 2 on sm_90+ only,
  // other cases always load directly).
  bool direct_loads = false;
};
// Defaults tuned on an NVIDIA H200 (docs/PERFORMANCE.md): Original 128 threads; Sync
// chunk 48, 1 row; NoSync staged chunk 96, 2 rows; NoSync direct chunk 50, 1 row.
KernelTuning default_tuning(RenderVariant v, bool direct_loads = false);
// Fills the 0 fields of t from default_tuning(v, t.direct_loads).
KernelTuning resolve(const KernelTuning& t, RenderVariant v);

// ---------------------------------------------------------------------------------------
// Backend and surfaces
// ---------------------------------------------------------------------------------------
// The CUDA backend on `device`. Throws lb::Error naming why when CUDA is unusable.
std::unique_ptr<ComputeBackend> make_cuda_backend(int device = 0);
// Launch shapes used by a CUDA backend's later renders (throws if b is not a CUDA backend).
void set_kernel_tuning(ComputeBackend& b, const KernelTuning& t);

// Headless CUDA array (RGBA8 or R32F) with a surface object (cudaArraySurfaceLoadStore).
// map_device() returns DeviceTarget::SurfaceObject.
std::unique_ptr<Surface> make_cuda_surface(SurfaceFormat format = SurfaceFormat::RGBA8);
// Pitched device buffer (RGBA8). map_device() returns DeviceTarget::Pitched.
std::unique_ptr<Surface> make_cuda_buffer_surface();
// Copies a surface made above (or an RGBA8 HostSurface) back to the host as RGBA8.
// Synchronises the device first.
ImageU8 read_back_rgba(Surface& s);
// Same for an R32F CUDA surface (or a scalar HostSurface).
ImageF read_back_scalar(Surface& s);

// Name of a render configuration as the timing registry and benchmark print it:
// "render/original", "render/sync", "render/nosync".
std::string kernel_name(const RenderConfig& c);
// Benchmark label: "sync", "nosync", "original[rgba,vec,rcp,-]" (switch order: 4-byte input,
// vector store, reciprocal, sync-at-end; '-' = off, e.g. "original[rgb,bytes,div,sync]").
std::string variant_label(const RenderConfig& c);

// ---------------------------------------------------------------------------------------
// Benchmark (`lightbench-cli bench render`)
// ---------------------------------------------------------------------------------------
struct BenchVariant {
  std::string label;   // empty: variant_label(config) (+ tuning when not default)
  RenderConfig config;
  KernelTuning tuning; // 0 fields: defaults
};
// Original with each of the 16 switch combinations, then Sync, NoSync (default, staged
// loads) and NoSync with the seed's direct loads.
std::vector<BenchVariant> default_bench_variants();
// Original over block sizes; Sync, NoSync and NoSync direct over chunk lengths and rows per
// block (tuning).
std::vector<BenchVariant> tuning_bench_variants();

struct BenchOptions {
  int warmup = 20;       // untimed launches per variant
  int reps = 100;        // timed launches per variant (at least 50 are used)
  bool flush_l2 = true;  // overwrite a 2 x L2 scratch buffer before every timed launch
  bool check_cpu = true; // also compare the reference Original with lb::render_cpu
  int device = 0;
  bool diagnostics = false;  // also time raster reads of the touched pixel set (see PERFORMANCE.md)
};

struct BenchEntry {
  std::string label;
  std::string kernel;        // "render/nosync", "copy"
  int reps = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  std::uint64_t bytes = 0;   // bytes the kernel must move: read + write
  double median_gbps = 0;    // bytes / median time
  double best_gbps = 0;      // bytes / min time
  bool checked = false;      // output compared (copy: verified the destination)
  bool exact = false;        // bit-exact with the reference
  std::uint64_t mismatches = 0;  // differing pixels when !exact
};

struct BenchReport {
  DeviceInfo device;
  std::string workload;      // "grid 96x72 D=74.75 raw 7176x5382 M=11 lim=2 ..."
  std::string reference;     // what outputs were compared against
  bool cpu_checked = false, cpu_exact = false;  // reference vs lb::render_cpu
  BenchOptions options;
  std::vector<BenchEntry> entries;
  BenchEntry copy;           // 16-byte read-then-write copy, bytes = read + write
  std::vector<BenchEntry> diagnostics;  // options.diagnostics: reference reads, bytes = read
  bool all_exact() const;
};

// Times every variant on the raw (RGB or RGBA8; resident on the device for the whole run)
// with CUDA events around each launch after warm-up, writing to a pitched device buffer.
// Each variant's output is compared bit for bit with Original[rgba,vec,div,-] once, outside
// the timing. Throws lb::Error when CUDA is unusable or a parameter is invalid.
BenchReport bench_render(const ImageU8& raw, const PlenopticGrid& grid, const RenderParams& params,
                         const std::vector<BenchVariant>& variants, const BenchOptions& options);
// The report as a fixed-width text table (device line, workload, one row per variant, the
// copy row, then the summary lines).
std::string format_bench_report(const BenchReport& r);
// The report as JSON text.
std::string bench_report_json(const BenchReport& r);

// ---------------------------------------------------------------------------------------
// Plenoptic depth (`lightbench-cli bench depth`; kernels in depth.cu)
// ---------------------------------------------------------------------------------------
// Launch shapes of the depth kernels; 0 fields mean the default.
struct DepthTuning {
  int original_block = 0;  // Original: threads per block (default 128, the seed's G8 value)
  int chunk = 0;           // Sync/NoSync: micro-image columns walked by a block (default 48)
  int rows = 0;            // Sync/NoSync: output rows per block, (2lim+1)*M threads each (1)
};
DepthTuning resolve(const DepthTuning& t);
// Launch shapes used by a CUDA backend's later depth passes (throws if b is not CUDA).
void set_depth_tuning(ComputeBackend& b, const DepthTuning& t);
// All-in-focus render on the device from a host depth map (values: patch sizes pmin..pmax,
// NX*M x NY*M; else lb::Error): the same image as lb::render_all_in_focus (bit-exact). For
// tests and one-off calls; a viewer uses ComputeBackend::render_all_in_focus after depth().
ImageU8 render_all_in_focus_cuda(const ImageU8& raw, const PlenopticGrid& grid, const RenderParams& render,
                                 const DepthParams& depth, const ImageF& map, int device = 0);

struct DepthBenchVariant {
  std::string label;       // e.g. "original", "nosync rows=2"
  RenderVariant variant = RenderVariant::Original;
  DepthTuning tuning;
};
// Original, Sync, NoSync at the default shapes, then a few other shapes.
std::vector<DepthBenchVariant> default_depth_bench_variants();

struct DepthBenchOptions {
  int warmup = 20;        // untimed launches per variant
  int reps = 100;         // timed launches per variant (at least 50)
  bool flush_l2 = true;   // evict the L2 before every timed launch
  bool check_cpu = true;  // compare the Original's map with lb::depth_cpu
  int device = 0;
};

struct DepthBenchEntry {
  std::string label;
  std::string kernel;      // "depth/original", "depth/sync", "depth/nosync"
  int reps = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  std::uint64_t bytes = 0; // distinct raw pixels read * 4 + the float map written
  double median_gbps = 0;
  double speedup = 0;      // Original's median / this median
  bool exact = false;      // depth map identical to the Original's
  std::uint64_t mismatches = 0;
};

struct DepthBenchReport {
  DeviceInfo device;
  std::string workload;
  bool cpu_checked = false, cpu_exact = false;
  std::uint64_t cpu_mismatches = 0;
  bool scored = false;     // ground truth given
  double exact_pct = 0, mae = 0;
  DepthBenchOptions options;
  std::vector<DepthBenchEntry> entries;
  bool all_exact() const;
};

// Times every variant with CUDA events after warm-up (median of reps), raw resident on the
// device; checks every map against the Original's (and the Original against lb::depth_cpu)
// outside the timing. truth (may be null): ground truth at params.patch, for the score.
DepthBenchReport bench_depth(const ImageU8& raw, const PlenopticGrid& grid, const DepthParams& params,
                             const std::vector<DepthBenchVariant>& variants,
                             const DepthBenchOptions& options, const ImageF* truth = nullptr);
std::string format_depth_bench_report(const DepthBenchReport& r);
std::string depth_bench_report_json(const DepthBenchReport& r);

}  // namespace lb::cuda
