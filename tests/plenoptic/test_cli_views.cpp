// End-to-end test of `lightbench-cli render --views UxV --out DIR`: the folder holds exactly
// plenoptic_view_grid's views in the layout lfdepth reads, lfdepth runs on it, the report
// records the shifts, and bad values are one-line errors with nothing written.
#include <doctest/doctest.h>

#include <filesystem>

#include "cli_runner.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/plenoptic_views.hpp"
#include "test_util.hpp"

using namespace lb;
namespace fs = std::filesystem;

namespace {
void check_same(const LightField4D& got, const LightField4D& want) {
  REQUIRE(got.nu == want.nu);
  REQUIRE(got.nv == want.nv);
  for (int v = 0; v < want.nv; ++v)
    for (int u = 0; u < want.nu; ++u) {
      CAPTURE(u);
      CAPTURE(v);
      CHECK(got.view(u, v).data == want.view(u, v).data);
    }
}
}  // namespace

TEST_CASE("render --views 3x3: the engine's views, lfdepth reads them and gives a depth map") {
  lbt::TempDir dir("views");
  const std::string lf_dir = dir.file("lf"), json = dir.file("r.json");
  const auto r = lbt::run_cli("render --preset tiny --patch 10 --views 3x3 --out " + lf_dir + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const LightField4D got = load_lightfield(lf_dir);
  CHECK(got.layout == "grid-uv");
  const GeneratedScene scene = generate_scene(generator_preset("tiny", 1));
  ViewGridOptions o;
  o.patch = 10;
  check_same(got, plenoptic_view_grid(scene.raw, scene.params.grid, 3, 3, o));

  const auto j = lbt::read_json(json);
  CHECK(j["command"] == "render");
  CHECK(j["parameters"]["render"]["patch"] == 10);
  const auto& views = j["parameters"]["views"];
  CHECK(views["u"] == 3);
  CHECK(views["max_step"].get<double>() == doctest::Approx((34.5 - 10) / 2));  // N = 3: (D - M) / 2
  CHECK(views["step"].get<double>() == doctest::Approx(2.5));                   // default: M / 4, smaller
  REQUIRE(views["shifts"].size() == 9);
  CHECK(views["shifts"][0]["file"] == "view_0_0.png");
  CHECK(views["shifts"][0]["view_x"].get<double>() == doctest::Approx(2.5));
  CHECK(views["shifts"][8]["view_y"].get<double>() == doctest::Approx(-2.5));
  CHECK(views["shifts"][4]["view_x"].get<double>() == doctest::Approx(0.0));

  const std::string disp = dir.file("d.pfm");
  const auto d = lbt::run_cli("lfdepth --lf " + lf_dir + " --views 3 --labels 13 --drange -3,3 --backend cpu --out " +
                              disp);
  INFO(d.output);
  REQUIRE(d.status == 0);
  const ImageF map = load_pfm(disp);
  CHECK(map.width == 14 * 10);
  CHECK(map.height == 10 * 10);
}

TEST_CASE("render --raw --pitch --views 4x2 --view-step: the engine's views of that raw") {
  lbt::TempDir dir("views_raw");
  const GeneratedScene scene = generate_scene(generator_preset("tiny", 2));
  save_image(dir.file("raw.png"), scene.raw);
  const std::string lf_dir = dir.file("out");
  fs::create_directories(lf_dir);  // an existing folder takes the files too
  const auto r = lbt::run_cli("render --raw " + dir.file("raw.png") +
                              " --pitch 34.5 --offset 0.75,1.25 --grid 14,10 --patch 9 --views 4x2 --view-step 3 --out " +
                              lf_dir);
  INFO(r.output);
  REQUIRE(r.status == 0);
  ViewGridOptions o;
  o.patch = 9;
  o.step = 3;
  check_same(load_lightfield(lf_dir), plenoptic_view_grid(scene.raw, scene.params.grid, 4, 2, o));
}

TEST_CASE("render --views: bad values are one-line errors and nothing is written") {
  lbt::TempDir dir("views_bad");
  lbt::spit(dir.file("file.txt"), "x");
  const std::string out = " --out " + dir.file("lf");
  const std::pair<std::string, std::string> cases[] = {
      {"--views 0x3" + out, "--views expects UxV with U, V in 1..33, e.g. 5x5, got '0x3'"},
      {"--views 3" + out, "--views expects UxV"},
      {"--views 1000x1000" + out, "got '1000x1000'"},
      {"--views 3x3x3" + out, "got '3x3x3'"},
      {"--views 3x3 --out " + dir.file("file.txt"), "exists and is not a folder"},
      {"--views 3x3 --out " + dir.file("no/such"), "does not exist"},
      {"--views 3x3 --view 1,1" + out, "--view and --views exclude each other"},
      {"--views 3x3 --view-step 20" + out, "--view-step 20 out of range (0..11.75 raw pixels for 3 views at patch 11)"},
      {"--views 3x3 --view-step -1" + out, "--view-step must be >= 0"},
      {"--view-step 2 --out " + dir.file("a.png"), "--view-step needs --views UxV"},
      {"--views 3x3 --repeat 2" + out, "--repeat is not taken with --views"},
      {"--views 3x3 --patch 34" + out, "leaves no room for parallax"},
  };
  for (const auto& [args, message] : cases) {
    CAPTURE(args);
    const auto r = lbt::run_cli("render --preset tiny " + args);
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK(r.output.find(message) != std::string::npos);
    CHECK(lbt::count_lines(r.output) == 1);
  }
  CHECK_FALSE(fs::exists(dir.file("lf")));
  CHECK_FALSE(fs::exists(dir.file("a.png")));
}
