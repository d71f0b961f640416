// An image pair (reference + distorted) for the algorithms that compare two images (MAD, the
// example absdiff): loaded (--ref / --dist, or the panel), generated live from the reference
// (Gaussian blur, white noise, JPEG quality, contrast, each with a strength), or taken from
// another algorithm's panes ("compare the panes": A the reference, B the distorted image).
// The bundled reference is the CPU render of the bundled plenoptic scene.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <sstream>

#include "data_section.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/distort.hpp"
#include "lightbench/error.hpp"
#include "lightbench/progress.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/plenoptic_views.hpp"
#include "options.hpp"
#include "param_widgets.hpp"

namespace lb::viewer {
namespace {

const char* kDistortions[] = {"none (as loaded)", "Gaussian blur", "white noise", "JPEG", "contrast"};
const char* kStrengthHelp[] = {"", "blur sigma (pixels)", "noise standard deviation (gray levels)",
                               "100 - JPEG quality", "contrast reduction (0..1)"};
const double kStrengthMax[] = {1.0, 8.0, 64.0, 99.0, 1.0};

class ImagePairSection final : public DataSection {
 public:
  ImagePairSection() {
    const GeneratedScene s = generate_scene(bundled_mad_reference());  // assets/mad/default_distortion.json
    const RenderParams p = default_render_params(s.params.grid);
    set_images(render_plenoptic_view(s.raw, s.params.grid, p), ImageU8{}, "render of the bundled plenoptic scene");
  }
  DataKind kind() const override { return DataKind::ImagePair; }
  std::shared_ptr<const AlgorithmData> data() const override { return data_; }

  // A new distortion is a new pair: the spec's parameters (MAD's 8-bit switch) stay.
  bool keeps_params() const override { return true; }
  bool draw(PanelParams&) override {
    bool changed = false;
    ImGui::TextWrapped("reference: %s", source_.c_str());
    ImGui::TextDisabled("%d x %d", reference_.width, reference_.height);
    ImGui::SetNextItemWidth(-1);
    ImGui::InputTextWithHint("##pairref", "reference image path", &ref_field_);
    ImGui::SetNextItemWidth(-60);
    ImGui::InputTextWithHint("##pairdist", "distorted image path (empty: generate)", &dist_field_);
    ImGui::SameLine();
    if (ImGui::Button("Open##pair") && !ref_field_.empty()) load(ref_field_, dist_field_);  // the pair stays meanwhile
    if (ImGui::SmallButton("compare the panes of another algorithm")) compare_requested_ = true;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Switch to another algorithm, set its panes (e.g. A: view on the CPU,\n"
                        "B: view on CUDA NoSync), come back and click: A becomes the reference,\n"
                        "B the distorted image.");
    error_line(open_error_);
    loader_.draw();  // the images loading: Cancel; a failed load's line
    ImGui::SetNextItemWidth(180);
    if (ImGui::Combo("distortion", &distortion_, kDistortions, 5)) {
      strength_ = std::min(strength_, static_cast<float>(kStrengthMax[distortion_]));
      changed = true;
    }
    using K = ParamInfo::Kind;
    const int d = std::clamp(distortion_, 0, 4);
    changed |= param_sliders({{"strength", "strength", kStrengthHelp[d], K::Float, &strength_, 0.0, kStrengthMax[d]},
                              {"seed", "noise seed", "seed of the white noise", K::Int, &seed_, 1, 1000}});
    if (changed) {
      try {
        refresh_distorted();
      } catch (const std::exception& e) {
        open_error_ = e.what();
      }
    }
    return changed;
  }

  const gl::GlTextureSurface* input_texture(const std::string& output) const override {
    if (output == "reference") return ref_tex_.get();
    if (output == "distorted") return dist_tex_.get();
    return nullptr;
  }

  // --iqa DIR [--frame NAME] or --ref [--dist]: read on the loader (the bundled pair stays
  // meanwhile, and when it fails: one line says why).
  void open_startup(const ViewerOptions& options) override {
    if (options.iqa.empty() && options.ref.empty()) {
      LB_REQUIRE(options.dist.empty(), "--dist needs --ref");
      return;
    }
    const bool iqa = !options.iqa.empty();
    const std::string dir = options.iqa, frame = options.frame, ref = options.ref, dist = options.dist;
    const std::string what = iqa ? "the IQA database" : "the image pair";
    const std::string bundled = iqa ? "the bundled pair" : "the bundled one";
    loader_.start(iqa ? "IQA database '" + dir + "'" : "image pair '" + ref + "'",
                  [this, iqa, dir, frame, ref, dist, what, bundled]() -> DataLoader::Apply {
                    std::shared_ptr<Read> r;
                    try {
                      r = std::make_shared<Read>(iqa ? read_iqa(dir, frame) : read(ref, dist));
                    } catch (const Cancelled&) {
                      throw;
                    } catch (const std::exception& e) {
                      throw Error("cannot open " + what + ": " + e.what() + " (showing " + bundled + ")");
                    }
                    return [this, r, what, bundled](DataRequest& req) {
                      req.replaced = false;  // the start-up fits the panes itself
                      try {
                        set_images(r->reference, r->distorted, r->source, r->reference_origin, r->distorted_origin);
                      } catch (const std::exception& e) {
                        throw Error("cannot open " + what + ": " + e.what() + " (showing " + bundled + ")");
                      }
                    };
                  });
  }

  bool take_compare_request() override {
    const bool r = compare_requested_;
    compare_requested_ = false;
    return r;
  }
  // A pair made elsewhere: the images other algorithms' panes showed ("compare the panes": A
  // the reference, B the distorted image). All-or-nothing.
  void take_data(const std::shared_ptr<const AlgorithmData>& data) override {
    LB_REQUIRE(data != nullptr, "the image-pair section takes an image pair");
    const ImagePairData& d = data_as<ImagePairData>(*data, DataKind::ImagePair);
    set_images(d.reference, d.distorted, d.source, d.reference_origin, d.distorted_origin);
    loader_.cancel();  // a pair loading meanwhile: the later action wins
  }
  nlohmann::json settings_json() const override {
    return {{"distortion", kDistortions[std::clamp(distortion_, 0, 4)]},
            {"strength", strength_},
            {"seed", seed_},
            {"pair", source_}};
  }

 private:
  // The reference and, when `distorted` is not empty, a fixed distorted image (else it is
  // generated from the reference). Same size; throws lb::Error and keeps the current pair.
  // The origins: the files and their depth (a 16-bit PNG converted to 8 bits), for the status line.
  void set_images(const ImageU8& reference, const ImageU8& distorted, const std::string& source,
                  const ImageOrigin& reference_origin = {}, const ImageOrigin& distorted_origin = {}) {
    LB_REQUIRE(!reference.empty(), "image pair: empty reference image");
    if (!distorted.empty())
      LB_REQUIRE(distorted.width == reference.width && distorted.height == reference.height,
                 "image pair: the images differ in size (" + std::to_string(reference.width) + "x" +
                     std::to_string(reference.height) + " vs " + std::to_string(distorted.width) + "x" +
                     std::to_string(distorted.height) + ")");
    auto rt = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
    rt->set_interop_enabled(false, "image-pair texture");
    rt->upload_host(to_rgba(reference));
    reference_ = reference;
    loaded_distorted_ = distorted;
    reference_origin_ = reference_origin;
    loaded_distorted_origin_ = distorted_origin;
    ref_tex_ = std::move(rt);
    source_ = source;
    distortion_ = distorted.empty() ? std::max(1, distortion_) : 0;
    distorted_key_.clear();
    refresh_distorted();
  }

  // Two files read (any thread: touches no member).
  struct Read {
    ImageU8 reference, distorted;
    ImageOrigin reference_origin, distorted_origin;  // 16-bit PNG: converted to 8 bits (v/257)
    std::string source;
  };
  static Read read(const std::string& reference_path, const std::string& distorted_path) {
    Read r;
    report_progress(0.0, "reference");
    r.reference = load_image_8bit(reference_path, &r.reference_origin);
    throw_if_cancelled();
    report_progress(0.5, "distorted image");
    if (!distorted_path.empty()) r.distorted = load_image_8bit(distorted_path, &r.distorted_origin);
    r.source = reference_path + (distorted_path.empty() ? "" : " vs " + distorted_path);
    return r;
  }
  // The panel's Open: read off the UI thread (data_loader.hpp), set on it.
  void load(const std::string& reference_path, const std::string& distorted_path) {
    loader_.start("image pair '" + reference_path + "'", [this, reference_path, distorted_path]() -> DataLoader::Apply {
      auto r = std::make_shared<Read>(read(reference_path, distorted_path));
      return [this, r](DataRequest&) {
        set_images(r->reference, r->distorted, r->source, r->reference_origin, r->distorted_origin);
        open_error_.clear();
      };
    });
  }

  // One pair of an IQA database (dataset.hpp: TID2013, KADID-10k), by the distorted image's
  // name ("" = the first); the source line carries its human score.
  static Read read_iqa(const std::string& dir, const std::string& name) {
    const dataset::Dataset ds = dataset::open_dataset(dir);
    LB_REQUIRE(dataset::data_kind(ds.layout) == DataKind::ImagePair,
               "'" + dir + "' is a " + std::string(dataset::to_string(ds.layout)) +
                   " data set, not an IQA database (TID2013, KADID-10k)");
    const dataset::SceneRef& s = name.empty() ? ds.scenes.front() : dataset::select_scene(ds, name);
    std::ostringstream src;
    src << s.name << " (" << dataset::to_string(ds.layout) << ", " << (ds.is_dmos ? "DMOS " : "MOS ") << s.mos
        << ", " << ds.scenes.size() << " pairs)";
    Read r;
    r.reference = load_image_8bit(s.reference, &r.reference_origin);
    r.distorted = load_image_8bit(s.path, &r.distorted_origin);
    r.source = src.str();
    return r;
  }

  // A new ImagePairData (a new id) whenever the distorted image changes.
  void refresh_distorted() {
    std::ostringstream k;
    k << std::hexfloat << distortion_ << ',' << strength_ << ',' << seed_ << ','
      << static_cast<const void*>(reference_.data.data()) << ',' << source_;
    if (k.str() == distorted_key_ && !distorted_.empty()) return;
    if (distortion_ == 0) {
      distorted_ = loaded_distorted_.empty() ? reference_ : loaded_distorted_;
    } else {
      const DistortKind kind = all_distort_kinds()[static_cast<std::size_t>(distortion_ - 1)];
      distorted_ = distort(reference_, kind, strength_, static_cast<std::uint64_t>(seed_));
    }
    if (!dist_tex_) {
      dist_tex_ = std::make_unique<gl::GlTextureSurface>(SurfaceFormat::RGBA8);
      dist_tex_->set_interop_enabled(false, "image-pair texture");
    }
    dist_tex_->upload_host(to_rgba(distorted_));
    distorted_key_ = k.str();
    auto data = std::make_shared<ImagePairData>();
    data->reference = reference_;
    data->distorted = distorted_;
    data->source = source_;
    // A distortion made here from the reference is no file (no origin).
    data->reference_origin = reference_origin_;
    if (distortion_ == 0) data->distorted_origin = loaded_distorted_.empty() ? reference_origin_ : loaded_distorted_origin_;
    data_ = std::move(data);
  }

  ImageU8 reference_, loaded_distorted_, distorted_;
  ImageOrigin reference_origin_, loaded_distorted_origin_;
  std::string source_;
  std::shared_ptr<const ImagePairData> data_;
  // Defaults: assets/mad/default_distortion.json.
  int distortion_ = 1 + static_cast<int>(bundled_distortion().kind);  // 0: none (loaded / pane image)
  float strength_ = bundled_distortion().strength;
  int seed_ = bundled_distortion().seed;
  std::string distorted_key_;
  std::unique_ptr<gl::GlTextureSurface> ref_tex_, dist_tex_;
  std::string ref_field_, dist_field_, open_error_;
  bool compare_requested_ = false;
};

}  // namespace

std::unique_ptr<DataSection> make_image_pair_section() { return std::make_unique<ImagePairSection>(); }

}  // namespace lb::viewer
