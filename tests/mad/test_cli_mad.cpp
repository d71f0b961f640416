// End-to-end test of `lightbench-cli mad`: a synthetic pair on disk, the score in the JSON
// report equal to the library's, maps written, one-line errors for bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "cli_runner.hpp"
#include "lightbench/distort.hpp"
#include "lightbench/image_io.hpp"
#include "mad/mad.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {
ImageU8 smooth_texture(int w, int h) {
  ImageU8 im(w, h, 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c)
        im.at(x, y, c) = static_cast<std::uint8_t>(120 + 60 * std::sin(x * 0.21 + c) * std::cos(y * 0.13) +
                                                   ((x / 9 + y / 7) % 2) * 40);
  return im;
}
}  // namespace

TEST_CASE("mad cli: score, report and maps of a synthetic pair") {
  lbt::TempDir dir("madcli");
  ImageU8 ref(96, 80, 3);  // gentle gradient: little masking, so the noise is visible
  for (int y = 0; y < 80; ++y)
    for (int x = 0; x < 96; ++x)
      for (int c = 0; c < 3; ++c) ref.at(x, y, c) = static_cast<std::uint8_t>(90 + x / 2 + y / 3 + 10 * c);
  const ImageU8 dst = distort_noise(ref, 12, 3);
  save_image(dir.file("ref.png"), ref);
  save_image(dir.file("dst.png"), dst);
  const std::string json = dir.file("mad.json");
  const auto r = lbt::run_cli("mad --ref " + dir.file("ref.png") + " --dist " + dir.file("dst.png") +
                              " --backend cpu --maps " + dir.file("maps") + " --json " + json);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = lbt::read_json(json);
  for (const char* key : {"mad", "d_detect", "d_appear", "timings", "backend", "device", "variant"}) {
    CAPTURE(key);
    CHECK(j.contains(key));
  }
  const MadResult want = mad_cpu(mad_gray(ref), mad_gray(dst));
  CHECK(j["mad"].get<double>() == doctest::Approx(want.mad).epsilon(1e-12));
  CHECK(j["d_appear"].get<double>() == doctest::Approx(want.d_appear).epsilon(1e-12));
  CHECK(j["mad"].get<double>() > 0);
  CHECK(j["backend"] == "cpu");
  CHECK(j["variant"] == "reference");
  const ImageF hi = load_pfm(dir.file("maps/hi.pfm"));
  CHECK(hi.width == 96);
  CHECK(hi.height == 80);
  CHECK(hi.at(40, 40) == doctest::Approx(want.hi.at(40, 40)).epsilon(1e-6));
  CHECK(std::filesystem::exists(dir.file("maps/lo.png")));
  CHECK(std::filesystem::exists(dir.file("maps/hi.png")));
}

TEST_CASE("mad cli: bad input gives one line and a non-zero exit") {
  lbt::TempDir dir("madbad");
  save_image(dir.file("a.png"), smooth_texture(64, 64));
  save_image(dir.file("b.png"), smooth_texture(64, 48));
  save_image(dir.file("s.png"), smooth_texture(30, 40));
  {
    std::ofstream f(dir.file("bad.png"));
    f << "not an image";
  }
  struct Case {
    std::string args, expect;
  };
  const Case cases[] = {
      {"--ref " + dir.file("a.png") + " --dist " + dir.file("b.png"), "sizes must match"},
      {"--ref " + dir.file("s.png") + " --dist " + dir.file("s.png"), "at least 34x34"},
      {"--ref " + dir.file("missing.png") + " --dist " + dir.file("a.png"), "missing.png"},
      {"--ref " + dir.file("a.png") + " --dist " + dir.file("bad.png"), "bad.png"},
      {"--ref " + dir.file("a.png") + " --dist " + dir.file("a.png") + " --variant gather", "variant"},  // a kernel (not the default) on the CPU
      // The default kernel's name with --backend cpu: not a run of that kernel either (issue 39).
      {"--ref " + dir.file("a.png") + " --dist " + dir.file("a.png") + " --variant fused", "is a CUDA kernel"},
      // --maps that cannot be made: refused before computing, nothing created.
      {"--ref " + dir.file("a.png") + " --dist " + dir.file("a.png") + " --maps " + dir.file("no/such/maps"),
       "--maps"},
      {"--ref " + dir.file("a.png") + " --dist " + dir.file("a.png") + " --maps " + dir.file("a.png"),
       "not a folder"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    const auto r = lbt::run_cli("mad " + c.args + " --backend cpu");
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK(r.output.find(c.expect) != std::string::npos);
    CHECK(lbt::count_lines(r.output) == 1);
    CHECK(r.output.find("d_detect") == std::string::npos);  // failed before the score was computed
  }
  CHECK_FALSE(std::filesystem::exists(dir.file("no")));
}

TEST_CASE("mad cli: a 16-bit PNG pair is converted to 8 bits (v/257), scored, and reported") {
  lbt::TempDir dir("madcli16");
  ImageU16 g(40, 40, 1);
  for (std::size_t i = 0; i < g.data.size(); ++i) g.data[i] = static_cast<std::uint16_t>(i * 37 + 255);
  save_png16(dir.file("a.png"), g);
  save_png16(dir.file("b.png"), g);
  const auto r = lbt::run_cli("mad --ref " + dir.file("a.png") + " --dist " + dir.file("b.png") +
                              " --backend cpu --json " + dir.file("m.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = lbt::read_json(dir.file("m.json"));
  CHECK(j["mad"].get<double>() == 0.0);  // the same image
  REQUIRE(j["inputs"].size() == 2);
  for (const auto& in : j["inputs"]) {
    CHECK(in["bit_depth"] == 16);
    CHECK(in["converted"] == "v/257");
  }
}
