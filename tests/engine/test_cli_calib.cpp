// lightbench-cli on general micro-lens grids: --preset hex-small and --raw --calib FILE.xml
// (a generated raw with its written calibration; the real R42 crop when ../shared is present)
// run render, depth and render --views on plenoptic-hex; the report names the geometry and the
// offset fit; broken calibrations and misplaced flags are one line with nothing written.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include "../shared_data.hpp"
#include "calib_xml.hpp"
#include "cli_runner.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "lightbench/plenoptic_views.hpp"
#include "test_util.hpp"

using namespace lb;
namespace fs = std::filesystem;

namespace {

const HexScene& hex_small() {
  static const HexScene s = generate_hex_scene(hex_generator_preset("hex-small"));
  return s;
}

// The hex-small raw and an XML of its geometry in dir (raw.png, raw.xml).
void write_calibrated(const lbt::TempDir& dir) {
  save_image(dir.file("raw.png"), hex_small().raw);
  lbt::spit(dir.file("raw.xml"), lbt::calib_xml_of(hex_small().params.mla));
}

// Standard deviation of the first channel: a render that is not flat.
double spread(const ImageU8& img) {
  double s = 0, s2 = 0;
  const std::size_t n = img.pixels();
  for (std::size_t i = 0; i < n; ++i) {
    const double v = img.data[i * img.channels];
    s += v;
    s2 += v * v;
  }
  return std::sqrt(std::max(0.0, s2 / n - (s / n) * (s / n)));
}

std::string r42_dir() { return lb_shared_data_dir() + "/plenoptic/raytrix-r42"; }
bool have_r42() {
  return fs::exists(r42_dir() + "/sc2_klein.png") && fs::exists(r42_dir() + "/sc2_klein.xml");
}

}  // namespace

TEST_CASE("cli hex-small: render and depth run plenoptic-hex; the report names the geometry") {
  lbt::TempDir dir("cli_hex");
  const std::string view = dir.file("v.png"), json = dir.file("r.json");
  auto r = lbt::run_cli("render --preset hex-small --patch 9 --backend cpu --out " + view + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const ImageU8 img = load_image(view);
  const HexFrame f = hex_frame(MlaLayout(hex_small().params.mla), 360, 300, 9);
  CHECK(img.width == f.width);
  CHECK(img.height == f.height);
  CHECK(spread(img) > 10.0);
  auto j = lbt::read_json(json);
  CHECK(j["algorithm"] == "plenoptic-hex");
  const auto& g = j["parameters"]["geometry"];
  CHECK(g["kind"] == "hexagonal");
  CHECK(g["diameter"].get<double>() == 24.0);
  CHECK(g["offset"][0].get<double>() == doctest::Approx(12.3));
  REQUIRE(g["types"].size() == 3);
  CHECK(g["types"][1]["depth_min"].get<double>() == doctest::Approx(2.8));
  CHECK_FALSE(j["parameters"].contains("grid"));  // the placeholder grid is not reported
  CHECK(j["parameters"]["render"]["patch"] == 9);
  CHECK(j["parameters"]["render"].contains("rings"));

  const std::string depth = dir.file("d.pfm"), dj = dir.file("d.json");
  r = lbt::run_cli("depth --preset hex-small --patch 8 --backend cpu --out " + depth + " --json " + dj);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const ImageF d = load_pfm(depth);
  CHECK(d.width == hex_frame(MlaLayout(hex_small().params.mla), 360, 300, 8).width);
  j = lbt::read_json(dj);
  CHECK(j["algorithm"] == "plenoptic-hex");
  CHECK(j["ground_truth"] == "truth at M=8");  // the preset's truth at the asked M: scored
  CHECK(j["scores"].size() > 0);
  // Without --patch the truth is made at the depth's default M, so the map is scored too.
  r = lbt::run_cli("depth --preset hex-small --backend cpu --out " + depth + " --json " + dj);
  INFO(r.output);
  REQUIRE(r.status == 0);
  j = lbt::read_json(dj);
  CHECK(j["ground_truth"] == "truth at M=11");
  CHECK(j.contains("exact_pct"));
}

TEST_CASE("cli hex-small: render --views 3x3 writes the engine's hexagonal views") {
  lbt::TempDir dir("cli_hex_views");
  const std::string lf_dir = dir.file("lf"), json = dir.file("r.json");
  const auto r = lbt::run_cli("render --preset hex-small --patch 8 --views 3x3 --out " + lf_dir + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const LightField4D got = load_lightfield(lf_dir);
  PlenopticScene scene = to_scene(generate_hex_scene(hex_generator_preset("hex-small")), "hex-small");
  ViewGridOptions o;
  o.patch = 8;
  const LightField4D want = plenoptic_view_grid(scene, 3, 3, o);
  REQUIRE(got.nu == 3);
  CHECK(got.width == want.width);
  CHECK(got.view(0, 0).data == want.view(0, 0).data);
  CHECK(got.view(2, 1).data == want.view(2, 1).data);
  CHECK(got.view(0, 0).data != got.view(2, 2).data);  // the views differ (parallax)
  const auto j = lbt::read_json(json);
  CHECK(j["algorithm"] == "plenoptic-hex");
  CHECK(j["parameters"]["views"]["max_step"].get<double>() == doctest::Approx((24.0 - 8) / 2));
  CHECK_FALSE(j["parameters"]["render"].contains("lim"));
  CHECK(j["parameters"]["render"].contains("rings"));
  // The general grid's own parameters reach every view.
  const auto r2 = lbt::run_cli("render --preset hex-small --patch 8 --views 2x2 --rings 2 --out " + dir.file("lf2") +
                               " --json " + json);
  INFO(r2.output);
  REQUIRE(r2.status == 0);
  CHECK(lbt::read_json(json)["parameters"]["render"]["rings"] == 2);
  o.lim = 2;  // lim carries the rings on a general grid
  CHECK(load_lightfield(dir.file("lf2")).view(1, 1).data == plenoptic_view_grid(scene, 2, 2, o).view(1, 1).data);
}

TEST_CASE("cli --raw --calib: a raw with its written calibration opens on its geometry") {
  lbt::TempDir dir("cli_calib");
  write_calibrated(dir);
  const std::string view = dir.file("v.png"), json = dir.file("r.json");
  auto r = lbt::run_cli("render --raw " + dir.file("raw.png") + " --calib " + dir.file("raw.xml") +
                        " --patch 9 --backend cpu --out " + view + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(load_image(view).width == hex_frame(MlaLayout(hex_small().params.mla), 360, 300, 9).width);
  auto j = lbt::read_json(json);
  CHECK(j["algorithm"] == "plenoptic-hex");
  const auto& c = j["parameters"]["calibration"];
  CHECK(c["fit"] == "auto");
  CHECK(c["fitted"] == false);  // the file is right: its offset stays
  CHECK(j["parameters"]["geometry"]["offset"][1].get<double>() == doctest::Approx(12.7));
  // --fit-grid on: the fitted offset, reported with its shift (within the fit's precision).
  r = lbt::run_cli("render --raw " + dir.file("raw.png") + " --calib " + dir.file("raw.xml") +
                   " --fit-grid on --patch 9 --backend cpu --out " + dir.file("v2.png") + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  j = lbt::read_json(json);
  CHECK(j["parameters"]["calibration"]["fitted"] == true);
  CHECK(std::hypot(j["parameters"]["calibration"]["shift"][0].get<double>(),
                   j["parameters"]["calibration"]["shift"][1].get<double>()) < 1.0);
  // depth on the same pair.
  r = lbt::run_cli("depth --raw " + dir.file("raw.png") + " --calib " + dir.file("raw.xml") +
                   " --backend cpu --out " + dir.file("d.pfm"));
  INFO(r.output);
  CHECK(r.status == 0);
}

TEST_CASE("cli --calib: broken files and misplaced flags are one line, nothing written") {
  lbt::TempDir dir("cli_calib_bad");
  write_calibrated(dir);
  lbt::spit(dir.file("junk.xml"), "<RayCalibData><diameter>abc</diameter>");
  save_image(dir.file("tiny.png"), ImageU8(16, 16, 3, 90));
  const std::string raw = " --raw " + dir.file("raw.png"), out = dir.file("o.png");
  struct Case {
    std::string args, says;
  };
  const Case cases[] = {
      {raw + " --calib " + dir.file("junk.xml"), "junk.xml"},
      {raw + " --calib " + dir.file("none.xml"), "none.xml"},
      {" --raw " + dir.file("tiny.png") + " --calib " + dir.file("raw.xml"), "no whole lens"},
      {" --calib " + dir.file("raw.xml"), "needs --raw"},
      {" --preset hex-small --calib " + dir.file("raw.xml"), "needs --raw"},
      {raw + " --calib " + dir.file("raw.xml") + " --pitch 24", "--pitch"},
      {raw + " --calib " + dir.file("raw.xml") + " --fit-grid maybe", "--fit-grid 'maybe'"},
      {raw + " --pitch 24 --fit-grid on", "--fit-grid applies to --calib"},
      {raw + " --calib " + dir.file("raw.xml") + " --lim 2", "--lim does not apply"},
      {" --preset tiny --rings 2", "--rings does not apply"},
      {" --preset hex-small --pitch 20", "--pitch applies to --raw only"},
  };
  for (const Case& c : cases) {
    for (const std::string cmd : {"render", "depth"}) {
      const auto r = lbt::run_cli(cmd + c.args + " --backend cpu --out " + out);
      CAPTURE(cmd);
      CAPTURE(c.args);
      INFO(r.output);
      CHECK(r.status != 0);
      CHECK(lbt::count_lines(r.output) == 1);
      CHECK(r.output.find(c.says) != std::string::npos);
      CHECK_FALSE(fs::exists(out));
    }
  }
  const auto v = lbt::run_cli("render" + raw + " --calib " + dir.file("junk.xml") + " --views 3x3 --out " +
                              dir.file("lf"));
  CHECK(v.status != 0);
  CHECK(lbt::count_lines(v.output) == 1);
  CHECK_FALSE(fs::exists(dir.file("lf")));
}

TEST_CASE("cli --calib on the R42 crop: render, depth, views (when ../shared is present)") {
  if (!have_r42()) {
    MESSAGE("skipped: " << r42_dir() << " not present");
    return;
  }
  lbt::TempDir dir("cli_r42");
  const std::string in = " --raw " + r42_dir() + "/sc2_klein.png --calib " + r42_dir() + "/sc2_klein.xml";
  const std::string json = dir.file("r.json");
  auto r = lbt::run_cli("render" + in + " --backend cpu --out " + dir.file("v.png") + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const ImageU8 img = load_image(dir.file("v.png"));
  CHECK(img.width > 200);
  CHECK(spread(img) > 10.0);
  auto j = lbt::read_json(json);
  CHECK(j["algorithm"] == "plenoptic-hex");
  CHECK(j["parameters"]["geometry"]["diameter"].get<double>() == doctest::Approx(34.8647).epsilon(1e-4));
  CHECK(j["parameters"]["calibration"]["fitted"] == true);  // the crop's grid is ~6 px off the file's
  r = lbt::run_cli("depth" + in + " --backend cpu --out " + dir.file("d.png"));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(fs::exists(dir.file("d.png")));
  r = lbt::run_cli("render" + in + " --views 3x3 --out " + dir.file("lf"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const LightField4D lf = load_lightfield(dir.file("lf"));
  CHECK(lf.nu == 3);
  CHECK(lf.width == img.width);
}
