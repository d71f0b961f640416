// KITTI 2012 / 2015 training folders (dataset.hpp): detection (the training folder or its
// parent), the _10 frames as scenes, truth from the 16-bit PNGs (value / 256, 0 = unknown),
// the noc mask, obj_map; the one-line refusals (missing right image, truth folder or file,
// wrong-size or 8-bit truth; 16-bit images are converted, v/257). And the disparity map files (load_disparity_map,
// save_kitti_disparity).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "dataset_fixtures.hpp"
#include "lightbench/dataset.hpp"
#include "test_util.hpp"

using namespace lb;
using namespace lb::dataset;
using namespace lbt::ds;

TEST_CASE("dataset: KITTI 2012 (image_0/1 grey, disp_occ / disp_noc)") {
  lbt::TempDir dir("ds-k12");
  const fs::path t = dir.path / "training";
  kitti(t, 2012, 3);
  for (const fs::path& root : {t, dir.path}) {  // the training folder or the folder holding it
    const Dataset ds = open_dataset(root.string());
    CHECK(ds.layout == Layout::Kitti);
    CHECK(ds.root == t.string());
    REQUIRE(ds.scenes.size() == 3);  // the _11 frames have no truth: not scenes
    CHECK(ds.scenes[0].name == "000000_10");
    CHECK(ds.scenes[2].name == "000002_10");
    CHECK(ds.scenes[1].path == t.string());
  }
  const Dataset ds = open_dataset(t.string(), "kitti2012");
  const OpenedScene o = open_scene(ds.scenes[1]);
  const auto& st = static_cast<const StereoData&>(*o.data);
  CHECK(st.pair.left.channels == 1);
  CHECK(st.ndisp_hint == 256);
  REQUIRE(o.has_truth);
  CHECK(o.truth.protocol == eval::Protocol::Kitti);
  CHECK(o.truth.stereo.disparity.at(5, 5) == 11.0f);  // 11 * 256 / 256
  CHECK(o.truth.stereo.disparity.at(0, 0) == 0.0f);   // 0 = unknown, as the scorers read it
  CHECK(o.truth.stereo.disparity.at(3, 1) == 11.0f);  // occluded: known in occ
  CHECK(o.truth.stereo.mask_nonocc.at(3, 1) == 0);    // ... not in noc
  CHECK(o.truth.stereo.mask_nonocc.at(3, 2) == 255);
  CHECK(o.truth.stereo.mask_nonocc.at(0, 0) == 0);
  CHECK(o.truth.stereo.mask_all.empty());
  CHECK(o.truth.obj_map.empty());
  CHECK(has(o.truth_path, "disp_occ"));
  CHECK(select_scene(ds, "000002_10").name == "000002_10");
}

TEST_CASE("dataset: KITTI 2015 (image_2/3 colour, disp_occ_0 / disp_noc_0, obj_map)") {
  lbt::TempDir dir("ds-k15");
  kitti(dir.path / "training", 2015, 2);
  fs::create_directories(dir.path / "testing" / "image_2");  // the parent's other folder
  const Dataset ds = open_dataset(dir.path.string());
  CHECK(ds.layout == Layout::Kitti);
  REQUIRE(ds.scenes.size() == 2);
  const OpenedScene o = open_scene(ds.scenes[0]);
  CHECK(static_cast<const StereoData&>(*o.data).pair.left.channels == 3);
  CHECK(o.truth.stereo.disparity.at(5, 5) == 10.0f);
  REQUIRE_FALSE(o.truth.obj_map.empty());
  CHECK(o.truth.obj_map.at(0, 3) > 0);
  CHECK(o.truth.obj_map.at(kW - 1, 3) == 0);
  ImageU8 obj;
  const stereo::StereoScene s = load_kitti_frame((dir.path / "training").string(), "000001_10", &obj);
  CHECK(s.layout == "kitti");
  CHECK(s.gt_scale == 256.0);
  CHECK(s.gt.disparity.at(4, 4) == 11.0f);
  CHECK(obj.width == kW);
  // A truth of 1/256 steps: value / 256 exactly.
  ImageU16 fine(kW, kH, 1, 1);
  fine.at(1, 0) = 65535;
  save_png16((dir.path / "training" / "disp_occ_0" / "000001_10.png").string(), fine);
  const stereo::StereoScene f = load_kitti_frame((dir.path / "training").string(), "000001_10");
  CHECK(f.gt.disparity.at(0, 0) == 1.0f / 256.0f);
  CHECK(f.gt.disparity.at(1, 0) == 65535.0f / 256.0f);
}

TEST_CASE("dataset: broken KITTI folders are refused in one line naming the file, nothing written") {
  lbt::TempDir dir("ds-kbad");
  const fs::path t = dir.path / "training";
  kitti(t, 2015, 2);
  auto refused = [&](const std::string& part) {
    const auto before = snapshot(dir.path);
    const std::string m = msg([&] {
      const Dataset ds = open_dataset(t.string());
      for (const auto& s : ds.scenes) open_scene(s);
    });
    CHECK_MESSAGE(one_line(m), m);
    CHECK_MESSAGE(has(m, part), m);
    CHECK(snapshot(dir.path) == before);
  };
  SUBCASE("missing right image: still a scene, fails when opened") {
    fs::remove(t / "image_3" / "000001_10.png");
    CHECK(open_dataset(t.string()).scenes.size() == 2);
    CHECK_NOTHROW(open_scene(open_dataset(t.string()).scenes[0]));
    refused("image_3/000001_10.png' is missing");
  }
  SUBCASE("missing right images' folder") {
    fs::remove_all(t / "image_3");
    refused("image_3");
  }
  SUBCASE("missing truth folders") {
    fs::remove_all(t / "disp_occ_0");
    fs::remove_all(t / "disp_noc_0");
    refused("no ground truth folder");
  }
  SUBCASE("missing truth file") {
    fs::remove(t / "disp_noc_0" / "000000_10.png");
    refused("disp_noc_0/000000_10.png' is missing");
  }
  SUBCASE("only disp_noc: the disparity comes from it") {
    fs::remove_all(t / "disp_occ_0");
    const OpenedScene o = open_scene(open_dataset(t.string()).scenes[0]);
    CHECK(o.truth.stereo.disparity.at(3, 1) == 0.0f);
    CHECK(o.truth.stereo.disparity.at(3, 2) == 10.0f);
  }
  SUBCASE("wrong-size truth") {
    save_png16((t / "disp_occ_0" / "000001_10.png").string(), ImageU16(kW, kH + 2, 1, 256));
    refused("disp_occ_0/000001_10.png' is 24x18, the left image is 24x16");
  }
  SUBCASE("8-bit truth") {
    fs::remove(t / "disp_occ_0" / "000000_10.png");
    save_image((t / "disp_occ_0" / "000000_10.png").string(), ImageU8(kW, kH, 1, 40));
    refused("disp_occ_0/000000_10.png' is an 8-bit PNG");
  }
  SUBCASE("colour 16-bit truth") {
    save_png16((t / "disp_noc_0" / "000000_10.png").string(), ImageU16(kW, kH, 3, 256));
    refused("has 3 channels");
  }
  SUBCASE("a 16-bit left image is converted to 8 bits, round(v / 257) (issue 39)") {
    save_png16((t / "image_2" / "000000_10.png").string(), ImageU16(kW, kH, 3, 300));
    const OpenedScene o = open_scene(open_dataset(t.string()).scenes.at(0));
    const auto& p = static_cast<const StereoData&>(*o.data).pair;
    CHECK(p.left.at(0, 0, 0) == 1);  // round(300 / 257)
    CHECK(p.left_origin.converted == "v/257");
  }
  SUBCASE("wrong-size obj_map") {
    save_image((t / "obj_map" / "000001_10.png").string(), ImageU8(kW - 1, kH, 1, 1));
    refused("obj_map/000001_10.png' is 23x16");
  }
  SUBCASE("no frame at all") {
    for (const char* s : {"image_2", "image_3", "disp_occ_0", "disp_noc_0"}) {
      fs::remove_all(t / s);
      fs::create_directories(t / s);
    }
    refused("no frame NNNNNN_10.png");
  }
  SUBCASE("a frame name that is none") {
    CHECK(has(msg([&] { load_kitti_frame(t.string(), "../x"); }), "not a frame name"));
    CHECK(has(msg([&] { load_kitti_frame(t.string(), "000009_10"); }), "image_2/000009_10.png' is missing"));
  }
}

TEST_CASE("disparity files: KITTI 16-bit PNG round trip, invalid values, PFM as stored, 8-bit scale") {
  lbt::TempDir dir("ds-disp");
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  ImageF d(64, 1, 1);
  for (int x = 0; x < 58; ++x) d.at(x, 0) = 1.0f / 256 + x * (255.99f - 1.0f / 256) / 57.0f + 0.37f * (x % 3) / 256;
  d.at(57, 0) = 255.99f;
  d.at(58, 0) = nan;
  d.at(59, 0) = inf;
  d.at(60, 0) = -1.0f;
  d.at(61, 0) = 0.0f;          // 0 is KITTI's "invalid": stored as the smallest valid, 1/256
  d.at(62, 0) = 0.001f;        // too small to show: 1/256, not invalid
  d.at(63, 0) = 1000.0f;       // past the format: clamped to 65535 / 256
  const std::string png = dir.file("d.png");
  save_kitti_disparity(png, d);
  int depth = 0;
  const ImageU16 raw = load_image16(png, 0, &depth);
  CHECK(depth == 16);
  CHECK(raw.at(58, 0) == 0);
  CHECK(raw.at(59, 0) == 0);
  CHECK(raw.at(60, 0) == 0);
  CHECK(raw.at(61, 0) == 1);
  CHECK(raw.at(62, 0) == 1);
  CHECK(raw.at(63, 0) == 65535);
  CHECK(raw.at(57, 0) == 65533);  // round(255.99 * 256)
  const ImageF back = load_disparity_map(png);
  for (int x = 0; x < 58; ++x) CHECK_MESSAGE(std::fabs(back.at(x, 0) - d.at(x, 0)) <= 1.0f / 512, x);
  CHECK(std::isnan(back.at(58, 0)));
  CHECK(std::isnan(back.at(59, 0)));
  CHECK(std::isnan(back.at(60, 0)));
  CHECK(back.at(61, 0) == 1.0f / 256);
  CHECK(back.at(63, 0) == 65535.0f / 256);

  // PFM as stored (inf and NaN stay).
  const std::string pfm = dir.file("d.pfm");
  save_pfm(pfm, d);
  const ImageF p = load_disparity_map(pfm);
  CHECK(std::isinf(p.at(59, 0)));
  CHECK(std::isnan(p.at(58, 0)));
  CHECK(p.at(10, 0) == d.at(10, 0));

  // 8-bit PNG: refused without a scale; with one value / scale, 0 -> NaN.
  ImageU8 g(4, 2, 1, 32);
  g.at(0, 0) = 0;
  save_image(dir.file("g.png"), g);
  const std::string m = msg([&] { load_disparity_map(dir.file("g.png")); });
  CHECK(one_line(m));
  CHECK(has(m, "g.png' is an 8-bit PNG"));
  const ImageF s = load_disparity_map(dir.file("g.png"), 16.0);
  CHECK(s.at(1, 0) == 2.0f);
  CHECK(std::isnan(s.at(0, 0)));

  // Other refusals, each naming the file; nothing written by a refused save.
  CHECK(has(msg([&] { load_disparity_map(dir.file("none.png")); }), "none.png': no such file"));
  save_image(dir.file("g.bmp"), g);
  CHECK(has(msg([&] { load_disparity_map(dir.file("g.bmp")); }), "use .pfm"));
  save_pfm(dir.file("c.pfm"), ImageF(2, 2, 3, 1.0f));
  CHECK(has(msg([&] { load_disparity_map(dir.file("c.pfm")); }), "c.pfm' has 3 channels"));
  CHECK(has(msg([&] { save_kitti_disparity(dir.file("x.pfm"), d); }), "x.pfm"));
  CHECK(has(msg([&] { save_kitti_disparity(dir.file("y.png"), ImageF(2, 2, 3, 1.0f)); }), "one channel"));
  CHECK_FALSE(fs::exists(dir.file("x.pfm")));
  CHECK_FALSE(fs::exists(dir.file("y.png")));
}
