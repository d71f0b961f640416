// `lightbench-cli generate-stereo`: a folder of synthetic scenes that the Middlebury 2014
// loader opens with their truth and masks, and that BP scores well on (so batch / eval / the
// GPU check time real work), plus its one-line refusals.
#include <doctest/doctest.h>

#include <filesystem>

#include "cli_runner.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/stereo_io.hpp"
#include "test_util.hpp"

using namespace lb;

TEST_CASE("generate-stereo: scenes in the Middlebury 2014 layout, with truth and masks") {
  lbt::TempDir dir("genst");
  const auto r = lbt::run_cli("generate-stereo --out " + dir.file("set") + " --count 3 --size 61x33 --ndisp 16 --seed 4");
  REQUIRE_MESSAGE(r.status == 0, r.output);
  for (int i = 0; i < 3; ++i) {
    const std::string scene = dir.file("set/scene_00" + std::to_string(i));
    const stereo::StereoScene s = stereo::load_stereo_scene(scene);
    CHECK(s.layout == "middlebury2014");
    CHECK(s.suggested_ndisp == 16);
    CHECK(s.pair.left.width == 61);
    CHECK(s.pair.left.height == 33);
    REQUIRE(!s.gt.empty());
    // Every truth pixel known, below ndisp; the front plane nearer than the back one.
    float lo = 1e9f, hi = -1e9f;
    for (float v : s.gt.disparity.data) lo = std::min(lo, v), hi = std::max(hi, v);
    CHECK(lo > 0.0f);
    CHECK(hi < 16.0f);
    CHECK(hi > lo);
    // The left edge (x < d_back) has no match in the right view: occluded (128 -> only in "all").
    CHECK(s.gt.mask_nonocc.at(0, 0) == 0);
    CHECK(s.gt.mask_all.at(0, 0) == 255);
    CHECK(s.gt.mask_nonocc.at(60, 0) == 255);
  }
  // The scenes differ (seed and disparities vary with the index).
  const ImageU8 a = load_image(dir.file("set/scene_000/im0.png"));
  const ImageU8 b = load_image(dir.file("set/scene_001/im0.png"));
  CHECK(a.data != b.data);
}

TEST_CASE("generate-stereo: bad options are refused in one line, nothing written") {
  lbt::TempDir dir("genst2");
  for (const char* bad : {"--size 10x10", "--size 450", "--size 450x375x2", "--count 0", "--ndisp 4"}) {
    const auto r = lbt::run_cli(std::string("generate-stereo --out ") + dir.file("x") + " " + bad);
    CHECK_MESSAGE(r.status != 0, bad);
    CHECK_MESSAGE(lbt::count_lines(r.output) == 1, r.output);
    CHECK(!std::filesystem::exists(dir.file("x/scene_000")));
  }
  save_image(dir.file("file.png"), ImageU8(4, 4, 1));
  const auto r = lbt::run_cli("generate-stereo --out " + dir.file("file.png"));
  CHECK(r.status != 0);
  CHECK(r.output.find("not a folder") != std::string::npos);
}
