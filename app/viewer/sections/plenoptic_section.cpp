// The focused-plenoptic scene (raw image, micro-image grid, optional ground truth) that the
// plenoptic algorithm runs on, with its panel headers: Scene (open a raw image or scene.json,
// generate a preset) and Grid (edit the micro-image grid; a grid that does not fit is refused
// with a red line and the previous one stays), and the scene's block of the sidecar.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <tuple>

#include "data_section.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/plenoptic_views.hpp"
#include "options.hpp"
#include "scene_store.hpp"

namespace lb::viewer {
namespace {

const ImVec4 kRed(1.0f, 0.35f, 0.3f, 1.0f);

class PlenopticSection final : public DataSection {
 public:
  // Empty until open_startup() (the command line's scene, or the bundled preset "small").
  PlenopticSection() = default;
  DataKind kind() const override { return DataKind::PlenopticScene; }
  std::shared_ptr<const AlgorithmData> data() const override { return scene_.data(); }
  std::string key() const override {
    if (!scene_.loaded()) return "";
    const PlenopticGrid& g = scene_.grid();
    std::ostringstream k;
    k << std::hexfloat << g.nx << ',' << g.ny << ',' << g.pitch << ',' << g.ox << ',' << g.oy;
    return k.str();
  }

  void draw_headers(DataRequest& req) override {
    if (!scene_.loaded()) return;
    if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) draw_scene_section(req);
    if (ImGui::CollapsingHeader("Grid")) draw_grid_section();
  }
  bool keeps_params() const override { return true; }
  bool draw(PanelParams& params) override {
    // The patch size the light-field export renders its views at (0: the scene's default).
    panel_patch_ = static_cast<int>(params.get("patch"));
    // The data's controls are the Scene and Grid headers; here only what changed there.
    const bool changed = drawn_id_ != scene_.id();
    drawn_id_ = scene_.id();
    return changed;
  }

  const gl::GlTextureSurface* input_texture(const std::string& output) const override {
    if (output == "raw") return &scene_.raw_texture();
    if (output == "truth") return scene_.truth_texture();
    return nullptr;
  }

  // --scene, or --raw with --pitch/--offset/--grid, or --preset/--seed (default: the bundled
  // preset "small"). On failure the bundled scene is loaded and lb::Error says why.
  void open_startup(const ViewerOptions& options) override {
    try {
      load_startup_scene(options);
    } catch (const std::exception& e) {
      scene_.generate("small", 1);
      scene_replaced();
      throw Error(std::string("cannot open the scene: ") + e.what() + " (showing the bundled scene)");
    }
    scene_replaced();
  }
  bool opens_files() const override { return true; }
  void open_path(const std::string& path) override {
    scene_.open(path);  // throws with the previous scene in place
    path_field_ = path;
    scene_replaced();
  }

  nlohmann::json data_json() const override {
    if (!scene_.loaded()) return nlohmann::json::object();
    const PlenopticScene& s = scene_.scene();
    const PlenopticGrid& g = s.grid;
    return {{"scene",
             {{"source", s.source},
              {"raw", {s.raw.width, s.raw.height}},
              {"grid", {{"nx", g.nx}, {"ny", g.ny}, {"pitch", g.pitch}, {"ox", g.ox}, {"oy", g.oy}}}}}};
  }

  bool micro_grid(PlenopticGrid* grid) const override {
    if (!scene_.loaded()) return false;
    *grid = scene_.grid();
    return show_grid_;
  }
  bool truth_range(float* lo, float* hi) const override {
    if (!scene_.has_truth()) return false;
    *lo = scene_.truth_min();
    *hi = scene_.truth_max();
    return true;
  }

 private:
  void scene_replaced() {
    grid_edit_ = scene_.grid();
    grid_error_.clear();
  }

  void load_startup_scene(const ViewerOptions& opt) {
    if (!opt.scene.empty()) {
      scene_.open(opt.scene);
    } else if (!opt.raw.empty()) {
      PlenopticGrid g;
      g.pitch = opt.pitch;
      std::tie(g.ox, g.oy) = parse_number_pair("--offset", opt.offset);
      PlenopticScene s;
      s.raw = load_image(opt.raw);
      s.source = opt.raw;
      if (opt.grid.empty()) {
        g = fit_grid(g, s.raw.width, s.raw.height);
      } else {
        const auto [nx, ny] = parse_number_pair("--grid", opt.grid);
        LB_REQUIRE(nx >= 1 && ny >= 1 && nx == std::floor(nx) && ny == std::floor(ny),
                   "--grid expects two positive integers NX,NY");
        g.nx = static_cast<int>(nx);
        g.ny = static_cast<int>(ny);
      }
      s.grid = g;
      scene_.set(std::move(s));
    } else {
      const std::string preset = opt.preset.empty() ? "small" : opt.preset;
      scene_.generate(preset, opt.seed);
      const auto names = generator_presets();
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == preset) preset_index_ = static_cast<int>(i);
      seed_ = static_cast<int>(opt.seed);
    }
  }

  void draw_scene_section(DataRequest& req) {
    const PlenopticScene& s = scene_.scene();
    ImGui::TextWrapped("scene: %s", s.source.c_str());
    ImGui::Text("raw %s%s", describe(s.raw).c_str(), scene_.has_truth() ? ", with ground truth" : "");
    ImGui::SetNextItemWidth(-60);
    const bool enter = ImGui::InputTextWithHint("##path", "raw image or scene.json path", &path_field_,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    // The viewer opens the path: a folder goes to the algorithm that opens folders.
    if ((ImGui::Button("Open") || enter) && !path_field_.empty()) req.open_path = path_field_;
    ImGui::TextDisabled("or drop a file on the window");
    const auto presets = generator_presets();
    preset_index_ = std::clamp(preset_index_, 0, static_cast<int>(presets.size()) - 1);
    ImGui::SetNextItemWidth(90);
    if (ImGui::BeginCombo("##preset", presets[preset_index_].c_str())) {
      for (int i = 0; i < static_cast<int>(presets.size()); ++i)
        if (ImGui::Selectable(presets[i].c_str(), i == preset_index_)) preset_index_ = i;
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    ImGui::InputInt("seed", &seed_);
    seed_ = std::max(seed_, 0);
    ImGui::SameLine();
    if (ImGui::Button("Generate")) {
      try {
        scene_.generate(presets[preset_index_], static_cast<std::uint64_t>(seed_));
        scene_replaced();
        req.replaced = true;
      } catch (const std::exception& e) {
        req.error = e.what();  // the previous scene stays
      }
    }
    draw_lightfield_export(req);
  }

  // The raw as a 4D light field: U x V perspective views at the panel's patch size
  // (lightbench/plenoptic_views.hpp), handed to the light-field algorithm (CAE depth), which
  // the viewer then shows. Rendered here, on the UI thread, as Generate makes a preset and
  // every section opens its data: 5 x 5 views of the bundled scene take well under a second.
  void draw_lightfield_export(DataRequest& req) {
    ImGui::PushItemWidth(60);
    ImGui::InputInt("##views_u", &views_u_, 0);
    ImGui::SameLine();
    ImGui::TextUnformatted("x");
    ImGui::SameLine();
    ImGui::InputInt("##views_v", &views_v_, 0);
    ImGui::PopItemWidth();
    views_u_ = std::clamp(views_u_, 1, kMaxViewGrid);
    views_v_ = std::clamp(views_v_, 1, kMaxViewGrid);
    ImGui::SameLine();
    ImGui::TextDisabled("views");
    const std::string label = "open as light field (" + std::to_string(views_u_) + "x" + std::to_string(views_v_) +
                              " views)###open_as_lf";
    if (ImGui::Button(label.c_str())) req.hand_over = export_lightfield(req);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("render U x V perspective views (shifts spread over (D - M) / 2 each side, M: the panel's "
                        "patch size) and open them in the light-field algorithm");
  }

  std::shared_ptr<const AlgorithmData> export_lightfield(DataRequest& req) const {
    try {
      ViewGridOptions o;
      o.patch = std::max(0, panel_patch_);
      auto d = std::make_shared<LightFieldData>();
      d->lf = plenoptic_view_grid(scene_.scene(), views_u_, views_v_, o);
      return d;
    } catch (const std::exception& e) {
      req.error = e.what();  // the light field stays as it was
      return nullptr;
    }
  }

  // Applies grid_edit_ (grid_error_ says why not; the previous grid stays).
  void apply_grid_edit() {
    try {
      scene_.set_grid(grid_edit_);
      grid_error_.clear();
    } catch (const std::exception& e) {
      grid_error_ = e.what();  // the previous grid stays in use
    }
  }

  void draw_grid_section() {
    PlenopticGrid& g = grid_edit_;
    bool edited = false;
    ImGui::PushItemWidth(120);
    edited |= ImGui::InputDouble("pitch D", &g.pitch, 0.25, 1.0, "%.4f");
    edited |= ImGui::InputDouble("offset x", &g.ox, 0.25, 1.0, "%.4f");
    edited |= ImGui::InputDouble("offset y", &g.oy, 0.25, 1.0, "%.4f");
    edited |= ImGui::InputInt("grid NX", &g.nx);
    edited |= ImGui::InputInt("grid NY", &g.ny);
    ImGui::PopItemWidth();
    if (edited) apply_grid_edit();
    if (ImGui::SmallButton("fit NX, NY to the raw")) {
      g = fit_grid(g, scene_.scene().raw.width, scene_.scene().raw.height);
      apply_grid_edit();
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("scene's grid")) {
      g = scene_.original_grid();
      apply_grid_edit();
    }
    ImGui::Checkbox("show the grid on the raw image", &show_grid_);
    if (!grid_error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, kRed);
      ImGui::TextWrapped("grid not applied: %s", grid_error_.c_str());
      ImGui::PopStyleColor();
    }
  }

  SceneStore scene_;
  std::uint64_t drawn_id_ = 0;
  std::string path_field_;   // "open" field
  int preset_index_ = 1;     // generator preset combo
  int seed_ = 1;
  PlenopticGrid grid_edit_;  // grid fields (applied when valid)
  std::string grid_error_;
  bool show_grid_ = true;    // the micro-image grid over the raw image
  int views_u_ = 5, views_v_ = 5;  // light-field export grid
  int panel_patch_ = 0;            // the panel's patch size, last drawn
};

}  // namespace

std::unique_ptr<DataSection> make_plenoptic_section() { return std::make_unique<PlenopticSection>(); }

}  // namespace lb::viewer
