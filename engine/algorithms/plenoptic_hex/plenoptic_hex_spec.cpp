// The focused-plenoptic algorithm on any micro-lens grid ("plenoptic-hex", issue 22:
// hexagonal, rotated, multi-focus; hex_math.hpp's model) in the contract:
//   view    rendered view at patch M (RGBA8)        depth  patch-size depth (R32F, hex_depth_math.hpp)
//   aif     all-in-focus render (RGBA8)             error  |depth - truth| (R32F, with truth at M)
//   raw, truth   the data
// It runs on scene_geometry(scene): the scene's `mla` when set, else its rectangular grid
// converted (to_mla_geometry), so any plenoptic scene opens here. The runner drives a
// HexEngine (CPU reference, or CUDA from kernels/), which keeps the last depth map where it
// computed it: all-in-focus, error map and score read it there.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "lightbench/algorithms.hpp"
#include "plenoptic_hex/plenoptic_hex_engine.hpp"
#include "lightbench/error.hpp"
#include "lightbench/memory_budget.hpp"
#include "plenoptic/plenoptic_common.hpp"

namespace lb {
namespace {

const std::vector<std::string> kRenderParams = {"patch", "view_x", "view_y", "rings", "sigma", "lens_types"};
const std::vector<std::string> kDepthParams = {"patch",  "rings",  "lens_types", "pmin",
                                               "pmax",   "window", "aperture",   "truncate"};

using plenoptic_detail::set_plenoptic_outputs;

// Ranges without data: the rectangular runner's placeholder grid (one lens of 64 px).
MlaGeometry default_geometry() { return to_mla_geometry(PlenopticGrid{1, 1, 64.0, 0.0, 0.0}); }

const PlenopticScene& scene_of(const AlgorithmData& d) {
  return data_as<PlenopticData>(d, DataKind::PlenopticScene).scene;
}

class HexRunner final : public Runner {
 public:
  explicit HexRunner(std::unique_ptr<HexEngine> e) : engine_(std::move(e)) {
    LB_REQUIRE(engine_ != nullptr, "plenoptic-hex runner without an engine");
  }
  BackendKind kind() const override { return engine_->kind(); }
  TimingRegistry& timings() override { return engine_->timings(); }
  std::string device_name() const override { return engine_->device_name(); }

  void set_data(std::shared_ptr<const AlgorithmData> data) override {
    const PlenopticScene& scene = scene_of(*data);
    MlaGeometry g = scene_geometry(scene);
    // The frame must exist (a whole lens inside the raw) before the data is taken.
    hex_frame(MlaLayout(g), scene.raw.width, scene.raw.height, 1);
    engine_->set_raw(scene.raw, g);
    geometry_ = std::move(g);
    data_ = std::move(data);
    depth_key_.clear();
    scores_ = nlohmann::json::object();
  }
  void synchronize() override { engine_->synchronize(); }
  void forget_results() override { depth_key_.clear(); }

  void run(const ParamValues& values, const std::string& variant_in, const std::string& output,
           Surface& out) override {
    LB_REQUIRE(data_ != nullptr, "plenoptic-hex: no scene loaded");
    const PlenopticScene& scene = scene_of(*data_);
    const HexRunParams p = plenoptic_hex_params(values, geometry_);
    const std::string variant = spec().resolve_variant(variant_in);
    HexConfig config;
    config.variant = variant;
    last_variant_ = engine_->kind() == BackendKind::Cpu ? "reference" : variant;
    if (plenoptic_detail::write_data_output(scene, output, out)) return;
    validate(p.render, geometry_);
    if (output == "view") {
      check_memory(host_bytes(p.render.patch, 0));
      engine_->render(p.render, config, out);
      return;
    }
    validate(p.depth, geometry_);
    check_memory(host_bytes(p.depth.patch, p.depth.pmax - p.depth.pmin + 1));
    if (output == "depth") {
      engine_->depth(p.depth, config, out);
      remember_depth(p, variant);
    } else if (output == "aif") {
      ensure_depth(p, config);
      engine_->render_all_in_focus(p.render, config, out);
    } else if (output == "error") {
      plenoptic_detail::require_truth_at(scene, p.depth.patch);
      ensure_depth(p, config);
      engine_->last_depth_error(scene.truth, out);
    } else {
      throw Error("plenoptic-hex: no output '" + output + "'");
    }
  }

 private:
  static const AlgorithmSpec& spec() {
    static const AlgorithmSpec s = plenoptic_hex_spec();
    return s;
  }
  // Upper bound of the host bytes of a pass (memory_budget.hpp): the RGBA raw, the frame's
  // RGBA output and depth map, and `planes` uint32 cost planes over the frame.
  std::uint64_t host_bytes(int patch, int planes) const {
    const PlenopticScene& scene = scene_of(*data_);
    const HexFrame f = hex_frame(MlaLayout(geometry_), scene.raw.width, scene.raw.height, patch);
    const std::uint64_t px = static_cast<std::uint64_t>(f.width) * static_cast<std::uint64_t>(f.height);
    return u8_bytes(static_cast<std::uint64_t>(scene.raw.width), static_cast<std::uint64_t>(scene.raw.height), 4) +
           px * 4 + (planes > 0 ? px * 4 * (static_cast<std::uint64_t>(planes) + 1) : 0);
  }
  void check_memory(std::uint64_t need) const {
    check_host_memory("plenoptic-hex", need);
    if (engine_->kind() == BackendKind::Cuda) check_device_memory("plenoptic-hex", need);
  }
  std::string depth_key(const HexRunParams& p, const std::string& variant) const {
    std::ostringstream k;
    const HexDepthParams& d = p.depth;
    k << data_->id << '|' << variant << '|' << d.patch << ',' << d.pmin << ',' << d.pmax << ',' << d.rings << ','
      << d.window << ',' << d.lens_types << ',' << d.truncate << ',' << std::hexfloat << d.aperture;
    return k.str();
  }
  // The engine's last depth map is the one of these parameters (computed into a scratch
  // surface of the engine's own kind when it is not).
  void ensure_depth(const HexRunParams& p, const HexConfig& config) {
    if (depth_key_ == depth_key(p, config.variant)) return;
    if (!scratch_) scratch_ = engine_->scratch_surface(SurfaceFormat::R32F);
    engine_->depth(p.depth, config, *scratch_);
    remember_depth(p, config.variant);
  }
  // Scores the new map against the truth when the truth is at the same M.
  void remember_depth(const HexRunParams& p, const std::string& variant) {
    depth_key_ = depth_key(p, variant);
    const PlenopticScene& scene = scene_of(*data_);
    if (scene.truth.empty() || scene.truth_patch != p.depth.patch) {
      scores_ = nlohmann::json::object();
      return;
    }
    const DepthScore s = engine_->score_last_depth(scene.truth);
    scores_ = {{"exact_pct", s.exact_pct},
               {"mae", s.mae},
               {"scored_pixels", s.pixels},
               {"scored_with", std::string(to_string(engine_->kind())) + ", " + variant}};
  }

  std::unique_ptr<HexEngine> engine_;
  std::unique_ptr<Surface> scratch_;
  MlaGeometry geometry_;
  std::string depth_key_;
};

}  // namespace

HexRunParams plenoptic_hex_params(const ParamValues& values, const MlaGeometry& g) {
  HexRunParams p = default_hex_params(g);
  apply_values(describe(p, g), values);
  // One frame, one reach and one lens-type rule for render and depth (as plenoptic_params).
  p.depth.patch = p.render.patch;
  p.depth.rings = p.render.rings;
  p.depth.lens_types = p.render.lens_types;
  return p;
}

std::string mla_grid_summary(const MlaGeometry& g) {
  std::ostringstream s;
  s << to_string(g.kind);
  if (g.rotation != 0.0) s << ", rotated by " << g.rotation * 180.0 / M_PI << " degrees";
  if (g.types.size() > 1) s << ", " << g.types.size() << " lens types";
  return s.str();
}

std::vector<Workload> plenoptic_hex_workloads();  // plenoptic_hex_workloads.cpp
DisplayDecl plenoptic_hex_display();  // plenoptic_hex_display.cpp
AlgorithmSpec plenoptic_hex_spec() {
  AlgorithmSpec s;
  s.id = "plenoptic-hex";
  s.name = "plenoptic (any micro-lens grid): render & depth";
  s.spec = "../shared/specs/plenoptic.md";
  s.data = DataKind::PlenopticScene;
  set_plenoptic_outputs(s, kRenderParams, kDepthParams);
  s.variants = {
      {"original", "", true, "one thread per output pixel (the seed's Original mapping): tables in global memory"},
      {"smem-tables", "", true, "original with the small tables staged in shared memory per block"},
      {"pruned", "", true,
       "smem-tables; render and all-in-focus search only the lattice offsets that can reach a lens at P"},
  };
  s.default_variant = "original";  // fastest render and all-in-focus (docs/PERFORMANCE.md)
  s.value_names = {{"lens_types", {"all", "in focus"}}};
  s.params = [](const AlgorithmData* d) {
    const MlaGeometry g = d ? scene_geometry(scene_of(*d)) : default_geometry();
    HexRunParams p = default_hex_params(g);
    return param_table(describe(p, g));
  };
  s.validate = [](const ParamValues& v, const AlgorithmData& d) {
    const MlaGeometry g = scene_geometry(scene_of(d));
    const HexRunParams p = plenoptic_hex_params(v, g);
    // The render's parameters; the depth's are validated by the runner when a depth output
    // runs (a render with rings 0 is valid, a depth with rings 0 is not).
    validate(p.render, g);
  };
  s.cpu = [] { return make_hex_runner(make_hex_engine_cpu()); };
  s.workloads = plenoptic_hex_workloads();
  s.display = plenoptic_hex_display();
  return s;
}

std::unique_ptr<Runner> make_hex_runner(std::unique_ptr<HexEngine> engine) {
  return std::make_unique<HexRunner>(std::move(engine));
}

}  // namespace lb
