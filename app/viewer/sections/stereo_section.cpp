// The stereo pair (rectified left/right, Middlebury ground truth and masks) that the stereo
// algorithms run on: a stereo folder in a published layout (--stereo, --layout, --gt-scale;
// stereo_io.hpp) or the bundled synthetic two planes.
#include <imgui.h>

#include "data_section.hpp"
#include "lightbench/algorithms.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "lightbench/stereo_io.hpp"
#include "options.hpp"
#include "param_widgets.hpp"

namespace lb::viewer {
namespace {

class StereoSection final : public DataSection {
 public:
  StereoSection() { install(bundled_stereo(1)); }  // assets/stereo/two_planes.json
  DataKind kind() const override { return DataKind::StereoPair; }
  std::shared_ptr<const AlgorithmData> data() const override { return data_; }

  bool draw(PanelParams&) override {
    bool changed = false;
    ImGui::TextWrapped("pair: %s", data_->pair.name.c_str());
    ImGui::TextDisabled("%d x %d, %s%s", data_->pair.left.width, data_->pair.left.height,
                        data_->pair.left.channels == 1 ? "gray" : "colour",
                        data_->gt.empty() ? "" : ", with ground truth");
    changed |= path_open_row("stereo", "stereo folder (Middlebury imL/imR or im0/im1, ...)", path_field_, &open_error_,
                             [this](const std::string& p) { open_path(p); });
    if (ImGui::SmallButton("synthetic two planes##stereo")) {
      install(bundled_stereo(1));
      open_error_.clear();
      changed = true;
    }
    error_line(open_error_);
    return changed;
  }

  const gl::GlTextureSurface* input_texture(const std::string& output) const override {
    if (output == "left") return left_.get();
    if (output == "right") return right_.get();
    if (output == "truth") return data_->gt.empty() ? nullptr : truth_.get();
    return nullptr;
  }

  void open_startup(const ViewerOptions& options) override {
    gt_scale_ = options.gt_scale;  // also for folders opened later from the panel
    layout_ = stereo::parse_stereo_layout(options.stereo_layout);
    if (options.stereo.empty()) return;
    try {
      open_path(options.stereo);
    } catch (const std::exception& e) {
      throw Error(std::string("cannot open the stereo pair: ") + e.what() + " (showing the bundled one)");
    }
  }
  // All-or-nothing: a failure leaves the current pair.
  void open_path(const std::string& folder) override { install(stereo::load_stereo_scene(folder, gt_scale_, layout_)); }

 private:
  void install(stereo::StereoScene s) {
    stereo::validate(s.pair);
    // Textures first: a failure leaves the current pair as it was.
    auto l = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
    auto r = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
    auto t = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::R32F);
    for (auto* x : {l.get(), r.get(), t.get()}) x->set_interop_enabled(false, "stereo input texture");
    l->upload_host(to_rgba(s.pair.left));
    r->upload_host(to_rgba(s.pair.right));
    if (!s.gt.empty()) t->upload_host(s.gt.disparity);
    auto data = std::make_shared<StereoData>();
    data->pair = std::move(s.pair);
    data->gt = std::move(s.gt);
    data->ndisp_hint = s.suggested_ndisp;
    data_ = std::move(data);
    left_ = std::move(l);
    right_ = std::move(r);
    truth_ = std::move(t);
  }

  std::shared_ptr<const StereoData> data_;
  std::unique_ptr<gl::GlTextureSurface> left_, right_, truth_;
  std::string path_field_, open_error_;
  double gt_scale_ = 0;  // --gt-scale (0: the published scale of the folder's name)
  stereo::StereoLayout layout_ = stereo::StereoLayout::Auto;  // --layout
};

}  // namespace

std::unique_ptr<DataSection> make_stereo_section() { return std::make_unique<StereoSection>(); }

}  // namespace lb::viewer
