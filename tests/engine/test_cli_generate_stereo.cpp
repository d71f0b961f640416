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

// Issue 39: a Middlebury 2014 folder with ndisp > 256 (Adirondack: 290) runs with both methods,
// its ndisp from calib.txt; the reference's own tau_disc (ndisp / 7.5) is accepted.
TEST_CASE("generate-stereo --ndisp 290: both stereo methods run the folder at its own ndisp") {
  lbt::TempDir dir("gen290");
  const auto g = lbt::run_cli("generate-stereo --out " + dir.file("set") + " --count 1 --size 301x16 --ndisp 290 --seed 2");
  REQUIRE_MESSAGE(g.status == 0, g.output);
  const std::string scene = dir.file("set/scene_000");
  for (const char* m : {"bp", "local"}) {
    CAPTURE(m);
    const std::string json = dir.file(std::string(m) + ".json");
    const auto r = lbt::run_cli(std::string("stereo --scene ") + scene + " --method " + m +
                                " --backend cpu --levels 2 --iterations 2 --out " + dir.file(std::string(m) + ".pfm") +
                                " --json " + json);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(lbt::read_json(json)["parameters"]["ndisp"] == 290);
  }
  const auto ref = lbt::run_cli("stereo --scene " + scene +
                                " --method bp --backend cpu --levels 2 --iterations 2 --lambda 0.1 --tau-data 15"
                                " --tau-disc 38.67 --sigma 0 --out " + dir.file("ref.pfm"));
  INFO(ref.output);
  CHECK(ref.status == 0);
  // Past the width: refused in one line naming the range from the data.
  const auto wide = lbt::run_cli("stereo --scene " + scene + " --method bp --backend cpu --ndisp 400 --out " +
                                 dir.file("w.pfm"));
  CHECK(wide.status != 0);
  CHECK(wide.output.find("301") != std::string::npos);
  CHECK(lbt::count_lines(wide.output) == 1);
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
