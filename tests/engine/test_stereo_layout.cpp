// Stereo scene folders in the published layouts (issue 21, item 2): detection from the files
// present, --layout forcing, the published scale table, Middlebury 2014 calib.txt / PFM truth
// with inf / mask0nocc.png, and the one-line refusals (ambiguous folder, missing image,
// malformed calib.txt).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/stereo_io.hpp"
#include "shared_data.hpp"
#include "test_util.hpp"

using namespace lb;
using namespace lb::stereo;
namespace fs = std::filesystem;

namespace {

using lbt::msg;

void write_text(const fs::path& p, const std::string& t) { std::ofstream(p) << t; }

// A small pair with a known disparity-2 plane.
void write_pair(const fs::path& d, const std::string& l, const std::string& r) {
  fs::create_directories(d);
  const StereoPair p = synthetic_plane_pair(24, 16, 2, 3u, 1);
  save_image((d / l).string(), p.left);
  save_image((d / r).string(), p.right);
}

const std::string kCalib =
    "cam0=[100 0 12; 0 100 8; 0 0 1]\ncam1=[100 0 12; 0 100 8; 0 0 1]\ndoffs=0\nbaseline=50.5\n"
    "width=24\nheight=16\nndisp=12\nisint=0\nvmin=1\nvmax=3\n";

}  // namespace

TEST_CASE("stereo layout: Middlebury 2001-2006 folders, the published scale table") {
  lbt::TempDir dir("stlay");
  const fs::path venus = dir.path / "Venus";  // the name picks the scale, case-insensitive
  write_pair(venus, "imL.png", "imR.png");
  save_image((venus / "groundtruth.png").string(), ImageU8(24, 16, 1, 16));
  save_image((venus / "nonocc.png").string(), ImageU8(24, 16, 1, 255));
  StereoScene s = load_stereo_scene(venus.string());
  CHECK(s.layout == "middlebury2001");
  CHECK(s.gt_scale == 8.0);
  CHECK(s.suggested_ndisp == 20);
  CHECK(s.gt.disparity.at(3, 3) == 2.0f);
  CHECK_FALSE(s.gt.mask_nonocc.empty());
  CHECK(s.gt_path == (venus / "groundtruth.png").string());

  // 2005/2006: view1/view5 + disp1.png at third size (scale 3), dmin.txt read.
  const fs::path art = dir.path / "Art";
  write_pair(art, "view1.png", "view5.png");
  save_image((art / "disp1.png").string(), ImageU8(24, 16, 1, 30));
  write_text(art / "dmin.txt", "200\n");
  s = load_stereo_scene(art.string());
  CHECK(s.layout == "middlebury2001");
  CHECK(s.gt_scale == 3.0);
  CHECK(s.dmin == 200.0);
  CHECK(s.gt.disparity.at(0, 0) == 10.0f);
  CHECK(load_stereo_scene(art.string(), 6.0).gt.disparity.at(0, 0) == 5.0f);  // --gt-scale wins

  // 2003: im2/im6 + disp2.png (quarter size: 4).
  const fs::path teddy = dir.path / "teddy";
  write_pair(teddy, "im2.png", "im6.png");
  save_image((teddy / "disp2.png").string(), ImageU8(24, 16, 1, 8));
  s = load_stereo_scene(teddy.string());
  CHECK(s.gt_scale == 4.0);
  CHECK(s.suggested_ndisp == 60);

  // An unknown name with an 8-bit truth asks for --gt-scale, naming the file.
  const fs::path mine = dir.path / "mine";
  write_pair(mine, "imL.png", "imR.png");
  save_image((mine / "groundtruth.png").string(), ImageU8(24, 16, 1, 16));
  const std::string m = msg([&] { load_stereo_scene(mine.string()); });
  CHECK(m.find("--gt-scale") != std::string::npos);
  CHECK(m.find("groundtruth.png") != std::string::npos);
  CHECK(load_stereo_scene(mine.string(), 16.0).gt.disparity.at(1, 1) == 1.0f);
}

TEST_CASE("stereo layout: Middlebury 2014 (im0/im1, calib.txt, disp0GT.pfm with inf, mask0nocc.png)") {
  lbt::TempDir dir("stlay14");
  const fs::path d = dir.path / "Adirondack-perfect";
  write_pair(d, "im0.png", "im1.png");
  write_text(d / "calib.txt", kCalib);
  ImageF gt(24, 16, 1, 2.0f);
  gt.at(0, 0) = std::numeric_limits<float>::infinity();
  save_pfm((d / "disp0GT.pfm").string(), gt);
  ImageU8 m(24, 16, 1, 255);
  m.at(1, 0) = 128;
  m.at(2, 0) = 0;
  save_image((d / "mask0nocc.png").string(), m);
  const StereoScene s = load_stereo_scene(d.string());
  CHECK(s.layout == "middlebury2014");
  REQUIRE(s.has_calib);
  CHECK(s.suggested_ndisp == 12);
  CHECK(s.calib.baseline == doctest::Approx(50.5));
  CHECK(s.calib.cam0[0] == 100.0);
  CHECK(s.calib.vmax == 3.0);
  CHECK(s.gt.disparity.at(0, 0) == 0.0f);  // inf = unknown
  CHECK(s.gt.disparity.at(5, 5) == 2.0f);
  CHECK(s.gt.mask_nonocc.at(1, 0) == 0);
  CHECK(s.gt.mask_all.at(1, 0) == 255);
  CHECK(s.gt.mask_nonocc.at(2, 0) == 0);
  CHECK(s.gt.mask_all.at(2, 0) == 0);
  CHECK(s.gt.mask_nonocc.at(3, 0) == 255);

  // disp0.pfm (2014 full) is taken when disp0GT.pfm (MiddEval3) is not there.
  fs::rename(d / "disp0GT.pfm", d / "disp0.pfm");
  CHECK(load_stereo_scene(d.string()).gt_path == (d / "disp0.pfm").string());

  // calib.txt whose size is not the images'.
  std::string bad = kCalib;
  bad.replace(bad.find("width=24"), 8, "width=25");
  write_text(d / "calib.txt", bad);
  std::string e = msg([&] { load_stereo_scene(d.string()); });
  CHECK(e.find("25x16") != std::string::npos);
  fs::remove(d / "calib.txt");
  e = msg([&] { load_stereo_scene(d.string()); });
  CHECK(e.find("calib.txt is missing") != std::string::npos);
}

TEST_CASE("stereo layout: ambiguous and incomplete folders are refused in one line; --layout forces") {
  lbt::TempDir dir("stlayamb");
  const fs::path d = dir.path / "both";
  write_pair(d, "imL.png", "imR.png");
  write_pair(d, "im0.png", "im1.png");
  write_text(d / "calib.txt", kCalib);
  std::string e = msg([&] { load_stereo_scene(d.string()); });
  CHECK(e.find("ambiguous") != std::string::npos);
  CHECK(e.find("imL.png") != std::string::npos);
  CHECK(e.find("im0.png") != std::string::npos);
  CHECK(e.find("--layout") != std::string::npos);
  CHECK(e.find('\n') == std::string::npos);
  CHECK(load_stereo_scene(d.string(), 0, StereoLayout::Middlebury2001).layout == "middlebury2001");
  CHECK(load_stereo_scene(d.string(), 0, StereoLayout::Middlebury2014).layout == "middlebury2014");
  CHECK(parse_stereo_layout("MiddEval3") == StereoLayout::Middlebury2014);
  CHECK(parse_stereo_layout("middlebury2006") == StereoLayout::Middlebury2001);
  CHECK(msg([&] { parse_stereo_layout("kitti"); }).find("middlebury2014") != std::string::npos);

  // A forced layout whose files are absent names them.
  const fs::path only01 = dir.path / "only01";
  write_pair(only01, "imL.png", "imR.png");
  CHECK(msg([&] { load_stereo_scene(only01.string(), 0, StereoLayout::Middlebury2014); }).find("im0.png") !=
        std::string::npos);

  // Missing right images.
  fs::remove(only01 / "imR.png");
  e = msg([&] { load_stereo_scene(only01.string()); });
  CHECK(e.find("imR.png is missing") != std::string::npos);
  const fs::path only14 = dir.path / "only14";
  write_pair(only14, "im0.png", "im1.png");
  write_text(only14 / "calib.txt", kCalib);
  fs::remove(only14 / "im1.png");
  e = msg([&] { load_stereo_scene(only14.string()); });
  CHECK(e.find("im1.png is missing") != std::string::npos);
  // Nothing at all.
  const fs::path empty = dir.path / "empty";
  fs::create_directories(empty);
  e = msg([&] { load_stereo_scene(empty.string()); });
  CHECK(e.find("no stereo pair") != std::string::npos);
  CHECK(e.find("im0.png") != std::string::npos);
}

TEST_CASE("stereo layout: malformed calib.txt is refused in one line") {
  auto err = [](const std::string& t) { return msg([&] { parse_stereo_calib(t, "calib.txt"); }); };
  CHECK(err(kCalib).empty());
  CHECK(err("width=24\nheight=16\n").find("ndisp") != std::string::npos);
  CHECK(err("width=24\nheight=16\nndisp=-5\n").find("ndisp") != std::string::npos);
  CHECK(err("width=24\nheight=16\nndisp=0\n").find("ndisp") != std::string::npos);
  CHECK(err("width=1000000000\nheight=16\nndisp=5\n").find("width") != std::string::npos);
  CHECK(err("width=24\nheight=16.5\nndisp=5\n").find("height") != std::string::npos);
  CHECK(err("width=24\nheight=16\nndisp=abc\n").find("not a number") != std::string::npos);
  CHECK(err("width=24\nheight=16\nndisp=5\ncam0=[1 2 3]\n").find("cam0") != std::string::npos);
  CHECK(err("width=24\nheight=16\nndisp=5\ngarbage\n").find("line 4") != std::string::npos);
  CHECK(err("width=24\nheight=16\nndisp=5\nvmin=nan\n").find("vmin") != std::string::npos);
  for (const char* t : {"ndisp=-5", "width=1e9\nheight=1\nndisp=1", "\x01\x02=\x03"})
    CHECK(err(t).find('\n') == std::string::npos);
}

// The same data in both layouts loads the same truth and masks (the 2014 copy with inf where
// the 2001 truth is unknown, mask0nocc.png from the nonocc and all masks).
TEST_CASE("stereo layout: tsukuba as Middlebury 2014 equals tsukuba as 2001 (when the data is present)") {
  const fs::path src = lb_shared_data_dir() + "/stereo/tsukuba";
  if (!fs::exists(src)) {
    MESSAGE("SKIPPED: no Middlebury data at " << src.string());
    return;
  }
  lbt::TempDir dir("stlayts");
  const StereoScene a = load_stereo_scene(src.string());
  const fs::path d = dir.path / "tsukuba2014";
  fs::create_directories(d);
  fs::copy_file(src / "imL.png", d / "im0.png");
  fs::copy_file(src / "imR.png", d / "im1.png");
  const int w = a.pair.left.width, h = a.pair.left.height;
  write_text(d / "calib.txt", "cam0=[1 0 0; 0 1 0; 0 0 1]\nbaseline=1\nwidth=" + std::to_string(w) +
                                  "\nheight=" + std::to_string(h) + "\nndisp=16\n");
  ImageF gt = a.gt.disparity;
  for (float& v : gt.data)
    if (v == 0.0f) v = std::numeric_limits<float>::infinity();
  save_pfm((d / "disp0GT.pfm").string(), gt);
  ImageU8 m(w, h, 1, 0);
  for (std::size_t i = 0; i < m.pixels(); ++i)
    m.data[i] = a.gt.mask_nonocc.data[i] == 255 ? 255 : a.gt.mask_all.data[i] == 255 ? 128 : 0;
  save_image((d / "mask0nocc.png").string(), m);
  const StereoScene b = load_stereo_scene(d.string());
  CHECK(b.layout == "middlebury2014");
  CHECK(b.suggested_ndisp == a.suggested_ndisp);
  CHECK(b.pair.left.data == a.pair.left.data);
  CHECK(b.gt.disparity.data == a.gt.disparity.data);
  CHECK(b.gt.mask_nonocc.data == a.gt.mask_nonocc.data);
  CHECK(b.gt.mask_all.data == a.gt.mask_all.data);
}
