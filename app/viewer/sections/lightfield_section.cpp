// The 4D light field (sub-aperture views, optional ground-truth disparity of the centre
// view): a folder (HCI input_CamNNN.png, view_U_V.png, NNN.png) opened from the command line,
// the panel or dropped on the window, or the bundled synthetic two planes. Its panel part
// holds the angular pad: drag over the views to move the viewpoint (parameters u, v).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "data_section.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "options.hpp"
#include "param_widgets.hpp"

namespace lb::viewer {
namespace {

class LightFieldSection final : public DataSection {
 public:
  LightFieldSection() { install(bundled_lightfield(1u)); }  // assets/lightfield/two_planes.json
  DataKind kind() const override { return DataKind::LightField; }
  std::shared_ptr<const AlgorithmData> data() const override { return data_; }

  bool draw(PanelParams& params) override {
    bool changed = false;
    const LightField4D& lf = data_->lf;
    ImGui::TextWrapped("light field: %s", lf.source.c_str());
    ImGui::TextDisabled("%d x %d views of %d x %d%s", lf.nu, lf.nv, lf.width, lf.height,
                        lf.has_gt() ? ", with ground truth" : "");
    changed |= path_open_row("lf", "light-field folder", path_field_, &open_error_,
                             [this](const std::string& p) { open_path(p); });
    if (ImGui::SmallButton("synthetic two planes")) {
      loader_.cancel();  // the later action wins
      install(bundled_lightfield(1u));
      open_error_.clear();
      changed = true;
    }
    error_line(open_error_);
    loader_.draw();  // a folder loading: its progress and Cancel; a failed load's line
    changed |= draw_angular_pad(params);
    return changed;
  }

  const gl::GlTextureSurface* input_texture(const std::string& output) const override {
    if (output == "centre") return centre_.get();
    if (output == "truth") return data_->lf.has_gt() ? truth_.get() : nullptr;
    return nullptr;
  }

  // --lf DIR: read on the loader like a folder opened later (the synthetic light field stays
  // meanwhile, and when it fails: one line says why).
  void open_startup(const ViewerOptions& options) override {
    if (options.lf.empty()) return;
    const std::string folder = options.lf;
    loader_.start("light field '" + folder + "'", [this, folder]() -> DataLoader::Apply {
      std::shared_ptr<LightField4D> lf;
      try {
        lf = std::make_shared<LightField4D>(load_lightfield(folder));
      } catch (const Cancelled&) {
        throw;
      } catch (const std::exception& e) {
        throw Error(std::string("cannot open the light field: ") + e.what() + " (showing the synthetic one)");
      }
      return [this, lf](DataRequest& req) {
        req.replaced = false;  // the start-up fits the panes itself
        try {
          install(std::move(*lf));
        } catch (const std::exception& e) {
          throw Error(std::string("cannot open the light field: ") + e.what() + " (showing the synthetic one)");
        }
      };
    });
  }
  bool opens_folders() const override { return true; }
  nlohmann::json data_json() const override {
    const LightField4D& lf = data_->lf;
    return {{"lightfield",
             {{"source", lf.source}, {"layout", lf.layout}, {"views", {lf.nu, lf.nv}}, {"size", {lf.width, lf.height}}}}};
  }
  // HCI's protocol on the centre view's truth (15-pixel border).
  const eval::Truth* eval_truth() const override { return data_->lf.has_gt() ? &truth_eval_ : nullptr; }
  // Off the UI thread (data_loader.hpp): the views are read on the loader's thread (it checks
  // the cancel token and reports progress between views); the UI thread installs them when
  // done. All-or-nothing: a failure leaves the current light field.
  void open_path(const std::string& folder) override {
    loader_.start("light field '" + folder + "'", [this, folder]() -> DataLoader::Apply {
      auto lf = std::make_shared<LightField4D>(load_lightfield(folder));
      return [this, lf](DataRequest&) {
        install(std::move(*lf));
        open_error_.clear();
      };
    });
  }
  // The plenoptic section's views (its "open as light field" button).
  void take_data(const std::shared_ptr<const AlgorithmData>& data) override {
    LB_REQUIRE(data != nullptr, "the light-field section takes a light field");
    const LightFieldData& lfd = data_as<LightFieldData>(*data, DataKind::LightField);
    validate(lfd.lf);
    install(lfd.lf);  // a copy: install makes the section's own data (and id)
    loader_.cancel();  // a folder loading meanwhile: the later action wins
    open_error_.clear();
  }

 private:
  void install(LightField4D lf) {
    LB_REQUIRE(!lf.empty(), "empty light field");
    // Textures first, so a failure leaves the current light field as it was.
    auto centre = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
    centre->set_interop_enabled(false, "light-field texture");
    centre->upload_host(to_rgba(lf.centre()));
    auto truth = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F);
    truth->set_interop_enabled(false, "light-field texture");
    if (lf.has_gt()) truth->upload_host(lf.gt);
    auto data = std::make_shared<LightFieldData>();
    data->lf = std::move(lf);
    truth_eval_ = eval::Truth{};
    truth_eval_.protocol = eval::Protocol::Hci;
    truth_eval_.border = 15;
    truth_eval_.stereo.disparity = data->lf.gt;
    data_ = std::move(data);
    centre_ = std::move(centre);
    truth_ = std::move(truth);
  }

  // A grid of nu x nv dots; click or drag to pick the view (parallax as you drag).
  bool draw_angular_pad(PanelParams& params) {
    const LightField4D& lf = data_->lf;
    const float cell = std::clamp(180.0f / std::max(lf.nu, lf.nv), 8.0f, 24.0f);
    const ImVec2 size(cell * lf.nu, cell * lf.nv);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##angular_pad", size);
    const int pu = static_cast<int>(params.get("u")), pv = static_cast<int>(params.get("v"));
    bool changed = false;
    if (ImGui::IsItemActive()) {
      const ImVec2 m = ImGui::GetIO().MousePos;
      const int u = std::clamp(static_cast<int>((m.x - p0.x) / cell), 0, lf.nu - 1);
      const int v = std::clamp(static_cast<int>((m.y - p0.y) / cell), 0, lf.nv - 1);
      if (u != pu || v != pv) {
        params.set("u", u);
        params.set("v", v);
        changed = true;
      }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("drag to move the viewpoint (u, v)");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRect(p0, ImVec2(p0.x + size.x, p0.y + size.y), IM_COL32(90, 90, 100, 255));
    const int views = static_cast<int>(params.get("views"));
    const int r = views / 2;
    for (int v = 0; v < lf.nv; ++v)
      for (int u = 0; u < lf.nu; ++u) {
        const ImVec2 c(p0.x + (u + 0.5f) * cell, p0.y + (v + 0.5f) * cell);
        const bool in_window = std::abs(u - lf.uc()) <= r && std::abs(v - lf.vc()) <= r;
        const bool picked = u == pu && v == pv;
        dl->AddCircleFilled(c, picked ? cell * 0.38f : cell * 0.18f,
                            picked      ? IM_COL32(255, 210, 60, 255)
                            : in_window ? IM_COL32(120, 170, 255, 255)
                                        : IM_COL32(110, 110, 120, 255));
      }
    ImGui::SameLine();
    ImGui::TextDisabled("view (%d, %d)\nblue: CAE window\n(%dx%d views)", pu, pv, views, views);
    return changed;
  }

  eval::Truth truth_eval_;  // the truth as eval::evaluate scores it (HCI)
  std::shared_ptr<const LightFieldData> data_;
  std::unique_ptr<gl::GlTextureSurface> centre_, truth_;
  std::string path_field_, open_error_;
};

}  // namespace

std::unique_ptr<DataSection> make_lightfield_section() { return std::make_unique<LightFieldSection>(); }

}  // namespace lb::viewer
