#include "py_data.hpp"

#include <algorithm>
#include <cmath>

#include "lightbench/assets.hpp"
#include "lightbench/calibrated_raw.hpp"
#include "lightbench/error.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/mla_geometry.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "lightbench/scene_file.hpp"
#include "lightbench/stereo_io.hpp"
#include "py_convert.hpp"

namespace lb::py {

const dataset::OpenedScene& Scene::opened() const {
  if (!opened_) opened_ = std::make_shared<dataset::OpenedScene>(dataset::open_scene(ref_, gt_scale_));
  return *opened_;
}

std::vector<std::string> input_names(DataKind kind) {
  switch (kind) {
    case DataKind::PlenopticScene: return {"raw", "pitch", "offset", "grid", "calib", "scene", "preset", "seed"};
    case DataKind::LightField: return {"views", "lf", "gt", "scene"};
    case DataKind::StereoPair: return {"left", "right", "gt", "gt_scale", "scene", "frame"};
    case DataKind::ImagePair: return {"ref", "dist", "scene"};
  }
  return {};
}

namespace {

// Takes kwargs[name] out (None: absent).
pyb::object take(pyb::dict& kw, const char* name) {
  if (!kw.contains(name)) return pyb::none();
  pyb::object v = kw[name];
  PyDict_DelItemString(kw.ptr(), name);
  return v;
}

std::string path_of(const pyb::object& o, const std::string& role) {
  std::string p;
  if (!as_path(o, &p)) throw Error(role + ": expected a path (str or os.PathLike)");
  return p;
}

std::pair<double, double> number_pair(const pyb::object& o, const std::string& role) {
  try {
    const auto t = o.cast<std::vector<double>>();
    if (t.size() == 2) return {t[0], t[1]};
  } catch (const pyb::cast_error&) {
  }
  throw Error(role + ": expected two numbers (x, y)");
}

// As the CLI reads a stereo image: RGBA -> RGB, gray + alpha -> gray.
ImageU8 stereo_image(const pyb::object& o, const std::string& role, ImageOrigin* origin) {
  ImageU8 img = image_u8(o, role, origin);
  if (img.channels == 4) img = to_rgb(img);
  if (img.channels == 2) {
    ImageU8 g(img.width, img.height, 1);
    for (std::size_t i = 0; i < g.pixels(); ++i) g.data[i] = img.data[2 * i];
    img = std::move(g);
  }
  return img;
}

void refuse_left(const pyb::dict& kw, const std::vector<std::string>& names, const std::string& why) {
  for (const auto& n : names)
    if (kw.contains(n.c_str())) throw Error(n + ": " + why);
}

OpenedInputs from_scene(const AlgorithmSpec& spec, const Scene& scene) {
  const dataset::OpenedScene& s = scene.opened();
  if (s.data->kind() != spec.data)
    throw Error("scene '" + scene.ref().name + "' is a " + to_string(s.data->kind()) + ", " + spec.id + " runs on a " +
                to_string(spec.data));
  OpenedInputs in;
  in.data = s.data;
  in.has_truth = s.has_truth;
  if (s.has_truth) in.truth = &s.truth;
  return in;
}

// A generated preset as the CLI makes it: its truth at the requested output patch size, else at
// the default patch size of the algorithm that runs on it (so its depth map is scored).
PlenopticScene preset_scene(const std::string& name, const pyb::object& seed_obj, int patch) {
  const std::optional<std::uint64_t> seed =
      seed_obj.is_none() ? std::nullopt : std::optional<std::uint64_t>(seed_obj.cast<std::uint64_t>());
  const auto hex = asset_names("plenoptic_hex");
  const bool is_hex = std::find(hex.begin(), hex.end(), name) != hex.end();
  if (is_hex) {
    HexGeneratorParams hp = hex_generator_preset(name, seed);
    hp.preview_patch = patch != -1 ? patch : default_truth_patch(hp);
    return to_scene(generate_hex_scene(hp), "preset " + name);
  }
  GeneratorParams gp = generator_preset(name, seed);
  gp.preview_patch = patch != -1 ? patch : default_truth_patch(gp);
  PlenopticScene s = to_scene(generate_scene(gp), "preset " + name);
  return s;
}

OpenedInputs plenoptic(pyb::dict& kw, int patch) {
  const pyb::object raw = take(kw, "raw"), calib = take(kw, "calib"), scene = take(kw, "scene"),
                    preset = take(kw, "preset"), seed = take(kw, "seed"), pitch = take(kw, "pitch"),
                    offset = take(kw, "offset"), grid = take(kw, "grid");
  const int given = (!raw.is_none()) + (!scene.is_none()) + (!preset.is_none());
  if (given != 1) throw Error("plenoptic data: give one of raw=, scene= (a scene .json) or preset=");
  auto d = std::make_shared<PlenopticData>();
  PlenopticScene& s = d->scene;
  if (!calib.is_none()) {
    if (raw.is_none()) throw Error("calib: needs raw= (the raw image it calibrates)");
    if (!pitch.is_none() || !offset.is_none() || !grid.is_none())
      throw Error("calib: the calibration is the whole grid (no pitch=, offset= or grid= with it)");
    const std::string cpath = path_of(calib, "calib");
    std::string rpath;
    if (as_path(raw, &rpath)) {
      s = load_calibrated_raw(rpath, cpath, CalibFit::Auto);
    } else {
      s = calibrated_scene(image_u8(raw, "raw", &s.raw_origin), load_raytrix_calibration(cpath), CalibFit::Auto,
                           "raw", cpath);
    }
  } else if (!scene.is_none()) {
    s = load_scene(path_of(scene, "scene"));
  } else if (!preset.is_none()) {
    s = preset_scene(preset.cast<std::string>(), seed, patch);
  } else {
    if (pitch.is_none()) throw Error("raw: needs pitch= (the micro-image pitch in pixels) or calib= (an XML path)");
    s.raw = image_u8(raw, "raw", &s.raw_origin);
    std::string rpath;
    s.source = as_path(raw, &rpath) ? rpath : "array";
    const double D = pitch.cast<double>();
    const auto [ox, oy] = offset.is_none() ? std::pair<double, double>{0, 0} : number_pair(offset, "offset");
    if (!std::isfinite(ox) || !std::isfinite(oy) || ox < 0 || oy < 0 || ox >= s.raw.width || oy >= s.raw.height)
      throw Error("offset: expected two finite numbers in 0..(raw size)");
    s.grid.pitch = D;
    s.grid.ox = ox;
    s.grid.oy = oy;
    if (grid.is_none()) {
      s.grid.nx = static_cast<int>(std::floor((s.raw.width - ox + 0.5) / D));
      s.grid.ny = static_cast<int>(std::floor((s.raw.height - oy + 0.5) / D));
    } else {
      const auto [gx, gy] = number_pair(grid, "grid");
      if (gx != std::floor(gx) || gy != std::floor(gy) || gx < 1 || gy < 1 || gx > 1e5 || gy > 1e5)
        throw Error("grid: expected two positive integers (nx, ny)");
      s.grid.nx = static_cast<int>(gx);
      s.grid.ny = static_cast<int>(gy);
    }
  }
  if (!s.mla) validate(s.grid, s.raw.width, s.raw.height);
  OpenedInputs in;
  in.has_truth = !s.truth.empty();
  in.data = d;
  return in;
}

OpenedInputs light_field(pyb::dict& kw) {
  // "views" is also CAE's angular window (a number): the input is the array.
  const bool views_array = kw.contains("views") &&
                           pyb::module_::import("numpy").attr("ndim")(kw["views"]).cast<int>() > 0;
  const pyb::object views = views_array ? take(kw, "views") : pyb::none(), lf = take(kw, "lf"), gt = take(kw, "gt");
  if (views.is_none() == lf.is_none()) throw Error("light field: give views= (a U x V x H x W x C array) or lf= (a folder)");
  auto d = std::make_shared<LightFieldData>();
  if (!lf.is_none()) {
    d->lf = load_lightfield(path_of(lf, "lf"));
  } else {
    const pyb::array a = pyb::array::ensure(views);
    if (!a || a.ndim() != 5)
      throw Error("views: expected a U x V x H x W x C array (5 dimensions)");
    const int nu = static_cast<int>(a.shape(0)), nv = static_cast<int>(a.shape(1));
    if (nu < 1 || nv < 1 || nu > 99 || nv > 99) throw Error("views: angular size out of 1..99");
    LightField4D& L = d->lf;
    L.nu = nu;
    L.nv = nv;
    L.layout = "memory";
    L.source = "array";
    pyb::object np = pyb::module_::import("numpy");
    for (int v = 0; v < nv; ++v)
      for (int u = 0; u < nu; ++u) {
        ImageU8 img = image_u8(np.attr("ascontiguousarray")(a[pyb::make_tuple(u, v)]), "views");
        if (img.channels == 4) img = to_rgb(img);
        if (img.channels == 1) {
          ImageU8 rgb(img.width, img.height, 3);
          for (std::size_t i = 0; i < img.pixels(); ++i) rgb.data[3 * i] = rgb.data[3 * i + 1] = rgb.data[3 * i + 2] = img.data[i];
          img = std::move(rgb);
        }
        if (img.channels != 3) throw Error("views: expected 1, 3 or 4 channels");
        L.width = img.width;
        L.height = img.height;
        L.views.push_back(std::move(img));
      }
  }
  if (!gt.is_none()) {
    ImageF g = image_f32(gt, "gt");
    if (g.width != d->lf.width || g.height != d->lf.height)
      throw Error("gt: " + std::to_string(g.width) + "x" + std::to_string(g.height) + ", the views are " +
                  std::to_string(d->lf.width) + "x" + std::to_string(d->lf.height));
    d->lf.gt = std::move(g);
  }
  validate(d->lf);
  OpenedInputs in;
  in.has_truth = d->lf.has_gt();
  in.own_truth.protocol = eval::Protocol::Hci;
  in.own_truth.stereo.disparity = d->lf.gt;
  in.data = d;
  return in;
}

OpenedInputs stereo_pair(pyb::dict& kw) {
  const pyb::object left = take(kw, "left"), right = take(kw, "right"), gt = take(kw, "gt"),
                    gt_scale = take(kw, "gt_scale"), scene = take(kw, "scene"), frame = take(kw, "frame");
  auto d = std::make_shared<StereoData>();
  OpenedInputs in;
  in.own_truth.protocol = eval::Protocol::Middlebury2003;
  if (!scene.is_none()) {
    if (!left.is_none() || !right.is_none()) throw Error("scene: excludes left= and right=");
    const std::string dir = path_of(scene, "scene");
    const dataset::Dataset ds = dataset::open_dataset(dir, "auto");
    if (dataset::data_kind(ds.layout) != DataKind::StereoPair)
      throw Error("scene '" + dir + "' is a " + dataset::to_string(ds.layout) + " data set, not a stereo pair");
    const std::string f = frame.is_none() ? "" : frame.cast<std::string>();
    if (f.empty() && ds.scenes.size() > 1)
      throw Error("scene '" + dir + "' holds " + std::to_string(ds.scenes.size()) + " scenes: pick one with frame=");
    const dataset::SceneRef& ref = f.empty() ? ds.scenes.front() : dataset::select_scene(ds, f);
    dataset::OpenedScene sc = dataset::open_scene(ref, gt_scale.is_none() ? 0.0 : gt_scale.cast<double>());
    const auto& sd = static_cast<const StereoData&>(*sc.data);
    d->pair = sd.pair;
    d->gt = sd.gt;
    d->ndisp_hint = sd.ndisp_hint;
    in.own_truth = sc.truth;
  } else {
    if (left.is_none() || right.is_none()) throw Error("stereo pair: give left= and right=, or scene= (a folder)");
    d->pair.left = stereo_image(left, "left", &d->pair.left_origin);
    d->pair.right = stereo_image(right, "right", &d->pair.right_origin);
    if (d->pair.left.width != d->pair.right.width || d->pair.left.height != d->pair.right.height)
      throw Error("stereo pair: left is " + std::to_string(d->pair.left.width) + "x" +
                  std::to_string(d->pair.left.height) + " but right is " + std::to_string(d->pair.right.width) + "x" +
                  std::to_string(d->pair.right.height) + " (the images must have the same size)");
    std::string lpath;
    d->pair.name = as_path(left, &lpath) ? lpath : "array";
    stereo::validate(d->pair);
    if (!gt.is_none()) {
      std::string gpath;
      if (as_path(gt, &gpath)) {
        d->gt.disparity = stereo::load_stereo_gt(gpath, gt_scale.is_none() ? 0.0 : gt_scale.cast<double>());
      } else {
        d->gt.disparity = image_f32(gt, "gt");
      }
      if (d->gt.disparity.width != d->pair.left.width || d->gt.disparity.height != d->pair.left.height)
        throw Error("gt: its size differs from the pair's");
      in.own_truth.stereo = d->gt;
    }
  }
  in.has_truth = !d->gt.empty();
  in.data = d;
  return in;
}

OpenedInputs image_pair(pyb::dict& kw) {
  const pyb::object ref = take(kw, "ref"), dist = take(kw, "dist");
  if (ref.is_none() || dist.is_none()) throw Error("image pair: give ref= and dist=");
  auto d = std::make_shared<ImagePairData>();
  d->reference = image_u8(ref, "ref", &d->reference_origin);
  d->distorted = image_u8(dist, "dist", &d->distorted_origin);
  std::string a = "array", b = "array";
  as_path(ref, &a);
  as_path(dist, &b);
  d->source = a + " vs " + b;
  OpenedInputs in;
  in.data = d;
  return in;
}

}  // namespace

OpenedInputs open_inputs(const AlgorithmSpec& spec, pyb::dict& kwargs, int patch) {
  if (kwargs.contains("scene") && pyb::isinstance<Scene>(kwargs["scene"])) {
    const Scene& s = kwargs["scene"].cast<const Scene&>();
    PyDict_DelItemString(kwargs.ptr(), "scene");
    refuse_left(kwargs, input_names(spec.data), "the scene gives the data");
    return from_scene(spec, s);
  }
  OpenedInputs in;
  switch (spec.data) {
    case DataKind::PlenopticScene: in = plenoptic(kwargs, patch); break;
    case DataKind::LightField: in = light_field(kwargs); break;
    case DataKind::StereoPair: in = stereo_pair(kwargs); break;
    case DataKind::ImagePair: in = image_pair(kwargs); break;
  }
  if (in.has_truth && !in.truth && spec.data != DataKind::PlenopticScene) in.truth = &in.own_truth;
  return in;
}

}  // namespace lb::py
