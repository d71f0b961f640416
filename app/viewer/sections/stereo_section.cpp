// The stereo pair (rectified left/right, ground truth and masks) that the stereo algorithms
// run on: a stereo folder in any layout dataset::open_dataset detects (Middlebury 2001-2006,
// 2014/2021/MiddEval3, a KITTI training folder with --frame NAME; --stereo, --layout,
// --gt-scale) or the bundled synthetic two planes. The truth keeps its benchmark's protocol
// (foreign maps in a pane are scored by it).
#include <imgui.h>

#include <optional>

#include "data_section.hpp"
#include "lightbench/algorithms.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/progress.hpp"
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
    changed |= path_open_row("stereo", "stereo folder (Middlebury imL/imR or im0/im1, KITTI training/, ...)", path_field_, &open_error_,
                             [this](const std::string& p) { open_path(p); });
    if (ImGui::SmallButton("synthetic two planes##stereo")) {
      loader_.cancel();  // the later action wins
      install(bundled_stereo(1));
      dataset_ = dataset::Dataset{};
      open_error_.clear();
      changed = true;
    }
    // A folder of several scenes (KITTI frames, a Middlebury collection): pick one.
    if (dataset_.scenes.size() > 1) {
      ImGui::SetNextItemWidth(180);
      if (ImGui::BeginCombo("scene##stereo", dataset_.scenes[static_cast<std::size_t>(scene_)].name.c_str())) {
        for (int k = 0; k < static_cast<int>(dataset_.scenes.size()); ++k)
          if (ImGui::Selectable(dataset_.scenes[static_cast<std::size_t>(k)].name.c_str(), k == scene_) && k != scene_)
            load_scene(dataset_, k, dataset_.scenes[static_cast<std::size_t>(k)].name);  // the current pair stays meanwhile
        ImGui::EndCombo();
      }
      ImGui::SameLine();
      ImGui::TextDisabled("%d of %zu", scene_ + 1, dataset_.scenes.size());
    }
    error_line(open_error_);
    loader_.draw();  // a folder loading: its stage and Cancel; a failed load's line
    return changed;
  }

  // A dropped folder whose files make a stereo layout comes here (ViewerApp picks by kind).
  bool opens_folders() const override { return true; }
  const eval::Truth* eval_truth() const override { return data_->gt.empty() ? nullptr : &truth_eval_; }

  const gl::GlTextureSurface* input_texture(const std::string& output) const override {
    if (output == "left") return left_.get();
    if (output == "right") return right_.get();
    if (output == "truth") return data_->gt.empty() ? nullptr : truth_.get();
    return nullptr;
  }

  void open_startup(const ViewerOptions& options) override {
    gt_scale_ = options.gt_scale;  // also for folders opened later from the panel
    layout_ = options.stereo_layout;
    if (options.stereo.empty()) return;
    // --frame picks the scene of the command line's folder only (a folder opened later
    // from the panel or dropped opens its first scene). Read on the loader; the bundled pair
    // stays meanwhile and when it fails.
    const std::string folder = options.stereo, layout = layout_, frame = options.frame;
    const double gt_scale = gt_scale_;
    loader_.start("stereo folder '" + folder + "'", [this, folder, layout, frame, gt_scale]() -> DataLoader::Apply {
      std::shared_ptr<Opened> o;
      try {
        o = std::make_shared<Opened>(read_folder(folder, layout, frame, gt_scale));
      } catch (const Cancelled&) {
        throw;
      } catch (const std::exception& e) {
        throw Error(std::string("cannot open the stereo pair: ") + e.what() + " (showing the bundled one)");
      }
      return [this, o](DataRequest& req) {
        req.replaced = false;  // the start-up fits the panes itself
        try {
          apply(std::move(*o));
        } catch (const std::exception& e) {
          throw Error(std::string("cannot open the stereo pair: ") + e.what() + " (showing the bundled one)");
        }
      };
    });
  }
  // Off the UI thread (data_loader.hpp); all-or-nothing: a failure leaves the current pair. A
  // folder of several scenes (a KITTI training folder, a Middlebury collection) opens its first.
  void open_path(const std::string& folder) override {
    const std::string layout = layout_;
    const double gt_scale = gt_scale_;
    loader_.start("stereo folder '" + folder + "'", [this, folder, layout, gt_scale]() -> DataLoader::Apply {
      auto o = std::make_shared<Opened>(read_folder(folder, layout, "", gt_scale));
      return [this, o](DataRequest&) { apply(std::move(*o)); };
    });
  }

 private:
  // A pair read off the UI thread, with its data set (the panel's scene list).
  struct Opened {
    stereo::StereoScene scene;
    eval::Truth truth;
    dataset::Dataset ds;
    int k = 0;
  };

  // Scene k of a data set (any thread: touches no member).
  static Opened read_scene(const dataset::Dataset& ds, int k, double gt_scale) {
    const dataset::SceneRef& ref = ds.scenes.at(static_cast<std::size_t>(k));
    report_progress(-1.0, "reading " + ref.name);
    dataset::OpenedScene o = dataset::open_scene(ref, gt_scale);
    LB_REQUIRE(o.data != nullptr, "'" + ref.path + "': the scene did not open");
    const StereoData& d = data_as<StereoData>(*o.data, DataKind::StereoPair);
    Opened r;
    r.scene.pair = d.pair;
    r.scene.gt = d.gt;
    r.scene.suggested_ndisp = d.ndisp_hint;
    if (r.scene.pair.name.empty() || ds.scenes.size() > 1) r.scene.pair.name = ref.name;
    r.truth = std::move(o.truth);
    r.ds = ds;
    r.k = k;
    return r;
  }
  // A folder's scene `frame` ("": the first), any thread.
  static Opened read_folder(const std::string& folder, const std::string& layout, const std::string& frame,
                            double gt_scale) {
    report_progress(-1.0, "detecting the layout");
    const dataset::Dataset ds = dataset::open_dataset(folder, layout);
    LB_REQUIRE(dataset::data_kind(ds.layout) == DataKind::StereoPair,
               "'" + folder + "' is a " + dataset::to_string(ds.layout) + " data set, not a stereo pair");
    const dataset::SceneRef& ref = frame.empty() ? ds.scenes.front() : dataset::select_scene(ds, frame);
    throw_if_cancelled();
    return read_scene(ds, static_cast<int>(&ref - ds.scenes.data()), gt_scale);
  }
  // Scene k of the data set shown, off the UI thread (the panel's scene combo).
  void load_scene(const dataset::Dataset& ds, int k, const std::string& name) {
    const double gt_scale = gt_scale_;
    loader_.start("scene '" + name + "'", [this, ds, k, gt_scale]() -> DataLoader::Apply {
      auto o = std::make_shared<Opened>(read_scene(ds, k, gt_scale));
      return [this, o](DataRequest&) { apply(std::move(*o)); };
    });
  }
  // UI thread: the pair read (all-or-nothing); the data set is kept for the scene list.
  void apply(Opened o) {
    install(std::move(o.scene), o.truth);
    dataset_ = std::move(o.ds);
    scene_ = o.k;
    open_error_.clear();
  }

  // truth: the scene's with its protocol; none: the 2001-2006 protocol on the pair's truth.
  void install(stereo::StereoScene s, const std::optional<eval::Truth>& truth = std::nullopt) {
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
    if (truth) {
      truth_eval_ = *truth;
    } else {
      truth_eval_ = eval::Truth{};
      truth_eval_.protocol = eval::Protocol::Middlebury2003;
      truth_eval_.stereo = data->gt;
    }
    data_ = std::move(data);
    left_ = std::move(l);
    right_ = std::move(r);
    truth_ = std::move(t);
  }

  std::shared_ptr<const StereoData> data_;
  std::unique_ptr<gl::GlTextureSurface> left_, right_, truth_;
  std::string path_field_, open_error_;
  double gt_scale_ = 0;  // --gt-scale (0: the published scale of the folder's name)
  std::string layout_ = "auto";  // --layout
  eval::Truth truth_eval_;       // the truth as eval::evaluate scores it
  dataset::Dataset dataset_;     // the folder's scenes (empty: the bundled pair)
  int scene_ = 0;                // the one shown
};

}  // namespace

std::unique_ptr<DataSection> make_stereo_section() { return std::make_unique<StereoSection>(); }

}  // namespace lb::viewer
