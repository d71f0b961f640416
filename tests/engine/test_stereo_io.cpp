// Stereo files: pairs (RGBA -> RGB, sizes), Middlebury ground truth with a scale, PFM truth,
// masks, disparity output, scene folders, one-line errors; synthetic pairs.
#include <doctest/doctest.h>

#include <filesystem>

#include "shared_data.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/stereo_io.hpp"
#include "test_util.hpp"

using namespace lb;
using namespace lb::stereo;

TEST_CASE("stereo io: a pair loads, RGBA becomes RGB, gray stays gray") {
  lbt::TempDir dir("stio");
  save_image(dir.file("l.png"), lbt::random_image(13, 7, 4, 1));
  save_image(dir.file("r.png"), lbt::random_image(13, 7, 1, 2));
  const StereoPair p = load_stereo_pair(dir.file("l.png"), dir.file("r.png"));
  CHECK(p.left.channels == 3);
  CHECK(p.right.channels == 1);
  CHECK(p.left.width == 13);
  CHECK(p.name == "l");
}

TEST_CASE("stereo io: errors are one line naming the problem") {
  lbt::TempDir dir("stio");
  save_image(dir.file("l.png"), lbt::random_image(13, 7, 3, 1));
  save_image(dir.file("r.png"), lbt::random_image(12, 7, 3, 2));
  lbt::write_bytes(dir.file("bad.png"), {'n', 'o', 't', ' ', 'a', 'n', ' ', 'i', 'm', 'a', 'g', 'e'});
  auto msg = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string missing = msg([&] { load_stereo_pair(dir.file("nope.png"), dir.file("r.png")); });
  CHECK(missing.find("no such file") != std::string::npos);
  const std::string size = msg([&] { load_stereo_pair(dir.file("l.png"), dir.file("r.png")); });
  CHECK(size.find("13x7") != std::string::npos);
  CHECK(size.find("12x7") != std::string::npos);
  CHECK(msg([&] { load_stereo_pair(dir.file("bad.png"), dir.file("l.png")); }).find("bad.png") != std::string::npos);
  CHECK(msg([&] { load_stereo_gt(dir.file("l.png"), 0.0); }).find("--gt-scale") != std::string::npos);
  CHECK(msg([&] { load_stereo_gt(dir.file("l.png"), -3.0); }).find("--gt-scale") != std::string::npos);
  CHECK(msg([&] { load_stereo_mask(dir.file("l.png"), 5, 5); }).find("expected 5x5") != std::string::npos);
  CHECK(msg([&] { load_stereo_scene(dir.file("nodir")); }).find("no such folder") != std::string::npos);
  for (const std::string& m : {missing, size}) CHECK(m.find('\n') == std::string::npos);
}

TEST_CASE("stereo io: ground truth value / scale, 0 unknown; PFM as is; output round trip") {
  lbt::TempDir dir("stio");
  ImageU8 g(4, 2, 1);
  g.data = {0, 16, 32, 48, 255, 8, 0, 160};
  save_image(dir.file("gt.png"), g);
  const ImageF f = load_stereo_gt(dir.file("gt.png"), 16.0);
  CHECK(f.at(0, 0) == 0.0f);
  CHECK(f.at(1, 0) == 1.0f);
  CHECK(f.at(3, 0) == 3.0f);
  CHECK(f.at(1, 1) == 0.5f);
  CHECK(f.at(3, 1) == 10.0f);
  ImageF d(5, 3, 1, 2.5f);
  d.at(1, 2) = 7.25f;
  save_disparity(dir.file("d.pfm"), d);
  const ImageF back = load_stereo_gt(dir.file("d.pfm"), 0.0);  // scale unused for PFM
  CHECK(back.at(1, 2) == 7.25f);
  CHECK(back.at(0, 0) == 2.5f);
  save_disparity(dir.file("d.png"), d, 10.0f);
  const ImageU8 png = load_image(dir.file("d.png"));
  CHECK(png.channels == 1);
  CHECK(png.at(0, 0) == 64);   // 2.5 * 25.5 = 63.75
  CHECK(png.at(1, 2) == 185);  // 7.25 * 25.5 = 184.9
  CHECK_THROWS_AS(save_disparity(dir.file("d.txt"), d), Error);
}

TEST_CASE("stereo io: Middlebury scene folders (when the data is present)") {
  const std::string dir = lb_shared_data_dir() + "/stereo/tsukuba";
  if (!std::filesystem::exists(dir)) {
    MESSAGE("SKIPPED: no Middlebury data at " << dir);
    return;
  }
  const StereoScene s = load_stereo_scene(dir);
  CHECK(s.pair.name == "tsukuba");
  CHECK(s.pair.left.width == 384);
  CHECK(s.pair.left.height == 288);
  CHECK(s.gt_scale == 16.0);
  CHECK(s.suggested_ndisp == 16);
  REQUIRE_FALSE(s.gt.empty());
  CHECK_FALSE(s.gt.mask_nonocc.empty());
  CHECK_FALSE(s.gt.mask_disc.empty());
  float mx = 0;
  for (float v : s.gt.disparity.data) mx = std::max(mx, v);
  CHECK(mx <= 15.0f);
  CHECK(mx >= 10.0f);
}

TEST_CASE("stereo io: synthetic pairs match left(x) = right(x - d)") {
  ImageF gt;
  const StereoPair p = synthetic_two_plane_pair(40, 24, 3, 7, 5, &gt);
  CHECK(gt.at(0, 0) == 3.0f);
  CHECK(gt.at(20, 12) == 7.0f);
  CHECK(p.left.at(20, 12) == p.right.at(13, 12));
  CHECK(p.left.at(35, 2) == p.right.at(32, 2));
  const StereoPair q = synthetic_plane_pair(30, 10, 4, 9, 3);
  CHECK(q.left.channels == 3);
  for (int x = 4; x < 30; ++x) CHECK(q.left.at(x, 5, 1) == q.right.at(x - 4, 5, 1));
}

TEST_CASE("stereo io: a 16-bit PNG truth keeps every bit (value / scale), never cut to 8 bits") {
  lbt::TempDir dir("gt16");
  ImageU16 g(5, 3, 1);
  for (std::size_t i = 0; i < g.pixels(); ++i) g.data[i] = static_cast<std::uint16_t>(i * 4099 + 1);  // > 255
  g.data[7] = 0;  // unknown
  save_png16(dir.file("gt16.png"), g);
  const ImageF f = stereo::load_stereo_gt(dir.file("gt16.png"), 256.0);
  REQUIRE(f.width == 5);
  for (std::size_t i = 0; i < g.pixels(); ++i) CHECK(f.data[i] == doctest::Approx(g.data[i] / 256.0));
  CHECK(f.data[7] == 0.0f);
  // An 8-bit PNG through the same path gives what load_image gives.
  ImageU8 g8(4, 2, 1);
  for (std::size_t i = 0; i < g8.pixels(); ++i) g8.data[i] = static_cast<std::uint8_t>(30 * i + 3);
  save_image(dir.file("gt8.png"), g8);
  const ImageF f8 = stereo::load_stereo_gt(dir.file("gt8.png"), 16.0);
  for (std::size_t i = 0; i < g8.pixels(); ++i) CHECK(f8.data[i] == static_cast<float>(g8.data[i] / 16.0));
}
