// End-to-end tests of lightbench-cli as a user runs it: generate, render, JSON reports, and
// one-line errors with a non-zero exit status for bad input.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "lightbench/runners.hpp"
#include "lightbench/backend.hpp"
#include "lightbench/image_io.hpp"
#include "plenoptic/render_cpu.hpp"
#include "lightbench/scene_file.hpp"
#include "cli_runner.hpp"
#include "test_util.hpp"

using namespace lb;

// The runner is shared by the CLI suites (cli_runner.hpp).
using Run = lbt::CliRun;
using lbt::read_json;
using lbt::run_cli;

TEST_CASE("generate then render on the CPU backend reproduces the CPU reference") {
  lbt::TempDir dir("cli");
  const std::string scene = dir.file("scene");
  Run g = run_cli("generate --preset tiny --seed 9 --out " + scene + " --json " + dir.file("g.json"));
  INFO(g.output);
  REQUIRE(g.status == 0);
  CHECK(read_json(dir.file("g.json"))["command"] == "generate");

  const std::string out = dir.file("view.png");
  Run r = run_cli("render --scene " + scene + "/scene.json --patch 12 --view 2.5,-1 --lim 2 "
                  "--backend cpu --variant reference --out " + out + " --json " + dir.file("r.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);

  const PlenopticScene s = load_scene(scene + "/scene.json");
  RenderParams p = default_render_params(s.grid);
  p.patch = 12;
  p.view_x = 2.5f;
  p.view_y = -1.0f;
  const ImageU8 expect = render_cpu(to_rgba(s.raw), build_render_tables(s.grid, p, s.raw.width,
                                                                         s.raw.height));
  const ImageU8 got = load_image(out, 4);
  CHECK(got.same_shape(expect));
  CHECK(got.data == expect.data);

  const auto j = read_json(dir.file("r.json"));
  CHECK(j["backend"] == "cpu");
  CHECK(j["device"].get<std::string>().find("CPU") != std::string::npos);
  CHECK(j["parameters"]["render"]["patch"] == 12);
  CHECK(j["outputs"][0]["width"] == expect.width);
  CHECK(j["timings"]["render/cpu"]["count"] == 1);
  CHECK(j["timings"]["render/cpu"]["median_ms"].get<double>() > 0.0);
}

TEST_CASE("render from --raw with grid flags equals render from the scene file") {
  lbt::TempDir dir("cliraw");
  REQUIRE(run_cli("generate --preset tiny --out " + dir.file("s")).status == 0);
  // tiny: grid 14x10, pitch 34.5, offset 0.75,1.25
  Run a = run_cli("render --raw " + dir.file("s/raw.png") +
                  " --pitch 34.5 --offset 0.75,1.25 --grid 14,10 --backend cpu --out " +
                  dir.file("a.png"));
  INFO(a.output);
  REQUIRE(a.status == 0);
  Run b = run_cli("render --scene " + dir.file("s/scene.json") + " --backend cpu --out " +
                  dir.file("b.png"));
  REQUIRE(b.status == 0);
  CHECK(lbt::read_bytes(dir.file("a.png")) == lbt::read_bytes(dir.file("b.png")));
}

TEST_CASE("bad input: one clear line on stderr, non-zero exit, no file written") {
  lbt::TempDir dir("clibad");
  REQUIRE(run_cli("generate --preset tiny --out " + dir.file("s")).status == 0);
  const std::string scene = " --scene " + dir.file("s/scene.json");
  struct Case { std::string args, needle; };
  const Case cases[] = {
      {"render --raw " + dir.file("missing.png") + " --pitch 30 --out " + dir.file("o.png"), "no such file"},
      {"render" + scene + " --patch 0 --out " + dir.file("o.png"), "--patch: must be an integer >= 1, got '0'"},
      {"render" + scene + " --lim 9 --out " + dir.file("o.png"), "--lim: must be an integer in 0..4, got '9'"},
      // A kernel's name on the CPU backend: one rule for every algorithm (AlgorithmSpec::variant_for).
      {"render" + scene + " --backend cpu --variant sync --out " + dir.file("o.png"), "is a CUDA kernel"},
      {"render" + scene + " --view 1 --out " + dir.file("o.png"), "--view"},
      {"render" + scene + " --variant turbo --out " + dir.file("o.png"), "turbo"},
      {"render" + scene + " --backend gpu --out " + dir.file("o.png"), "gpu"},
      {"render" + scene + " --out " + dir.file("o.tiff"), ".tiff"},
      {"render --raw " + dir.file("s/raw.png") + " --pitch 34.5 --grid 40,40 --out " + dir.file("o.png"), "needs"},
      {"render --raw " + dir.file("s/raw.png") + " --out " + dir.file("o.png"), "--pitch"},
      {"render --raw " + dir.file("s/truth.pfm") + " --pitch 30 --out " + dir.file("o.png"), "truth.pfm"},
      {"generate --preset galaxy --out " + dir.file("g"), "galaxy"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const Run r = run_cli(c.args);
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK(r.output.find(c.needle) != std::string::npos);
    CHECK(lbt::count_lines(r.output) == 1);
  }
  CHECK_FALSE(std::filesystem::exists(dir.file("o.png")));
}

TEST_CASE("--backend cuda fails cleanly where CUDA is unusable") {
  std::string why;
  if (cuda_available(&why)) return;  // a GPU machine runs the GPU suites instead
  lbt::TempDir dir("clicuda");
  const Run r = run_cli("render --preset tiny --backend cuda --out " + dir.file("o.png"));
  CHECK(r.status != 0);
  std::string lower = r.output;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  CHECK(lower.find("cuda") != std::string::npos);
  CHECK(lbt::count_lines(r.output) == 1);
}
