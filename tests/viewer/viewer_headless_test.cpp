// Headless viewer test: the real viewer with --headless (an EGL context on a device and an
// offscreen framebuffer, no display: Mesa's software device here, the NVIDIA one on the GPU
// machine) on every algorithm it offers. Each of an algorithm's outputs is shown in a pane
// (the defaults first, then the others two by two), a screenshot is taken, and the JSON
// sidecar must say:
//   * the run was headless; the framebuffer and the PNG have the requested size;
//   * every pane shows a drawn, non-empty image and no error; a pane showing a computed
//     output on the CPU backend came by host upload, one on the CUDA backend by
//     "CUDA-GL interop" (issue 9: every CUDA output reaches its pane through interop);
//   * the panel's scores (the sidecar's results) equal lightbench-cli's on the same data,
//     parameters and backend.
// Also: pane A at 1:1 (--pane-test) equals lb::render_cpu exactly (the FBO read-back), the
// resize test survives headless, and --headless without --screenshot is a usage error.
//
//   lb_test_viewer_headless [--backend cpu|cuda] [doctest options]
// CTest runs it with the CPU backend; scripts/gpu-check with LB_REQUIRE_GPU=1 --backend cuda.
// Skips (exit 77, "SKIPPED: ...") only when no EGL device gives an OpenGL 3.3 context;
// LB_REQUIRE_GPU=1 turns that into a failure.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "headless_process.hpp"
#include "lightbench/distort.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/gl/egl_headless.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "plenoptic/render_cpu.hpp"
#include "plenoptic/render_tables.hpp"
#include "shared_data.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using lb::test::quoted;

namespace {

std::string g_backend = "cpu";  // of every viewer and CLI run (--backend)
constexpr int kWidth = 960, kHeight = 600;

bool on_cuda() { return g_backend == "cuda"; }
std::string out_file(const std::string& name) { return lb::test::out_dir() + "/" + name; }

// ---------------------------------------------------------------------------------------
// The viewer

struct Shot {
  std::string name;
  int rc = -1;
  std::string log;
  json layout;
  lb::ImageU8 png;
};

Shot run_viewer(const std::string& name, const std::string& args, const std::string& size_args = "",
                int frames = 2) {
  Shot s;
  s.name = name;
  const std::string png = out_file(name + ".png");
  fs::remove(png);
  fs::remove(png + ".json");
  const std::string size =
      size_args.empty() ? " --size " + std::to_string(kWidth) + "x" + std::to_string(kHeight) : " " + size_args;
  const std::string cmd = quoted(lb::test::viewer_path()) + " --headless --backend " + g_backend + size +
                          " --frames " + std::to_string(frames) + " " + args + " --screenshot " + quoted(png);
  MESSAGE("running: " << cmd);
  const auto r = lb::test::run_logged(cmd, out_file(name + ".log"));
  s.rc = r.rc;
  s.log = r.log;
  if (fs::exists(png) && fs::exists(png + ".json")) {  // also written by a failed (rc 1) run
    s.png = lb::load_image(png, 3);
    s.layout = lb::test::read_json(png + ".json");
  }
  return s;
}

// Whether the pane shows a computed output (not an input) on the CUDA backend.
bool cuda_output(const json& layout, const json& pane) {
  if (!pane.contains("backend")) return false;  // an input: the data, no backend
  const std::string b = pane.at("backend").get<std::string>();
  return b == "cuda" || (b == "selected" && layout.at("backend").at("kind") == "cuda");
}

// Share of the visible image area of the pane showing neither the clear colour
// (glClearColor 0.08, 0.08, 0.09) nor the display shader's checkerboard for "no image here"
// (gray 0.11 / 0.14, shaders/image.frag): the image was drawn there.
double drawn_share(const Shot& s, const json& pane) {
  const json& im = pane.at("image");
  const json& rect = pane.at("rect");
  const double zoom = im.at("zoom").get<double>();
  const double ox = im.at("origin").at(0).get<double>(), oy = im.at("origin").at(1).get<double>();
  const int x0 = std::max({static_cast<int>(ox) + 1, rect.at(0).get<int>(), 0});
  const int y0 = std::max({static_cast<int>(oy) + 1, rect.at(1).get<int>(), 0});
  const int x1 = std::min({static_cast<int>(ox + im.at("width").get<int>() * zoom) - 1,
                           rect.at(0).get<int>() + rect.at(2).get<int>(), s.png.width});
  const int y1 = std::min({static_cast<int>(oy + im.at("height").get<int>() * zoom) - 1,
                           rect.at(1).get<int>() + rect.at(3).get<int>(), s.png.height});
  if (x1 <= x0 || y1 <= y0) return 0.0;
  const int background[3][3] = {{20, 20, 23}, {28, 28, 28}, {36, 36, 36}};
  long drawn = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      bool is_background = false;
      for (const auto& b : background) {
        int d = 0;
        for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(s.png.at(x, y, c)) - b[c]));
        is_background |= d <= 2;
      }
      drawn += !is_background;
    }
  return static_cast<double>(drawn) / (static_cast<double>(x1 - x0) * (y1 - y0));
}

void check_pane(const Shot& s, const json& pane) {
  const std::string output = pane.at("output").get<std::string>();
  INFO(s.name << ", pane " << pane.at("index").get<int>() << " (" << output << ")");
  CHECK(pane.at("error").get<std::string>().empty());
  REQUIRE(pane.contains("image"));
  CHECK(pane.at("image").at("width").get<int>() > 0);
  CHECK(pane.at("image").at("height").get<int>() > 0);
  const double drawn = drawn_share(s, pane);
  const std::string transport = pane.value("transport", "");
  MESSAGE(s.name << ": pane " << pane.at("index").get<int>() << " " << output << " ("
                 << pane.value("backend", "input") << "), " << transport << ", " << int(drawn * 100)
                 << "% of the image area drawn");
  CHECK(drawn > 0.5);
  if (cuda_output(s.layout, pane)) {
    CHECK(transport == "CUDA-GL interop");
  } else {
    CHECK(transport.rfind("host upload", 0) == 0);
  }
  if (on_cuda() && pane.contains("backend")) CHECK(cuda_output(s.layout, pane));
}

// The checks every run must pass: headless, the size, the backend, each pane.
void check_shot(const Shot& s) {
  INFO(s.name << " viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  REQUIRE(s.layout.is_object());
  CHECK(s.layout.at("window").get<std::string>().rfind("headless", 0) == 0);
  CHECK(s.layout.at("framebuffer").at("width").get<int>() == kWidth);
  CHECK(s.layout.at("framebuffer").at("height").get<int>() == kHeight);
  CHECK(s.png.width == kWidth);
  CHECK(s.png.height == kHeight);
  CHECK(s.layout.at("backend").at("kind").get<std::string>() == g_backend);
  CHECK(s.layout.at("error").get<std::string>().empty());
  CHECK(s.layout.at("errors").empty());
  REQUIRE(s.layout.at("panes").size() == 2);
  for (const json& pane : s.layout.at("panes")) check_pane(s, pane);
}

struct Coverage {
  std::vector<Shot> shots;
  json results = json::object();  // the panel's scores of every run, merged
  json params;                     // the parameters of the defaults' first computed pane
  std::set<std::string> timings;   // the timings table's rows of every run ("CPU/render/cpu")
};

// The timings table's rows of a shot on the selected backend ("CPU/..." or "CUDA/..."), each
// with samples and a time.
std::set<std::string> backend_timings(const Shot& s) {
  const std::string prefix = on_cuda() ? "CUDA/" : "CPU/";
  std::set<std::string> names;
  REQUIRE(s.layout.contains("timings"));
  for (const json& t : s.layout.at("timings")) {
    const std::string n = t.at("name").get<std::string>();
    if (n.rfind(prefix, 0) != 0) continue;
    CHECK_MESSAGE(t.at("samples").get<int>() >= 1, n);
    CHECK_MESSAGE(t.at("median_ms").get<double>() >= 0.0, n);
    names.insert(n.substr(prefix.size()));
  }
  return names;
}

// Shows every output of the algorithm: the default panes first, then the other outputs two
// by two (computed ones first; an odd one out beside an input, which costs no run).
Coverage show_every_output(const std::string& name, const std::string& args) {
  Coverage c;
  c.shots.push_back(run_viewer(name + "_defaults", args));
  check_shot(c.shots.back());
  const json& first = c.shots.back().layout;
  REQUIRE(first.contains("outputs"));
  std::set<std::string> shown;
  for (const json& pane : first.at("panes")) {
    shown.insert(pane.at("output").get<std::string>());
    if (c.params.is_null() && pane.contains("params")) c.params = pane.at("params");
  }
  std::vector<std::string> todo, inputs, all;
  for (const json& o : first.at("outputs")) {
    const std::string n = o.at("name").get<std::string>();
    all.push_back(n);
    if (o.at("input").get<bool>()) inputs.push_back(n);
    else if (!shown.count(n)) todo.push_back(n);
  }
  for (const std::string& n : inputs)
    if (!shown.count(n)) todo.push_back(n);
  REQUIRE(!all.empty());
  REQUIRE(!c.params.is_null());  // some default pane shows a computed output
  for (std::size_t i = 0; i < todo.size(); i += 2) {
    const std::string a = todo[i];
    const std::string b = i + 1 < todo.size() ? todo[i + 1] : (inputs.empty() ? all.front() : inputs.front());
    c.shots.push_back(run_viewer(name + "_" + a + "_" + b, args + " --pane1 output=" + a + " --pane2 output=" + b));
    check_shot(c.shots.back());
    CHECK(c.shots.back().layout.at("panes").at(0).at("output").get<std::string>() == a);
    CHECK(c.shots.back().layout.at("panes").at(1).at("output").get<std::string>() == b);
  }
  for (const Shot& s : c.shots) {
    for (const auto& [k, v] : s.layout.at("results").items()) c.results[k] = v;
    const std::set<std::string> t = backend_timings(s);
    c.timings.insert(t.begin(), t.end());
  }
  // The default panes compute something: its kernels are in the timings table.
  CHECK_MESSAGE(!backend_timings(c.shots.front()).empty(), name << ": no timings on " << g_backend);
  return c;
}

// ---------------------------------------------------------------------------------------
// The CLI, for the scores

// A parameter from the sidecar as a CLI argument: exact for floats (17 digits), 0/1 for flags.
std::string arg(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v.get<double>());
    return buf;
  }
  return quoted(v.get<std::string>());
}

json run_cli(const std::string& name, const std::string& args) {
  const std::string report = out_file(name + ".cli.json");
  fs::remove(report);
  const std::string cmd = quoted(lb::test::cli_path()) + " " + args + " --backend " + g_backend +
                          " --json " + quoted(report);
  MESSAGE("running: " << cmd);
  const auto r = lb::test::run_logged(cmd, out_file(name + ".cli.log"));
  INFO("CLI log:\n" << r.log);
  REQUIRE(r.rc == 0);
  const json j = lb::test::read_json(report);
  REQUIRE(j.is_object());
  CHECK(j.at("backend").get<std::string>() == g_backend);
  return j;
}

// The panel's figure equals the CLI's (same code, data and parameters: equal to rounding).
void same_score(const json& panel, const json& cli, const std::string& key) {
  INFO("score " << key << ": panel " << panel.dump() << ", CLI " << cli.dump());
  REQUIRE(panel.contains(key));
  REQUIRE(cli.contains(key));
  CHECK(panel.at(key).get<double>() == doctest::Approx(cli.at(key).get<double>()).epsilon(1e-9));
}

// ---------------------------------------------------------------------------------------
// Data both front ends open (written once per run of the test)

lb::GeneratedScene tiny_scene() { return lb::generate_scene(lb::generator_preset("tiny", 1)); }

// The viewer's bundled light field (app/viewer/sections/lightfield_section.cpp), as a folder.
std::string lightfield_dir() {
  const std::string dir = out_file("data/lightfield");
  if (!fs::exists(dir + "/gt_disp_lowres.pfm"))
    lb::save_lightfield(dir, lb::synthetic_two_plane_lightfield(192, 160, 9, 9, -1.2f, 1.6f, 1u, 2));
  return dir;
}

// A reference (the tiny scene's CPU render) and its blurred copy.
std::pair<std::string, std::string> mad_pair() {
  const std::string ref = out_file("data/mad_ref.png"), dist = out_file("data/mad_dist.png");
  if (!fs::exists(dist)) {
    const auto scene = tiny_scene();
    const auto p = lb::default_render_params(scene.params.grid);
    const lb::ImageU8 view = lb::to_rgb(lb::render_cpu(
        lb::to_rgba(scene.raw), lb::build_render_tables(scene.params.grid, p, scene.raw.width, scene.raw.height)));
    fs::create_directories(fs::path(ref).parent_path());
    lb::save_image(ref, view);
    lb::save_image(dist, lb::distort_blur(view, 1.5));
  }
  return {ref, dist};
}

// The CAE method a light-field variant belongs to (kernels/.../cae_cuda.hpp: exact*, binned*,
// the rest the 256-bin CAE).
std::string cae_method(const std::string& variant) {
  if (variant.rfind("exact", 0) == 0) return "exact";
  if (variant.rfind("binned", 0) == 0) return "binned";
  return "cae";
}

}  // namespace

// ---------------------------------------------------------------------------------------

TEST_CASE("headless: the offscreen framebuffer's screenshot shows the render exactly at 1:1") {
  const Shot s = run_viewer("fbo_exact", "--preset tiny --pane-test --patch 9 --view 1.5,-2 --lim 2 --sigma 6.5");
  check_shot(s);
  const json& pane = s.layout.at("panes").at(0);
  const json& params = pane.at("params");
  const auto scene = tiny_scene();
  lb::RenderParams p;
  p.patch = params.at("patch").get<int>();
  p.view_x = params.at("view_x").get<float>();
  p.view_y = params.at("view_y").get<float>();
  p.lim = params.at("lim").get<int>();
  p.sigma = params.at("sigma").get<float>();
  CHECK(p.patch == 9);
  const lb::ImageU8 want = lb::render_cpu(
      lb::to_rgba(scene.raw), lb::build_render_tables(scene.params.grid, p, scene.raw.width, scene.raw.height));
  const json& im = pane.at("image");
  REQUIRE(im.at("zoom").get<double>() == 1.0);
  const int ox = static_cast<int>(im.at("origin").at(0).get<double>());
  const int oy = static_cast<int>(im.at("origin").at(1).get<double>());
  REQUIRE(im.at("width").get<int>() == want.width);
  REQUIRE(ox >= 0);
  REQUIRE(oy >= 0);
  REQUIRE(ox + want.width <= s.png.width);
  REQUIRE(oy + want.height <= s.png.height);
  long differing = 0;
  for (int y = 0; y < want.height; ++y)
    for (int x = 0; x < want.width; ++x)
      for (int c = 0; c < 3; ++c) differing += s.png.at(ox + x, oy + y, c) != want.at(x, y, c);
  CHECK(differing == 0);
  const auto [lo, hi] = std::minmax_element(want.data.begin(), want.data.end());
  CHECK(int(*hi) - int(*lo) > 50);  // not a flat image
}

TEST_CASE("headless: resizing the offscreen framebuffer (down to 1x1) and iconifying never crash") {
  const Shot s = run_viewer("resize", "--preset tiny --resize-test", "", 12);
  check_shot(s);  // back at the requested size
  CHECK(s.log.find("frame 1 drawn at " + std::to_string(kWidth) + "x" + std::to_string(kHeight)) != std::string::npos);
  CHECK(s.log.find("frame 2 drawn at 1x1") != std::string::npos);
}

TEST_CASE("headless: --width/--height set the framebuffer; --headless needs --screenshot") {
  const Shot s = run_viewer("width_height", "--preset tiny", "--width 700 --height 500", 1);
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  CHECK(s.png.width == 700);
  CHECK(s.png.height == 500);
  const auto r = lb::test::run_logged(quoted(lb::test::viewer_path()) + " --headless --backend " + g_backend,
                                      out_file("no_screenshot.log"));
  CHECK(r.rc == 2);
  CHECK(r.log.find("--screenshot") != std::string::npos);
}

TEST_CASE("plenoptic: every output headless; the panel's depth score equals the CLI's") {
  const auto scene = tiny_scene();
  const int m = scene.params.preview_patch;  // the ground truth's patch size: scored
  const Coverage c = show_every_output("plenoptic", "--algorithm plenoptic --preset tiny --patch " + std::to_string(m));
  const json& p = c.params;
  const json cli = run_cli("plenoptic", "depth --preset tiny --patch " + arg(p.at("patch")) + " --lim " +
                                            arg(p.at("lim")) + " --pmin " + arg(p.at("pmin")) + " --pmax " +
                                            arg(p.at("pmax")) + " --window " + arg(p.at("window")) +
                                            " --aperture " + arg(p.at("aperture")) + " --variant " +
                                            arg(p.at("variant")) + " --out " + quoted(out_file("plenoptic_depth.pfm")));
  for (const char* key : {"exact_pct", "mae"}) same_score(c.results, cli, key);
  CHECK(cli.at("exact_pct").get<double>() > 50.0);  // the tiny scene's depth is mostly right
}

TEST_CASE("light field: every output headless; the panel's HCI scores equal the CLI's") {
  const std::string dir = lightfield_dir();
  const Coverage c = show_every_output("lightfield", "--algorithm lightfield --lf " + quoted(dir));
  const json& p = c.params;
  const std::string variant = p.at("variant").get<std::string>();
  const json cli = run_cli("lightfield", "lfdepth --lf " + quoted(dir) + " --views " + arg(p.at("views")) +
                                             " --labels " + arg(p.at("labels")) + " --drange " + arg(p.at("dmin")) +
                                             "," + arg(p.at("dmax")) + " --sigma " + arg(p.at("sigma")) +
                                             " --method " + cae_method(variant) + " --refine none" +
                                             (on_cuda() ? " --variant " + quoted(variant) : "") + " --out " +
                                             quoted(out_file("lightfield_depth.pfm")));
  // The panel's depth pane is the raw WTA map: the CLI's --refine none (its default is refined).
  for (const char* key : {"badpix_007", "badpix_003", "badpix_001", "mse_x100"}) same_score(c.results, cli, key);
  CHECK(cli.at("badpix_007").get<double>() < 10.0);  // two textured planes: nearly all right
  // The refined panes' steps are timed on either backend under the same names.
  for (const char* step : {"lfdepth/refine/normalize", "lfdepth/refine/guided filter", "lfdepth/refine/wta + subpixel"})
    CHECK_MESSAGE(c.timings.count(step) == 1, step);
}

TEST_CASE("stereo: every output headless; the panel's BP and local scores equal the CLI's") {
  const std::string dir = lb_shared_data_dir() + "/stereo/tsukuba";
  if (!fs::exists(dir + "/imL.png")) {
    // The same outputs on the bundled pair; the CLI cannot open that one.
    REQUIRE_MESSAGE(!lb::test::gpu_required(), dir << " not found (LB_SHARED_DATA_DIR)");
    MESSAGE("SKIPPED the score comparison: " << dir << " not found");
    show_every_output("stereo", "--algorithm stereo");
    return;
  }
  const Coverage c = show_every_output("stereo", "--algorithm stereo --stereo " + quoted(dir));
  const json& p = c.params;
  const json& bp = p.at("bp");
  const json& local = p.at("local");
  const std::string common = "stereo --scene " + quoted(dir) + " --ndisp " + arg(p.at("ndisp"));
  const json cli_bp =
      run_cli("stereo_bp", common + " --method bp --levels " + arg(bp.at("levels")) + " --iterations " +
                               arg(bp.at("iterations")) + " --lambda " + arg(bp.at("lambda")) + " --tau-data " +
                               arg(bp.at("tau_data")) + " --tau-disc " + arg(bp.at("tau_disc")) + " --sigma " +
                               arg(bp.at("sigma")) + (on_cuda() ? " --variant " + arg(bp.at("variant")) : "") +
                               " --out " + quoted(out_file("stereo_bp.pfm")));
  const json cli_local =
      run_cli("stereo_local", common + " --method local --radius " + arg(local.at("radius")) + " --gamma " +
                                  arg(local.at("gamma")) + " --truncation " + arg(local.at("truncation")) +
                                  " --variable-windows " + arg(local.at("variable_windows")) + " --lr-check " +
                                  arg(local.at("lr_check")) +
                                  (on_cuda() ? " --variant " + arg(local.at("variant")) : "") + " --out " +
                                  quoted(out_file("stereo_local.pfm")));
  REQUIRE(c.results.contains("bp"));
  REQUIRE(c.results.contains("local"));
  // Both matchers' kernels are in the timings table.
  for (const std::string m : {"stereo/bp/", "stereo/local/"})
    CHECK_MESSAGE(std::any_of(c.timings.begin(), c.timings.end(),
                              [&](const std::string& n) { return n.rfind(m, 0) == 0; }),
                  m);
  for (const char* key : {"bad1_nonocc", "bad1_all", "bad1_disc"}) {
    same_score(c.results.at("bp"), cli_bp, key);
    same_score(c.results.at("local"), cli_local, key);
  }
}

TEST_CASE("MAD: every output headless; the panel's MAD equals the CLI's") {
  const auto [ref, dist] = mad_pair();
  const Coverage c = show_every_output("mad", "--algorithm mad --ref " + quoted(ref) + " --dist " + quoted(dist));
  const json& p = c.params;
  const json cli = run_cli("mad", "mad --ref " + quoted(ref) + " --dist " + quoted(dist) +
                                      (on_cuda() ? " --variant " + arg(p.at("variant")) : ""));
  for (const char* key : {"mad", "d_detect", "d_appear"}) same_score(c.results, cli, key);
  CHECK(cli.at("mad").get<double>() > 0.0);  // a blurred copy differs
}

int main(int argc, char** argv) {
  // Our option first; doctest gets the rest.
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc) {
      g_backend = argv[++i];
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (g_backend != "cpu" && g_backend != "cuda") {
    std::fprintf(stderr, "usage: %s [--backend cpu|cuda] [doctest options]\n", argv[0]);
    return 2;
  }
  {
    // Only a missing EGL device skips (the viewer's --headless needs one).
    std::string why;
    auto probe = lb::gl::HeadlessContext::create({}, &why);
    if (!probe) return lb::test::skip("no EGL device gives an OpenGL 3.3 context: " + why, lb::test::gpu_required());
    std::printf("EGL: %s\n", probe->description().c_str());
  }
  for (const std::string& p : {lb::test::viewer_path(), lb::test::cli_path()})
    if (!fs::exists(p)) {
      std::printf("FAILED: %s not found (set LB_VIEWER / LB_CLI)\n", p.c_str());
      return 1;
    }
  fs::create_directories(lb::test::out_dir());
  std::printf("backend %s, viewer %s, CLI %s, outputs in %s\n", g_backend.c_str(), lb::test::viewer_path().c_str(),
              lb::test::cli_path().c_str(), lb::test::out_dir().c_str());
  doctest::Context ctx;
  ctx.applyCommandLine(static_cast<int>(rest.size()), rest.data());
  return ctx.run();
}

TEST_CASE("memory budget: a run refused by the limit shows the error in its pane; the rest keeps working") {
  // Host: a tiny LB_MAX_MEMORY refuses the BP run (the CPU backend, or the CUDA backend's host
  // side); the input pane still shows its image and the viewer goes on.
  setenv("LB_MAX_MEMORY", "4096", 1);
  const Shot s = run_viewer("budget_host", "--algorithm stereo --pane1 output=left --pane2 output=bp");
  unsetenv("LB_MAX_MEMORY");
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 1);  // a failed run fails a scripted run (issue 20); the sidecar says why
  CHECK(s.layout.at("errors").dump().find("of host memory") != std::string::npos);
  REQUIRE(s.layout.at("panes").size() == 2);
  const json& left = s.layout.at("panes").at(0);
  const json& bp = s.layout.at("panes").at(1);
  CHECK(left.at("error").get<std::string>().empty());
  CHECK(drawn_share(s, left) > 0.5);
  const std::string err = bp.at("error").get<std::string>();
  CHECK(err.find("needs ") != std::string::npos);
  CHECK(err.find("of host memory, limit 4.0 KiB (raise with --max-memory)") != std::string::npos);
  CHECK(s.layout.at("error").get<std::string>().find("of host memory") != std::string::npos);
  if (!on_cuda()) return;
  // Device: a tiny LB_MAX_DEVICE_MEMORY fails the CUDA run with one line; the CPU backend
  // (pane A) still computes.
  setenv("LB_MAX_DEVICE_MEMORY", "4096", 1);
  const Shot d = run_viewer("budget_device",
                            "--algorithm stereo --pane1 output=bp,backend=cpu --pane2 output=bp,backend=cuda");
  unsetenv("LB_MAX_DEVICE_MEMORY");
  INFO("viewer log:\n" << d.log);
  REQUIRE(d.rc == 1);
  const json& cpu = d.layout.at("panes").at(0);
  const json& gpu = d.layout.at("panes").at(1);
  CHECK(cpu.at("error").get<std::string>().empty());
  CHECK(drawn_share(d, cpu) > 0.5);
  const std::string gerr = gpu.at("error").get<std::string>();
  CHECK((gerr.find("of device memory") != std::string::npos || gerr.find("out of device memory") != std::string::npos));
}
