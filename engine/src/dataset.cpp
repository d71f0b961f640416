// Data sets (dataset.hpp): the layout of a folder detected from the files present, a folder
// of scene folders, select_scene, and open_scene (a scene as algorithm data and its truth).
// KITTI frames: dataset_kitti.cpp; IQA databases: dataset_iqa.cpp.
#include "lightbench/dataset.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "dataset_internal.hpp"
#include "lightbench/error.hpp"
#include "lightbench/hci_metrics.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/input_file.hpp"
#include "lightbench/lightfield.hpp"

namespace lb::dataset {

namespace fs = std::filesystem;
using namespace detail;

std::string detail::lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string detail::trim(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool detail::parse_finite(const std::string& v, double* out) {
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(v, &used);
  } catch (const std::exception&) {
    return false;
  }
  while (used < v.size() && std::isspace(static_cast<unsigned char>(v[used]))) ++used;
  if (used == 0 || used != v.size() || !std::isfinite(x)) return false;
  *out = x;
  return true;
}

// The non-throwing forms: a folder that cannot be read is "not there", never a
// std::filesystem_error escaping as something other than lb::Error.
bool detail::is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}
bool detail::is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

std::map<std::string, std::string> detail::list_lower(const fs::path& dir, bool want_dirs) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    const bool folder = it->is_directory(e2);
    if (e2 || folder != want_dirs || (!want_dirs && !it->is_regular_file(e2))) continue;
    const std::string name = it->path().filename().string();
    const auto [pos, fresh] = out.emplace(lower(name), name);
    if (!fresh && name < pos->second) pos->second = name;  // the same pick whatever the order
  }
  return out;
}

std::string detail::read_text_file(const fs::path& p, const std::string& what, std::uintmax_t max_bytes) {
  return lb::read_text_file(p.string(), what, TextLimit{max_bytes, kScoreListLimit.applies_to});
}

const char* to_string(Layout l) {
  switch (l) {
    case Layout::Middlebury2001: return "middlebury2001";
    case Layout::Middlebury2014: return "middlebury2014";
    case Layout::Kitti: return "kitti";
    case Layout::Hci: return "hci";
    case Layout::Tid2013: return "tid2013";
    case Layout::Kadid10k: return "kadid10k";
  }
  return "?";
}

bool parse_layout(const std::string& name, Layout* out) {
  const std::string n = lower(name);
  if (n.empty() || n == "auto") return false;
  Layout l;
  if (n == "kitti" || n == "kitti2012" || n == "kitti2015") l = Layout::Kitti;
  else if (n == "hci" || n == "hci4d") l = Layout::Hci;
  else if (n == "tid2013" || n == "tid") l = Layout::Tid2013;
  else if (n == "kadid10k" || n == "kadid-10k" || n == "kadid") l = Layout::Kadid10k;
  else {
    stereo::StereoLayout s = stereo::StereoLayout::Auto;
    try {
      s = stereo::parse_stereo_layout(n);
    } catch (const Error&) {
      throw Error("--layout " + quote_untrusted(name) + ": use auto, middlebury2001 (2001-2006), middlebury2014 (2014, 2021, "
                  "MiddEval3), kitti (2012, 2015), hci, tid2013 or kadid10k");
    }
    l = s == stereo::StereoLayout::Middlebury2014 ? Layout::Middlebury2014 : Layout::Middlebury2001;
  }
  if (out) *out = l;
  return true;
}

DataKind data_kind(Layout l) {
  switch (l) {
    case Layout::Hci: return DataKind::LightField;
    case Layout::Tid2013:
    case Layout::Kadid10k: return DataKind::ImagePair;
    default: return DataKind::StereoPair;
  }
}

namespace {

// What in a folder shows a layout: the layout and the file or folder that shows it.
struct Found {
  Layout layout;
  std::string example;
};

bool is_scene_layout(Layout l) {
  return l == Layout::Middlebury2001 || l == Layout::Middlebury2014 || l == Layout::Hci;
}

// Every layout whose marker files are in dir (exact published names for the stereo pairs,
// as load_stereo_scene reads them; light fields as load_lightfield's, ignoring case).
std::vector<Found> detect(const fs::path& dir) {
  std::vector<Found> out;
  const auto files = list_lower(dir, false), dirs = list_lower(dir, true);
  auto exact = [&](const std::string& n) { return is_file(dir / n); };
  for (const char* stem : {"imL", "imR", "view1", "view5", "im2", "im6"}) {
    const std::string s(stem);
    for (const char* ext : {".png", ".ppm", ".pgm"})
      if (out.empty() && exact(s + ext)) out.push_back({Layout::Middlebury2001, s + ext});
  }
  for (const char* n : {"im0.png", "im1.png"})
    if (exact(n)) {
      out.push_back({Layout::Middlebury2014, n});
      break;
    }
  static const std::regex hci_view(R"((input_cam0+|view_0+_0+)\.(png|jpg|jpeg|bmp|ppm))");
  for (const auto& [low, name] : files)
    if (low == "parameters.cfg" || std::regex_match(low, hci_view)) {
      out.push_back({Layout::Hci, name});
      break;
    }
  if (looks_like_kitti(dir)) {
    for (const char* n : {"image_0", "image_1", "image_2", "image_3"})
      if (dirs.count(n)) {
        out.push_back({Layout::Kitti, dirs.at(n) + "/"});
        break;
      }
  } else if (dirs.count("training") && looks_like_kitti(dir / dirs.at("training")))
    out.push_back({Layout::Kitti, dirs.at("training") + "/"});
  if (files.count("mos_with_names.txt")) out.push_back({Layout::Tid2013, files.at("mos_with_names.txt")});
  else if (dirs.count("distorted_images")) out.push_back({Layout::Tid2013, dirs.at("distorted_images") + "/"});
  if (files.count("dmos.csv")) out.push_back({Layout::Kadid10k, files.at("dmos.csv")});
  return out;
}

// Whether dir holds a scene of layout l (for --layout): its marker files, or for a light
// field any image at all (a numbered view grid).
bool holds(const fs::path& dir, Layout l) {
  for (const auto& f : detect(dir))
    if (f.layout == l) return true;
  if (l != Layout::Hci) return false;
  static const std::regex image(R"(.*\.(png|jpg|jpeg|bmp|ppm))");
  for (const auto& [low, name] : list_lower(dir, false))
    if (std::regex_match(low, image)) return true;
  return false;
}

// A KITTI training folder: dir itself or its training/ (the unpacked archive's parent).
std::string kitti_training(const fs::path& dir) {
  if (looks_like_kitti(dir)) return dir.string();
  const auto dirs = list_lower(dir, true);
  if (dirs.count("training") && looks_like_kitti(dir / dirs.at("training"))) return (dir / dirs.at("training")).string();
  return "";
}

Dataset kitti_dataset(const std::string& training) {
  Dataset ds;
  ds.root = training;
  ds.layout = Layout::Kitti;
  for (const auto& f : kitti_frames(training)) ds.scenes.push_back({f, training, Layout::Kitti, "", 0});
  return ds;
}

fs::path absolute_path(const fs::path& p) {
  std::error_code ec;
  const fs::path a = fs::absolute(p, ec);
  return ec ? p : a;
}

SceneRef scene_ref(const fs::path& dir, Layout l) {
  std::string name = dir.filename().string();
  if (name.empty() || name == ".") name = absolute_path(dir).lexically_normal().parent_path().filename().string();
  return {name, dir.string(), l, "", 0};
}

const char* kExpected =
    "expected a scene folder (imL.png + imR.png or view1.png + view5.png: Middlebury 2001-2006; im0.png + im1.png + "
    "calib.txt: Middlebury 2014; input_Cam000.png / view_0_0.png / parameters.cfg: an HCI light field), a folder of "
    "such scene folders, a KITTI training folder (image_0 + image_1 or image_2 + image_3, disp_occ), a TID2013 "
    "folder (mos_with_names.txt) or a KADID-10k folder (dmos.csv)";

// The sub-folders of dir, sorted by name.
std::vector<fs::path> sub_folders(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& [low, name] : list_lower(dir, true)) out.push_back(dir / name);
  std::sort(out.begin(), out.end());
  return out;
}

Dataset open_forced(const fs::path& dir, Layout l) {
  if (l == Layout::Tid2013 || l == Layout::Kadid10k) return open_iqa_database(dir.string(), l);
  if (l == Layout::Kitti) {
    const std::string t = kitti_training(dir);
    LB_REQUIRE(!t.empty(), "'" + dir.string() +
                               "' is not a KITTI training folder (expected image_0 + image_1 or image_2 + image_3, "
                               "disp_occ / disp_noc, here or in training/)");
    return kitti_dataset(t);
  }
  Dataset ds;
  ds.root = dir.string();
  ds.layout = l;
  if (holds(dir, l)) {
    ds.scenes.push_back(scene_ref(dir, l));
    return ds;
  }
  for (const auto& sub : sub_folders(dir))
    if (holds(sub, l)) ds.scenes.push_back(scene_ref(sub, l));
  LB_REQUIRE(!ds.scenes.empty(), "'" + dir.string() + "': no " + to_string(l) +
                                     " scene here or in its sub-folders (" + kExpected + ")");
  return ds;
}

}  // namespace

Dataset open_dataset(const std::string& dir_s, const std::string& force) {
  Layout forced;
  const bool is_forced = parse_layout(force, &forced);
  const fs::path dir(dir_s);
  LB_REQUIRE(is_dir(dir), "data set '" + dir_s + "': no such folder");
  if (is_forced) return open_forced(dir, forced);

  auto ambiguous = [](const fs::path& d, const std::vector<Found>& f) {
    return Error(quote_untrusted(d.string(), 300) + " holds both " + escape_untrusted(f[0].example) + " (" +
                 to_string(f[0].layout) + ") and " + escape_untrusted(f[1].example) + " (" + to_string(f[1].layout) +
                 "); choose one with --layout");
  };
  const std::vector<Found> here = detect(dir);
  if (here.size() > 1) throw ambiguous(dir, here);
  if (here.size() == 1) return open_forced(dir, here[0].layout);

  // A folder of scene folders, all of one layout; folders with nothing recognisable skipped.
  Dataset ds;
  ds.root = dir_s;
  std::string first_name;
  for (const auto& sub : sub_folders(dir)) {
    const std::vector<Found> f = detect(sub);
    if (f.empty()) continue;
    if (f.size() > 1) throw ambiguous(sub, f);
    const Layout l = f[0].layout;
    LB_REQUIRE(is_scene_layout(l), quote_untrusted(dir_s, 300) + ": its sub-folder " + quote_untrusted(sub.filename().string()) +
                                       " is a " + to_string(l) + " data set, not a scene; open " +
                                       quote_untrusted(sub.string(), 300) + " itself");
    if (ds.scenes.empty()) {
      ds.layout = l;
      first_name = sub.filename().string();
    }
    LB_REQUIRE(l == ds.layout, quote_untrusted(dir_s, 300) + " mixes layouts: " + quote_untrusted(first_name) + " is " +
                                   to_string(ds.layout) + ", " + quote_untrusted(sub.filename().string()) + " is " + to_string(l) +
                                   "; a collection holds scenes of one layout (pick one with --layout)");
    ds.scenes.push_back(scene_ref(sub, l));
  }
  LB_REQUIRE(!ds.scenes.empty(), "data set '" + dir_s + "': nothing recognisable (" + kExpected + ")");
  return ds;
}

const SceneRef& select_scene(const Dataset& ds, const std::string& name) {
  for (const auto& s : ds.scenes)
    if (s.name == name) return s;
  const SceneRef* hit = nullptr;
  int hits = 0;
  for (const auto& s : ds.scenes)
    if (lower(s.name) == lower(name)) hit = &s, ++hits;
  if (hits == 1) return *hit;
  std::string list;
  for (std::size_t i = 0; i < ds.scenes.size() && i < 5; ++i) list += (i ? ", " : "") + escape_untrusted(ds.scenes[i].name);
  if (ds.scenes.size() > 5) list += ", ...";
  throw Error("no scene " + quote_untrusted(name) + " in " + quote_untrusted(ds.root, 300) + " (" + std::to_string(ds.scenes.size()) + " " +
              to_string(ds.layout) + " scene" + (ds.scenes.size() == 1 ? "" : "s") + ": " + list + ")");
}

namespace {

// An IQA image as 8-bit grey or RGB (alpha dropped), as the image-pair algorithms take it;
// a 16-bit PNG is converted (v/257) and *origin says so.
ImageU8 iqa_image(const std::string& path, ImageOrigin* origin) {
  LB_REQUIRE(is_file(path), "image '" + path + "': file not found");
  ImageU8 img = load_image_8bit(path, origin);
  if (img.channels == 2) img = load_image_8bit(path, origin, 1);
  if (img.channels == 4) img = load_image_8bit(path, origin, 3);
  return img;
}

}  // namespace

OpenedScene open_scene(const SceneRef& scene, double gt_scale) {
  OpenedScene out;
  switch (scene.layout) {
    case Layout::Middlebury2001:
    case Layout::Middlebury2014:
    case Layout::Kitti: {
      const bool kitti = scene.layout == Layout::Kitti;
      ImageU8 obj;
      stereo::StereoScene s =
          kitti ? load_kitti_frame(scene.path, scene.name, &obj)
                : stereo::load_stereo_scene(scene.path, gt_scale,
                                            scene.layout == Layout::Middlebury2014 ? stereo::StereoLayout::Middlebury2014
                                                                                   : stereo::StereoLayout::Middlebury2001);
      auto d = std::make_shared<StereoData>();
      d->pair = std::move(s.pair);
      d->gt = s.gt;
      d->ndisp_hint = s.suggested_ndisp;
      out.truth.protocol = kitti ? eval::Protocol::Kitti
                                 : scene.layout == Layout::Middlebury2014 ? eval::Protocol::MiddleburyV3
                                                                          : eval::Protocol::Middlebury2003;
      out.truth.stereo = std::move(s.gt);
      out.truth.obj_map = std::move(obj);
      out.has_truth = !out.truth.stereo.disparity.empty();
      out.truth_path = s.gt_path;
      out.data = std::move(d);
      return out;
    }
    case Layout::Hci: {
      auto d = std::make_shared<LightFieldData>();
      d->lf = load_lightfield(scene.path);
      out.truth.protocol = eval::Protocol::Hci;
      out.truth.border = hci_default_border(d->lf.width, d->lf.height);
      out.truth.stereo.disparity = d->lf.gt;
      out.has_truth = d->lf.has_gt();
      if (out.has_truth) {  // load_lightfield's order
        const auto files = list_lower(scene.path, false);
        for (const char* n : {"gt_disp_lowres.pfm", "gt_disp.pfm", "disparity.pfm"})
          if (files.count(n)) {
            out.truth_path = (fs::path(scene.path) / files.at(n)).string();
            break;
          }
      }
      out.data = std::move(d);
      return out;
    }
    case Layout::Tid2013:
    case Layout::Kadid10k: {
      auto d = std::make_shared<ImagePairData>();
      d->reference = iqa_image(scene.reference, &d->reference_origin);
      d->distorted = iqa_image(scene.path, &d->distorted_origin);
      LB_REQUIRE(d->reference.width == d->distorted.width && d->reference.height == d->distorted.height,
                 "'" + scene.path + "' is " + std::to_string(d->distorted.width) + "x" +
                     std::to_string(d->distorted.height) + ", its reference '" + scene.reference + "' is " +
                     std::to_string(d->reference.width) + "x" + std::to_string(d->reference.height));
      d->source = scene.reference + " vs " + scene.path;
      out.data = std::move(d);
      return out;
    }
  }
  throw Error("open_scene: unknown layout");
}

}  // namespace lb::dataset
