// The focused-plenoptic algorithm (seed 000, ../shared/specs/plenoptic.md) in the contract:
//   view    rendered view at patch M (RGBA8)        depth  SAD depth, value = patch size (R32F)
//   aif     all-in-focus render (RGBA8)             error  |depth - truth| (R32F, with truth at M)
//   raw, truth   the data
// Variants original / sync / nosync apply to render and depth alike, auto (the default) picks
// each output's fastest; the CPU runs the reference. The runner drives a PlenopticEngine (CPU, or CUDA from kernels/), which keeps
// the last depth map where it computed it: all-in-focus, error map and score read it there.
#include <algorithm>
#include <sstream>

#include "lightbench/algorithms.hpp"
#include "plenoptic/plenoptic_engine.hpp"
#include "lightbench/error.hpp"
#include "lightbench/memory_budget.hpp"
#include "plenoptic/plenoptic_common.hpp"

namespace lb {
namespace {

const std::vector<std::string> kRenderParams = {"patch", "view_x", "view_y", "lim", "sigma",
                                                "rgba_input", "vector_store", "reciprocal", "sync_at_end"};
const std::vector<std::string> kDepthParams = {"patch", "lim", "pmin", "pmax", "window", "aperture"};

using plenoptic_detail::set_plenoptic_outputs;

PlenopticGrid default_grid() {
  PlenopticGrid g;
  g.nx = g.ny = 1;
  g.pitch = 64.0;
  return g;
}

class PlenopticRunner final : public Runner {
 public:
  explicit PlenopticRunner(std::unique_ptr<PlenopticEngine> b) : backend_(std::move(b)) {
    LB_REQUIRE(backend_ != nullptr, "plenoptic runner without a backend");
  }
  BackendKind kind() const override { return backend_->kind(); }
  TimingRegistry& timings() override { return backend_->timings(); }
  std::string device_name() const override { return backend_->device_name(); }
  void set_data(std::shared_ptr<const AlgorithmData> data) override {
    const auto& d = data_as<PlenopticData>(*data, DataKind::PlenopticScene);
    // A grid given as geometry data (hexagonal, rotated, multi-focus) is the general path's.
    if (d.scene.mla)
      throw Error("this raw's micro-lens grid is " + mla_grid_summary(*d.scene.mla) +
                  ": run the algorithm plenoptic-hex");
    validate(d.scene.grid, d.scene.raw.width, d.scene.raw.height);
    backend_->set_raw(d.scene.raw);
    data_ = std::move(data);
    depth_key_.clear();
    scores_ = nlohmann::json::object();
  }
  void synchronize() override { backend_->synchronize(); }

  void forget_results() override { depth_key_.clear(); }

  // The render's floor (bench plenoptic --floor): the engine's, for the view's parameters.
  bool time_floor(const ParamValues& values, const std::string& output) override {
    LB_REQUIRE(data_ != nullptr, "plenoptic: no scene loaded");
    if (output != "view") return false;
    const auto& scene = static_cast<const PlenopticData&>(*data_).scene;
    const PlenopticRunParams p = plenoptic_params(values, scene.grid);
    validate(p.render, scene.grid);
    return backend_->time_render_floor(scene.grid, p.render);
  }

  void run(const ParamValues& values, const std::string& variant_in, const std::string& output,
           Surface& out) override {
    LB_REQUIRE(data_ != nullptr, "plenoptic: no scene loaded");
    const auto& scene = static_cast<const PlenopticData&>(*data_).scene;
    const PlenopticRunParams p = plenoptic_params(values, scene.grid);
    const AlgorithmSpec& spec = this->spec();
    const std::string variant = spec.resolve_variant(variant_in);
    // auto: each output from its fastest kernel (the render's tiled kernel, the depth's
    // Original from the neighbour table: docs/PERFORMANCE.md). The depth has no tiled kernel:
    // "tiled" runs the depth's Original, the same output-side mapping.
    const bool fastest = variant == "auto";
    RenderConfig config;
    config.variant = fastest ? RenderVariant::Tiled : parse_render_variant(variant);
    config.original = p.switches;
    const RenderVariant depth_variant =
        fastest || config.variant == RenderVariant::Tiled ? RenderVariant::Original : config.variant;
    last_variant_ = backend_->kind() == BackendKind::Cpu ? "reference" : variant;
    if (plenoptic_detail::write_data_output(scene, output, out)) return;
    validate(p.render, scene.grid);
    const int rw = scene.raw.width, rh = scene.raw.height, rc = scene.raw.channels;
    if (output == "view") {
      check_memory(render_host_bytes(scene.grid, p.render.patch, rw, rh, rc));
      backend_->render(scene.grid, p.render, config, out);
      // What ran where the CUDA engine could not run the kernel asked for: "tiled->original".
      const std::string fallback = backend_->last_render_fallback();
      if (!fallback.empty()) last_variant_ = variant + "->" + fallback;
      return;
    }
    validate(p.depth, scene.grid);
    check_memory(depth_host_bytes(p.depth, scene.grid, rw, rh, rc));
    if (output == "depth") {
      backend_->depth(scene.grid, p.depth, DepthConfig{depth_variant}, out);
      remember_depth(p, depth_variant);
    } else if (output == "aif") {
      ensure_depth(p, depth_variant);
      RenderParams r = p.render;
      r.lim = p.depth.lim;
      backend_->render_all_in_focus(scene.grid, r, p.depth, out);
    } else if (output == "error") {
      plenoptic_detail::require_truth_at(scene, p.depth.patch);
      ensure_depth(p, depth_variant);
      backend_->last_depth_error(scene.truth, out);
    } else {
      throw Error("plenoptic: no output '" + output + "'");
    }
  }

 private:
  // The memory budget (memory_budget.hpp): refused before the run, the caller keeps its image.
  void check_memory(std::uint64_t need) const {
    check_host_memory("plenoptic", need);
    if (backend_->kind() == BackendKind::Cuda) check_device_memory("plenoptic", need);
  }
  static const AlgorithmSpec& spec() {
    static const AlgorithmSpec s = plenoptic_spec();
    return s;
  }
  std::string depth_key(const PlenopticRunParams& p, RenderVariant v) const {
    std::ostringstream k;
    k << data_->id << '|' << to_string(v) << '|' << p.depth.patch << ',' << p.depth.pmin << ',' << p.depth.pmax
      << ',' << p.depth.lim << ',' << p.depth.window << ',' << std::hexfloat << p.depth.aperture;
    return k.str();
  }
  // The backend's last depth map is the one of these parameters (computed into a scratch
  // surface of the backend's own kind when it is not).
  void ensure_depth(const PlenopticRunParams& p, RenderVariant v) {
    if (depth_key_ == depth_key(p, v)) return;
    if (!scratch_) scratch_ = backend_->scratch_surface(SurfaceFormat::R32F);
    const auto& scene = static_cast<const PlenopticData&>(*data_).scene;
    backend_->depth(scene.grid, p.depth, DepthConfig{v}, *scratch_);
    remember_depth(p, v);
  }
  // Scores the new map against the truth when the truth is at the same M.
  void remember_depth(const PlenopticRunParams& p, RenderVariant v) {
    depth_key_ = depth_key(p, v);
    const auto& scene = static_cast<const PlenopticData&>(*data_).scene;
    if (scene.truth.empty() || scene.truth_patch != p.depth.patch) {
      scores_ = nlohmann::json::object();
      return;
    }
    const DepthScore s = backend_->score_last_depth(scene.truth);
    scores_ = {{"exact_pct", s.exact_pct},
               {"mae", s.mae},
               {"scored_pixels", s.pixels},
               {"scored_with", std::string(to_string(backend_->kind())) + ", " + to_string(v)}};
  }

  std::unique_ptr<PlenopticEngine> backend_;
  std::unique_ptr<Surface> scratch_;
  std::string depth_key_;
};

}  // namespace

std::vector<ParamInfo> describe(PlenopticRunParams& p, const PlenopticGrid* grid) {
  const PlenopticGrid g = grid ? *grid : default_grid();
  std::vector<ParamInfo> v = describe(p.render, g);
  for (auto& d : describe(p.depth, g))
    if (d.name != "patch" && d.name != "lim") v.push_back(d);
  using K = ParamInfo::Kind;
  v.push_back({"rgba_input", "4-byte (RGBA8) input", "Original: read 4-byte RGBA8 instead of packed RGB",
               K::Bool, &p.switches.rgba_input, 0, 1});
  v.push_back({"vector_store", "vectorised 4-byte stores", "Original: one 4-byte store per pixel", K::Bool,
               &p.switches.vector_store, 0, 1});
  v.push_back({"reciprocal", "reciprocal instead of divide", "Original: reciprocal multiply (exact fix-up)",
               K::Bool, &p.switches.reciprocal, 0, 1});
  v.push_back({"sync_at_end", "barrier at loop end", "Original: __syncthreads() after each neighbour loop",
               K::Bool, &p.switches.sync_at_end, 0, 1});
  return v;
}

PlenopticRunParams plenoptic_params(const ParamValues& values, const PlenopticGrid& grid) {
  PlenopticRunParams p;
  p.render = default_render_params(grid);
  p.depth = default_depth_params(grid);
  apply_values(describe(p, &grid), values);
  p.depth.patch = p.render.patch;
  p.depth.lim = p.render.lim;
  return p;
}

std::vector<CommandDef> plenoptic_commands();  // plenoptic_commands.cpp

std::vector<Workload> plenoptic_workloads();  // plenoptic_workloads.cpp
DisplayDecl plenoptic_display();  // plenoptic_display.cpp
AlgorithmSpec plenoptic_spec() {
  AlgorithmSpec s;
  s.id = "plenoptic";
  s.name = "plenoptic: render & depth";
  s.spec = "../shared/specs/plenoptic.md";
  s.data = DataKind::PlenopticScene;
  set_plenoptic_outputs(s, kRenderParams, kDepthParams);
  s.variants = {
      {"auto", "", true, "the fastest kernel per output: tiled renders, original extracts depth"},
      {"original", "", true, "one thread per output pixel (the seed's first kernel, 4 switches)"},
      {"sync", "", true, "input-side blocks, shared-memory buffers with barriers"},
      {"nosync", "", true, "private accumulators, no barriers (the seed's fastest render)"},
      {"tiled", "", true, "one thread per output pixel over tiles staged in shared memory (lightbench's fastest render)"},
  };
  s.default_variant = "auto";
  s.params = [](const AlgorithmData* d) {
    const PlenopticGrid* g = d ? &data_as<PlenopticData>(*d, DataKind::PlenopticScene).scene.grid : nullptr;
    PlenopticRunParams p;
    const PlenopticGrid grid = g ? *g : default_grid();
    p.render = default_render_params(grid);
    p.depth = default_depth_params(grid);
    return param_table(describe(p, &grid));
  };
  s.validate = [](const ParamValues& v, const AlgorithmData& d) {
    const auto& scene = data_as<PlenopticData>(d, DataKind::PlenopticScene).scene;
    const PlenopticRunParams p = plenoptic_params(v, scene.grid);
    // The render's parameters; the depth's are validated by the runner when a depth output
    // runs (a render with lim 0 is valid, a depth with lim 0 is not).
    validate(p.render, scene.grid);
  };
  s.cpu = [] { return make_plenoptic_runner(make_plenoptic_engine_cpu()); };
  s.commands = plenoptic_commands();
  s.workloads = plenoptic_workloads();
  s.display = plenoptic_display();
  return s;
}

std::unique_ptr<Runner> make_plenoptic_runner(std::unique_ptr<PlenopticEngine> backend) {
  return std::make_unique<PlenopticRunner>(std::move(backend));
}


}  // namespace lb
