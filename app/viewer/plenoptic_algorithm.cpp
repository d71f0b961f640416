#include "plenoptic_algorithm.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "lightbench/error.hpp"
#include "param_widgets.hpp"
#include "scene_store.hpp"

namespace lb::viewer {

PlenopticAlgorithm::PlenopticAlgorithm(SceneStore& scene) : scene_(scene) { reset_params(); }

std::uint64_t PlenopticAlgorithm::data_id() const { return scene_.id(); }

bool PlenopticAlgorithm::ready(std::string* why) const {
  if (scene_.loaded()) return true;
  if (why) *why = "no plenoptic scene loaded";
  return false;
}

std::vector<std::string> PlenopticAlgorithm::variants() const { return {"Original", "Sync", "NoSync"}; }

int PlenopticAlgorithm::current_variant() const {
  const auto all = all_render_variants();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i] == config_.variant) return static_cast<int>(i);
  return 0;
}

void PlenopticAlgorithm::set_variant(int index) {
  const auto all = all_render_variants();
  if (index >= 0 && index < static_cast<int>(all.size())) config_.variant = all[index];
}

std::vector<AlgorithmOutput> PlenopticAlgorithm::outputs() const {
  std::vector<AlgorithmOutput> o = {{"view", "rendered view", SurfaceFormat::RGBA8},
                                    {"depth", "depth (patch size)", SurfaceFormat::R32F},
                                    {"aif", "all-in-focus render", SurfaceFormat::RGBA8},
                                    {"raw", "raw image", SurfaceFormat::RGBA8, true}};
  if (scene_.has_truth()) {
    o.push_back({"truth", "ground truth (patch size)", SurfaceFormat::R32F, true});
    o.push_back({"error", "|depth - truth|", SurfaceFormat::R32F});
  }
  return o;
}

std::pair<std::string, std::string> PlenopticAlgorithm::default_panes() const {
  return {"view", scene_.has_truth() ? "truth" : "raw"};
}

std::vector<ParamInfo> PlenopticAlgorithm::live_params() {
  auto p = describe(params_, scene_.grid());
  // The depth map shares the render's output patch M and range limit lim.
  for (auto& d : describe(depth_, scene_.grid()))
    if (d.name != "patch" && d.name != "lim") p.push_back(d);
  return p;
}

void PlenopticAlgorithm::reset_params() {
  params_ = default_render_params(scene_.grid());
  depth_ = default_depth_params(scene_.grid());
}

void PlenopticAlgorithm::data_changed() {
  if (!scene_.loaded()) return;
  for (const auto& p : live_params()) set_param_value(p, param_value(p));
  if (depth_.pmin > depth_.pmax) depth_ = default_depth_params(scene_.grid());
}

bool PlenopticAlgorithm::draw_controls() {
  bool changed = false;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("variant");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Original: one thread per output pixel (depth: patch-size loop outermost).\n"
                      "Sync: input-side blocks, shared-memory buffers with barriers.\n"
                      "NoSync: private accumulators, no barriers (depth: patch size innermost,\n"
                      "large to small, reusing loaded rows).\n"
                      "The CPU backend is the reference and ignores the variant.");
  const auto names = variants();
  int v = current_variant();
  for (int i = 0; i < static_cast<int>(names.size()); ++i) {
    ImGui::SameLine();
    if (ImGui::RadioButton(names[i].c_str(), v == i)) {
      set_variant(i);
      changed = true;
    }
  }
  if (ImGui::TreeNodeEx("Original's switches (render)", config_.variant == RenderVariant::Original
                                                            ? ImGuiTreeNodeFlags_DefaultOpen
                                                            : 0)) {
    auto& s = config_.original;
    changed |= ImGui::Checkbox("4-byte (RGBA8) input", &s.rgba_input);
    changed |= ImGui::Checkbox("vectorised 4-byte stores", &s.vector_store);
    changed |= ImGui::Checkbox("reciprocal instead of divide", &s.reciprocal);
    changed |= ImGui::Checkbox("barrier at loop end", &s.sync_at_end);
    ImGui::TreePop();
  }
  ImGui::TextDisabled("render");
  changed |= param_sliders(describe(params_, scene_.grid()));
  ImGui::TextDisabled("depth (outputs depth, aif, error)");
  std::vector<ParamInfo> depth_only;
  for (auto& d : describe(depth_, scene_.grid()))
    if (d.name != "patch" && d.name != "lim") depth_only.push_back(d);
  changed |= param_sliders(depth_only);
  if (ImGui::SmallButton("reset parameters")) {
    reset_params();
    changed = true;
  }
  return changed;
}

void PlenopticAlgorithm::draw_results() {
  if (!scene_.has_truth()) {
    ImGui::TextDisabled("depth score: the scene has no ground truth");
    return;
  }
  const int tm = scene_.scene().truth_patch;
  if (params_.patch != tm) {
    ImGui::TextDisabled("depth score: ground truth is at M = %d (set patch M to %d)", tm, tm);
    return;
  }
  if (!scored_) {
    ImGui::TextDisabled("depth score: show depth, aif or error in a pane");
    return;
  }
  ImGui::Text("depth vs truth: %.2f %% exact, MAE %.4f", score_.exact_pct, score_.mae);
  ImGui::TextDisabled("%llu pixels, %s", static_cast<unsigned long long>(score_.pixels),
                      score_backend_.c_str());
}

PlenopticAlgorithm::Effective PlenopticAlgorithm::effective(const PaneRun& run) const {
  Effective e{params_, config_, depth_};
  if (run.variant >= 0) {
    const auto all = all_render_variants();
    if (run.variant < static_cast<int>(all.size())) e.config.variant = all[run.variant];
  }
  if (!run.override_param.empty()) {
    auto infos = describe(e.render, scene_.grid());
    for (auto& d : describe(e.depth, scene_.grid()))
      if (d.name != "patch" && d.name != "lim") infos.push_back(d);
    if (const ParamInfo* info = find_param(infos, run.override_param))
      set_param_value(*info, run.override_value);
  }
  e.depth.patch = e.render.patch;
  e.depth.lim = e.render.lim;
  return e;
}

bool PlenopticAlgorithm::truth_matches(const DepthParams& d) const {
  return scene_.has_truth() && scene_.scene().truth_patch == d.patch;
}

std::string PlenopticAlgorithm::run_key(const PaneRun& run, const std::string& output) {
  const Effective e = effective(run);
  const PlenopticGrid& g = scene_.grid();
  std::ostringstream k;
  k << std::hexfloat << output << '|' << g.nx << ',' << g.ny << ',' << g.pitch << ',' << g.ox
    << ',' << g.oy << '|' << to_string(e.config.variant);
  if (output == "raw" || output == "truth") return output;
  if (output == "view" || output == "aif")
    k << '|' << e.render.patch << ',' << e.render.view_x << ',' << e.render.view_y << ','
      << e.render.lim << ',' << e.render.sigma << '|' << e.config.original.rgba_input
      << e.config.original.vector_store << e.config.original.reciprocal
      << e.config.original.sync_at_end;
  if (output == "depth" || output == "aif" || output == "error")
    k << '|' << e.depth.patch << ',' << e.depth.pmin << ',' << e.depth.pmax << ',' << e.depth.lim
      << ',' << e.depth.window << ',' << e.depth.aperture;
  return k.str();
}

const gl::GlTextureSurface* PlenopticAlgorithm::input_texture(const std::string& output) const {
  if (output == "raw") return &scene_.raw_texture();
  if (output == "truth") return scene_.truth_texture();
  return nullptr;
}

std::string PlenopticAlgorithm::depth_key(const Effective& e, const ComputeBackend& b) const {
  std::ostringstream k;
  const PlenopticGrid& g = scene_.grid();
  k << std::hexfloat << scene_.id() << '|' << static_cast<const void*>(&b) << '|'
    << to_string(e.config.variant) << '|' << g.nx << ',' << g.ny << ',' << g.pitch << ',' << g.ox
    << ',' << g.oy << '|' << e.depth.patch << ',' << e.depth.pmin << ',' << e.depth.pmax << ','
    << e.depth.lim << ',' << e.depth.window << ',' << e.depth.aperture;
  return k.str();
}

const ImageF& PlenopticAlgorithm::host_depth(ComputeBackend& backend, const Effective& e, bool rerun) {
  const std::string key = depth_key(e, backend);
  if (key == host_key_ && !rerun) return host_depth_;
  host_key_.clear();
  HostSurface host(SurfaceFormat::R32F);
  backend.depth(scene_.grid(), e.depth, DepthConfig{e.config.variant}, host);
  host_depth_ = host.scalar();
  host_key_ = key;
  scored_ = truth_matches(e.depth) && scene_.scene().truth.same_shape(host_depth_);
  if (scored_) {
    score_ = score_depth(host_depth_, scene_.scene().truth);
    score_backend_ = std::string(to_string(backend.kind())) + ", " + to_string(e.config.variant);
  }
  return host_depth_;
}

void PlenopticAlgorithm::run(BackendPool& pool, BackendSlot slot, const PaneRun& run,
                             const std::string& output, Surface& out) {
  LB_REQUIRE(scene_.loaded(), "no plenoptic scene loaded");
  std::string why;
  ComputeBackend* backend = pool.get(slot, &why);
  LB_REQUIRE(backend, "CUDA backend unavailable: " + why);
  pool.ensure_raw(*backend, scene_.scene().raw, scene_.id());
  const Effective e = effective(run);
  validate(e.render, scene_.grid());
  if (output == "view") {
    backend->render(scene_.grid(), e.render, e.config, out);
  } else if (output == "depth") {
    validate(e.depth, scene_.grid());
    if (backend->kind() == BackendKind::Cpu) {
      out.upload_host(host_depth(*backend, e));  // one CPU run serves display and score
    } else {
      backend->depth(scene_.grid(), e.depth, DepthConfig{e.config.variant}, out);
      host_depth(*backend, e);  // cached rerun into host memory for the score
    }
  } else if (output == "aif") {
    validate(e.depth, scene_.grid());
    if (backend->kind() == BackendKind::Cpu) {
      const ImageF& d = host_depth(*backend, e);
      out.upload_host(render_all_in_focus(to_rgba(scene_.scene().raw), scene_.grid(), e.render, d,
                                          e.depth.patch));
    } else {
      // The backend renders from the depth map of its last depth() call, which stays on the
      // device: run it for these parameters (0.3 ms at the seed workload), then render.
      host_depth(*backend, e, /*rerun=*/true);
      RenderParams r = e.render;
      r.lim = e.depth.lim;
      backend->render_all_in_focus(scene_.grid(), r, e.depth, out);
    }
  } else if (output == "error") {
    LB_REQUIRE(scene_.has_truth(), "this scene has no ground truth");
    LB_REQUIRE(truth_matches(e.depth), "the ground truth is at M = " +
                                           std::to_string(scene_.scene().truth_patch) +
                                           "; set patch M to it for the error map");
    const ImageF& d = host_depth(*backend, e);
    const ImageF& t = scene_.scene().truth;
    LB_REQUIRE(d.same_shape(t), "depth and ground truth differ in size");
    ImageF err(d.width, d.height, 1);
    for (std::size_t i = 0; i < err.data.size(); ++i) err.data[i] = std::abs(d.data[i] - t.data[i]);
    out.upload_host(err);
  } else {
    throw Error("plenoptic: no output '" + output + "'");
  }
}

DisplayHints PlenopticAlgorithm::display(const std::string& output) const {
  DisplayHints h;
  if (output == "raw") {
    h.micro_grid = true;
    h.grid = scene_.grid();
  } else if (output == "depth" || output == "truth") {
    // One scale for depth and truth so the two panes compare colour for colour.
    h.has_range = true;
    h.range_min = static_cast<float>(std::min(depth_.pmin, static_cast<int>(scene_.truth_min())));
    h.range_max = static_cast<float>(std::max(depth_.pmax, static_cast<int>(std::ceil(scene_.truth_max()))));
    if (!scene_.has_truth()) {
      h.range_min = static_cast<float>(depth_.pmin);
      h.range_max = static_cast<float>(depth_.pmax);
    }
  } else if (output == "error") {
    h.has_range = true;
    h.range_min = 0.0f;
    h.range_max = static_cast<float>(std::max(1, depth_.pmax - depth_.pmin));
  }
  return h;
}

nlohmann::json PlenopticAlgorithm::run_json(const PaneRun& run) {
  const Effective e = effective(run);
  return {{"patch", e.render.patch},   {"view_x", e.render.view_x}, {"view_y", e.render.view_y},
          {"lim", e.render.lim},       {"sigma", e.render.sigma},   {"pmin", e.depth.pmin},
          {"pmax", e.depth.pmax},      {"window", e.depth.window},  {"aperture", e.depth.aperture},
          {"variant", to_string(e.config.variant)}};
}

nlohmann::json PlenopticAlgorithm::results_json() const {
  if (!scored_) return nlohmann::json::object();
  return {{"exact_pct", score_.exact_pct}, {"mae", score_.mae}, {"scored_pixels", score_.pixels},
          {"scored_with", score_backend_}};
}

}  // namespace lb::viewer
