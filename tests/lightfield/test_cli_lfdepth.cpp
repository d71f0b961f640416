// End-to-end test of `lightbench-cli lfdepth` as a user runs it: a synthetic fronto-parallel
// light field with its ground truth on disk, the JSON report's HCI scores, and one-line
// errors for bad input.
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "test_util.hpp"

using namespace lb;

TEST_CASE("lfdepth on a synthetic plane: the report scores it against the folder's truth") {
  lbt::TempDir dir("lfcli");
  // 5x5 views of a textured plane at disparity 1.0 (label 15 of 21 over [-2, 2]).
  LightField4D lf = synthetic_plane_lightfield(61, 47, 5, 5, 1.0f, 11u);
  lf.gt = ImageF(lf.width, lf.height, 1, 1.0f);
  save_lightfield(dir.file("lf"), lf);
  const std::string out = dir.file("disp.pfm"), json = dir.file("lf.json");
  const auto r = lbt::run_cli("lfdepth --lf " + dir.file("lf") +
                              " --views 5 --labels 21 --drange -2,2 --method exact --backend cpu --refine none"
                              " --out " + out + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const ImageF disp = load_pfm(out);
  CHECK(disp.width == 61);
  CHECK(disp.height == 47);
  CHECK(disp.at(30, 23) == doctest::Approx(1.0f));
  std::ifstream f(json);
  const auto j = nlohmann::json::parse(f);
  for (const char* key : {"badpix_007", "badpix_003", "badpix_001", "mse_x100"}) {
    CAPTURE(key);
    REQUIRE(j.contains(key));
  }
  CHECK(j["badpix_007"].get<double>() < 5.0);
  CHECK(j["mse_x100"].get<double>() < 1.0);
  CHECK(j["backend"] == "cpu");
}

TEST_CASE("lfdepth --refine: the documented refine and unrefined keys, the refined map's scores on top") {
  lbt::TempDir dir("lfref");
  LightField4D lf = synthetic_plane_lightfield(41, 33, 3, 3, 1.0f, 5u);
  lf.gt = ImageF(lf.width, lf.height, 1, 1.0f);
  save_lightfield(dir.file("lf"), lf);
  const std::string json = dir.file("r.json");
  const auto r = lbt::run_cli("lfdepth --lf " + dir.file("lf") +
                              " --views 3 --labels 9 --drange -2,2 --backend cpu --refine subpixel --sgm off"
                              " --fusion fixed --repeat 2 --out " + dir.file("r.pfm") + " --raw-out " +
                              dir.file("raw.pfm") + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = lbt::read_json(json);
  CHECK(j["refine"]["mode"] == "subpixel");
  CHECK(j["refine"]["sgm"] == "off");
  CHECK(j["refine"]["fusion"] == "fixed");
  CHECK(j["refine"]["backend"] == "cpu");
  for (const char* k : {"defocus_ms", "normalize_ms", "filter_ms", "wta_ms", "gf_radius", "sgm_p1"}) {
    CAPTURE(k);
    CHECK(j["refine"].contains(k));
  }
  CHECK(j["timings"]["lfdepth/refine/normalize"]["count"] == 2);  // each repeat computed (forget_results)
  CHECK(j["unrefined"].contains("badpix_007"));
  CHECK(j["badpix_007"] == j["scores"]["refined"]["badpix_007"]);
  CHECK(j["parameters"]["semi_global"] == "off");  // one vocabulary: the contract's name
  CHECK(std::filesystem::exists(dir.file("raw.pfm")));
}

// Issue 39: with no refinement flag lfdepth writes the best map the product makes (the refined
// one, as the viewer shows) and its report says so; --refine none writes the raw WTA map and
// its report names no refinement parameter.
TEST_CASE("lfdepth: the default is the refined map; --refine none reports no refinement") {
  lbt::TempDir dir("lfdef");
  LightField4D lf = synthetic_plane_lightfield(41, 33, 3, 3, 1.0f, 7u);
  lf.gt = ImageF(lf.width, lf.height, 1, 1.0f);
  save_lightfield(dir.file("lf"), lf);
  const std::string common = "lfdepth --lf " + dir.file("lf") + " --views 3 --labels 9 --drange -2,2 --backend cpu";
  const auto d = lbt::run_cli(common + " --out " + dir.file("d.pfm") + " --json " + dir.file("d.json"));
  INFO(d.output);
  REQUIRE(d.status == 0);
  const auto jd = lbt::read_json(dir.file("d.json"));
  CHECK(jd["primary_output"] == "refined");
  CHECK(jd["refine"]["mode"] == "subpixel");
  CHECK(jd["parameters"]["refine_mode"] == "subpixel");
  CHECK(jd["unrefined"].contains("badpix_007"));
  CHECK(jd["badpix_007"] == jd["scores"]["refined"]["badpix_007"]);
  const auto s = lbt::run_cli(common + " --refine subpixel --out " + dir.file("s.pfm"));
  REQUIRE(s.status == 0);
  CHECK(load_pfm(dir.file("s.pfm")).data == load_pfm(dir.file("d.pfm")).data);  // the default IS subpixel

  const auto n = lbt::run_cli(common + " --refine none --out " + dir.file("n.pfm") + " --raw-out " +
                              dir.file("raw.pfm") + " --json " + dir.file("n.json"));
  INFO(n.output);
  REQUIRE(n.status == 0);
  const auto jn = lbt::read_json(dir.file("n.json"));
  CHECK(jn["primary_output"] == "depth");
  CHECK_FALSE(jn.contains("refine"));
  for (const char* k : {"refine_mode", "gf_radius", "median_iterations", "semi_global", "defocus_weight"}) {
    CAPTURE(k);
    CHECK_FALSE(jn["parameters"].contains(k));
  }
  CHECK(jn["parameters"].contains("labels"));
  CHECK(load_pfm(dir.file("n.pfm")).data == load_pfm(dir.file("raw.pfm")).data);
  CHECK(load_pfm(dir.file("n.pfm")).data != load_pfm(dir.file("d.pfm")).data);
}

// Wide-baseline light fields: the disparity range follows the light field (its width over the
// angular radius), not a fixed +-16 px.
TEST_CASE("lfdepth: --drange past 16 px is accepted within the light field's own bound") {
  lbt::TempDir dir("lfwide");
  LightField4D lf = synthetic_plane_lightfield(81, 21, 3, 3, 20.0f, 3u);
  save_lightfield(dir.file("lf"), lf);
  const std::string common = "lfdepth --lf " + dir.file("lf") + " --views 3 --labels 9 --backend cpu --refine none";
  const auto ok = lbt::run_cli(common + " --drange -24,24 --out " + dir.file("d.pfm"));
  INFO(ok.output);
  CHECK(ok.status == 0);
  const auto bad = lbt::run_cli(common + " --drange -200,24 --out " + dir.file("e.pfm"));
  CHECK(bad.status != 0);
  CHECK(bad.output.find("81") != std::string::npos);  // the bound: width 81 / radius 1
  CHECK(lbt::count_lines(bad.output) == 1);
}

TEST_CASE("lfdepth bad input: one line, non-zero exit, no output written") {
  lbt::TempDir dir("lfbad");
  LightField4D lf = synthetic_plane_lightfield(21, 17, 3, 3, 0.5f, 3u);
  save_lightfield(dir.file("lf"), lf);
  const std::string out = " --out " + dir.file("d.pfm");
  const std::string cases[] = {
      "lfdepth --lf " + dir.file("missing") + out,
      "lfdepth --lf " + dir.file("lf") + " --views 4" + out,
      "lfdepth --lf " + dir.file("lf") + " --views 5" + out,
      "lfdepth --lf " + dir.file("lf") + " --labels 0" + out,
      "lfdepth --lf " + dir.file("lf") + " --drange 2" + out,
      "lfdepth --lf " + dir.file("lf") + " --method fastest" + out,
  };
  for (const auto& c : cases) {
    CAPTURE(c);
    const auto r = lbt::run_cli(c + " --backend cpu");
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK(lbt::count_lines(r.output) == 1);
  }
  CHECK_FALSE(std::filesystem::exists(dir.file("d.pfm")));
}
