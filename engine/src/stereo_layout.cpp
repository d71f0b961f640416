// Stereo scene folders (stereo_io.hpp): the published layouts, detected from the files
// present (Middlebury 2001-2006; Middlebury 2014 / 2021 / MiddEval3), calib.txt, the
// published ground-truth scales.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "dataset_internal.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/input_file.hpp"
#include "lightbench/stereo_io.hpp"

namespace lb::stereo {

namespace fs = std::filesystem;

namespace {

using dataset::detail::lower;

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

// The first of names present in dir ("" when none).
std::string first_present(const fs::path& dir, const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (fs::is_regular_file(dir / n)) return n;
  return "";
}

// Image file names of one stem in the extensions the 2001-2006 sets were published in.
std::vector<std::string> image_names(const std::string& stem) {
  return {stem + ".png", stem + ".ppm", stem + ".pgm"};
}

// Middlebury 2001-2006 left/right pairs, in the order they are looked for.
struct PairNames {
  const char* left;
  const char* right;
  const char* gt;  // the truth that goes with the left view ("" = groundtruth.png)
};
const PairNames kPairs2001[] = {{"imL", "imR", "groundtruth"}, {"view1", "view5", "disp1"}, {"im2", "im6", "disp2"}};

std::string read_small_text(const fs::path& p, const std::string& what) {
  return lb::read_text_file(p.string(), what, kConfigFileLimit);
}

double parse_number(const std::string& v, const std::string& where, const std::string& key) {
  double x = 0;
  LB_REQUIRE(dataset::detail::parse_finite(v, &x), where + ": " + key + " = " + quote_untrusted(v) + " is not a number");
  return x;
}

using dataset::detail::trim;

// A 2014 mask0nocc.png: 255 non-occluded, 128 occluded, 0 invalid -> the nonocc and all masks
// (255 = counted).
void split_nocc_mask(const ImageU8& m, StereoGroundTruth& gt) {
  gt.mask_nonocc = ImageU8(m.width, m.height, 1);
  gt.mask_all = ImageU8(m.width, m.height, 1);
  for (std::size_t i = 0; i < m.pixels(); ++i) {
    const std::uint8_t v = m.data[i];
    gt.mask_nonocc.data[i] = v == 255 ? 255 : 0;
    gt.mask_all.data[i] = v >= 128 ? 255 : 0;
  }
}

}  // namespace

StereoLayout parse_stereo_layout(const std::string& name) {
  const std::string n = lower(name);
  if (n.empty() || n == "auto") return StereoLayout::Auto;
  if (n == "middlebury2001" || n == "middlebury2003" || n == "middlebury2005" || n == "middlebury2006")
    return StereoLayout::Middlebury2001;
  if (n == "middlebury2014" || n == "middlebury2021" || n == "middeval3" || n == "eval3")
    return StereoLayout::Middlebury2014;
  throw Error("--layout " + quote_untrusted(name) + ": use auto, middlebury2001 (2001-2006) or middlebury2014 (2014, 2021, MiddEval3)");
}

const char* stereo_layout_name(StereoLayout l) {
  switch (l) {
    case StereoLayout::Middlebury2001: return "middlebury2001";
    case StereoLayout::Middlebury2014: return "middlebury2014";
    default: return "auto";
  }
}

StereoCalib parse_stereo_calib(const std::string& text, const std::string& where) {
  StereoCalib c;
  bool has_w = false, has_h = false, has_n = false;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    LB_REQUIRE(eq != std::string::npos && eq > 0,
               where + ": line " + std::to_string(lineno) + " is not key=value");
    const std::string key = trim(line.substr(0, eq)), v = trim(line.substr(eq + 1));
    if (key == "cam0") {
      std::string m = v;
      LB_REQUIRE(m.size() >= 2 && m.front() == '[' && m.back() == ']', where + ": cam0 is not [f 0 cx; 0 f cy; 0 0 1]");
      m = m.substr(1, m.size() - 2);
      std::replace(m.begin(), m.end(), ';', ' ');
      std::istringstream ms(m);
      std::string tok;
      int k = 0;
      while (ms >> tok) {
        LB_REQUIRE(k < 9, where + ": cam0 has more than 9 numbers");
        c.cam0[k++] = parse_number(tok, where, "cam0");
      }
      LB_REQUIRE(k == 9, where + ": cam0 has " + std::to_string(k) + " numbers, expected 9");
    } else if (key == "doffs" || key == "baseline" || key == "vmin" || key == "vmax") {
      const double x = parse_number(v, where, key);
      (key == "doffs" ? c.doffs : key == "baseline" ? c.baseline : key == "vmin" ? c.vmin : c.vmax) = x;
    } else if (key == "width" || key == "height" || key == "ndisp") {
      const double x = parse_number(v, where, key);
      const double limit = key == "ndisp" ? 65536 : 1 << 16;
      LB_REQUIRE(x >= 1 && x <= limit && x == std::floor(x),
                 where + ": " + key + " = " + escape_untrusted(v) + " must be a whole number in 1.." +
                     std::to_string(static_cast<int>(limit)));
      (key == "width" ? c.width : key == "height" ? c.height : c.ndisp) = static_cast<int>(x);
      (key == "width" ? has_w : key == "height" ? has_h : has_n) = true;
    }
  }
  LB_REQUIRE(has_w && has_h && has_n, where + ": missing " +
                                          std::string(!has_w ? "width" : !has_h ? "height" : "ndisp") +
                                          " (Middlebury 2014 calib.txt has width, height and ndisp)");
  LB_REQUIRE(c.baseline >= 0, where + ": baseline must not be negative");
  LB_REQUIRE(c.vmin <= c.vmax || (c.vmin == 0 && c.vmax == 0), where + ": vmin > vmax");
  return c;
}

// Published sets: ground-truth scale (value / scale = disparity) and the evaluation's
// disparity count. From the Middlebury pages (vision.middlebury.edu/stereo/data):
//  2001 (Scharstein & Szeliski): tsukuba's truth is scaled by 16, the others (venus,
//    sawtooth, map, bull, poster, barn1, barn2) by 8.
//  2003 (teddy, cones): the quarter-size disp2/disp6 are scaled by 4 (full size: 1).
//  2005/2006: disp1/disp5 of the third-size images are scaled by 3 (the third size is
//    the usual download; half size would be 2, full 1: give --gt-scale).
// Disparity counts: the old evaluation's (tsukuba 16, venus 20, teddy and cones 60).
double known_gt_scale(const std::string& name) {
  static const char* k8[] = {"venus", "sawtooth", "map", "bull", "poster", "barn1", "barn2"};
  static const char* k3[] = {"art",      "books",   "dolls",     "laundry",    "moebius", "reindeer", "aloe",
                             "baby1",    "baby2",   "baby3",     "bowling1",   "bowling2", "cloth1",  "cloth2",
                             "cloth3",   "cloth4",  "flowerpots", "lampshade1", "lampshade2", "midd1", "midd2",
                             "monopoly", "plastic", "rocks1",    "rocks2",     "wood1",   "wood2"};
  const std::string n = lower(name);
  if (n == "tsukuba") return 16.0;
  for (const char* k : k8)
    if (n == k) return 8.0;
  if (n == "teddy" || n == "cones") return 4.0;
  for (const char* k : k3)
    if (n == k) return 3.0;
  return 0.0;
}
int known_ndisp(const std::string& name) {
  const std::string n = lower(name);
  if (n == "tsukuba") return 16;
  if (n == "venus") return 20;
  if (n == "teddy" || n == "cones") return 60;
  return 0;
}

StereoScene load_stereo_scene(const std::string& dir_s, double gt_scale, StereoLayout layout) {
  const std::string folder = "stereo folder " + quote_untrusted(dir_s, 300);  // for messages
  LB_REQUIRE(fs::is_directory(dir_s), folder + ": no such folder");
  const fs::path dir(dir_s);
  std::string name = dir.filename().string();
  if (name.empty()) name = dir.parent_path().filename().string();

  // What is present of each layout: the first 2001-2006 pair with either image there, and
  // im0/im1.
  const PairNames* p01 = nullptr;
  std::string l01, r01;
  for (const auto& pn : kPairs2001) {
    l01 = first_present(dir, image_names(pn.left));
    r01 = first_present(dir, image_names(pn.right));
    if (!l01.empty() || !r01.empty()) {
      p01 = &pn;
      break;
    }
  }
  const std::string l14 = first_present(dir, {"im0.png"}), r14 = first_present(dir, {"im1.png"});
  const bool has14 = !l14.empty() || !r14.empty();
  if (layout == StereoLayout::Auto) {
    if (p01 && has14)
      throw Error(folder + ": ambiguous, it holds both " + (l01.empty() ? r01 : l01) +
                  " (Middlebury 2001-2006) and " + (l14.empty() ? r14 : l14) +
                  " (Middlebury 2014); choose one with --layout middlebury2001|middlebury2014");
    if (!p01 && !has14)
      throw Error(folder +
                  ": no stereo pair found (expected imL.png + imR.png or view1.png + view5.png for Middlebury "
                  "2001-2006, or im0.png + im1.png + calib.txt for Middlebury 2014)");
    layout = has14 ? StereoLayout::Middlebury2014 : StereoLayout::Middlebury2001;
  }

  StereoScene s;
  s.layout = stereo_layout_name(layout);
  auto require_pair = [&](const std::string& l, const std::string& r, const std::string& ln,
                          const std::string& rn) {
    LB_REQUIRE(!l.empty() || !r.empty(), folder + ": no " + ln + " / " + rn + " (layout " +
                                             s.layout + ")");
    LB_REQUIRE(!l.empty(), folder + ": the left image " + ln + " is missing (" + r + " is there)");
    LB_REQUIRE(!r.empty(), folder + ": the right image " + rn + " is missing (" + l + " is there)");
    s.pair = load_stereo_pair((dir / l).string(), (dir / r).string(), name);
  };
  auto check_size = [&](const ImageF& f, const fs::path& p) {
    LB_REQUIRE(f.width == s.pair.left.width && f.height == s.pair.left.height,
               "ground truth '" + p.string() + "' is " + size_text(f.width, f.height) + ", the pair is " +
                   size_text(s.pair.left.width, s.pair.left.height));
  };
  auto mask = [&](const std::vector<std::string>& names, ImageU8& m) {
    const std::string f = first_present(dir, names);
    if (!f.empty()) m = load_stereo_mask((dir / f).string(), s.pair.left.width, s.pair.left.height);
  };

  if (layout == StereoLayout::Middlebury2014) {
    require_pair(l14, r14, "im0.png", "im1.png");
    const fs::path cp = dir / "calib.txt";
    // Present but not a regular file (a named pipe, a folder): read_small_text refuses it.
    std::error_code ec;
    LB_REQUIRE(fs::exists(cp, ec), "stereo folder '" + dir_s + "': calib.txt is missing (Middlebury 2014 layout)");
    s.calib = parse_stereo_calib(read_small_text(cp, "calib"), "calib.txt " + quote_untrusted(cp.string(), 300));
    s.has_calib = true;
    LB_REQUIRE(s.calib.width == s.pair.left.width && s.calib.height == s.pair.left.height,
               "calib.txt " + quote_untrusted(cp.string(), 300) + " says " + size_text(s.calib.width, s.calib.height) +
                   " but im0.png is " + size_text(s.pair.left.width, s.pair.left.height));
    s.suggested_ndisp = s.calib.ndisp;
    const std::string g = first_present(dir, {"disp0GT.pfm", "disp0.pfm"});
    if (!g.empty()) {
      s.gt_path = (dir / g).string();
      s.gt.disparity = load_stereo_gt(s.gt_path, 0.0);  // inf -> 0 = unknown
      check_size(s.gt.disparity, dir / g);
      const std::string mf = first_present(dir, {"mask0nocc.png"});
      if (!mf.empty())
        split_nocc_mask(load_stereo_mask((dir / mf).string(), s.pair.left.width, s.pair.left.height), s.gt);
    }
    return s;
  }

  // Middlebury 2001-2006.
  const PairNames pn = p01 ? *p01 : kPairs2001[0];
  if (!p01) l01 = r01 = "";
  require_pair(l01, r01, std::string(pn.left) + ".png", std::string(pn.right) + ".png");
  s.suggested_ndisp = known_ndisp(name);
  const std::string g = first_present(dir, {std::string(pn.gt) + ".png", std::string(pn.gt) + ".pgm",
                                            "groundtruth.png", "disp1.png", "disp2.png"});
  if (std::error_code ec; fs::exists(dir / "dmin.txt", ec)) {
    const std::string t = trim(read_small_text(dir / "dmin.txt", "dmin"));
    s.dmin = parse_number(t, "dmin.txt " + quote_untrusted((dir / "dmin.txt").string(), 300), "dmin");
  }
  if (!g.empty()) {
    s.gt_path = (dir / g).string();
    s.gt_scale = gt_scale > 0 ? gt_scale : known_gt_scale(name);
    LB_REQUIRE(s.gt_scale > 0, "stereo folder " + quote_untrusted(dir_s, 300) + ": " + quote_untrusted(name) +
                                   " is not a published set of known scale; give the ground truth's scale (" + g +
                                   " value / scale = disparity) with --gt-scale");
    // The 8-bit maps hold the disparity between the images as distributed (value / scale; 0 =
    // unknown). dmin.txt (2005/2006) is the offset of the full-size, uncropped geometry, needed
    // for depth, not for matching these images: it is kept on the scene, not added.
    s.gt.disparity = load_stereo_gt(s.gt_path, s.gt_scale);
    check_size(s.gt.disparity, dir / g);
    mask({"mask_nonocc.png", "nonocc.png"}, s.gt.mask_nonocc);
    mask({"mask_all.png", "all.png"}, s.gt.mask_all);
    mask({"mask_disc.png", "disc.png"}, s.gt.mask_disc);
  }
  return s;
}

}  // namespace lb::stereo
