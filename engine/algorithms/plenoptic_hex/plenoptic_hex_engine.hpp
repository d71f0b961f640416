#pragma once
// INTERNAL (lb_engine_internal): the compute engine of the general-grid plenoptic algorithm
// ("plenoptic-hex": hexagonal / rotated / multi-focus micro-lens grids, hex_tables.hpp) behind
// its runner (engine/algorithms/plenoptic_hex/plenoptic_hex_spec.cpp). CPU reference: engine/src/
// plenoptic_hex_cpu_engine.cpp; CUDA: kernels/ (lightbench/engines/cuda.hpp). Every backend
// computes the same bits (hex_math.hpp).
#include <memory>
#include <string>

#include "lightbench/backend.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "lightbench/image.hpp"
#include "lightbench/mla_geometry.hpp"
#include "lightbench/surface.hpp"
#include "lightbench/timing.hpp"

namespace lb {

class Runner;  // lightbench/algorithm.hpp

// CUDA kernel variant of a pass (the CPU ignores it): "original" = one thread per output
// pixel (the seed's Original mapping).
struct HexConfig {
  std::string variant = "original";
};

class HexEngine {
 public:
  virtual ~HexEngine() = default;
  virtual BackendKind kind() const = 0;
  virtual std::string device_name() const = 0;

  // The raw (RGB or RGBA8) and its geometry; kept (resident on the device) until replaced.
  virtual void set_raw(const ImageU8& raw, const MlaGeometry& geometry) = 0;
  virtual bool has_raw() const = 0;

  // Render of the frame at p.patch into out (RGBA8, resized to the frame). Timed as
  // "hex render/<backend or variant>".
  virtual void render(const HexRenderParams& p, const HexConfig& config, Surface& out) = 0;
  // Depth (value = chosen patch size, 0 = no estimate) into out (R32F, frame-sized); the map
  // stays where it was computed for the calls below. Timed as "hex depth/...".
  virtual void depth(const HexDepthParams& p, const HexConfig& config, Surface& out) = 0;
  // All-in-focus render of the last depth map (its patch / rings / lens_types; view and sigma
  // from p). Throws lb::Error without a depth map. Timed as "hex aif/...".
  virtual void render_all_in_focus(const HexRenderParams& p, const HexConfig& config, Surface& out) = 0;
  // Score / |depth - truth| of the last depth map against a frame-sized truth.
  virtual DepthScore score_last_depth(const ImageF& truth) = 0;
  virtual void last_depth_error(const ImageF& truth, Surface& out) = 0;
  virtual std::unique_ptr<Surface> scratch_surface(SurfaceFormat format) {
    return std::make_unique<HostSurface>(format);
  }
  virtual void synchronize() {}

  TimingRegistry& timings() { return timings_; }

 protected:
  TimingRegistry timings_;
};

std::unique_ptr<HexEngine> make_hex_engine_cpu(int threads = 0);
std::unique_ptr<Runner> make_hex_runner(std::unique_ptr<HexEngine> engine);

}  // namespace lb
