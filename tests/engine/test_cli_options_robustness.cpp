// Issue 10, options and folders: every bad option value, folder or ground truth gives a
// non-zero exit and one line naming the problem (no crash, no wrap, no silent default), and the
// odd-but-valid values at the limits still work. Inputs are made at test time.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {

// Exit 1 or 2.. (never a signal), one line, naming `needle`.
void expect_error(const std::string& args, const std::string& needle) {
  const auto r = lbt::run_cli(args);
  CAPTURE(args);
  INFO(r.output);
  CHECK(r.status >= 1);
  CHECK(r.status < 128);
  CHECK(lbt::count_lines(r.output) == 1);
  CHECK(r.output.find(needle) != std::string::npos);
  CHECK(r.output.find("lightbench-cli: error: ") == 0);
}

// A bench option error, or (in a build without CUDA) the one-line "needs a CUDA build".
void expect_ok(const std::string& args) {
  const auto r = lbt::run_cli(args);
  CAPTURE(args);
  INFO(r.output);
  CHECK(r.status == 0);
}

// A 5x5 light field of a plane (41x33 views) with a ground truth, as view_U_V.png.
std::string write_lf(const lbt::TempDir& dir, float gt_value) {
  LightField4D lf = synthetic_plane_lightfield(41, 33, 5, 5, 1.0f, 5u);
  lf.gt = ImageF(lf.width, lf.height, 1, gt_value);
  save_lightfield(dir.file("lf"), lf);
  return dir.file("lf");
}

}  // namespace

TEST_CASE("options: a mistyped command is named, with the list of commands") {
  expect_error("frobnicate --out x", "unknown command 'frobnicate' (commands: generate, generate-stereo, render");
  expect_error("", "no command given (commands: generate, generate-stereo, render");
}

TEST_CASE("options: negative, NaN, infinite, overflowing or out-of-range numbers are refused") {
  lbt::TempDir dir("opts");
  const std::string out = " --out " + dir.file("o.png");
  const std::string tiny = "render --preset tiny --backend cpu" + out;
  expect_error(tiny + " --lim -1", "--lim");               // was: silently the default
  expect_error(tiny + " --lim 5", "0..4");
  expect_error(tiny + " --patch -1", "--patch");
  expect_error(tiny + " --patch 1e302", "--patch");      // was: UB conversion to int
  expect_error(tiny + " --patch 99999999999999999999", "--patch");
  expect_error(tiny + " --sigma nan", "--sigma");
  expect_error(tiny + " --sigma inf", "--sigma");
  expect_error(tiny + " --sigma -1", "--sigma");         // was: silently the default
  expect_error(tiny + " --seed -1", "--seed");           // was: 2^64-1
  expect_error(tiny + " --grid 3,3", "--grid");          // was: ignored for a preset
  expect_error(tiny + " --offset 1,1", "--offset");
  expect_error("generate --preset tiny --seed -1 --out " + dir.file("g"), "--seed");
  expect_error("generate --preset tiny --seed 18446744073709551616 --out " + dir.file("g"), "--seed");
  expect_error("generate --preset tiny --truth-patch -5 --out " + dir.file("g"), "--truth-patch");
  expect_error("depth --preset tiny --backend cpu --pmin -1" + out, "--pmin");
  expect_error("depth --preset tiny --backend cpu --pmax nan" + out, "--pmax");
  expect_error("depth --preset tiny --backend cpu --aperture inf" + out, "--aperture");
  expect_error("depth --preset tiny --backend cpu --window -3" + out, "--window");
  expect_error("depth --preset tiny --backend cpu --repeat 0" + out, "--repeat");
  expect_error("stereo --left a.png --right b.png --ndisp 0" + out, "--ndisp");
  expect_error("stereo --left a.png --right b.png --ndisp -5" + out, "--ndisp");
  expect_error("stereo --left a.png --right b.png --gt-scale nan" + out, "--gt-scale");
  expect_error("stereo --left a.png --right b.png --repeat 1e9" + out, "--repeat");
  expect_error("lfdepth --lf x --labels -1 --out " + dir.file("d.pfm"), "--labels");
  expect_error("lfdepth --lf x --border -1 --out " + dir.file("d.pfm"), "--border");
  expect_error("lfdepth --lf x --views 2147483648 --out " + dir.file("d.pfm"), "--views");
  expect_error("lfdepth --lf x --grid -3x3 --out " + dir.file("d.pfm"), "--grid");
  expect_error("lfdepth --lf x --grid 99999999999x3 --out " + dir.file("d.pfm"), "--grid");
  expect_error("mad --ref a.png --dist b.png --repeat -1", "--repeat");
  expect_error("bench plenoptic --reps -1", "--reps");
  expect_error("bench plenoptic --warmup nan", "--warmup");
  expect_error("bench lightfield --workload nope", "no workload 'nope'");
  CHECK_FALSE(std::filesystem::exists(dir.file("o.png")));
}

TEST_CASE("options: a NaN pitch or offset of a raw is refused by name") {
  lbt::TempDir dir("optsraw");
  save_image(dir.file("raw.png"), lbt::random_image(64, 64, 3, 3u));
  const std::string base = "render --backend cpu --raw " + dir.file("raw.png") + " --out " + dir.file("o.png");
  expect_error(base + " --pitch nan", "--pitch");
  expect_error(base + " --pitch 1e-300", "--pitch");
  expect_error(base + " --pitch 16 --offset nan,0", "--offset");  // was: "grid -2147483648x..."
  expect_error(base + " --pitch 16 --offset -1,0", "--offset");
  expect_error(base + " --pitch 16 --offset 1e300,0", "--offset");
  // The limits themselves work.
  expect_ok(base + " --pitch 16 --grid 4,4 --patch 1 --lim 0");
  expect_ok(base + " --pitch 16 --grid 4,4 --patch 16 --lim 4 --sigma 16");  // sigma: 0.5..D (the table's)
}

TEST_CASE("options: valid values at the limits still work") {
  lbt::TempDir dir("optsok");
  expect_ok("generate --preset tiny --seed 18446744073709551615 --truth-patch 1 --out " + dir.file("g"));
  expect_ok("generate --preset tiny --seed 0 --out " + dir.file("g0"));
}

TEST_CASE("options: a scene file's nx that does not fit an int is refused, not wrapped") {
  lbt::TempDir dir("optsscene");
  REQUIRE(lbt::run_cli("generate --preset tiny --out " + dir.file("g")).status == 0);
  const std::string scene = dir.file("g/scene.json");
  nlohmann::json j = lbt::read_json(scene);
  expect_ok("render --scene " + scene + " --backend cpu --out " + dir.file("ok.png"));
  for (const auto& [key, value] : std::vector<std::pair<std::string, nlohmann::json>>{
           {"nx", 4294967297ull}, {"nx", -1}, {"ny", 2.5}, {"nx", "14"}, {"pitch", "x"}}) {
    CAPTURE(key);
    nlohmann::json bad = j;
    bad["grid"][key] = value;
    std::ofstream(dir.file("g/bad.json")) << bad.dump();
    expect_error("render --scene " + dir.file("g/bad.json") + " --backend cpu --out " + dir.file("o.png"), key);
  }
}

TEST_CASE("lfdepth --crop: overflowing or outside regions are refused; a 1x1 crop works") {
  lbt::TempDir dir("optscrop");
  const std::string lf = write_lf(dir, 1.0f);
  const std::string base = "lfdepth --lf " + lf + " --views 3 --labels 9 --drange -2,2 --backend cpu --out " +
                           dir.file("d.pfm");
  expect_error(base + " --crop 2147483647,0,10,10", "crop");  // was: SIGSEGV (x + w overflow)
  expect_error(base + " --crop 0,2147483647,10,2147483647", "crop");
  expect_error(base + " --crop 0,0,2147483648,1", "--crop");
  expect_error(base + " --crop -1,0,5,5", "--crop");
  expect_error(base + " --crop 40,0,2,1", "not inside");
  CHECK_FALSE(std::filesystem::exists(dir.file("d.pfm")));
  expect_ok(base + " --crop 20,16,1,1 --border 0");
  expect_ok(base + " --crop 40,32,1,1 --border 0");
}

TEST_CASE("lfdepth and stereo: a ground truth with nothing to evaluate is refused, not scored 0 %") {
  lbt::TempDir dir("optsgt");
  const std::string lf = write_lf(dir, std::numeric_limits<float>::quiet_NaN());
  expect_error("lfdepth --lf " + lf + " --views 3 --labels 9 --drange -2,2 --backend cpu --out " + dir.file("d.pfm"),
               "no valid");
  CHECK_FALSE(std::filesystem::exists(dir.file("d.pfm")));
  // Stereo: all-negative and all-NaN truths.
  save_image(dir.file("l.png"), lbt::random_image(40, 30, 3, 1u));
  save_image(dir.file("r.png"), lbt::random_image(40, 30, 3, 2u));
  for (float v : {-3.0f, std::numeric_limits<float>::quiet_NaN()}) {
    save_pfm(dir.file("gt.pfm"), ImageF(40, 30, 1, v));
    expect_error("stereo --left " + dir.file("l.png") + " --right " + dir.file("r.png") +
                     " --method local --backend cpu --ndisp 4 --gt " + dir.file("gt.pfm") + " --out " + dir.file("s.pfm"),
                 "no valid pixel");
    CHECK_FALSE(std::filesystem::exists(dir.file("s.pfm")));
  }
}

TEST_CASE("lfdepth: a folder that is not a complete grid is refused; --grid must fit") {
  lbt::TempDir dir("optslf");
  const LightField4D lf = synthetic_plane_lightfield(21, 17, 3, 3, 0.5f, 3u);
  // Numbered views 0..8 with view 4 missing.
  std::filesystem::create_directories(dir.file("num"));
  for (int i = 0; i < 9; ++i)
    if (i != 4) save_image(dir.file("num/" + std::to_string(i) + ".png"), lf.views[static_cast<std::size_t>(i)]);
  const std::string tail = " --views 3 --labels 5 --border 0 --backend cpu --out " + dir.file("d.pfm");
  expect_error("lfdepth --lf " + dir.file("num") + tail, "view 4 is missing (found 8 of 9");
  // view_U_V with a --grid that does not fit: refused, not ignored.
  save_lightfield(dir.file("uv"), lf);
  expect_error("lfdepth --lf " + dir.file("uv") + " --grid 1x9" + tail, "does not match");
  expect_ok("lfdepth --lf " + dir.file("uv") + " --grid 3x3" + tail);
  expect_ok("lfdepth --lf " + dir.file("uv") + tail);
}
