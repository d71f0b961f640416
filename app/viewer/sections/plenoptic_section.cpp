// The focused-plenoptic scene (raw image, micro-image grid or micro-lens geometry, optional
// ground truth) that the plenoptic algorithms run on, with its panel headers: Scene (open a raw
// image or scene.json, with a calibration .xml; generate a preset), Grid (edit the rectangular
// micro-image grid; a grid that does not fit is refused with a red line and the previous one
// stays) or Geometry (a scene with a micro-lens geometry: plenoptic_geometry.hpp), and the
// scene's block of the sidecar. Two instances: the rectangular algorithm's, which hands a
// scene with a geometry to the general-grid algorithm (DataRequest::hand_over / calib_path),
// and the general-grid one's, which takes it.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <tuple>

#include "data_section.hpp"
#include "lightbench/calibrated_raw.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/progress.hpp"
#include "lightbench/plenoptic_views.hpp"
#include "options.hpp"
#include "plenoptic_geometry.hpp"
#include "scene_store.hpp"

namespace lb::viewer {
namespace {

const ImVec4 kRed(1.0f, 0.35f, 0.3f, 1.0f);

bool generator_has(const std::string& preset) {
  const auto names = generator_presets();
  return std::find(names.begin(), names.end(), preset) != names.end();
}

class PlenopticSection final : public DataSection {
 public:
  // Empty until open_startup() (the command line's scene, or the bundled preset: "small", the
  // general-grid section "hex-small").
  explicit PlenopticSection(bool general_grid) : general_(general_grid) {
    const auto presets = scene_presets();
    for (std::size_t i = 0; i < presets.size(); ++i)
      if (presets[i] == (general_ ? "hex-small" : "small")) preset_index_ = static_cast<int>(i);
  }
  DataKind kind() const override { return DataKind::PlenopticScene; }
  bool takes(const AlgorithmData& d) const override {
    return general_ || (d.kind() == DataKind::PlenopticScene && !static_cast<const PlenopticData&>(d).scene.mla);
  }
  void take_data(const std::shared_ptr<const AlgorithmData>& d) override {
    LB_REQUIRE(d && takes(*d), "the plenoptic section of this algorithm takes no scene with a micro-lens geometry");
    scene_.set(static_cast<const PlenopticData&>(*d).scene);  // validates; all or nothing
    scene_replaced();
  }
  std::shared_ptr<const AlgorithmData> data() const override { return scene_.data(); }
  std::string key() const override {
    if (!scene_.loaded()) return "";
    const PlenopticGrid& g = scene_.grid();
    std::ostringstream k;
    k << std::hexfloat << g.nx << ',' << g.ny << ',' << g.pitch << ',' << g.ox << ',' << g.oy;
    if (scene_.has_geometry()) {
      const MlaGeometry& m = scene_.geometry();
      k << '|' << m.diameter << ',' << m.offset.x << ',' << m.offset.y << ',' << m.rotation;
    }
    return k.str();
  }

  void draw_headers(DataRequest& req) override {
    if (!scene_.loaded()) return;
    if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) draw_scene_section(req);
    if (scene_.has_geometry()) {
      if (ImGui::CollapsingHeader("Geometry", ImGuiTreeNodeFlags_DefaultOpen)) draw_geometry_section(scene_, geometry_);
    } else if (ImGui::CollapsingHeader("Grid")) {
      draw_grid_section();
    }
  }
  bool keeps_params() const override { return true; }
  bool draw(PanelParams& params) override {
    // The start-up's scene cancelled (the panel's Cancel): the bundled one, so the Scene header
    // is there to open or make another.
    if (!scene_.loaded() && !loader_.busy()) {
      scene_.generate(general_ ? "hex-small" : "small", 1);
      scene_replaced();
    }
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
  // preset "small"), read and made on the loader (the first frames do not wait for it). On
  // failure the bundled scene is shown and the viewer reports why (one line).
  void open_startup(const ViewerOptions& options) override {
    const ViewerOptions opt = options;
    const bool general = general_;
    loader_.start("the command line's scene", [this, opt, general]() -> DataLoader::Apply {
      auto st = std::make_shared<Startup>();
      std::string error;
      try {
        *st = read_startup_scene(opt, general);
      } catch (const Cancelled&) {
        throw;
      } catch (const std::exception& e) {
        error = std::string("cannot open the scene: ") + e.what() + " (showing the bundled scene)";
        st->scene = SceneStore::make_preset(general ? "hex-small" : "small", 1);
      }
      return [this, st, error, general](DataRequest& req) {
        req.replaced = false;  // the start-up fits the panes itself
        req.error = error;
        try {
          install_startup(std::move(*st));
        } catch (const std::exception& e) {
          if (!error.empty()) throw;
          scene_.generate(general ? "hex-small" : "small", 1);
          req.error = std::string("cannot open the scene: ") + e.what() + " (showing the bundled scene)";
        }
        scene_replaced();
      };
    });
  }
  // --views UxV: what the Scene header's "open as light field" button does, at start-up.
  std::shared_ptr<const AlgorithmData> startup_conversion(const ViewerOptions& options) const override {
    if (options.views.empty()) return nullptr;
    const auto x = options.views.find('x');
    auto side = [](const std::string& s) {
      if (s.empty() || s.size() > 3 || s.find_first_not_of("0123456789") != std::string::npos) return -1;
      const int n = std::stoi(s);
      return n >= 1 && n <= kMaxViewGrid ? n : -1;
    };
    const int nu = x == std::string::npos ? -1 : side(options.views.substr(0, x));
    const int nv = x == std::string::npos ? -1 : side(options.views.substr(x + 1));
    LB_REQUIRE(nu >= 1 && nv >= 1, "--views expects UxV with U, V in 1.." + std::to_string(kMaxViewGrid) +
                                       ", e.g. 5x5, got " + quote_untrusted(options.views));
    const std::shared_ptr<const PlenopticData> scene = scene_.data();
    if (!scene) return nullptr;
    ViewGridOptions o;
    if (options.patch) o.patch = *options.patch;
    auto lf = std::make_shared<LightFieldData>();
    lf->lf = plenoptic_view_grid(scene->scene, nu, nv, o);
    return lf;
  }
  bool opens_files() const override { return true; }
  // Read (and fitted) off the UI thread (data_loader.hpp), set on it; the previous scene stays
  // meanwhile and when it fails.
  void open_path(const std::string& path) override {
    // The general-grid section keeps its calibration for another raw of the same camera.
    const bool calibrated = general_ && scene_.has_geometry() && file_extension(path) != ".json";
    const MlaGeometry geometry = calibrated ? scene_.original_geometry() : MlaGeometry{};
    const std::optional<PlenopticGrid> like =
        scene_.loaded() ? std::optional<PlenopticGrid>(scene_.grid()) : std::nullopt;
    loader_.start("'" + path + "'", [this, path, calibrated, geometry, like]() -> DataLoader::Apply {
      auto s = std::make_shared<PlenopticScene>();
      if (calibrated) {
        ImageOrigin origin;  // 16-bit PNG: converted (v/257)
        ImageU8 raw = load_image_8bit(path, &origin);
        throw_if_cancelled();
        report_progress(-1.0, "fitting the calibration");
        *s = calibrated_scene(raw, geometry, CalibFit::Auto, path, "the open geometry");
        s->raw_origin = origin;
      } else {
        *s = SceneStore::read(path, std::nullopt, like ? &*like : nullptr);
      }
      return [this, s, path](DataRequest&) {
        scene_.set(std::move(*s));  // validates; the previous scene stays when it throws
        path_field_ = path;
        scene_replaced();
      };
    });
  }

  nlohmann::json data_json() const override {
    if (!scene_.loaded()) return nlohmann::json::object();
    const PlenopticScene& s = scene_.scene();
    const PlenopticGrid& g = s.grid;
    nlohmann::json j = {{"source", s.source}, {"raw", {s.raw.width, s.raw.height}}};
    if (s.mla) {
      j["geometry"] = mla_json(*s.mla);
      j["lens_overlay"] = geometry_.show_lenses;
    } else {
      j["grid"] = {{"nx", g.nx}, {"ny", g.ny}, {"pitch", g.pitch}, {"ox", g.ox}, {"oy", g.oy}};
    }
    // Both plenoptic algorithms hold a scene: the general grid's under its own key.
    return {{general_ ? "hex_scene" : "scene", j}};
  }

  // The rectangular section's "show the grid" (the data's grid); the general grid's "show the
  // lenses" (the data's micro-lens geometry).
  bool overlay(OverlayKind kind, DisplayHints* h) const override {
    if (!scene_.loaded()) return false;
    if (kind == OverlayKind::MicroGrid && !general_) {
      h->grid = scene_.grid();
      h->micro_grid = show_grid_;
      return show_grid_;
    }
    if (kind == OverlayKind::LensCircles && general_ && geometry_.show_lenses) {
      h->lenses = scene_geometry(scene_.scene());
      h->lens_overlay = true;
      return true;
    }
    return false;
  }

 private:
  void scene_replaced() {
    grid_edit_ = scene_.grid();
    grid_error_.clear();
    if (scene_.has_geometry()) geometry_.reset(scene_.geometry());
    geometry_.note.clear();
  }

  // The command line's scene, read on any thread (touches no member); the panel's fields it
  // fills in alongside.
  struct Startup {
    PlenopticScene scene;
    std::string preset;  // a generated preset (the combo shows it), else ""
    std::uint64_t seed = 1;
    std::string calib_field, path_field;
  };
  static Startup read_startup_scene(const ViewerOptions& opt, bool general) {
    Startup st;
    auto generated = [&st](const std::string& preset, std::uint64_t seed) {
      st.scene = SceneStore::make_preset(preset, seed);
      st.preset = preset;
      st.seed = seed;
      return st;
    };
    const bool hex_preset = !opt.preset.empty() && !generator_has(opt.preset);
    // A calibrated raw or a hexagonal preset is the general-grid section's; the rectangular
    // one shows its bundled scene meanwhile.
    if (!general && (!opt.calib.empty() || hex_preset)) {
      Startup bundled = generated("small", 1);
      bundled.preset.clear();  // the combo keeps its default
      return bundled;
    }
    if (!opt.calib.empty()) {
      LB_REQUIRE(!opt.raw.empty(), "--calib '" + opt.calib + "' needs --raw FILE (the raw image it calibrates)");
      LB_REQUIRE(opt.pitch <= 0 && opt.grid.empty() && opt.offset == "0,0",
                 "--pitch / --offset / --grid apply to a raw without --calib (the calibration has the grid)");
      CalibInfo info;
      st.scene = load_calibrated_raw(opt.raw, opt.calib,
                                     parse_calib_fit(opt.fit_grid.empty() ? "auto" : opt.fit_grid, "--fit-grid"), &info);
      st.scene.source += calib_fit_note(info);
      st.calib_field = opt.calib;
      st.path_field = opt.raw;
      return st;
    }
    LB_REQUIRE(opt.fit_grid.empty(), "--fit-grid applies to --calib only");
    if (general && opt.scene.empty() && opt.raw.empty())
      return generated(opt.preset.empty() ? "hex-small" : opt.preset, opt.seed);
    if (!opt.scene.empty()) {
      st.scene = SceneStore::read(opt.scene, std::nullopt, nullptr);
    } else if (!opt.raw.empty()) {
      PlenopticGrid g;
      g.pitch = opt.pitch;
      std::tie(g.ox, g.oy) = parse_number_pair("--offset", opt.offset);
      PlenopticScene& sc = st.scene;
      sc.raw = load_image_8bit(opt.raw, &sc.raw_origin);  // 16-bit PNG: converted (v/257)
      sc.source = opt.raw;
      if (opt.grid.empty()) {
        g = fit_grid(g, sc.raw.width, sc.raw.height);
      } else {
        const auto [nx, ny] = parse_number_pair("--grid", opt.grid);
        LB_REQUIRE(nx >= 1 && ny >= 1 && nx == std::floor(nx) && ny == std::floor(ny),
                   "--grid expects two positive integers NX,NY");
        g.nx = static_cast<int>(nx);
        g.ny = static_cast<int>(ny);
      }
      sc.grid = g;
    } else {
      return generated(opt.preset.empty() ? "small" : opt.preset, opt.seed);
    }
    return st;
  }

  // Installs what read_startup_scene read (UI thread); false when the scene does not fit (the
  // bundled scene is shown instead and *error says why).
  void install_startup(Startup st) {
    scene_.set(std::move(st.scene));  // validates; throws leaving the store as it was
    if (!st.preset.empty()) {
      const auto presets = scene_presets();
      for (std::size_t i = 0; i < presets.size(); ++i)
        if (presets[i] == st.preset) preset_index_ = static_cast<int>(i);
      seed_ = static_cast<int>(st.seed);
    }
    if (!st.path_field.empty()) path_field_ = st.path_field;
    if (!st.calib_field.empty()) calib_field_ = st.calib_field;
  }

  void draw_scene_section(DataRequest& req) {
    const PlenopticScene& s = scene_.scene();
    ImGui::TextWrapped("scene: %s", s.source.c_str());
    ImGui::Text("raw %s%s", describe(s.raw).c_str(), scene_.has_truth() ? ", with ground truth" : "");
    ImGui::SetNextItemWidth(-60);
    bool enter = ImGui::InputTextWithHint("##path", "raw image or scene.json path", &path_field_,
                                          ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    const bool open = ImGui::Button("Open");
    ImGui::SetNextItemWidth(-60);
    enter |= ImGui::InputTextWithHint("##calib", "calibration .xml (optional)", &calib_field_,
                                      ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("a Raytrix RayCalibData file: the raw opens on its micro-lens geometry (hexagonal, lens "
                        "types) in the general-grid algorithm; with no raw path it applies to the raw open now");
    // The viewer opens the path: a folder goes to the algorithm that opens folders; with a
    // calibration the pair becomes a scene with that geometry (raw "": the open one).
    if ((open || enter) && !calib_field_.empty()) {
      req.calib_path = calib_field_;
      req.open_path = path_field_;
    } else if ((open || enter) && !path_field_.empty()) {
      req.open_path = path_field_;
    }
    ImGui::TextDisabled("or drop a file (a raw and its .xml together) on the window");
    const auto presets = scene_presets();
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
    if (ImGui::Button("Generate")) generate(presets[preset_index_], static_cast<std::uint64_t>(seed_));
    draw_lightfield_export();
    loader_.draw();  // a raw loading, a preset generating, views rendering: Cancel; a failure's line
  }

  // A preset made off the UI thread (the seed preset takes seconds); the previous scene stays
  // meanwhile and when it fails.
  void generate(const std::string& preset, std::uint64_t seed) {
    loader_.start("preset '" + preset + "'", [this, preset, seed]() -> DataLoader::Apply {
      auto s = std::make_shared<PlenopticScene>(SceneStore::make_preset(preset, seed));
      return [this, s](DataRequest& req) {
        if (!general_ && s->mla) {  // a hexagonal preset: the general-grid algorithm's
          auto d = std::make_shared<PlenopticData>();
          d->scene = std::move(*s);
          req.replaced = false;
          req.hand_over = std::move(d);
          return;
        }
        scene_.set(std::move(*s));
        scene_replaced();
      };
    });
  }

  // The raw as a 4D light field: U x V perspective views at the panel's patch size
  // (plenoptic/plenoptic_views.hpp), handed to the light-field algorithm (CAE depth), which
  // the viewer then shows. Rendered off the UI thread, on the section's data loader.
  void draw_lightfield_export() {
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
    if (ImGui::Button(label.c_str())) export_lightfield();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("render U x V perspective views (shifts spread over (D - M) / 2 each side, M: the panel's "
                        "patch size) and open them in the light-field algorithm");
  }

  void export_lightfield() {
    ViewGridOptions o;
    o.patch = std::max(0, panel_patch_);
    const std::shared_ptr<const PlenopticData> scene = scene_.data();  // immutable: safe to read there
    const int nu = views_u_, nv = views_v_;
    loader_.start(std::to_string(nu) + "x" + std::to_string(nv) + " views of the raw", [scene, nu, nv, o]() -> DataLoader::Apply {
      auto d = std::make_shared<LightFieldData>();
      d->lf = plenoptic_view_grid(scene->scene, nu, nv, o);
      return [d](DataRequest& req) {  // the light field stays as it was when this fails
        req.replaced = false;
        req.hand_over = d;
      };
    });
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

  bool general_ = false;     // the general-grid algorithm's section
  SceneStore scene_;
  std::uint64_t drawn_id_ = 0;
  std::string path_field_;   // "open" field
  std::string calib_field_;  // calibration field
  GeometryEdit geometry_;    // Geometry header (a scene with mla)
  int preset_index_ = 1;     // generator preset combo
  int seed_ = 1;
  PlenopticGrid grid_edit_;  // grid fields (applied when valid)
  std::string grid_error_;
  bool show_grid_ = true;    // the micro-image grid over the raw image
  int views_u_ = 5, views_v_ = 5;  // light-field export grid
  int panel_patch_ = 0;            // the panel's patch size, last drawn
};

}  // namespace

std::unique_ptr<DataSection> make_plenoptic_section(bool general_grid) {
  return std::make_unique<PlenopticSection>(general_grid);
}

}  // namespace lb::viewer
