#include "data_openers.hpp"

#include <filesystem>

#include "cli_common.hpp"
#include "map_match.hpp"
#include "lightbench/calibrated_raw.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/memory_budget.hpp"
#include "lightbench/stereo_io.hpp"
#include "option_checks.hpp"
#include "plenoptic_options.hpp"

namespace lb::cli {

namespace {

class PlenopticOpener final : public DataOpener {
 public:
  void add_options(CLI::App& app) override { in_.add_input(app); }
  std::shared_ptr<const AlgorithmData> open(const ParamValues& given) override {
    auto d = std::make_shared<PlenopticData>();
    // A generated preset's ground truth at the requested output patch size, so a depth map
    // is scored.
    const auto patch = given.find("patch");
    d->scene = in_.load(patch != given.end() ? static_cast<int>(patch->second) : -1);
    scene_ = &d->scene;
    data_ = d;
    return d;
  }
  bool general_grid() const override { return in_.general_grid(); }
  void describe(nlohmann::json& p, nlohmann::json& r) const override {
    p["source"] = scene_->source;
    // A general grid's geometry (its placeholder grid means nothing); a calibration's fit.
    if (scene_->mla) p["geometry"] = mla_json(*scene_->mla);
    else p["grid"] = to_json(scene_->grid);
    if (!in_.calib_info().calib.empty()) p["calibration"] = calib_json(in_.calib_info());
    r["ground_truth"] = scene_->truth.empty() ? "none" : "truth at M=" + std::to_string(scene_->truth_patch);
  }

 private:
  PlenopticOptions in_;
  std::shared_ptr<const AlgorithmData> data_;
  const PlenopticScene* scene_ = nullptr;
};

class LightFieldOpener final : public DataOpener {
 public:
  void add_options(CLI::App& app) override {
    app.add_option("--lf", dir_, "light-field folder (HCI input_CamNNN.png, view_U_V.png or NNN.png)")->required();
    app.add_option("--grid", grid_, "numbered views only: angular grid UxV (default: square)");
    app.add_option("--gt", gt_, "ground-truth disparity (.pfm; default: the folder's, if any)");
  }
  std::shared_ptr<const AlgorithmData> open(const ParamValues&) override {
    // The views alone, from the folder's listing and one header, before they are decoded (the
    // runner checks its own buffers before it runs).
    if (const LightFieldHeader h = probe_lightfield_header(dir_); h.known)
      check_host_memory("light field", static_cast<std::uint64_t>(h.views) * u8_bytes(h.width, h.height, 4));
    progress("loading " + dir_ + " ...");
    auto d = std::make_shared<LightFieldData>();
    d->lf = load_lightfield(dir_, parse_lf_grid(grid_));
    gt_source_ = d->lf.has_gt() ? dir_ + " (folder)" : "";
    if (!gt_.empty()) {
      d->lf.gt = load_pfm(gt_);
      gt_source_ = gt_;
      LB_REQUIRE(d->lf.gt.channels == 1 && d->lf.gt.width == d->lf.width && d->lf.gt.height == d->lf.height,
                 "--gt '" + gt_ + "': expected a " + std::to_string(d->lf.width) + "x" +
                     std::to_string(d->lf.height) + " single-channel PFM");
    }
    progress_done();
    lf_ = &d->lf;
    data_ = d;
    truth_ = eval::Truth{};
    truth_.protocol = eval::Protocol::Hci;
    truth_.stereo.disparity = d->lf.gt;  // the border: the run's `border` (driver.cpp)
    return d;
  }
  const eval::Truth* truth() const override { return lf_ && lf_->has_gt() ? &truth_ : nullptr; }
  void describe(nlohmann::json& p, nlohmann::json& r) const override {
    p["lf"] = dir_;
    p["layout"] = lf_->layout;
    p["grid"] = {lf_->nu, lf_->nv};
    p["size"] = {lf_->width, lf_->height};
    r["ground_truth"] = gt_source_.empty() ? "none" : gt_source_;
  }

 private:
  std::string dir_, grid_, gt_, gt_source_;
  std::shared_ptr<const AlgorithmData> data_;
  const LightField4D* lf_ = nullptr;
  eval::Truth truth_;
};

class StereoOpener final : public DataOpener {
 public:
  void add_options(CLI::App& app) override {
    app.add_option("--left", left_, "left image (the reference view)");
    app.add_option("--right", right_, "right image");
    app.add_option("--scene", scene_,
                   "stereo folder: Middlebury 2001-2006 (imL/imR or view1/view5, groundtruth.png or disp1.png, "
                   "mask_*.png) or 2014/2021/MiddEval3 (im0/im1, calib.txt, disp0GT.pfm, mask0nocc.png)");
    app.add_option("--layout", layout_, "--scene's layout: auto (from the files present), middlebury2001 (2001-2006), middlebury2014 "
                   "(2014, 2021, MiddEval3), kitti");
    app.add_option("--frame", frame_, "--scene holding several scenes (a KITTI training folder, a folder of scenes): "
                   "the one to open (000000_10, or 000000)");
    app.add_option("--gt", gt_, "ground-truth disparity (8-bit image with --gt-scale, or .pfm)");
    app.add_option("--gt-scale", gt_scale_, "ground truth value per disparity (tsukuba 16, venus 8)")
        ->check(real_in(1e-6, 1e6));
    app.add_option("--mask-nonocc", mask_nonocc_, "mask of non-occluded pixels (255 = counted)");
    app.add_option("--mask-all", mask_all_, "mask of evaluated pixels (255 = counted)");
    app.add_option("--mask-disc", mask_disc_, "mask of pixels near discontinuities (255 = counted)");
  }
  std::shared_ptr<const AlgorithmData> open(const ParamValues&) override {
    if (scene_.empty() && (left_.empty() || right_.empty())) throw Error("give --left and --right, or --scene DIR");
    if (!scene_.empty() && (!left_.empty() || !right_.empty()))
      throw Error("--scene and --left/--right exclude each other");
    if (!frame_.empty() && scene_.empty()) throw Error("--frame needs --scene DIR");
    const bool forced = dataset::parse_layout(layout_, nullptr);  // a bad name: its one-line error
    if (forced && scene_.empty()) throw Error("--layout needs --scene DIR");
    progress("stereo: loading ...");
    auto d = std::make_shared<StereoData>();
    double scale = gt_scale_;
    eval::Protocol protocol = eval::Protocol::Middlebury2003;  // --gt: bad > 1 over the masks given
    if (!scene_.empty()) {
      const dataset::Dataset ds = dataset::open_dataset(scene_, layout_);
      if (dataset::data_kind(ds.layout) != DataKind::StereoPair)
        throw Error("--scene '" + scene_ + "' is a " + dataset::to_string(ds.layout) + " data set, not a stereo pair");
      if (frame_.empty() && ds.scenes.size() > 1) {
        std::string some;
        for (std::size_t i = 0; i < ds.scenes.size() && i < 4; ++i) some += (i ? ", " : "") + ds.scenes[i].name;
        throw Error("--scene '" + scene_ + "' holds " + std::to_string(ds.scenes.size()) + " scenes (" + some +
                    (ds.scenes.size() > 4 ? ", ..." : "") + "): pick one with --frame NAME");
      }
      const dataset::SceneRef& ref = frame_.empty() ? ds.scenes.front() : find_scene(ds, frame_);
      dataset::OpenedScene sc = dataset::open_scene(ref, gt_scale_);
      const auto& sd = static_cast<const StereoData&>(*sc.data);
      layout_used_ = dataset::to_string(ref.layout);
      frame_used_ = ref.name;
      d->pair = sd.pair;
      d->gt = sd.gt;
      d->ndisp_hint = sd.ndisp_hint;
      protocol = sc.truth.protocol;
      truth_.obj_map = sc.truth.obj_map;
      // KITTI: the truth is disp_occ, its noc mask from disp_noc (eval::Truth); the runner
      // scores the same maps.
      if (!d->gt.empty()) gt_source_ = sc.truth_path;
    } else {
      d->pair = stereo::load_stereo_pair(left_, right_);
    }
    const int w = d->pair.left.width, h = d->pair.left.height;
    if (!gt_.empty()) {
      d->gt.disparity = stereo::load_stereo_gt(gt_, scale);
      gt_source_ = gt_;
      LB_REQUIRE(d->gt.disparity.width == w && d->gt.disparity.height == h,
                 "--gt '" + gt_ + "' is " + std::to_string(d->gt.disparity.width) + "x" +
                     std::to_string(d->gt.disparity.height) + ", the pair is " + std::to_string(w) + "x" +
                     std::to_string(h));
    }
    if (!mask_nonocc_.empty()) d->gt.mask_nonocc = stereo::load_stereo_mask(mask_nonocc_, w, h);
    if (!mask_all_.empty()) d->gt.mask_all = stereo::load_stereo_mask(mask_all_, w, h);
    if (!mask_disc_.empty()) d->gt.mask_disc = stereo::load_stereo_mask(mask_disc_, w, h);
    if (d->gt.empty() && (!d->gt.mask_nonocc.empty() || !d->gt.mask_all.empty() || !d->gt.mask_disc.empty()))
      throw Error("masks given without ground truth (--gt)");
    if (!d->gt.empty()) {
      try {
        stereo::require_scorable(d->gt);
      } catch (const Error& e) {
        throw Error((gt_source_.empty() ? std::string("ground truth") : "'" + gt_source_ + "'") + ": " + e.what());
      }
    }
    progress_done();
    size_ = {w, h};
    truth_.protocol = protocol;
    truth_.stereo = d->gt;
    has_truth_ = !d->gt.empty();
    return d;
  }
  const eval::Truth* truth() const override { return has_truth_ ? &truth_ : nullptr; }
  void describe(nlohmann::json& p, nlohmann::json& r) const override {
    p["left"] = left_;
    p["right"] = right_;
    p["scene"] = scene_;
    if (!layout_used_.empty()) p["layout"] = layout_used_;
    if (!frame_used_.empty()) p["frame"] = frame_used_;
    p["size"] = size_;
    r["ground_truth"] = gt_source_.empty() ? "none" : gt_source_;
  }

 private:
  std::string layout_ = "auto", layout_used_, frame_, frame_used_;
  eval::Truth truth_;
  bool has_truth_ = false;
  std::string left_, right_, scene_, gt_, mask_nonocc_, mask_all_, mask_disc_, gt_source_;
  double gt_scale_ = 0;
  nlohmann::json size_;
};

class ImagePairOpener final : public DataOpener {
 public:
  void add_options(CLI::App& app) override {
    app.add_option("--ref", ref_, "reference image (PNG, BMP, JPG, PGM/PPM)")->required();
    app.add_option("--dist", dist_, "distorted image, same size")->required();
  }
  std::shared_ptr<const AlgorithmData> open(const ParamValues&) override {
    auto d = std::make_shared<ImagePairData>();
    d->reference = load(ref_, "--ref", &d->reference_origin);
    d->distorted = load(dist_, "--dist", &d->distorted_origin);
    d->source = ref_ + " vs " + dist_;
    size_ = {d->reference.width, d->reference.height};
    return d;
  }
  void describe(nlohmann::json& p, nlohmann::json& r) const override {
    p["ref"] = ref_;
    p["dist"] = dist_;
    p["size"] = size_;
    r["ground_truth"] = "none";
  }

 private:
  // 8-bit values: a 16-bit PNG is converted (v/257) and *origin says so (the report's inputs).
  static ImageU8 load(const std::string& path, const std::string& what, ImageOrigin* origin) {
    if (!std::filesystem::exists(path)) throw Error(what + " '" + path + "': file not found");
    return load_image_8bit(path, origin);  // names the file when it cannot decode it
  }
  std::string ref_, dist_;
  nlohmann::json size_;
};

}  // namespace

std::unique_ptr<DataOpener> make_opener(DataKind kind) {
  switch (kind) {
    case DataKind::PlenopticScene: return std::make_unique<PlenopticOpener>();
    case DataKind::LightField: return std::make_unique<LightFieldOpener>();
    case DataKind::StereoPair: return std::make_unique<StereoOpener>();
    case DataKind::ImagePair: return std::make_unique<ImagePairOpener>();
  }
  throw Error(std::string("no opener for data kind ") + to_string(kind));
}

}  // namespace lb::cli
