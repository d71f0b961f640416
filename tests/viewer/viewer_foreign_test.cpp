// Foreign maps, colour bars and the signed difference through the real viewer (--headless,
// CPU backend), issue 21 item 5:
//   * a map file (PFM) beside the truth of the bundled stereo pair: the sidecar's scores are
//     eval::evaluate's on that file (Middlebury 2003 protocol), colour bars with the ranges
//     and unit "px";
//   * the signed difference of two crafted maps: its values (min / max of A - B), its
//     symmetric diverging colour bar, and the screenshot's pixels are the host colour map's;
//   * a KITTI training folder (--stereo --frame) scored by KITTI's protocol (16-bit PNG map);
//   * the bundled light field's truth scoring a map by HCI's protocol; the plenoptic scene's
//     truth (patch sizes) with no protocol: shown, a note, not scored;
//   * a missing or corrupt file fails the run with one line; a map of another size is shown
//     with a note and not scored; an 8-bit image is shown as an image (no colour bar).
// Skips (77) when no EGL device gives an OpenGL 3.3 context.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/dataset_fixtures.hpp"
#include "headless_process.hpp"
#include "viewer_shot.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/colormap.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/evaluation.hpp"
#include "lightbench/gl/egl_headless.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/lightfield.hpp"
#include "skip.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using lb::test::quoted;

namespace {

std::string out_file(const std::string& name) { return lb::test::out_dir() + "/foreign_" + name; }

using lb::test::Shot;

Shot viewer(const std::string& name, const std::string& args) {
  return lb::test::run_shot(lb::test::viewer_path(), out_file(name), args + " --frames 2");
}

std::string data_dir() {
  const std::string d = out_file("data");
  fs::create_directories(d);
  return d;
}

// The screenshot's pixel at the centre of image pixel (x, y) of pane i.
std::array<int, 3> pane_pixel(const Shot& s, int i, int x, int y) {
  const json& im = s.layout.at("panes").at(i).at("image");
  const double z = im.at("zoom").get<double>();
  const int sx = static_cast<int>(std::floor(im.at("origin")[0].get<double>() + z * (x + 0.5)));
  const int sy = static_cast<int>(std::floor(im.at("origin")[1].get<double>() + z * (y + 0.5)));
  return {s.png.at(sx, sy, 0), s.png.at(sx, sy, 1), s.png.at(sx, sy, 2)};
}

int worst(const std::array<int, 3>& got, const std::array<std::uint8_t, 3>& want) {
  int d = 0;
  for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(got[c] - int(want[c])));
  return d;
}

// The colour bar of pane i is drawn in the screenshot where the sidecar's box says: the middle
// of its gradient (colour_bar.cpp's layout: 4 px padding, 13 px text lines) is the map at 0.5.
void check_bar_drawn(const Shot& s, int i, lb::ColorMap map) {
  const json& box = s.layout.at("panes").at(i).at("colour_bar").at("box");
  INFO("pane " << i << " colour bar box " << box.dump());
  REQUIRE(box[2].get<int>() > 0);
  const int line = 13, pad = 4;
  const int bar_h = box[3].get<int>() - 3 * line - 4 * pad;
  const int x = box[0].get<int>() + box[2].get<int>() / 2, y = box[1].get<int>() + 2 * pad + line + bar_h / 2;
  const std::array<int, 3> got = {s.png.at(x, y, 0), s.png.at(x, y, 1), s.png.at(x, y, 2)};
  CHECK(worst(got, lb::colormap::apply(map, 0.5, 0.0, 1.0)) <= 12);
}

}  // namespace

TEST_CASE("a map file beside the truth is scored as eval::evaluate scores it, with colour bars") {
  const lb::stereo::StereoScene scene = lb::bundled_stereo(1);  // what the viewer's stereo shows
  REQUIRE_FALSE(scene.gt.empty());
  lb::ImageF d = scene.gt.disparity;
  for (int y = 0; y < d.height; ++y)
    for (int x = 0; x < d.width; ++x) d.at(x, y) += 0.4f * static_cast<float>((x + 2 * y) % 5 - 2);
  d.at(3, 3) = std::nanf("");  // an invalid estimate
  const std::string path = data_dir() + "/near.pfm";
  lb::save_pfm(path, d);
  lb::eval::Truth truth;
  truth.protocol = lb::eval::Protocol::Middlebury2003;
  truth.stereo = scene.gt;
  const json want = lb::eval::evaluate(lb::load_pfm(path), truth);

  const Shot s = viewer("map", "--algorithm stereo --pane1 output=truth --pane2 file=" + quoted(path));
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  const json& f = s.layout.at("panes").at(1).at("file");
  CHECK(f.at("kind") == "map");
  CHECK(f.at("scored") == true);
  CHECK(f.at("protocol") == "middlebury2003");
  CHECK(f.at("scores") == want);
  // Colour bars: the map's own finite range in px, the truth's in px.
  double lo = 0, hi = 0;
  lb::colormap::finite_range(d, &lo, &hi);
  const json& bar = s.layout.at("panes").at(1).at("colour_bar");
  CHECK(bar.at("map") == "turbo");
  CHECK(bar.at("min").get<double>() == static_cast<double>(static_cast<float>(lo)));
  CHECK(bar.at("max").get<double>() == static_cast<double>(static_cast<float>(hi)));
  CHECK(bar.at("unit") == "px");
  const json& tbar = s.layout.at("panes").at(0).at("colour_bar");
  CHECK(tbar.at("unit") == "px");
  CHECK(tbar.at("max").get<double>() > tbar.at("min").get<double>());
  // The map's pixels are drawn through the same map the bar names, and the bar is in the
  // screenshot: the middle of its gradient is the map's middle.
  CHECK(worst(pane_pixel(s, 1, 10, 10), lb::colormap::apply(lb::ColorMap::Turbo, d.at(10, 10), float(lo), float(hi))) <= 1);
  check_bar_drawn(s, 1, lb::ColorMap::Turbo);
  check_bar_drawn(s, 0, lb::ColorMap::Turbo);

  // Beside a computed output (BP's disparity, whose result arrives frames later): the same
  // scores, and the output's bar drawn too.
  const Shot o = viewer("map_bp", "--algorithm stereo --pane1 output=bp --pane2 file=" + quoted(path));
  INFO("viewer log:\n" << o.log);
  REQUIRE(o.rc == 0);
  CHECK(o.layout.at("panes").at(1).at("file").at("scores") == want);
  CHECK(o.layout.at("panes").at(0).at("colour_bar").at("unit") == "px");
  check_bar_drawn(o, 0, lb::ColorMap::Turbo);
}

TEST_CASE("signed difference of two crafted maps: values, symmetric bar, pixels") {
  lb::ImageF a(32, 24, 1, 1.0f), b(32, 24, 1, 2.0f);
  a.at(0, 0) = 4.0f;   // A - B = 2
  b.at(1, 0) = -1.5f;  // A - B = 2.5
  const std::string pa = data_dir() + "/a.pfm", pb = data_dir() + "/b.pfm";
  lb::save_pfm(pa, a);
  lb::save_pfm(pb, b);
  const Shot s = viewer("signed", "--algorithm stereo --signed-diff --pane1 file=" + quoted(pa) + " --pane2 file=" + quoted(pb));
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  CHECK(s.layout.at("signed_difference") == true);
  const json& st = s.layout.at("difference_stats");
  CHECK(st.at("min_signed").get<double>() == -1.0);
  CHECK(st.at("max_signed").get<double>() == 2.5);
  CHECK(st.at("max_abs").get<double>() == 2.5);
  const json& bar = s.layout.at("panes").at(1).at("colour_bar");
  CHECK(bar.at("map") == "diverging");
  CHECK(bar.at("min").get<double>() == -2.5);
  CHECK(bar.at("max").get<double>() == 2.5);
  CHECK(bar.at("label") == "A - B");
  CHECK(bar.at("unit") == "px");
  // A - B = -1 at (5, 5): 0.3 of the diverging map; pane A: turbo over A's range [1, 4].
  CHECK(worst(pane_pixel(s, 1, 5, 5), lb::colormap::apply(lb::ColorMap::Diverging, -1.0, -2.5, 2.5)) <= 1);
  CHECK(worst(pane_pixel(s, 1, 1, 0), lb::colormap::apply(lb::ColorMap::Diverging, 2.5, -2.5, 2.5)) <= 1);
  CHECK(worst(pane_pixel(s, 0, 5, 5), lb::colormap::apply(lb::ColorMap::Turbo, 1.0, 1.0, 4.0)) <= 1);
  // |A - B| (plain --diff): the bar from 0 in the panel's map.
  const Shot u = viewer("unsigned", "--algorithm stereo --diff --pane1 file=" + quoted(pa) + " --pane2 file=" + quoted(pb));
  REQUIRE(u.rc == 0);
  const json& ubar = u.layout.at("panes").at(1).at("colour_bar");
  CHECK(ubar.at("min").get<double>() == 0.0);
  CHECK(ubar.at("max").get<double>() == 2.5);
  CHECK(ubar.at("label") == "|A - B|");
}

TEST_CASE("a KITTI frame (--stereo training --frame) scores a 16-bit PNG map by KITTI's protocol") {
  const fs::path training = fs::path(data_dir()) / "kitti" / "training";
  fs::remove_all(training);
  lbt::ds::kitti(training, 2015, 2);
  const lb::dataset::Dataset ds = lb::dataset::open_dataset(training.string());
  const lb::dataset::OpenedScene o = lb::dataset::open_scene(lb::dataset::select_scene(ds, "000001_10"));
  lb::ImageF d = o.truth.stereo.disparity;
  for (std::size_t i = 0; i < d.data.size(); ++i) d.data[i] = 11.0f + static_cast<float>(i % 9);  // some > 3 px off
  const std::string map = data_dir() + "/k.png";
  lb::dataset::save_kitti_disparity(map, d);
  const json want = lb::eval::evaluate(lb::dataset::load_disparity_map(map), o.truth);
  const Shot s = viewer("kitti", "--stereo " + quoted(training.string()) + " --frame 000001_10 --pane1 output=truth "
                                 "--pane2 file=" + quoted(map));
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  const json& f = s.layout.at("panes").at(1).at("file");
  CHECK(f.at("protocol") == "kitti");
  CHECK(f.at("scores") == want);
  CHECK(want.at("occ").at("d1_all").get<double>() > 0.0);
  // Not a frame of the folder: one line naming it, the run fails.
  const Shot bad = viewer("kitti_bad_frame", "--stereo " + quoted(training.string()) + " --frame 000009_10");
  CHECK(bad.rc == 1);
  CHECK(bad.layout.at("errors").dump().find("000009_10") != std::string::npos);
}

TEST_CASE("an IQA database (--iqa TID2013 --frame NAME) opens its pair for MAD, case-insensitively") {
  const fs::path tid = fs::path(data_dir()) / "tid2013";
  fs::remove_all(tid);
  lbt::ds::tid(tid);
  // MAD needs 34 x 34 or more: the fixture's pair at i01_02_1 replaced by a 40 x 36 one.
  lb::save_image((tid / "reference_images" / "I01.bmp").string(), lb::ImageU8(40, 36, 3, 90));
  fs::rename(tid / "reference_images" / "I01.bmp", tid / "reference_images" / "I01.BMP");
  lb::ImageU8 dist(40, 36, 3, 90);
  for (std::size_t i = 0; i < dist.data.size(); i += 7) dist.data[i] = 200;
  lb::save_image((tid / "distorted_images" / "i01_02_1.bmp").string(), dist);
  const Shot s = viewer("iqa", "--iqa " + quoted(tid.string()) +
                                   " --frame I01_02_1.BMP --pane1 output=distorted --pane2 output=hi");
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  CHECK(s.layout.at("panes").at(0).at("image").at("width") == 40);
  const json& pane = s.layout.at("panes").at(1);
  const std::string pair = pane.at("params").at("pair").get<std::string>();
  CHECK(pair.find("i01_02_1.bmp") != std::string::npos);
  CHECK(pair.find("MOS 4.5") != std::string::npos);
  // Not a pair of the database, or not an IQA database: one line, the run fails.
  const Shot bad = viewer("iqa_bad", "--iqa " + quoted(tid.string()) + " --frame i09_09_9.bmp");
  CHECK(bad.rc == 1);
  CHECK(bad.layout.at("errors").dump().find("i09_09_9") != std::string::npos);
  const Shot wrong = viewer("iqa_wrong", "--iqa " + quoted(data_dir() + "/kitti/training"));
  CHECK(wrong.rc == 1);
  CHECK(wrong.layout.at("errors").dump().find("not an IQA database") != std::string::npos);
}

TEST_CASE("a light field's truth scores a map by HCI's protocol; the plenoptic truth has none") {
  const lb::LightField4D lf = lb::bundled_lightfield(1u);  // what the viewer's light field shows
  REQUIRE(lf.has_gt());
  lb::ImageF d = lf.gt;
  for (int y = 0; y < d.height; ++y)
    for (int x = 0; x < d.width; ++x) d.at(x, y) += 0.03f * static_cast<float>((3 * x + y) % 7 - 3);  // up to 0.09: some over 0.07
  const std::string path = data_dir() + "/lf.pfm";
  lb::save_pfm(path, d);
  lb::eval::Truth truth;
  truth.protocol = lb::eval::Protocol::Hci;
  truth.border = 15;
  truth.stereo.disparity = lf.gt;
  const json want = lb::eval::evaluate(lb::load_pfm(path), truth);
  const Shot s = viewer("lf", "--algorithm lightfield --pane1 output=truth --pane2 file=" + quoted(path));
  INFO("viewer log:\n" << s.log);
  REQUIRE(s.rc == 0);
  const json& f = s.layout.at("panes").at(1).at("file");
  CHECK(f.at("protocol") == "hci");
  CHECK(f.at("scores") == want);
  CHECK(want.at("all").at("badpix_007").get<double>() > 0.0);

  // The plenoptic scene's truth is patch sizes: shown, not scored, one line saying so.
  const Shot p = viewer("plenoptic", "--preset tiny --pane2 file=" + quoted(path));
  INFO("viewer log:\n" << p.log);
  REQUIRE(p.rc == 0);
  const json& pf = p.layout.at("panes").at(1).at("file");
  CHECK(pf.at("scored") == false);
  CHECK(pf.at("note").get<std::string>().find("no disparity protocol") != std::string::npos);
}

TEST_CASE("missing and corrupt files fail the run in one line; another size is a note; images are images") {
  const std::string missing = data_dir() + "/missing.pfm";
  fs::remove(missing);
  const Shot m = viewer("missing", "--algorithm stereo --pane2 file=" + quoted(missing));
  INFO("viewer log:\n" << m.log);
  CHECK(m.rc == 1);
  CHECK(m.layout.at("panes").at(1).at("error").get<std::string>().find("missing.pfm") != std::string::npos);
  CHECK(m.layout.at("errors").dump().find("missing.pfm") != std::string::npos);

  const std::string corrupt = data_dir() + "/corrupt.pfm";
  std::ofstream(corrupt, std::ios::binary) << "Pf\n40 30\n-1.0\n" << std::string(17, 'x');
  const Shot c = viewer("corrupt", "--algorithm stereo --pane1 file=" + quoted(corrupt));
  INFO("viewer log:\n" << c.log);
  CHECK(c.rc == 1);
  const std::string ce = c.layout.at("panes").at(0).at("error").get<std::string>();
  CHECK(ce.find("corrupt.pfm") != std::string::npos);
  CHECK(ce.find('\n') == std::string::npos);

  const std::string small = data_dir() + "/small.pfm", img = data_dir() + "/img.png";
  lb::save_pfm(small, lb::ImageF(10, 7, 1, 3.0f));
  lb::save_image(img, lb::ImageU8(12, 9, 3, 200));
  const Shot w = viewer("wrong_size", "--algorithm stereo --pane1 file=" + quoted(img) + " --pane2 file=" + quoted(small));
  INFO("viewer log:\n" << w.log);
  REQUIRE(w.rc == 0);
  const json& f = w.layout.at("panes").at(1).at("file");
  CHECK(f.at("scored") == false);
  CHECK(f.at("note").get<std::string>().find("differs from the truth's") != std::string::npos);
  const json& i = w.layout.at("panes").at(0);
  CHECK(i.at("file").at("kind") == "image");
  CHECK(i.at("colour_bar").is_null());
  CHECK(i.at("image").at("width") == 12);
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
