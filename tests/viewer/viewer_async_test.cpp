// The viewer's runs off the UI thread, its honest headless runs and its algorithms from the
// registry (issue 20), each through the real viewer with --headless:
//   * a parameter driven (--script) while a long CPU run is in flight: the window keeps
//     drawing (the sidecar's frame times: p99 <= 50 ms), the run in flight is superseded,
//     and the final image is the last value's (equal to a fresh run at that value);
//   * a --stereo folder that cannot be opened fails the run (exit 1, "errors" in the sidecar);
//   * a Middlebury folder whose ground-truth scale is not known by name fails without
//     --gt-scale and, with --gt-scale 16, scores exactly as tsukuba does; the same pair as a
//     Middlebury 2014 folder beside imL.png is refused as ambiguous, and with --layout
//     middlebury2014 scores as tsukuba does;
//   * lightbench-example (the viewer + tests/example/absdiff_algorithm.cpp, registered with
//     one line) offers the example algorithm with its parameters and panes;
//   * a light-field folder dropped loads off the UI thread (issue 40): the window keeps drawing
//     while its views are read (slowed by --load-delay-ms), a cancelled load and a corrupt view
//     keep the light field shown before, the corrupt one with one line naming the file.
// Skips (77) when no EGL device gives an OpenGL 3.3 context.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <filesystem>
#include <string>

#include "headless_process.hpp"
#include "viewer_shot.hpp"
#include "lightbench/gl/egl_headless.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/stereo_io.hpp"
#include "shared_data.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using lb::test::quoted;

namespace {

std::string out_file(const std::string& name) { return lb::test::out_dir() + "/async_" + name; }

using lb::test::Shot;

Shot run(const std::string& exe, const std::string& name, const std::string& args) {
  return lb::test::run_shot(exe, out_file(name), args);
}

Shot viewer(const std::string& name, const std::string& args) { return run(lb::test::viewer_path(), name, args); }

// Pixels of pane A's image (at 1:1 under --pane-test) differing between two screenshots.
long pane_a_difference(const Shot& a, const Shot& b) {
  const json& pa = a.layout.at("panes").at(0);
  const json& pb = b.layout.at("panes").at(0);
  REQUIRE(pa.contains("image"));
  REQUIRE(pb.contains("image"));
  REQUIRE(pa.at("image") == pb.at("image"));  // same size, place and zoom
  const json& im = pa.at("image");
  const int ox = static_cast<int>(im.at("origin").at(0).get<double>());
  const int oy = static_cast<int>(im.at("origin").at(1).get<double>());
  const int w = std::min(im.at("width").get<int>(), a.png.width - ox);
  const int h = std::min(im.at("height").get<int>(), a.png.height - oy);
  long differing = 0;
  for (int y = std::max(0, oy); y < oy + h; ++y)
    for (int x = std::max(0, ox); x < ox + w; ++x)
      for (int c = 0; c < 3; ++c) differing += a.png.at(x, y, c) != b.png.at(x, y, c);
  return differing;
}

}  // namespace

TEST_CASE("a parameter changed while a long CPU run is in flight: frames keep coming, the last value wins") {
  // The light field's CPU refinement (seconds on 2 cores); gf_radius is one of its inputs.
  // Frame 1 starts the run at the default radius; 20 and 45 change it while it is in flight
  // (each supersedes the previous run); the screenshot waits for the last one.
  const std::string args = "--algorithm lightfield --pane-test --pane1 output=refined --pane2 output=centre";
  const Shot s = viewer("slider", args + " --frames 60 --script '20:gf_radius=9;45:gf_radius=5'");
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  const json& frames = s.layout.at("frames");
  MESSAGE("frames: " << frames.dump());
  CHECK(frames.at("count").get<int>() >= 50);
  CHECK(frames.at("busy").get<int>() >= 30);  // drawn while the runs were in flight
  CHECK(frames.at("p99_ms").get<double>() <= 50.0);
  const json& pane = s.layout.at("panes").at(0);
  CHECK(pane.at("error").get<std::string>().empty());
  CHECK(pane.at("computing").get<bool>() == false);
  CHECK(pane.at("params").at("gf_radius").get<double>() == 5.0);
  // The same output computed from scratch at the last value.
  const Shot fresh = viewer("slider_fresh", "--algorithm lightfield --pane-test --pane1 output=refined,gf_radius=5 "
                                            "--pane2 output=centre --frames 2");
  INFO("fresh log:\n" << fresh.log);
  REQUIRE(fresh.rc == 0);
  CHECK(fresh.layout.at("panes").at(0).at("params").at("gf_radius").get<double>() == 5.0);
  CHECK(pane_a_difference(s, fresh) == 0);
  CHECK(s.layout.at("results") == fresh.layout.at("results"));
}

TEST_CASE("headless: a --stereo folder that cannot be opened fails the run; the sidecar says why") {
  const Shot s = viewer("stereo_bad", "--stereo /nonexistent/stereo --frames 2");
  INFO("viewer log:\n" << s.log);
  CHECK(s.rc == 1);
  REQUIRE(s.layout.is_object());  // the screenshot of what was shown instead
  CHECK(s.layout.at("errors").dump().find("/nonexistent/stereo") != std::string::npos);
}

TEST_CASE("--gt-scale opens a Middlebury folder whose scale is not known by name") {
  const std::string tsukuba = lb_shared_data_dir() + "/stereo/tsukuba";
  if (!fs::exists(tsukuba + "/imL.png")) {
    MESSAGE("SKIPPED: " << tsukuba << " not found");
    return;
  }
  // The same files under a name with no built-in scale.
  const std::string dir = out_file("data/mystery_pair");
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(tsukuba))
    fs::copy_file(e.path(), dir + "/" + e.path().filename().string(), fs::copy_options::overwrite_existing);
  const std::string panes = " --pane1 output=bp_error --pane2 output=local_error --frames 2";
  const Shot without = viewer("gt_scale_missing", "--stereo " + quoted(dir) + panes);
  INFO("viewer log:\n" << without.log);
  CHECK(without.rc == 1);
  CHECK(without.log.find("--gt-scale") != std::string::npos);
  const Shot with = viewer("gt_scale", "--stereo " + quoted(dir) + " --gt-scale 16" + panes);
  const Shot known = viewer("gt_scale_tsukuba", "--stereo " + quoted(tsukuba) + panes);
  INFO("viewer logs:\n" << with.log << "\n" << known.log);
  REQUIRE(with.rc == 0);
  REQUIRE(known.rc == 0);
  const json& a = with.layout.at("results");
  const json& b = known.layout.at("results");
  for (const char* m : {"bp", "local"})
    for (const char* k : {"bad1_nonocc", "bad1_all", "bad1_disc"}) {
      INFO(m << " " << k);
      CHECK(a.at(m).at(k).get<double>() == b.at(m).at(k).get<double>());
    }

  // The same pair as a Middlebury 2014 folder (im0/im1, calib.txt, disp0GT.pfm with inf where
  // unknown, mask0nocc.png) next to imL.png: ambiguous without --layout, and with it scores
  // as tsukuba does (issue 21, item 2).
  const std::string d14 = out_file("data/tsukuba2014");
  fs::create_directories(d14);
  const lb::stereo::StereoScene sc = lb::stereo::load_stereo_scene(tsukuba);
  fs::copy_file(tsukuba + "/imL.png", d14 + "/im0.png", fs::copy_options::overwrite_existing);
  fs::copy_file(tsukuba + "/imR.png", d14 + "/im1.png", fs::copy_options::overwrite_existing);
  fs::copy_file(tsukuba + "/imL.png", d14 + "/imL.png", fs::copy_options::overwrite_existing);
  std::ofstream(d14 + "/calib.txt") << "width=" << sc.pair.left.width << "\nheight=" << sc.pair.left.height
                                    << "\nndisp=16\n";
  lb::ImageF gt = sc.gt.disparity;
  for (float& v : gt.data)
    if (v == 0.0f) v = INFINITY;
  lb::save_pfm(d14 + "/disp0GT.pfm", gt);
  lb::ImageU8 m(gt.width, gt.height, 1);
  for (std::size_t i = 0; i < m.pixels(); ++i)
    m.data[i] = sc.gt.mask_nonocc.data[i] == 255 ? 255 : sc.gt.mask_all.data[i] == 255 ? 128 : 0;
  lb::save_image(d14 + "/mask0nocc.png", m);
  const Shot amb = viewer("layout_ambiguous", "--stereo " + quoted(d14) + panes);
  INFO("viewer log:\n" << amb.log);
  CHECK(amb.rc == 1);
  CHECK(amb.log.find("choose one with --layout") != std::string::npos);  // dataset.hpp's ambiguity line
  const Shot forced = viewer("layout_2014", "--stereo " + quoted(d14) + " --layout middlebury2014" + panes);
  INFO("viewer log:\n" << forced.log);
  REQUIRE(forced.rc == 0);
  const json& c = forced.layout.at("results");
  for (const char* mth : {"bp", "local"})
    for (const char* k : {"bad1_nonocc", "bad1_all"}) {
      INFO(mth << " " << k);
      CHECK(c.at(mth).at(k).get<double>() == b.at(mth).at(k).get<double>());
    }
}

#ifdef LB_EXAMPLE_VIEWER
TEST_CASE("the example algorithm (one registration line) appears in the viewer with its parameters and panes") {
  const Shot s = run(LB_EXAMPLE_VIEWER, "example",
                     "--algorithm absdiff --pane1 output=difference,gain=2 --pane2 output=reference --frames 2");
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  CHECK(s.png.width == 960);
  CHECK(s.layout.at("algorithm").get<std::string>() == "example: absolute difference");
  std::string outputs;
  for (const json& o : s.layout.at("outputs")) outputs += o.at("name").get<std::string>() + " ";
  CHECK(outputs == "difference reference distorted ");
  const json& a = s.layout.at("panes").at(0);
  CHECK(a.at("error").get<std::string>().empty());
  REQUIRE(a.contains("image"));
  CHECK(a.at("params").at("gain").get<double>() == 2.0);
  CHECK(a.at("params").contains("threshold"));
  CHECK(a.at("params").at("variant").get<std::string>() == "reference");
  CHECK(s.layout.at("results").at("mean_abs_diff").get<double>() > 0.0);  // the bundled pair, blurred
  bool timed = false;
  for (const json& t : s.layout.at("timings")) timed |= t.at("name").get<std::string>() == "CPU/absdiff/difference";
  CHECK(timed);
  // --help lists it; the plain viewer does not know it.
  const auto help = lb::test::run_logged(quoted(LB_EXAMPLE_VIEWER) + " --help", out_file("example_help.log"));
  CHECK(help.log.find("absdiff: example: absolute difference") != std::string::npos);
  const Shot plain = viewer("example_plain", "--algorithm absdiff --frames 1");
  CHECK(plain.rc == 1);
}
#endif

TEST_CASE("--views 3x3: the plenoptic scene's views open in the light-field algorithm (the Scene button's path)") {
  const Shot s = viewer("views", "--preset tiny --patch 10 --views 3x3 --frames 3");
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  CHECK(s.layout.at("algorithm").get<std::string>().find("light field") != std::string::npos);
  const json& lf = s.layout.at("lightfield");
  CHECK(lf.at("layout") == "plenoptic");
  CHECK(lf.at("views") == json::array({3, 3}));
  CHECK(lf.at("size") == json::array({14 * 10, 10 * 10}));  // tiny: 14 x 10 micro-images at M = 10
  CHECK(lf.at("source").get<std::string>().find("tiny") != std::string::npos);
  CHECK(s.layout.at("errors").empty());
  // A bad grid is one line; the scene stays shown.
  const Shot bad = viewer("views_bad", "--preset tiny --views 0x3 --frames 1");
  CHECK(bad.rc == 1);
  REQUIRE(bad.layout.is_object());
  CHECK(bad.layout.at("errors").dump().find("--views expects UxV") != std::string::npos);
}

int main(int argc, char** argv) {
  std::string why;
  if (!lb::gl::HeadlessContext::create({}, &why))
    return lb::test::skip("no EGL device gives an OpenGL 3.3 context: " + why, lb::test::gpu_required());
  fs::create_directories(lb::test::out_dir());
  doctest::Context ctx;
  ctx.applyCommandLine(argc, argv);
  return ctx.run();
}

TEST_CASE("--latency-sweep: slider-to-pixels samples with their parts, one per pane result") {
  const Shot s = viewer("latency", "--preset tiny --latency-sweep 4 --frames 1");
  REQUIRE_MESSAGE(s.rc == 0, s.log);
  REQUIRE(s.layout.contains("latency"));
  const json& l = s.layout["latency"];
  CHECK(l["param"].get<std::string>() == "patch");  // the first parameter that changes a pane
  CHECK(l["changes"].get<int>() == 6);               // 2 warm-up + 4
  CHECK(l["count"].get<int>() >= 4);                  // every change reruns at least pane A
  const double total = l["total"]["p50_ms"], compute = l["compute"]["p50_ms"], draw = l["draw"]["p50_ms"];
  CHECK(compute > 0.0);
  CHECK(draw > 0.0);
  CHECK(total >= compute);
  CHECK(l["total"]["p99_ms"].get<double>() >= total);
  CHECK(s.log.find("lightbench: latency plenoptic patch") != std::string::npos);
  CHECK(s.log.find("\"samples\"") == std::string::npos);  // the samples are in the sidecar only
  // Every sample with its parts, in order: the slowest one is the summary's max.
  REQUIRE(l["samples"].is_array());
  CHECK(l["samples"].size() == l["count"].get<std::size_t>());
  double slowest = 0.0;
  for (const json& x : l["samples"]) {
    CHECK((x["pane"] == 0 || x["pane"] == 1));
    CHECK(x["total_ms"].get<double>() + 1e-3 >= x["compute_ms"].get<double>());
    CHECK(x["copy_ms"].get<double>() >= 0.0);
    slowest = std::max(slowest, x["total_ms"].get<double>());
  }
  CHECK(std::abs(slowest - l["total"]["max_ms"].get<double>()) <= 1e-3);  // samples kept to the us
  // A named parameter; one that does not exist, or the option without a screenshot, fail in one line.
  const Shot named = viewer("latency_named", "--preset tiny --latency-sweep 2 --latency-param sigma --frames 1");
  REQUIRE_MESSAGE(named.rc == 0, named.log);
  CHECK(named.layout["latency"]["param"].get<std::string>() == "sigma");
  const Shot bad = viewer("latency_bad", "--preset tiny --latency-sweep 2 --latency-param nope --frames 1");
  CHECK(bad.rc != 0);
  CHECK(bad.log.find("--latency-param: plenoptic: render & depth has no parameter 'nope'") != std::string::npos);
  const auto r = lb::test::run_logged(quoted(lb::test::viewer_path()) + " --headless --latency-sweep 3",
                                      out_file("latency_noshot.log"));
  CHECK(r.rc != 0);
  CHECK(r.log.find("--latency-sweep reports in the screenshot's sidecar") != std::string::npos);
}

TEST_CASE("a light-field folder loads off the UI thread; a cancelled or failed load keeps the old data") {
  // 5 x 5 views of 48 x 32; --load-delay-ms 200 makes each view take 200 ms (5 s in all).
  const std::string dir = out_file("data/lf_slow");
  fs::remove_all(dir);
  lb::LightField4D lf;
  lf.nu = lf.nv = 5;
  lf.width = 48;
  lf.height = 32;
  for (int i = 0; i < 25; ++i) {
    lb::ImageU8 v(48, 32, 3);
    for (std::size_t k = 0; k < v.data.size(); ++k) v.data[k] = static_cast<std::uint8_t>((k * 7 + 13 * i) % 251);
    lf.views.push_back(v);
  }
  lb::save_lightfield(dir, lf);
  const std::string base = "--algorithm lightfield --pane-test --pane1 output=centre --pane2 output=view ";
  const std::string bundled = viewer("load_none", base + "--frames 2").layout.at("lightfield").at("source");

  const Shot s = viewer("load_slow", base + "--drop " + quoted(dir) + " --load-delay-ms 200 --frames 5");
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  CHECK(s.layout.at("lightfield").at("source").get<std::string>() == dir);
  CHECK(s.layout.at("lightfield").at("views") == json::array({5, 5}));
  const json& frames = s.layout.at("frames");
  MESSAGE("frames: " << frames.dump());
  CHECK(frames.at("loading").get<int>() >= 30);  // drawn while the views were read (on the UI thread: ~1)
  CHECK(frames.at("p50_ms").get<double>() <= 50.0);
  CHECK(s.layout.at("errors").empty());

  // Cancelled at frame 20 (a third of a second into the 5 s load): the bundled light field
  // stays, and a cancel is no error.
  const Shot c = viewer("load_cancel", base + "--drop " + quoted(dir) + " --load-delay-ms 200 --cancel-load 20 --frames 30");
  INFO("viewer log:\n" << c.log);
  REQUIRE(c.rc == 0);
  CHECK(c.log.find("loads cancelled") != std::string::npos);
  CHECK(c.layout.at("lightfield").at("source").get<std::string>() == bundled);
  CHECK(c.layout.at("errors").empty());
  CHECK(c.layout.at("panes").at(0).at("error").get<std::string>().empty());

  // A corrupt view: one line naming it, the bundled light field shown, the scripted run fails.
  const std::string bad = out_file("data/lf_corrupt");
  fs::remove_all(bad);
  fs::copy(dir, bad);
  std::ofstream(bad + "/view_3_2.png", std::ios::binary | std::ios::trunc) << "\x89PNG\r\n\x1a\nnot a PNG";
  const Shot b = viewer("load_corrupt", base + "--drop " + quoted(bad) + " --frames 5");
  INFO("viewer log:\n" << b.log);
  CHECK(b.rc == 1);
  REQUIRE(b.layout.at("errors").size() == 1);
  const std::string err = b.layout.at("errors").at(0).get<std::string>();
  CHECK(err.find("view_3_2.png") != std::string::npos);
  CHECK(err.find('\n') == std::string::npos);
  CHECK(b.layout.at("lightfield").at("source").get<std::string>() == bundled);
}
