// 16-bit images through lightbench-cli (issue 39, item 3): a 16-bit PNG given to an input that
// computes on 8-bit values (stereo pairs, MAD's images, light-field views, a plenoptic raw) is
// converted, round(v / 257), never refused; the outputs equal those of the 8-bit files
// converted by the rule, and the JSON report says what each input held:
// inputs[i] = {role, path, bit_depth: 16, converted: "v/257"}; an 8-bit input: bit_depth 8, no
// "converted".
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/scene_file.hpp"
#include "lightbench/stereo_io.hpp"
#include "test_util.hpp"

using namespace lb;
namespace fs = std::filesystem;

namespace {

// `img` as a 16-bit PNG whose samples convert back to it exactly (v * 257 plus noise below the
// rounding step, so the file really uses its 16 bits).
void save_as16(const std::string& path, const ImageU8& img, unsigned seed) {
  ImageU16 w(img.width, img.height, img.channels);
  std::mt19937 rng(seed);
  for (std::size_t i = 0; i < img.data.size(); ++i)
    w.data[i] = static_cast<std::uint16_t>(std::clamp(img.data[i] * 257 + static_cast<int>(rng() % 257) - 128, 0, 65535));
  save_png16(path, w);
}

// inputs[] of a report: the entry of `role`.
nlohmann::json input_of(const nlohmann::json& j, const std::string& role) {
  REQUIRE(j.contains("inputs"));
  for (const auto& i : j["inputs"])
    if (i["role"] == role) return i;
  FAIL("no input of role " << role << " in " << j["inputs"].dump());
  return {};
}

void check_16bit(const nlohmann::json& in, const std::string& path) {
  CHECK(in["bit_depth"] == 16);
  CHECK(in["converted"] == "v/257");
  CHECK(in["path"] == path);
}

void check_8bit(const nlohmann::json& in, const std::string& path) {
  CHECK(in["bit_depth"] == 8);
  CHECK_FALSE(in.contains("converted"));
  CHECK(in["path"] == path);
}

}  // namespace

TEST_CASE("cli 16-bit: stereo on a 16-bit pair equals the 8-bit pair, and the report says so") {
  lbt::TempDir dir("cli16st");
  const stereo::StereoPair p = stereo::synthetic_plane_pair(48, 32, 3, 7u, 3);
  save_image(dir.file("l8.png"), p.left);
  save_image(dir.file("r8.png"), p.right);
  save_as16(dir.file("l16.png"), p.left, 1);
  save_as16(dir.file("r16.png"), p.right, 2);
  for (const char* method : {"local", "bp"}) {
    CAPTURE(method);
    const std::string base = std::string("stereo --method ") + method + " --backend cpu --ndisp 8";
    const auto a = lbt::run_cli(base + " --left " + dir.file("l8.png") + " --right " + dir.file("r8.png") +
                                " --out " + dir.file("a.pfm") + " --json " + dir.file("a.json"));
    INFO(a.output);
    REQUIRE(a.status == 0);
    const auto b = lbt::run_cli(base + " --left " + dir.file("l16.png") + " --right " + dir.file("r16.png") +
                                " --out " + dir.file("b.pfm") + " --json " + dir.file("b.json"));
    INFO(b.output);
    REQUIRE(b.status == 0);
    CHECK(lbt::read_bytes(dir.file("a.pfm")) == lbt::read_bytes(dir.file("b.pfm")));
    const auto ja = lbt::read_json(dir.file("a.json")), jb = lbt::read_json(dir.file("b.json"));
    CHECK(ja["inputs"].size() == 2);
    check_8bit(input_of(ja, "left"), dir.file("l8.png"));
    check_8bit(input_of(ja, "right"), dir.file("r8.png"));
    CHECK(jb["inputs"].size() == 2);
    check_16bit(input_of(jb, "left"), dir.file("l16.png"));
    check_16bit(input_of(jb, "right"), dir.file("r16.png"));
  }
  // A folder (Middlebury 2001 names) of 16-bit images: converted too.
  fs::create_directories(dir.path / "scene");
  save_as16(dir.file("scene/imL.png"), p.left, 3);
  save_as16(dir.file("scene/imR.png"), p.right, 4);
  const auto c = lbt::run_cli("stereo --method local --backend cpu --ndisp 8 --scene " + dir.file("scene") +
                              " --out " + dir.file("c.pfm") + " --json " + dir.file("c.json"));
  INFO(c.output);
  REQUIRE(c.status == 0);
  const auto jc = lbt::read_json(dir.file("c.json"));
  CHECK(input_of(jc, "left")["bit_depth"] == 16);
  CHECK(input_of(jc, "right")["converted"] == "v/257");
}

TEST_CASE("cli 16-bit: mad on 16-bit images equals the 8-bit pair, and the report says so") {
  lbt::TempDir dir("cli16mad");
  ImageU8 ref(64, 48, 3), dst(64, 48, 3);
  std::mt19937 rng(5);
  for (std::size_t i = 0; i < ref.data.size(); ++i) {
    ref.data[i] = static_cast<std::uint8_t>(60 + (i / 3) % 64 + (i % 3) * 20);
    dst.data[i] = static_cast<std::uint8_t>(std::clamp(ref.data[i] + static_cast<int>(rng() % 21) - 10, 0, 255));
  }
  save_image(dir.file("ref8.png"), ref);
  save_image(dir.file("dst8.png"), dst);
  save_as16(dir.file("ref16.png"), ref, 1);
  save_as16(dir.file("dst16.png"), dst, 2);
  const auto a = lbt::run_cli("mad --backend cpu --ref " + dir.file("ref8.png") + " --dist " + dir.file("dst8.png") +
                              " --json " + dir.file("a.json"));
  INFO(a.output);
  REQUIRE(a.status == 0);
  // One 16-bit, one 8-bit: accepted, each reported as it is.
  const auto b = lbt::run_cli("mad --backend cpu --ref " + dir.file("ref16.png") + " --dist " + dir.file("dst8.png") +
                              " --json " + dir.file("b.json"));
  INFO(b.output);
  REQUIRE(b.status == 0);
  const auto c = lbt::run_cli("mad --backend cpu --ref " + dir.file("ref16.png") + " --dist " + dir.file("dst16.png") +
                              " --json " + dir.file("c.json"));
  INFO(c.output);
  REQUIRE(c.status == 0);
  const auto ja = lbt::read_json(dir.file("a.json")), jb = lbt::read_json(dir.file("b.json")),
             jc = lbt::read_json(dir.file("c.json"));
  CHECK(ja["mad"] == jb["mad"]);
  CHECK(ja["mad"] == jc["mad"]);
  CHECK(ja["d_detect"] == jc["d_detect"]);
  CHECK(ja["d_appear"] == jc["d_appear"]);
  check_8bit(input_of(ja, "reference"), dir.file("ref8.png"));
  check_8bit(input_of(ja, "distorted"), dir.file("dst8.png"));
  check_16bit(input_of(jb, "reference"), dir.file("ref16.png"));
  check_8bit(input_of(jb, "distorted"), dir.file("dst8.png"));
  check_16bit(input_of(jc, "reference"), dir.file("ref16.png"));
  check_16bit(input_of(jc, "distorted"), dir.file("dst16.png"));
}

TEST_CASE("cli 16-bit: light-field views and a plenoptic raw in 16 bits run, reported") {
  lbt::TempDir dir("cli16lf");
  const LightField4D lf = synthetic_plane_lightfield(21, 17, 3, 3, 0.5f, 3u);
  save_lightfield(dir.file("lf8"), lf);
  fs::create_directories(dir.path / "lf16");
  for (int v = 0; v < 3; ++v)
    for (int u = 0; u < 3; ++u)
      save_as16(dir.file("lf16/view_" + std::to_string(u) + "_" + std::to_string(v) + ".png"), lf.view(u, v),
                static_cast<unsigned>(u + 3 * v));
  const std::string base = "lfdepth --backend cpu --views 3 --labels 5 --drange -1,1 --border 0";
  const auto a = lbt::run_cli(base + " --lf " + dir.file("lf8") + " --out " + dir.file("a.pfm") + " --json " + dir.file("a.json"));
  INFO(a.output);
  REQUIRE(a.status == 0);
  const auto b = lbt::run_cli(base + " --lf " + dir.file("lf16") + " --out " + dir.file("b.pfm") + " --json " + dir.file("b.json"));
  INFO(b.output);
  REQUIRE(b.status == 0);
  CHECK(lbt::read_bytes(dir.file("a.pfm")) == lbt::read_bytes(dir.file("b.pfm")));
  check_8bit(input_of(lbt::read_json(dir.file("a.json")), "views"), dir.file("lf8"));
  check_16bit(input_of(lbt::read_json(dir.file("b.json")), "views"), dir.file("lf16"));

  // A plenoptic raw: --raw and a scene.json's raw.
  const std::string json = save_scene(dir.file("s"), generate_scene(generator_preset("tiny", 1)));
  const ImageU8 raw = load_image(dir.file("s/raw.png"));
  save_as16(dir.file("raw16.png"), raw, 9);
  const std::string grid = " --pitch 34.5 --offset 0.75,1.25 --grid 14,10 --backend cpu";
  const auto r8 = lbt::run_cli("render --raw " + dir.file("s/raw.png") + grid + " --out " + dir.file("r8.png") +
                               " --json " + dir.file("r8.json"));
  INFO(r8.output);
  REQUIRE(r8.status == 0);
  const auto r16 = lbt::run_cli("render --raw " + dir.file("raw16.png") + grid + " --out " + dir.file("r16.png") +
                                " --json " + dir.file("r16.json"));
  INFO(r16.output);
  REQUIRE(r16.status == 0);
  CHECK(lbt::read_bytes(dir.file("r8.png")) == lbt::read_bytes(dir.file("r16.png")));
  check_8bit(input_of(lbt::read_json(dir.file("r8.json")), "raw"), dir.file("s/raw.png"));
  check_16bit(input_of(lbt::read_json(dir.file("r16.json")), "raw"), dir.file("raw16.png"));
  // A generated preset is made in memory: no inputs.
  const auto g = lbt::run_cli("render --preset tiny --backend cpu --out " + dir.file("g.png") + " --json " + dir.file("g.json"));
  INFO(g.output);
  REQUIRE(g.status == 0);
  CHECK(lbt::read_json(dir.file("g.json"))["inputs"].empty());
}
