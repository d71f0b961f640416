// Raws with their micro-lens calibration through the real viewer (--headless, CPU backend),
// issue 22 item 6:
//   * the R42 crop with its RayCalibData XML (when ../shared is present): the general-grid
//     algorithm plenoptic-hex is active, the rendered view is non-trivial, the raw pane draws
//     the lens circles, the sidecar names the geometry (the offset fitted);
//   * a generated hexagonal raw with an XML written from its geometry, and --preset hex-small;
//   * a broken XML fails the run with one line naming it (the bundled scene shown); --calib
//     without --raw is a usage error.
// Skips (77) when no EGL device gives an OpenGL 3.3 context.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "../shared_data.hpp"
#include "engine/calib_xml.hpp"
#include "headless_process.hpp"
#include "viewer_shot.hpp"
#include "lightbench/gl/egl_headless.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using lb::test::quoted;

namespace {

std::string out_file(const std::string& name) { return lb::test::out_dir() + "/calib_" + name; }

using lb::test::Shot;

Shot viewer(const std::string& name, const std::string& args) {
  return lb::test::run_shot(lb::test::viewer_path(), out_file(name), args + " --frames 2", "1200x640");
}

// Standard deviation of the green channel over pane i's image in the screenshot.
double pane_spread(const Shot& s, int i) {
  const json& p = s.layout.at("panes").at(i);
  const json& im = p.at("image");
  const double z = im.at("zoom").get<double>();
  const double ox = im.at("origin")[0].get<double>(), oy = im.at("origin")[1].get<double>();
  const int w = im.at("width").get<int>(), h = im.at("height").get<int>();
  const json& r = p.at("rect");
  double sum = 0, sum2 = 0;
  int n = 0;
  for (int y = 0; y < h; y += 3)
    for (int x = 0; x < w; x += 3) {
      const int sx = static_cast<int>(std::floor(ox + z * (x + 0.5))), sy = static_cast<int>(std::floor(oy + z * (y + 0.5)));
      if (sx < r[0].get<int>() || sy < r[1].get<int>() || sx >= r[0].get<int>() + r[2].get<int>() ||
          sy >= r[1].get<int>() + r[3].get<int>() || sx >= s.png.width || sy >= s.png.height)
        continue;
      const double v = s.png.at(sx, sy, 1);
      sum += v;
      sum2 += v * v;
      ++n;
    }
  REQUIRE(n > 100);
  return std::sqrt(std::max(0.0, sum2 / n - (sum / n) * (sum / n)));
}

void check_hex_shot(const Shot& s) {
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  REQUIRE(s.layout.is_object());
  CHECK(s.layout.at("algorithm").get<std::string>().find("any micro-lens grid") != std::string::npos);
  CHECK(s.layout.at("errors").empty());
  const json& a = s.layout.at("panes").at(0);
  const json& b = s.layout.at("panes").at(1);
  CHECK(a.at("output") == "view");
  CHECK(a.at("error") == "");
  CHECK(b.at("output") == "raw");
  CHECK(pane_spread(s, 0) > 8.0);  // a rendered view, not a flat image
  CHECK(b.value("lenses_drawn", 0) > 20);
  CHECK(s.layout.at("hex_scene").at("geometry").at("kind") == "hexagonal");
}

}  // namespace

TEST_CASE("the R42 crop opens with its calibration in plenoptic-hex (when ../shared is present)") {
  const std::string dir = lb_shared_data_dir() + "/plenoptic/raytrix-r42";
  if (!fs::exists(dir + "/sc2_klein.png") || !fs::exists(dir + "/sc2_klein.xml")) {
    MESSAGE("skipped: " << dir << " not present");
    return;
  }
  const Shot s = viewer("r42", "--raw " + quoted(dir + "/sc2_klein.png") + " --calib " + quoted(dir + "/sc2_klein.xml") +
                                   " --pane1 output=view --pane2 output=raw");
  check_hex_shot(s);
  const json& scene = s.layout.at("hex_scene");
  CHECK(scene.at("raw")[0] == 964);
  CHECK(scene.at("geometry").at("diameter").get<double>() == doctest::Approx(34.8647).epsilon(1e-4));
  CHECK(scene.at("geometry").at("types").size() == 3);
  CHECK(scene.at("source").get<std::string>().find("offset fitted") != std::string::npos);
  CHECK(s.layout.at("panes").at(1).at("lenses_drawn").get<int>() > 300);  // ~27 x 22 lenses in the crop
}

TEST_CASE("a generated hexagonal raw with its written calibration, and --preset hex-small") {
  const std::string dir = out_file("data");
  fs::create_directories(dir);
  const lb::HexScene h = lb::generate_hex_scene(lb::hex_generator_preset("hex-small"));
  lb::save_image(dir + "/raw.png", h.raw);
  {
    std::ofstream f(dir + "/raw.xml", std::ios::binary);
    f << lbt::calib_xml_of(h.params.mla);
  }
  Shot s = viewer("written", "--raw " + quoted(dir + "/raw.png") + " --calib " + quoted(dir + "/raw.xml") +
                                 " --pane1 output=view --pane2 output=raw");
  check_hex_shot(s);
  CHECK(s.layout.at("hex_scene").at("geometry").at("offset")[0].get<double>() == doctest::Approx(12.3));
  s = viewer("preset", "--preset hex-small --pane1 output=view --pane2 output=raw");
  check_hex_shot(s);
  // The rectangular algorithm still opens its bundled scene beside it.
  CHECK(s.layout.at("scene").contains("grid"));
}

TEST_CASE("a broken calibration fails the run in one line; --calib without --raw is a usage error") {
  const std::string dir = out_file("data");
  fs::create_directories(dir);
  const lb::HexScene h = lb::generate_hex_scene(lb::hex_generator_preset("hex-small"));
  lb::save_image(dir + "/raw2.png", h.raw);
  {
    std::ofstream f(dir + "/broken.xml", std::ios::binary);
    f << "<RayCalibData><diameter>twelve</diameter></RayCalibData>";
  }
  const Shot s = viewer("broken", "--raw " + quoted(dir + "/raw2.png") + " --calib " + quoted(dir + "/broken.xml"));
  INFO("viewer log:\n" << s.log);
  CHECK(s.rc == 1);
  REQUIRE(s.layout.is_object());
  REQUIRE(s.layout.at("errors").size() == 1);
  const std::string e = s.layout.at("errors")[0];
  CHECK(e.find("broken.xml") != std::string::npos);
  CHECK(e.find('\n') == std::string::npos);
  const auto u = lb::test::run_logged(quoted(lb::test::viewer_path()) + " --headless --calib " +
                                          quoted(dir + "/broken.xml") + " --screenshot " + quoted(out_file("u.png")),
                                      out_file("usage.log"));
  CHECK(u.rc == 2);
  CHECK(u.log.find("--calib") != std::string::npos);
  CHECK(u.log.find("needs --raw") != std::string::npos);
  CHECK_FALSE(fs::exists(out_file("u.png")));
}

// Drops (issue 22 item 6) through --drop, the viewer's scripted drop (handle_drops, as a real
// one): the pair on the bundled scene, an .xml alone on an open raw, and a drop that is neither.
TEST_CASE("dropping a raw with its calibration, or an .xml on the open raw, opens it in plenoptic-hex") {
  const std::string dir = out_file("drop");
  fs::create_directories(dir);
  const lb::HexScene h = lb::generate_hex_scene(lb::hex_generator_preset("hex-small"));
  lb::save_image(dir + "/raw.png", h.raw);
  {
    std::ofstream f(dir + "/raw.xml", std::ios::binary);
    f << lbt::calib_xml_of(h.params.mla);
  }
  const std::string raw = dir + "/raw.png", xml = dir + "/raw.xml";
  Shot s = viewer("drop_pair", "--drop " + quoted(xml + "," + raw) + " --pane1 output=view --pane2 output=raw");
  check_hex_shot(s);
  CHECK(s.layout.at("hex_scene").at("geometry").at("offset")[0].get<double>() == doctest::Approx(12.3));
  // The raw opened as a rectangular one first (pitch 24), then its .xml dropped alone.
  s = viewer("drop_xml", "--raw " + quoted(raw) + " --pitch 24 --drop " + quoted(xml) +
                             " --pane1 output=view --pane2 output=raw");
  check_hex_shot(s);
  // Two .xml and a raw: one line saying what a calibration drop is; the run fails.
  s = viewer("drop_bad", "--drop " + quoted(xml + "," + xml + "," + raw));
  INFO("viewer log:\n" << s.log);
  CHECK(s.rc == 1);
  REQUIRE(s.layout.is_object());
  REQUIRE(s.layout.at("errors").size() == 1);
  const std::string e = s.layout.at("errors")[0];
  CHECK(e.find("drop a raw with its calibration .xml") != std::string::npos);
  CHECK(e.find('\n') == std::string::npos);
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
