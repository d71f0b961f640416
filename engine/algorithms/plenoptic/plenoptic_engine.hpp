#pragma once
// INTERNAL (lb_engine_internal: engine/src, kernels/, bench/, tests/; not app/): the
// plenoptic compute engine behind the plenoptic runner (engine/algorithms/plenoptic/plenoptic_spec.cpp),
// its CPU reference (engine/algorithms/plenoptic/plenoptic_cpu_engine.cpp) and the runner over it. The CUDA
// engine: lightbench/engines/cuda.hpp.
#include <memory>
#include <string>

#include "lightbench/backend.hpp"
#include "lightbench/image.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "lightbench/plenoptic_params.hpp"
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

namespace lb {

class Runner;  // lightbench/algorithm.hpp

// The plenoptic engine (render, depth, all-in-focus) behind the plenoptic runner. The raw
// image is uploaded once and stays resident.
class PlenopticEngine {
 public:
  virtual ~PlenopticEngine() = default;
  virtual BackendKind kind() const = 0;
  virtual std::string device_name() const = 0;

  // The raw plenoptic image (RGB or RGBA8). Kept until replaced.
  virtual void set_raw(const ImageU8& raw) = 0;
  virtual bool has_raw() const = 0;
  virtual int raw_width() const = 0;
  virtual int raw_height() const = 0;

  // Renders into out (resized to NX*M x NY*M, RGBA8). The CPU backend ignores the
  // variant (it is the reference); the CUDA backend runs the requested kernel, or where it
  // cannot its fallback (Tiled: the Original; NoSync: direct loads), named by
  // last_render_fallback() and in the timing name ("render/tiled->original").
  virtual void render(const PlenopticGrid& grid, const RenderParams& params,
                      const RenderConfig& config, Surface& out) = 0;
  // The kernel the last render() ran in place of the one asked for ("original", "direct"), or
  // "" when it ran the one asked for (always on the CPU).
  virtual std::string last_render_fallback() const { return {}; }

  // Depth extraction (SAD over patch sizes, plenoptic_depth.hpp) into out (resized to
  // NX*M x NY*M, R32F, value = chosen patch size). The CPU backend is the reference; the CUDA
  // backend runs config.variant. Timed as "depth/cpu", "depth/original", "depth/sync",
  // "depth/nosync". The default throws (a backend without depth support).
  virtual void depth(const PlenopticGrid& grid, const DepthParams& params,
                     const DepthConfig& config, Surface& out);

  // All-in-focus render (plenoptic_depth.hpp render_all_in_focus, bit-exact on every
  // backend) of the depth map made by the last depth() call on this backend: each output
  // pixel rendered at its own chosen patch size. grid and depth must be the ones that call
  // used (else lb::Error); render gives view_x, view_y, lim and sigma (its patch is
  // ignored). out: RGBA8, resized to NX*M x NY*M. CUDA: the map stays on the device (no
  // round trip), so a viewer calls depth() then render_all_in_focus() per frame. Timed as
  // "aif/cpu", "aif/cuda". The default throws (a backend without depth support).
  virtual void render_all_in_focus(const PlenopticGrid& grid, const RenderParams& render,
                                   const DepthParams& depth, Surface& out);

  // Scoring of the map of the last depth() call against a ground truth of its size (the
  // patch-size map at the same output patch M): where the map is (device memory on CUDA, so
  // no second run and no download of the map). Throws lb::Error without a depth map or on a
  // size mismatch.
  virtual DepthScore score_last_depth(const ImageF& truth) = 0;
  // |depth - truth| of the last depth() call into out (R32F, resized).
  virtual void last_depth_error(const ImageF& truth, Surface& out) = 0;
  // Benchmarks (Runner::time_floor, bench plenoptic --floor): times the render's memory-traffic
  // floor for (grid, params) on the resident raw, timed rows "floor/render: touched quads, 16 B
  // loads" (the raw quads the render touches, read once with 16-byte loads) and "floor/copy
  // (16 B/thread)" (the seed's simple copy of the raw's RGBA size). False: no floor here (CPU).
  virtual bool time_render_floor(const PlenopticGrid& grid, const RenderParams& params) {
    (void)grid;
    (void)params;
    return false;
  }
  // A surface of this backend's own kind for intermediate results (CUDA: device memory).
  virtual std::unique_ptr<Surface> scratch_surface(SurfaceFormat format);

  // Blocks until queued work is done (CUDA) and event timings are collected.
  virtual void synchronize() {}

  TimingRegistry& timings() { return timings_; }

 protected:
  TimingRegistry timings_;
};

// The CPU reference (multithreaded; every variant is the reference).
std::unique_ptr<PlenopticEngine> make_plenoptic_engine_cpu(int threads = 0);

// The plenoptic runner (algorithms.hpp's plenoptic_spec) over an engine.
std::unique_ptr<Runner> make_plenoptic_runner(std::unique_ptr<PlenopticEngine> engine);

}  // namespace lb
