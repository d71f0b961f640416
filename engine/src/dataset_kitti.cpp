// KITTI 2012 / 2015 stereo training folders (dataset.hpp): the frames with ground truth and
// one frame as a stereo scene. Images are 8-bit PNG (image_0/1 grey, image_2/3 colour); the
// truth is 16-bit grey PNG, value / 256, 0 = unknown (the devkit's convention). An 8-bit PNG
// in a truth folder is refused rather than read at the wrong scale.
#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <regex>

#include "dataset_internal.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"

namespace lb::dataset {

namespace fs = std::filesystem;
using namespace detail;

namespace {

// The devkit's disparities are stored as round(d * 256) in 16 bits: at most 65535 / 256.
constexpr double kKittiScale = 256.0;
// The disparity count a KITTI frame is matched over: the 16-bit format's range (0..256), the
// usual choice for full-resolution KITTI (the largest truth disparities are about 230).
constexpr int kKittiNdisp = 256;

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

// The first folder of names present in dir ("" when none); names as on disk.
std::string first_dir(const std::map<std::string, std::string>& dirs, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    const auto it = dirs.find(n);
    if (it != dirs.end()) return it->second;
  }
  return "";
}

// A truth PNG: 16-bit grey, value / 256 (0 stays 0 = unknown), of the pair's size.
ImageF read_truth(const fs::path& p, int w, int h) {
  int depth = 0;
  const ImageU16 raw = load_image16(p.string(), 0, &depth);
  LB_REQUIRE(depth == 16, "KITTI truth '" + p.string() + "' is " + (depth == 8 ? "an " : "a ") + std::to_string(depth) +
                              "-bit PNG; KITTI disparity maps are 16-bit (value / 256), so its scale is unknown");
  LB_REQUIRE(raw.channels == 1, "KITTI truth '" + p.string() + "' has " + std::to_string(raw.channels) +
                                    " channels; KITTI disparity maps are grey 16-bit PNG");
  LB_REQUIRE(raw.width == w && raw.height == h, "KITTI truth '" + p.string() + "' is " +
                                                    size_text(raw.width, raw.height) + ", the left image is " +
                                                    size_text(w, h));
  ImageF d(w, h, 1);
  for (std::size_t i = 0; i < raw.data.size(); ++i)
    d.data[i] = static_cast<float>(raw.data[i] / kKittiScale);
  return d;
}

}  // namespace

bool detail::looks_like_kitti(const fs::path& dir) {
  const auto dirs = list_lower(dir, true);
  for (const char* n : {"image_0", "image_1", "image_2", "image_3"})
    if (dirs.count(n)) return true;
  return false;
}

KittiFolders detail::kitti_folders(const fs::path& training) {
  const auto dirs = list_lower(training, true);
  KittiFolders f;
  // A complete pair first (2012's grey image_0 / image_1, then 2015's image_2 / image_3);
  // else the half that is there, so the error names the missing partner.
  auto has = [&](const char* n) { return dirs.count(n) > 0; };
  const bool p01 = has("image_0") && has("image_1"), p23 = has("image_2") && has("image_3");
  const bool use01 = p01 || (!p23 && (has("image_0") || has("image_1")));
  f.left = first_dir(dirs, {use01 ? "image_0" : "image_2"});
  f.right = first_dir(dirs, {use01 ? "image_1" : "image_3"});
  f.occ = first_dir(dirs, {"disp_occ_0", "disp_occ"});
  f.noc = first_dir(dirs, {"disp_noc_0", "disp_noc"});
  f.obj = first_dir(dirs, {"obj_map"});
  return f;
}

std::vector<std::string> detail::kitti_frames(const std::string& training_dir) {
  const fs::path t(training_dir);
  const KittiFolders f = kitti_folders(t);
  const std::string where = "KITTI training folder '" + training_dir + "'";
  LB_REQUIRE(!f.left.empty() && !f.right.empty(),
             where + ": " + (f.left.empty() ? "the left images' folder" : "the right images' folder (" + f.left + "'s partner)") +
                 " is missing (expected image_0 + image_1 for KITTI 2012 or image_2 + image_3 for 2015)");
  LB_REQUIRE(!f.occ.empty() || !f.noc.empty(),
             where + ": no ground truth folder (expected disp_occ_0 / disp_noc_0 (2015) or disp_occ / disp_noc "
                     "(2012); a testing folder has none)");
  // Only the _10 frames have truth; a frame is a scene when its left image or any truth is
  // there (one with a file missing fails when opened, naming it).
  static const std::regex frame(R"((\d{6}_10)\.png)", std::regex::icase);
  std::vector<std::string> frames;
  for (const std::string& sub : {f.left, f.occ, f.noc}) {
    if (sub.empty()) continue;
    for (const auto& [low, name] : list_lower(t / sub, false)) {
      std::smatch m;
      if (std::regex_match(low, m, frame)) frames.push_back(m[1].str());
    }
  }
  std::sort(frames.begin(), frames.end());
  frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
  LB_REQUIRE(!frames.empty(), where + ": no frame NNNNNN_10.png in " + f.left + ", " +
                                  (f.occ.empty() ? f.noc : f.occ));
  return frames;
}

stereo::StereoScene load_kitti_frame(const std::string& training_dir, const std::string& frame, ImageU8* obj_map) {
  const fs::path t(training_dir);
  LB_REQUIRE(is_dir(t), "KITTI training folder '" + training_dir + "': no such folder");
  static const std::regex frame_re(R"(\d{6}_\d{2})");
  LB_REQUIRE(std::regex_match(frame, frame_re),
             "KITTI frame " + quote_untrusted(frame) + ": not a frame name (NNNNNN_10, e.g. 000000_10)");
  const KittiFolders f = kitti_folders(t);
  const std::string where = "KITTI frame " + frame + " of " + quote_untrusted(training_dir, 300);  // frame: matched
  LB_REQUIRE(!f.left.empty() && !f.right.empty(),
             where + ": the " + (f.left.empty() ? "left" : "right") +
                 " images' folder is missing (image_0 + image_1 or image_2 + image_3)");
  // A file of the frame in a folder, matched case-insensitively ("" when absent).
  auto file = [&](const std::string& sub) -> fs::path {
    if (sub.empty()) return {};
    const auto files = list_lower(t / sub, false);
    const auto it = files.find(lower(frame) + ".png");
    return it == files.end() ? fs::path() : t / sub / it->second;
  };
  const fs::path l = file(f.left), r = file(f.right);
  LB_REQUIRE(!l.empty(), where + ": the left image '" + (t / f.left / (frame + ".png")).string() + "' is missing");
  LB_REQUIRE(!r.empty(), where + ": the right image '" + (t / f.right / (frame + ".png")).string() + "' is missing");
  LB_REQUIRE(!f.occ.empty() || !f.noc.empty(), where + ": no ground truth folder (disp_occ_0, disp_noc_0, disp_occ or disp_noc)");

  stereo::StereoScene s;
  s.layout = "kitti";
  s.pair = stereo::load_stereo_pair(l.string(), r.string(), frame);  // 16-bit: converted (v/257)
  const int w = s.pair.left.width, h = s.pair.left.height;
  // A truth folder that is there must hold the frame: a missing file is a broken download.
  auto truth = [&](const std::string& sub) -> fs::path {
    if (sub.empty()) return {};
    const fs::path p = file(sub);
    LB_REQUIRE(!p.empty(), where + ": the truth '" + (t / sub / (frame + ".png")).string() + "' is missing");
    return p;
  };
  const fs::path occ = truth(f.occ), noc = truth(f.noc);
  // disparity = disp_occ (every pixel with truth); mask_nonocc = where disp_noc is known.
  if (!occ.empty()) s.gt.disparity = read_truth(occ, w, h);
  if (!noc.empty()) {
    const ImageF n = read_truth(noc, w, h);
    s.gt.mask_nonocc = ImageU8(w, h, 1);
    for (std::size_t i = 0; i < n.data.size(); ++i) s.gt.mask_nonocc.data[i] = n.data[i] > 0 ? 255 : 0;
    if (occ.empty()) s.gt.disparity = n;
  }
  s.gt_path = (occ.empty() ? noc : occ).string();
  s.gt_scale = kKittiScale;
  s.suggested_ndisp = kKittiNdisp;
  if (obj_map) {
    *obj_map = ImageU8();
    const fs::path o = f.obj.empty() ? fs::path() : file(f.obj);
    LB_REQUIRE(f.obj.empty() || !o.empty(),
               where + ": the object map '" + (t / f.obj / (frame + ".png")).string() + "' is missing");
    if (!o.empty()) {
      ImageU8 m = load_image(o.string(), 1);
      LB_REQUIRE(m.width == w && m.height == h, "KITTI object map '" + o.string() + "' is " +
                                                    size_text(m.width, m.height) + ", the left image is " +
                                                    size_text(w, h));
      *obj_map = std::move(m);
    }
  }
  return s;
}

}  // namespace lb::dataset
