// lightbench-cli generate reads the bundled presets (assets/plenoptic/, embedded), and an
// override directory (--assets DIR, LB_ASSETS_DIR) replaces or adds presets; a malformed file
// is a one-line error naming the file and the key.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli_runner.hpp"
#include "lightbench/assets.hpp"
#include "test_util.hpp"

using lbt::read_json;
using lbt::run_cli;

namespace {
void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream f(path);
  f << text;
}
}  // namespace

TEST_CASE("generate: the preset's own seed and truth patch unless given") {
  lbt::TempDir dir("cliassets");
  const lbt::CliRun g = run_cli("generate --preset tiny --out " + dir.file("a") + " --json " + dir.file("a.json"));
  INFO(g.output);
  REQUIRE(g.status == 0);
  const auto j = read_json(dir.file("a.json"))["parameters"];
  CHECK(j["seed"] == 1);
  CHECK(j["truth_patch"] == 11);
  CHECK(j["grid"]["nx"] == 14);
  const lbt::CliRun h = run_cli("generate --preset tiny --seed 4 --truth-patch 9 --out " + dir.file("b") +
                                " --json " + dir.file("b.json"));
  REQUIRE(h.status == 0);
  CHECK(read_json(dir.file("b.json"))["parameters"]["seed"] == 4);
  CHECK(read_json(dir.file("b.json"))["parameters"]["truth_patch"] == 9);
}

TEST_CASE("generate --assets DIR: a preset from disk gives the same bytes as the bundled one") {
  lbt::TempDir dir("cliassets");
  // "mine" is tiny with seed 5.
  std::string text = lb::read_asset("plenoptic", "tiny").text;
  text.replace(text.find("\"seed\": 1"), 9, "\"seed\": 5");
  write_file(dir.path / "assets" / "plenoptic" / "mine.json", text);
  const lbt::CliRun a = run_cli("generate --preset mine --assets " + dir.file("assets") + " --out " +
                                dir.file("mine") + " --json " + dir.file("mine.json"));
  INFO(a.output);
  REQUIRE(a.status == 0);
  CHECK(read_json(dir.file("mine.json"))["parameters"]["seed"] == 5);
  REQUIRE(run_cli("generate --preset tiny --seed 5 --out " + dir.file("tiny")).status == 0);
  CHECK(lbt::read_bytes(dir.file("mine/raw.png")) == lbt::read_bytes(dir.file("tiny/raw.png")));
  CHECK(lbt::read_bytes(dir.file("mine/truth.pfm")) == lbt::read_bytes(dir.file("tiny/truth.pfm")));
  // Without the directory the name is unknown.
  const lbt::CliRun u = run_cli("generate --preset mine --out " + dir.file("x"));
  CHECK(u.status != 0);
  CHECK(u.output.find("unknown plenoptic asset 'mine'") != std::string::npos);
  CHECK(lbt::count_lines(u.output) == 1);
}

TEST_CASE("LB_ASSETS_DIR: a malformed preset is one line naming the file and the key") {
  lbt::TempDir dir("cliassets");
  std::string text = lb::read_asset("plenoptic", "tiny").text;
  text.replace(text.find("\"pitch\": 34.5"), 13, "\"pitch\": 2");
  const auto file = dir.path / "plenoptic" / "tiny.json";
  write_file(file, text);
  ::setenv("LB_ASSETS_DIR", dir.path.string().c_str(), 1);
  const lbt::CliRun r = run_cli("generate --preset tiny --out " + dir.file("x"));
  ::unsetenv("LB_ASSETS_DIR");
  INFO(r.output);
  CHECK(r.status != 0);
  CHECK(r.output.find(file.string() + ": 'grid.pitch': expected a number in 4..1024, got 2") != std::string::npos);
  CHECK(lbt::count_lines(r.output) == 1);
  CHECK_FALSE(std::filesystem::exists(dir.file("x")));
}

TEST_CASE("generate --preset hex-small: a hexagonal scene.json that plenoptic-hex opens and scores") {
  lbt::TempDir dir("cliassets");
  const lbt::CliRun g = run_cli("generate --preset hex-small --seed 3 --out " + dir.file("h") + " --json " +
                                dir.file("h.json"));
  INFO(g.output);
  REQUIRE(g.status == 0);
  CHECK(g.output.find("hexagonal grid, diameter 24, 3 lens types, truth 120x98 at M=8") != std::string::npos);
  const auto p = read_json(dir.file("h.json"))["parameters"];
  CHECK(p["seed"] == 3);
  CHECK(p["mla"]["types"].size() == 3);
  const auto scene = read_json(dir.file("h/scene.json"));
  CHECK(scene.contains("mla"));
  CHECK_FALSE(scene.contains("grid"));
  const lbt::CliRun r = run_cli("plenoptic-hex --scene " + dir.file("h/scene.json") +
                                " --patch 8 --pmin 5 --pmax 13 --depth " + dir.file("d.pfm") + " --json " +
                                dir.file("r.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(read_json(dir.file("r.json"))["scores"]["exact_pct"].get<double>() > 75.0);
  // The rectangular algorithm refuses it in one line.
  const lbt::CliRun q = run_cli("plenoptic --scene " + dir.file("h/scene.json") + " --view " + dir.file("v.png"));
  CHECK(q.status != 0);
  CHECK(q.output.find("micro-lens grid is hexagonal, 3 lens types: run the algorithm plenoptic-hex") !=
        std::string::npos);
  CHECK(lbt::count_lines(q.output) == 1);
}
