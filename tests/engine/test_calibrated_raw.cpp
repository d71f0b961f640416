// load_calibrated_raw: a raw + its RayCalibData XML as plenoptic data. A generated hexagonal
// raw with an XML written from its own geometry (exact, shifted, not fitting), broken files,
// and the real R42 crop (when ../shared is present).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <filesystem>
#include <sstream>
#include <string>

#include "../shared_data.hpp"
#include "lightbench/calibrated_raw.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/plenoptic_hex.hpp"
#include "calib_xml.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {

// hex-small's raw and geometry, generated once.
const HexScene& hex_small() {
  static const HexScene s = generate_hex_scene(hex_generator_preset("hex-small"));
  return s;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("calibrated raw: the generated raw with its own geometry keeps the file's offset") {
  lbt::TempDir tmp("calraw");
  const HexScene& h = hex_small();
  save_image(tmp.file("raw.png"), h.raw);
  lbt::spit(tmp.file("raw.xml"), lbt::calib_xml_of(h.params.mla));
  CalibInfo info;
  const PlenopticScene s = load_calibrated_raw(tmp.file("raw.png"), tmp.file("raw.xml"), CalibFit::Auto, &info);
  REQUIRE(s.mla);
  CHECK(s.mla->kind == MlaKind::Hexagonal);
  CHECK(s.mla->types.size() == 3);
  CHECK(s.mla->diameter == doctest::Approx(24.0));
  // Auto: the right file gains little from the fit, so its offset stays exactly.
  CHECK(info.fit_run);
  CHECK_FALSE(info.fitted);
  CHECK(s.mla->offset.x == doctest::Approx(12.3));
  CHECK(s.mla->offset.y == doctest::Approx(12.7));
  CHECK(std::hypot(info.shift.x, info.shift.y) < 1.0);  // the fit agrees to its precision
  MESSAGE("hex-small: contrast file " << info.contrast_file << ", fitted " << info.contrast_fitted);
  // The placeholder grid and the rest of the scene.
  CHECK(s.grid.nx == 1);
  CHECK(s.grid.ny == 1);
  CHECK(s.grid.pitch == doctest::Approx(24.0));
  CHECK(s.raw.width == 360);
  CHECK(s.raw.channels == 3);
  CHECK(s.truth.empty());
  CHECK(s.source.find("raw.png") != std::string::npos);
  CHECK(s.source.find("raw.xml") != std::string::npos);
  // Off: the file's numbers without running the fit.
  CalibInfo off;
  const PlenopticScene o = load_calibrated_raw(tmp.file("raw.png"), tmp.file("raw.xml"), CalibFit::Off, &off);
  CHECK_FALSE(off.fit_run);
  CHECK(o.mla->offset.x == doctest::Approx(12.3));
  CHECK(calib_json(off)["fit"] == "off");
}

TEST_CASE("calibrated raw: a file offset 5 px off the raw's grid is fitted back (auto), kept with off") {
  lbt::TempDir tmp("calraw");
  const HexScene& h = hex_small();
  save_image(tmp.file("raw.png"), h.raw);
  MlaGeometry shifted = h.params.mla;
  shifted.offset = {shifted.offset.x + 4.0, shifted.offset.y - 3.0};
  lbt::spit(tmp.file("cal.xml"), lbt::calib_xml_of(shifted));
  CalibInfo info;
  const PlenopticScene s = load_calibrated_raw(tmp.file("raw.png"), tmp.file("cal.xml"), CalibFit::Auto, &info);
  CHECK(info.fitted);
  CHECK(info.contrast_fitted > info.contrast_file);
  CHECK(info.shift.x == doctest::Approx(-4.0).epsilon(0.2));
  CHECK(info.shift.y == doctest::Approx(3.0).epsilon(0.25));
  CHECK(s.mla->offset.x == doctest::Approx(12.3).epsilon(0.06));
  CHECK(s.mla->offset.y == doctest::Approx(12.7).epsilon(0.06));
  CHECK(info.file_offset.x == doctest::Approx(16.3));
  const nlohmann::json j = calib_json(info);
  CHECK(j["fitted"] == true);
  CHECK(j["shift"][0].get<double>() < -3.0);
  CalibInfo off;
  const PlenopticScene o = load_calibrated_raw(tmp.file("raw.png"), tmp.file("cal.xml"), CalibFit::Off, &off);
  CHECK_FALSE(off.fitted);
  CHECK(o.mla->offset.x == doctest::Approx(16.3));
  // On: fitted whatever the gain (here the same answer as auto).
  CalibInfo on;
  const PlenopticScene n = load_calibrated_raw(tmp.file("raw.png"), tmp.file("cal.xml"), CalibFit::On, &on);
  CHECK(on.fitted);
  CHECK(n.mla->offset.x == doctest::Approx(s.mla->offset.x));
}

TEST_CASE("calibrated raw: broken inputs are one line naming the files") {
  lbt::TempDir tmp("calraw");
  const HexScene& h = hex_small();
  save_image(tmp.file("raw.png"), h.raw);
  lbt::spit(tmp.file("ok.xml"), lbt::calib_xml_of(h.params.mla));
  auto one_line = [](const std::string& m) { return m.find('\n') == std::string::npos && m != "(no error)"; };
  // A raw smaller than one lens: both names in the line.
  save_image(tmp.file("tiny.png"), ImageU8(20, 16, 3, 128));
  std::string m = error_of([&] { load_calibrated_raw(tmp.file("tiny.png"), tmp.file("ok.xml")); });
  CHECK(one_line(m));
  CHECK(m.find("tiny.png") != std::string::npos);
  CHECK(m.find("ok.xml") != std::string::npos);
  CHECK(m.find("no whole lens") != std::string::npos);
  // Lenses larger than the raw (the lattice is endless, so only the size can miss it).
  MlaGeometry far = h.params.mla;
  far.diameter = 400.0;
  lbt::spit(tmp.file("far.xml"), lbt::calib_xml_of(far));
  m = error_of([&] { load_calibrated_raw(tmp.file("raw.png"), tmp.file("far.xml")); });
  CHECK(one_line(m));
  CHECK(m.find("far.xml") != std::string::npos);
  CHECK(m.find("raw.png") != std::string::npos);
  // Not XML, a truncated XML, an XML of something else, an empty file.
  lbt::spit(tmp.file("junk.xml"), "this is not xml <<<");
  lbt::spit(tmp.file("cut.xml"), lbt::calib_xml_of(h.params.mla).substr(0, 200));
  lbt::spit(tmp.file("other.xml"), "<?xml version=\"1.0\"?><svg width=\"3\"/>");
  lbt::spit(tmp.file("empty.xml"), "");
  for (const char* bad : {"junk.xml", "cut.xml", "other.xml", "empty.xml"}) {
    m = error_of([&] { load_calibrated_raw(tmp.file("raw.png"), tmp.file(bad)); });
    CHECK_MESSAGE(one_line(m), bad);
    CHECK_MESSAGE(m.find(bad) != std::string::npos, m);
  }
  // Missing files; the XML given as the raw; a raw that is not an image.
  m = error_of([&] { load_calibrated_raw(tmp.file("none.png"), tmp.file("ok.xml")); });
  CHECK(m.find("none.png") != std::string::npos);
  CHECK(m.find("no such file") != std::string::npos);
  m = error_of([&] { load_calibrated_raw(tmp.file("raw.png"), tmp.file("none.xml")); });
  CHECK(m.find("none.xml") != std::string::npos);
  m = error_of([&] { load_calibrated_raw(tmp.file("ok.xml"), tmp.file("ok.xml")); });
  CHECK(one_line(m));
  CHECK(m.find("ok.xml") != std::string::npos);
  // A fit mode that does not exist.
  m = error_of([&] { parse_calib_fit("maybe", "--fit-grid"); });
  CHECK(m == "--fit-grid 'maybe': use auto, on or off");
}

TEST_CASE("calibrated raw: a gray raw becomes RGB; the geometry's JSON") {
  const HexScene& h = hex_small();
  ImageU8 gray(h.raw.width, h.raw.height, 1);
  for (std::size_t i = 0; i < gray.pixels(); ++i) gray.data[i] = h.raw.data[i * 3 + 1];
  const PlenopticScene s = calibrated_scene(gray, h.params.mla, CalibFit::Off, "gray", "geometry");
  CHECK(s.raw.channels == 3);
  CHECK(s.raw.at(5, 7, 0) == gray.at(5, 7, 0));
  const nlohmann::json j = mla_json(*s.mla);
  CHECK(j["kind"] == "hexagonal");
  CHECK(j["diameter"].get<double>() == 24.0);
  CHECK(j["types"].size() == 3);
  CHECK(j["types"][2]["depth_min"].get<double>() == doctest::Approx(3.8));
  MlaGeometry inf = h.params.mla;
  inf.types[2].depth_max = std::numeric_limits<double>::infinity();
  CHECK(mla_json(inf)["types"][2]["depth_max"].is_null());
}

TEST_CASE("calibrated raw: the R42 crop opens with its file, the offset fitted (when ../shared is present)") {
  const std::string dir = lb_shared_data_dir() + "/plenoptic/raytrix-r42";
  if (!std::filesystem::exists(dir + "/sc2_klein.png") || !std::filesystem::exists(dir + "/sc2_klein.xml")) {
    MESSAGE("skipped: " << dir << " not present");
    return;
  }
  CalibInfo info;
  const PlenopticScene s = load_calibrated_raw(dir + "/sc2_klein.png", dir + "/sc2_klein.xml", CalibFit::Auto, &info);
  REQUIRE(s.mla);
  CHECK(s.raw.width == 964);
  CHECK(s.raw.height == 670);
  CHECK(s.mla->diameter == doctest::Approx(34.8647).epsilon(1e-4));
  // The crop was cut from a larger frame: the file's offset is ~6 px off (docs/DESIGN.md); the
  // default fits it and the contrast at least doubles.
  CHECK(info.fitted);
  const double shift = std::hypot(info.shift.x, info.shift.y);
  MESSAGE("R42 crop: shift (" << info.shift.x << ", " << info.shift.y << "), contrast " << info.contrast_file
                              << " -> " << info.contrast_fitted);
  CHECK(shift > 4.0);
  CHECK(shift < 9.0);
  CHECK(info.contrast_fitted > 2.0 * info.contrast_file);
  CHECK(s.mla->offset.x == doctest::Approx(info.file_offset.x + info.shift.x));
}
