// The viewer shows every algorithm as its module declares (AlgorithmSpec::display,
// engine/algorithms/<id>/<id>_display.cpp; issue 40 item 1): which algorithm the command line's
// data chooses (--lf, --stereo, --ref, a general-grid preset) and the aliases --algorithm takes,
// the default panes, the colour bars' ranges and the overlays, read from the headless viewer's
// sidecar and compared with values computed here the way the viewer computed them before the
// declarations moved into the modules:
//   plenoptic   panes view + truth; depth and truth on min(pmin, floor(truth min)) ..
//               max(pmax, ceil(truth max)); the micro-image grid over the raw
//   plenoptic-hex  chosen by a hexagonal preset; lens circles over the raw, no grid
//   lightfield  chosen by --lf; panes view + depth; depth on dmin..dmax; "lf" names it
//   stereo      chosen by --stereo; panes bp + local; disparities on 0..ndisp-1
//   mad         chosen by --ref/--dist; panes distorted + hi; hi on 0..hi_p995; "iqa" names it
// Skips (77) only when no EGL device gives an OpenGL 3.3 context.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "headless_process.hpp"
#include "lightbench/algorithm.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/gl/egl_headless.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/scene_file.hpp"
#include "shared_data.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using lb::test::quoted;

namespace {

std::string out_file(const std::string& name) { return lb::test::out_dir() + "/display/" + name; }

struct Shot {
  int rc = -1;
  std::string log;
  json layout;
};

Shot run_viewer(const std::string& name, const std::string& args) {
  Shot s;
  const std::string png = out_file(name + ".png");
  fs::create_directories(fs::path(png).parent_path());
  fs::remove(png);
  fs::remove(png + ".json");
  const std::string cmd = quoted(lb::test::viewer_path()) + " --headless --backend cpu --size 960x600 --frames 3 " +
                          args + " --screenshot " + quoted(png);
  MESSAGE("running: " << cmd);
  const auto r = lb::test::run_logged(cmd, out_file(name + ".log"));
  s.rc = r.rc;
  s.log = r.log;
  if (fs::exists(png + ".json")) s.layout = lb::test::read_json(png + ".json");
  return s;
}

const lb::AlgorithmSpec& spec(const std::string& id) {
  static const lb::AlgorithmRegistry registry = lb::make_cpu_registry();
  return registry.get(id);
}

const json& pane(const Shot& s, int i) { return s.layout.at("panes").at(i); }

// The pane's colour bar [min, max]; fails the test when it has none.
std::pair<double, double> bar(const Shot& s, int i) {
  const json& p = pane(s, i);
  INFO("pane " << i << ": " << p.dump());
  REQUIRE(p.contains("colour_bar"));
  REQUIRE(p.at("colour_bar").is_object());
  return {p.at("colour_bar").at("min").get<double>(), p.at("colour_bar").at("max").get<double>()};
}

// Every default of the spec for the data equals the pane's value (the panel starts from the
// defaults for the data the start-up opened, not for no data).
void check_defaults(const json& params, const lb::AlgorithmSpec& spec, const lb::AlgorithmData& data) {
  const lb::ParamValues defaults = spec.params(&data).defaults;
  REQUIRE(!defaults.empty());
  int compared = 0;
  for (const auto& [name, value] : defaults) {
    if (!params.contains(name) || !params.at(name).is_number()) continue;
    INFO("parameter " << name);
    CHECK(params.at(name).get<double>() == doctest::Approx(value).epsilon(1e-6));
    ++compared;
  }
  CHECK(compared >= 2);
}

// The viewer's bundled light field (app/viewer/sections/lightfield_section.cpp), as a folder.
std::string lightfield_dir() {
  const std::string dir = out_file("data/lightfield");
  if (!fs::exists(dir + "/gt_disp_lowres.pfm"))
    lb::save_lightfield(dir, lb::synthetic_two_plane_lightfield(192, 160, 9, 9, -1.2f, 1.6f, 1u, 2));
  return dir;
}

}  // namespace

TEST_CASE("plenoptic: the default entry; panes view and truth; depth and truth on one scale; the grid over the raw") {
  const Shot d = run_viewer("plenoptic_defaults", "--preset small");
  INFO("viewer log:\n" << d.log);
  REQUIRE(d.rc == 0);
  CHECK(d.layout.at("algorithm").get<std::string>() == spec("plenoptic").name);
  CHECK(pane(d, 0).at("output").get<std::string>() == "view");
  CHECK(pane(d, 1).at("output").get<std::string>() == "truth");

  const Shot s = run_viewer("plenoptic_ranges", "--preset small --pane1 output=depth --pane2 output=raw");
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  const json& params = pane(s, 0).at("params");
  const double pmin = params.at("pmin").get<double>(), pmax = params.at("pmax").get<double>();
  // The truth's range, as SceneStore measured it for the old hint.
  const lb::PlenopticScene scene = lb::to_scene(lb::generate_scene(lb::generator_preset("small", 1)), "small");
  REQUIRE(!scene.truth.empty());
  const auto [lo, hi] = std::minmax_element(scene.truth.data.begin(), scene.truth.data.end());
  const double want_lo = std::min(pmin, std::floor(double(*lo))), want_hi = std::max(pmax, std::ceil(double(*hi)));
  const auto depth = bar(s, 0);
  CHECK(depth.first == doctest::Approx(want_lo));
  CHECK(depth.second == doctest::Approx(want_hi));
  CHECK(bar(d, 1) == depth);  // truth on the depth's scale
  CHECK(pane(s, 1).value("micro_grid", false));
  CHECK(!pane(s, 1).contains("lenses_drawn"));
  CHECK(!pane(s, 0).value("micro_grid", false));  // only over the raw
  auto data = std::make_shared<lb::PlenopticData>();
  data->scene = scene;
  check_defaults(pane(d, 0).at("params"), spec("plenoptic"), *data);
}

TEST_CASE("plenoptic-hex: a hexagonal preset chooses it; lens circles over the raw, no grid") {
  const Shot s = run_viewer("hex", "--preset hex-small --pane1 output=raw --pane2 output=view");
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  CHECK(s.layout.at("algorithm").get<std::string>() == spec("plenoptic-hex").name);
  CHECK(pane(s, 0).value("lenses_drawn", 0) > 0);
  CHECK(!pane(s, 0).value("micro_grid", false));
  CHECK(!pane(s, 1).contains("lenses_drawn"));
}

TEST_CASE("lightfield: --lf chooses it; panes view and depth; depth on dmin..dmax; the alias lf") {
  const Shot s = run_viewer("lightfield", "--lf " + quoted(lightfield_dir()));
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  CHECK(s.layout.at("algorithm").get<std::string>() == spec("lightfield").name);
  CHECK(pane(s, 0).at("output").get<std::string>() == "view");
  CHECK(pane(s, 1).at("output").get<std::string>() == "depth");
  const json& params = pane(s, 1).at("params");
  const auto depth = bar(s, 1);
  CHECK(depth.first == doctest::Approx(params.at("dmin").get<double>()));
  CHECK(depth.second == doctest::Approx(params.at("dmax").get<double>()));
  auto data = std::make_shared<lb::LightFieldData>();
  data->lf = lb::load_lightfield(lightfield_dir());
  check_defaults(params, spec("lightfield"), *data);

  const Shot a = run_viewer("lightfield_alias", "--algorithm LF --pane1 output=view --pane2 output=view");
  INFO("viewer log:\n" << a.log);
  REQUIRE(a.rc == 0);
  CHECK(a.layout.at("algorithm").get<std::string>() == spec("lightfield").name);
}

TEST_CASE("stereo: --stereo chooses the BP + local entry; panes bp and local on 0..ndisp-1") {
  const std::string dir = lb_shared_data_dir() + "/stereo/tsukuba";
  if (!fs::exists(dir)) {
    MESSAGE("SKIPPED: " << dir << " not found");
    return;
  }
  const Shot s = run_viewer("stereo", "--stereo " + quoted(dir));
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  CHECK(s.layout.at("algorithm").get<std::string>() == "stereo: belief propagation & local windows");
  CHECK(pane(s, 0).at("output").get<std::string>() == "bp");
  CHECK(pane(s, 1).at("output").get<std::string>() == "local");
  const double ndisp = pane(s, 0).at("params").at("ndisp").get<double>();
  for (int i = 0; i < 2; ++i) {
    const auto b = bar(s, i);
    CHECK(b.first == 0.0);
    CHECK(b.second == doctest::Approx(std::max(1.0, ndisp - 1)));
  }
}

TEST_CASE("mad: --ref/--dist choose it; panes distorted and hi; hi on 0..its 99.5th percentile; the alias iqa") {
  const std::string iqa = lb_shared_data_dir() + "/iqa";
  if (fs::exists(iqa + "/I03_ref.bmp")) {
    const Shot s = run_viewer("mad", "--ref " + quoted(iqa + "/I03_ref.bmp") + " --dist " + quoted(iqa + "/I03_dist.bmp"));
    INFO("viewer log:\n" << s.log);
    REQUIRE(s.rc == 0);
    CHECK(s.layout.at("algorithm").get<std::string>() == spec("mad").name);
    CHECK(pane(s, 0).at("output").get<std::string>() == "distorted");
    CHECK(pane(s, 1).at("output").get<std::string>() == "hi");
    const auto b = bar(s, 1);
    CHECK(b.first == 0.0);
    const double q = s.layout.at("results").at("hi_p995").get<double>();
    REQUIRE(q > 0);
    CHECK(b.second == doctest::Approx(q).epsilon(1e-6));  // a float colour bar
  } else {
    MESSAGE("SKIPPED the --ref part: " << iqa << " not found");
  }
  const Shot a = run_viewer("mad_alias", "--algorithm iqa --pane1 output=reference --pane2 output=distorted");
  INFO("viewer log:\n" << a.log);
  REQUIRE(a.rc == 0);
  CHECK(a.layout.at("algorithm").get<std::string>() == spec("mad").name);
}

TEST_CASE("start-up: the command line's light field is read off the UI thread; frames are drawn meanwhile") {
  // 5 x 5 views of 48 x 32; --load-delay-ms 100 makes each view take 100 ms (2.5 s in all).
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
  const Shot s = run_viewer("startup_slow", "--lf " + quoted(dir) + " --load-delay-ms 100 --patch 3");
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  CHECK(s.layout.at("lightfield").at("source").get<std::string>() == dir);
  CHECK(s.layout.at("lightfield").at("views") == json::array({5, 5}));
  CHECK(s.layout.at("algorithm").get<std::string>() == spec("lightfield").name);
  CHECK(pane(s, 0).at("output").get<std::string>() == "view");  // the panes apply to the loaded data
  CHECK(pane(s, 1).at("output").get<std::string>() == "depth");
  for (int i = 0; i < 2; ++i) CHECK(pane(s, i).at("error").get<std::string>().empty());
  const json& frames = s.layout.at("frames");
  MESSAGE("frames: " << frames.dump());
  CHECK(frames.at("loading").get<int>() >= 10);  // drawn while the views were read (before: none)
  CHECK(s.layout.at("errors").empty());

  // The plenoptic scene's settings (--patch) wait for it too: the rendered view takes them.
  const Shot p = run_viewer("startup_patch", "--preset tiny --patch 5 --load-delay-ms 50");
  INFO("viewer log:\n" << p.log);
  REQUIRE(p.rc == 0);
  CHECK(pane(p, 0).at("output").get<std::string>() == "view");
  CHECK(pane(p, 0).at("params").at("patch").get<int>() == 5);
  CHECK(pane(p, 1).at("output").get<std::string>() == "truth");  // the generated scene has truth
  CHECK(p.layout.at("errors").empty());
}

TEST_CASE("an unknown --algorithm is one line listing the entries") {
  const Shot s = run_viewer("unknown", "--algorithm nope --pane1 output=raw --pane2 output=raw");
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 1);
  const std::string err = s.layout.at("error").get<std::string>();
  CHECK(err.find("unknown --algorithm 'nope' (plenoptic | plenoptic-hex | lightfield | stereo | mad") != std::string::npos);
  CHECK(err.find('\n') == std::string::npos);
}

int main(int argc, char** argv) {
  {
    std::string why;
    auto probe = lb::gl::HeadlessContext::create({}, &why);
    if (!probe) return lb::test::skip("no EGL device gives an OpenGL 3.3 context: " + why, lb::test::gpu_required());
  }
  if (!fs::exists(lb::test::viewer_path())) {
    std::printf("FAILED: %s not found (set LB_VIEWER)\n", lb::test::viewer_path().c_str());
    return 1;
  }
  doctest::Context ctx;
  ctx.applyCommandLine(argc, argv);
  return ctx.run();
}
