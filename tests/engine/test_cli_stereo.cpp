// End-to-end test of `lightbench-cli stereo` as a user runs it: a synthetic two-plane pair
// with its ground truth on disk, PNG and PFM outputs, the JSON report's bad-pixel scores,
// the local-method placeholder, and one-line errors for bad input.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "shared_data.hpp"
#include "cli_runner.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/stereo_io.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {
void write_pair(const lbt::TempDir& dir, ImageF* gt_out) {
  ImageF gt;
  const stereo::StereoPair p = stereo::synthetic_two_plane_pair(64, 48, 2, 6, 17u, &gt, 3);
  save_image(dir.file("l.png"), p.left);
  save_image(dir.file("r.png"), p.right);
  // Middlebury-style truth: value = 16 * d.
  ImageU8 g(64, 48, 1);
  for (std::size_t i = 0; i < g.pixels(); ++i) g.data[i] = static_cast<std::uint8_t>(16 * gt.data[i]);
  save_image(dir.file("gt.png"), g);
  save_image(dir.file("all.png"), ImageU8(64, 48, 1, 255));
  if (gt_out) *gt_out = gt;
}
}  // namespace

TEST_CASE("stereo cli: bp on a synthetic pair, scored, PFM and PNG outputs, JSON report") {
  lbt::TempDir dir("stcli");
  ImageF gt;
  write_pair(dir, &gt);
  const std::string base = "stereo --left " + dir.file("l.png") + " --right " + dir.file("r.png") +
                           " --ndisp 8 --method bp --backend cpu --gt " + dir.file("gt.png") +
                           " --gt-scale 16 --mask-all " + dir.file("all.png");
  const auto r = lbt::run_cli(base + " --out " + dir.file("d.pfm") + " --json " + dir.file("r.json") +
                              " --error-map " + dir.file("err.png") + " --repeat 2");
  INFO(r.output);
  REQUIRE(r.status == 0);
  const ImageF d = load_pfm(dir.file("d.pfm"));
  CHECK(d.width == 64);
  CHECK(d.at(32, 24) == 6.0f);
  CHECK(d.at(60, 5) == 2.0f);
  const auto j = lbt::read_json(dir.file("r.json"));
  for (const char* key : {"bad1_nonocc", "bad1_all", "bad1_disc", "ms", "ms_total", "backend", "device", "variant",
                          "parameters"}) {
    CAPTURE(key);
    CHECK(j.contains(key));
  }
  CHECK(j["backend"] == "cpu");
  CHECK(j["variant"] == "reference");
  CHECK(j["bad1_all"].get<double>() < 10.0);
  CHECK(j["parameters"]["ndisp"] == 8);
  CHECK(j["timings"].contains("stereo/bp/cpu"));
  CHECK(std::filesystem::exists(dir.file("err.png")));
  // PNG output scaled for viewing: disparity 6 of 0..7 -> 6 * 255 / 7.
  const auto r2 = lbt::run_cli(base + " --out " + dir.file("d.png") + " --iterations 3 --levels 3 --sigma 0");
  INFO(r2.output);
  REQUIRE(r2.status == 0);
  const ImageU8 png = load_image(dir.file("d.png"));
  CHECK(png.at(32, 24) == 219);
}

TEST_CASE("stereo cli: the local method finds a shifted plane and reports its parameters") {
  lbt::TempDir dir("stcli");
  write_pair(dir, nullptr);
  const auto r = lbt::run_cli("stereo --left " + dir.file("l.png") + " --right " + dir.file("r.png") +
                              " --method local --backend cpu --ndisp 8 --radius 6 --out " + dir.file("d.pfm") +
                              " --json " + dir.file("r.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const ImageF d = load_pfm(dir.file("d.pfm"));
  CHECK(d.at(32, 24) == 6.0f);  // write_pair's plane sits at disparity 6
  const auto j = lbt::read_json(dir.file("r.json"));
  CHECK(j["method"] == "local");
  CHECK(j["parameters"]["radius"] == 6);
  CHECK(j["timings"].contains("stereo/local/reference"));
}

TEST_CASE("stereo cli bad input: one line, non-zero exit, no output written") {
  lbt::TempDir dir("stbad");
  write_pair(dir, nullptr);
  save_image(dir.file("small.png"), ImageU8(10, 10, 3));
  const std::string lr = "stereo --left " + dir.file("l.png") + " --right " + dir.file("r.png");
  const std::string out = " --out " + dir.file("d.pfm");
  const std::string cases[] = {
      "stereo --left " + dir.file("missing.png") + " --right " + dir.file("r.png") + out,
      "stereo --left " + dir.file("l.png") + " --right " + dir.file("small.png") + out,
      lr + " --ndisp 1" + out,
      lr + " --ndisp 100" + out,
      lr + " --lambda -1" + out,
      lr + " --levels 0" + out,
      lr + " --method sgm" + out,
      lr + " --gt " + dir.file("gt.png") + out,               // no --gt-scale
      lr + " --gt " + dir.file("gt.png") + " --gt-scale -2" + out,
      lr + " --gt " + dir.file("small.png") + " --gt-scale 16" + out,
      lr + " --variant registers" + out,                         // CUDA variant on the CPU backend
      lr + " --out " + dir.file("d.txt"),
      "stereo --scene " + dir.file("nowhere") + out,
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

// "auto" (BP's default variant) is the fastest kernel where one runs: the reference on the
// CPU; a named kernel there stays an error (above).
TEST_CASE("stereo cli: --variant auto on the CPU backend runs the reference") {
  lbt::TempDir dir("stauto");
  write_pair(dir, nullptr);
  const auto r = lbt::run_cli("stereo --left " + dir.file("l.png") + " --right " + dir.file("r.png") +
                              " --variant auto --backend cpu --out " + dir.file("d.pfm"));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(std::filesystem::exists(dir.file("d.pfm")));
  CHECK(r.output.find("reference") != std::string::npos);
}

TEST_CASE("stereo cli: --scene on the Middlebury data (when present)") {
  const std::string dir = lb_shared_data_dir() + "/stereo/tsukuba";
  if (!std::filesystem::exists(dir)) {
    MESSAGE("SKIPPED: no Middlebury data at " << dir);
    return;
  }
  lbt::TempDir tmp("stscene");
  const auto r = lbt::run_cli("stereo --scene " + dir + " --backend cpu --out " + tmp.file("d.png") + " --json " +
                              tmp.file("r.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = lbt::read_json(tmp.file("r.json"));
  CHECK(j["parameters"]["ndisp"] == 16);
  CHECK(j["bad1_nonocc"].get<double>() < 10.0);
}

// Issue 21, item 2: the same tsukuba data as a Middlebury 2001 folder and as a 2014 one
// (im0/im1, calib.txt with ndisp, disp0GT.pfm with inf where unknown, mask0nocc.png) scores
// the same; --layout forces a layout in a folder that holds both; an ambiguous folder is
// refused in one line naming both files.
TEST_CASE("stereo cli: --scene in the Middlebury 2014 layout scores as the 2001 one (when present)") {
  namespace fs = std::filesystem;
  const fs::path src = lb_shared_data_dir() + "/stereo/tsukuba";
  if (!fs::exists(src)) {
    MESSAGE("SKIPPED: no Middlebury data at " << src.string());
    return;
  }
  lbt::TempDir tmp("stlayout");
  const fs::path a = tmp.path / "tsukuba", b = tmp.path / "t2014";
  fs::create_directories(a);
  fs::create_directories(b);
  for (const char* f : {"imL.png", "imR.png", "groundtruth.png", "mask_nonocc.png", "mask_all.png"})
    fs::copy_file(src / f, a / f);
  const stereo::StereoScene s = stereo::load_stereo_scene(a.string());
  fs::copy_file(src / "imL.png", b / "im0.png");
  fs::copy_file(src / "imR.png", b / "im1.png");
  std::ofstream(b / "calib.txt") << "cam0=[1 0 0; 0 1 0; 0 0 1]\nbaseline=1\nwidth=" << s.pair.left.width
                                 << "\nheight=" << s.pair.left.height << "\nndisp=16\n";
  ImageF gt = s.gt.disparity;
  for (float& v : gt.data)
    if (v == 0.0f) v = std::numeric_limits<float>::infinity();
  save_pfm((b / "disp0GT.pfm").string(), gt);
  ImageU8 m(s.pair.left.width, s.pair.left.height, 1);
  for (std::size_t i = 0; i < m.pixels(); ++i)
    m.data[i] = s.gt.mask_nonocc.data[i] == 255 ? 255 : s.gt.mask_all.data[i] == 255 ? 128 : 0;
  save_image((b / "mask0nocc.png").string(), m);

  const std::string run = " --method local --radius 3 --backend cpu --out " + tmp.file("d.pfm");
  const auto ra = lbt::run_cli("stereo --scene " + a.string() + run + " --json " + tmp.file("a.json"));
  INFO(ra.output);
  REQUIRE(ra.status == 0);
  const auto rb = lbt::run_cli("stereo --scene " + b.string() + run + " --json " + tmp.file("b.json"));
  INFO(rb.output);
  REQUIRE(rb.status == 0);
  const auto ja = lbt::read_json(tmp.file("a.json")), jb = lbt::read_json(tmp.file("b.json"));
  CHECK(ja["parameters"]["layout"] == "middlebury2001");
  CHECK(jb["parameters"]["layout"] == "middlebury2014");
  CHECK(jb["parameters"]["ndisp"] == 16);  // calib.txt's
  for (const char* k : {"bad1_nonocc", "bad1_all", "bad1_disc", "evaluated_pixels"}) {
    CAPTURE(k);
    REQUIRE(ja.contains(k));
    CHECK(ja[k] == jb[k]);
  }

  // Both layouts in one folder: refused naming both, unless --layout picks one.
  for (const char* f : {"im0.png", "im1.png", "calib.txt"}) fs::copy_file(b / f, a / f);
  const auto amb = lbt::run_cli("stereo --scene " + a.string() + run);
  CHECK(amb.status != 0);
  CHECK(lbt::count_lines(amb.output) == 1);
  CHECK(amb.output.find("imL.png") != std::string::npos);
  CHECK(amb.output.find("im0.png") != std::string::npos);
  const auto forced = lbt::run_cli("stereo --scene " + a.string() + " --layout middlebury2014" + run + " --json " +
                                   tmp.file("f.json"));
  INFO(forced.output);
  REQUIRE(forced.status == 0);
  CHECK(lbt::read_json(tmp.file("f.json"))["parameters"]["layout"] == "middlebury2014");
  const auto badl = lbt::run_cli("stereo --scene " + a.string() + " --layout kitti" + run);
  CHECK(badl.status != 0);
  CHECK(lbt::count_lines(badl.output) == 1);
  // A missing right image is named.
  fs::remove(b / "im1.png");
  const auto miss = lbt::run_cli("stereo --scene " + b.string() + run);
  CHECK(miss.status != 0);
  CHECK(lbt::count_lines(miss.output) == 1);
  CHECK(miss.output.find("im1.png") != std::string::npos);
}
