// The example algorithm (absdiff_algorithm.cpp) through the generated CLI: linked into
// lightbench-cli-example with no edit to any generic file, it must get its command, its
// options (--gain, --threshold), --variant, its output flags and a JSON report.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "lightbench/image_io.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {
float luma(const ImageU8& img, int x, int y) {
  return 0.299f * img.at(x, y, 0) + 0.587f * img.at(x, y, 1) + 0.114f * img.at(x, y, 2);
}

struct Pair {
  lbt::TempDir dir{"cli-example"};
  ImageU8 ref = lbt::random_image(40, 30, 3, 7), dst = lbt::random_image(40, 30, 3, 8);
  Pair() {
    save_image(dir.file("ref.png"), ref);
    save_image(dir.file("dst.png"), dst);
  }
  std::string args() const { return "absdiff --ref " + dir.file("ref.png") + " --dist " + dir.file("dst.png"); }
};
}  // namespace

TEST_CASE("example algorithm: the command, its options, variants and outputs are in --help") {
  const auto top = lbt::run_cli("--help");
  CHECK(top.status == 0);
  CHECK(top.output.find("absdiff") != std::string::npos);
  CHECK(top.output.find("example: absolute difference") != std::string::npos);
  const auto h = lbt::run_cli("absdiff --help");
  INFO(h.output);
  CHECK(h.status == 0);
  for (const char* word : {"--gain", "--threshold", "--variant", "--difference", "--ref", "--dist", "--json",
                           "--backend", "--repeat", "the CPU reference (the example has no CUDA runner)"})
    CHECK_MESSAGE(h.output.find(word) != std::string::npos, word);
}

TEST_CASE("example algorithm: options work, the difference map is exact, the report has params, scores, timings") {
  Pair p;
  const std::string pfm = p.dir.file("d.pfm"), png = p.dir.file("d.png"), js = p.dir.file("r.json");
  const auto r = lbt::run_cli(p.args() + " --gain 2 --threshold 3 --variant reference --repeat 2 --difference " +
                              pfm + " --json " + js);
  INFO(r.output);
  REQUIRE(r.status == 0);
  const ImageF d = load_pfm(pfm);
  REQUIRE(d.width == 40);
  REQUIRE(d.height == 30);
  double sum = 0;
  std::size_t changed = 0;
  for (int y = 0; y < 30; ++y)
    for (int x = 0; x < 40; ++x) {
      float want = std::fabs(2.0f * (luma(p.dst, x, y) - luma(p.ref, x, y)));
      if (want <= 3.0f) want = 0.0f;
      CHECK(d.at(x, y) == doctest::Approx(want).epsilon(1e-5));
      sum += want;
      changed += want > 0.0f;
    }
  const auto j = lbt::read_json(js);
  CHECK(j["command"] == "absdiff");
  CHECK(j["algorithm"] == "absdiff");
  CHECK(j["backend"] == "cpu");
  CHECK(j["variant"] == "reference");
  CHECK(j["parameters"]["gain"] == 2.0);
  CHECK(j["parameters"]["threshold"] == 3);
  CHECK(j["parameters"]["repeat"] == 2);
  CHECK(j["scores"]["mean_abs_diff"].get<double>() == doctest::Approx(sum / (40.0 * 30.0)).epsilon(1e-4));
  CHECK(j["scores"]["changed_pixels"] == changed);
  CHECK(j["timings"]["absdiff/difference"]["count"] == 2);
  CHECK(j["outputs"][0]["role"] == "difference");

  // An image file gets the map for viewing; an input output (--reference) the image itself.
  const auto r2 = lbt::run_cli(p.args() + " --difference " + png + " --reference " + p.dir.file("r.png"));
  INFO(r2.output);
  REQUIRE(r2.status == 0);
  CHECK(load_image(png).width == 40);
  CHECK(load_image(p.dir.file("r.png"), 3).data == p.ref.data);
}

TEST_CASE("example algorithm: bad values give one line and write nothing") {
  Pair p;
  const std::string out = " --difference " + p.dir.file("bad.pfm");
  struct Case {
    std::string args, needle;
  };
  const Case cases[] = {
      {" --gain 100", "--gain: must be a finite number in 0.0625..16, got '100'"},
      {" --gain abc", "--gain"},
      {" --threshold 256", "--threshold: must be an integer in 0..255, got '256'"},
      {" --threshold 1.5", "--threshold"},
      {" --variant turbo", "unknown variant 'turbo'"},
      {" --backend cuda", "cuda"},
      {" --difference " + p.dir.file("x.tiff"), ".tiff"},
  };
  for (const Case& c : cases) {
    const auto r = lbt::run_cli(p.args() + c.args + (c.args.find("--difference") == std::string::npos ? out : ""));
    INFO(c.args << " -> " << r.output);
    CHECK(r.status != 0);
    CHECK(r.output.find(c.needle) != std::string::npos);
    CHECK(lbt::count_lines(r.output) == 1);
  }
  CHECK_FALSE(std::filesystem::exists(p.dir.file("bad.pfm")));
}

TEST_CASE("example algorithm: the second variant (its file + one row) runs by name and equals the reference") {
  // An odd size: rows do not split evenly over the threads.
  lbt::TempDir dir{"cli-example-rows"};
  const ImageU8 ref = lbt::random_image(83, 61, 3, 21), dst = lbt::random_image(83, 61, 3, 22);
  save_image(dir.file("ref.png"), ref);
  save_image(dir.file("dst.png"), dst);
  const std::string args = "absdiff --ref " + dir.file("ref.png") + " --dist " + dir.file("dst.png") +
                           " --gain 1.5 --threshold 2 --backend cpu";
  const auto h = lbt::run_cli("absdiff --help");
  CHECK(h.output.find("the rows in parallel on the CPU's threads") != std::string::npos);
  const auto a = lbt::run_cli(args + " --variant reference --difference " + dir.file("a.pfm"));
  const auto b = lbt::run_cli(args + " --variant rows --difference " + dir.file("b.pfm") + " --json " +
                              dir.file("b.json"));
  INFO(a.output, b.output);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  const ImageF ma = load_pfm(dir.file("a.pfm")), mb = load_pfm(dir.file("b.pfm"));
  REQUIRE(ma.same_shape(mb));
  CHECK(ma.data == mb.data);  // bit for bit
  CHECK(lbt::read_json(dir.file("b.json"))["variant"] == "rows");
  // A name the table lacks: one line listing the table's names.
  const auto bad = lbt::run_cli(args + " --variant columns --difference " + dir.file("c.pfm"));
  CHECK(bad.status != 0);
  CHECK(bad.output.find("columns") != std::string::npos);
  CHECK(bad.output.find("rows") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("c.pfm")));
}

TEST_CASE("example algorithm: bench times both variants on its workload through its runner") {
  lbt::TempDir dir{"cli-example-bench"};
  const auto r = lbt::run_cli("bench absdiff --variant all --reps 3 --warmup 1 --json " + dir.file("b.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = lbt::read_json(dir.file("b.json"))["bench"];
  CHECK(j["workload"] == "small");
  REQUIRE(j["entries"].size() == 2);
  CHECK(j["entries"][0]["ran"] == "reference");
  CHECK(j["entries"][1]["ran"] == "rows");
  for (const auto& e : j["entries"]) CHECK(e["timings"]["absdiff/difference"]["count"] == 3);
}
