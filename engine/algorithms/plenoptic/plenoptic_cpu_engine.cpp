// The plenoptic CPU engine (the reference: multithreaded, variant-agnostic), its default
// methods, and the backend-kind helpers.
#include <cmath>
#include <thread>

#include "lightbench/backend.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "lightbench/parallel.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "plenoptic/render_cpu.hpp"

namespace lb {

const char* to_string(BackendKind k) { return k == BackendKind::Cuda ? "cuda" : "cpu"; }

BackendRequest parse_backend_request(const std::string& s) {
  if (s == "auto") return BackendRequest::Auto;
  if (s == "cpu") return BackendRequest::Cpu;
  if (s == "cuda") return BackendRequest::Cuda;
  throw Error("unknown backend '" + s + "' (use auto, cpu or cuda)");
}

void PlenopticEngine::depth(const PlenopticGrid&, const DepthParams&, const DepthConfig&, Surface&) {
  throw Error("depth: not supported by the " + std::string(to_string(kind())) + " backend");
}

std::unique_ptr<Surface> PlenopticEngine::scratch_surface(SurfaceFormat format) {
  return std::make_unique<HostSurface>(format);
}

void PlenopticEngine::render_all_in_focus(const PlenopticGrid&, const RenderParams&, const DepthParams&, Surface&) {
  throw Error("all-in-focus: not supported by the " + std::string(to_string(kind())) + " backend");
}

namespace {

class CpuBackend final : public PlenopticEngine {
 public:
  explicit CpuBackend(int threads) : threads_(threads > 0 ? threads : default_thread_count()) {}
  BackendKind kind() const override { return BackendKind::Cpu; }
  std::string device_name() const override {
    return "CPU reference (" + std::to_string(threads_) + " threads)";
  }
  void set_raw(const ImageU8& raw) override {
    LB_REQUIRE(!raw.empty(), "raw image is empty");
    raw_ = to_rgba(raw);
    last_depth_ = ImageF();
  }
  bool has_raw() const override { return !raw_.empty(); }
  int raw_width() const override { return raw_.width; }
  int raw_height() const override { return raw_.height; }

  void render(const PlenopticGrid& grid, const RenderParams& params, const RenderConfig&,
              Surface& out) override {
    LB_REQUIRE(has_raw(), "no raw image loaded");
    const RenderTablesHost t = build_render_tables(grid, params, raw_.width, raw_.height);
    const std::uint64_t bytes = render_touched_pixels(t) * 4 +
                                static_cast<std::uint64_t>(t.layout.out_w) * t.layout.out_h * 4;
    ImageU8 img;
    {
      ScopedCpuTimer timer(timings_, "render/cpu", bytes);
      img = render_cpu(raw_, t, threads_);
    }
    out.resize(img.width, img.height);
    out.upload_host(img);
  }

  void depth(const PlenopticGrid& grid, const DepthParams& params, const DepthConfig&,
             Surface& out) override {
    LB_REQUIRE(has_raw(), "no raw image loaded");
    LB_REQUIRE(out.format() == SurfaceFormat::R32F, "depth: the output surface must be R32F");
    const DepthTablesHost t = build_depth_tables(grid, params, raw_.width, raw_.height);
    const std::uint64_t bytes = depth_bytes(t);
    ImageF img;
    {
      ScopedCpuTimer timer(timings_, "depth/cpu", bytes);
      img = depth_cpu(raw_, t, threads_);
    }
    out.resize(img.width, img.height);
    out.upload_host(img);
    last_depth_ = std::move(img);
    last_grid_ = grid;
    last_params_ = params;
  }

  void render_all_in_focus(const PlenopticGrid& grid, const RenderParams& render, const DepthParams& depth,
                           Surface& out) override {
    LB_REQUIRE(has_raw(), "no raw image loaded");
    LB_REQUIRE(out.format() == SurfaceFormat::RGBA8, "all-in-focus: the output surface must be RGBA8");
    LB_REQUIRE(!last_depth_.empty() && same_depth_inputs(grid, depth, last_grid_, last_params_),
               "all-in-focus: run depth() with the same grid and depth parameters first");
    ImageU8 img;
    {
      ScopedCpuTimer timer(timings_, "aif/cpu",
                           static_cast<std::uint64_t>(last_depth_.width) * last_depth_.height * 8);
      img = lb::render_all_in_focus(raw_, grid, render, last_depth_, depth.patch, threads_);
    }
    out.resize(img.width, img.height);
    out.upload_host(img);
  }

  DepthScore score_last_depth(const ImageF& truth) override {
    LB_REQUIRE(!last_depth_.empty(), "depth score: no depth map computed yet");
    return score_depth(last_depth_, truth);
  }

  void last_depth_error(const ImageF& truth, Surface& out) override {
    LB_REQUIRE(!last_depth_.empty(), "depth error: no depth map computed yet");
    LB_REQUIRE(last_depth_.same_shape(truth), "depth error: depth map and ground truth differ in size");
    ImageF err(truth.width, truth.height, 1);
    for (std::size_t i = 0; i < err.data.size(); ++i) err.data[i] = std::abs(last_depth_.data[i] - truth.data[i]);
    out.resize(err.width, err.height);
    out.upload_host(err);
  }

 private:
  int threads_;
  ImageU8 raw_;
  ImageF last_depth_;  // the map of the last depth() call, for render_all_in_focus()
  PlenopticGrid last_grid_{};
  DepthParams last_params_{};
};

}  // namespace

std::unique_ptr<PlenopticEngine> make_plenoptic_engine_cpu(int threads) {
  return std::make_unique<CpuBackend>(threads);
}

}  // namespace lb
