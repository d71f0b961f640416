// Raytrix RayCalibData reader: the real R42 crop's file (when ../shared is present), a file
// written here, and every broken variant refused in one line naming the file and element.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "../shared_data.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/mla_geometry.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {

// The structure of sc2_klein.xml (values shortened), written by the tests.
std::string calib_xml(const std::string& diameter = "34.8647", const std::string& extra = "",
                      const std::string& type2_offset = "<x>-1</x><y>0</y>",
                      const std::string& type1_range = "<min>2.8</min><max>4</max>") {
  return R"(<RayCalibData version="1.0">
  <offset units="pix"><x>17.76</x><y>14.905</y></offset>
  <diameter units="pix">)" + diameter + R"(</diameter>
  <rotation units="rad">0</rotation>
  <lens_border units="pix">1</lens_border>
  <tcp units="virtual_depth">2.18</tcp>
  <lens_base_x units="lens"><x>1</x><y>0</y></lens_base_x>
  <lens_base_y units="lens"><x>0.5</x><y>-0.866025388241</y></lens_base_y>
  <sub_grid_base units="lens"><x>3</x><y>-1.732050776482</y></sub_grid_base>
  <distortion type="radial"><function>constant</function><parameter count="0">0</parameter>
    <offset units="pix"><x>0</x><y>0</y></offset></distortion>
  <lens_type id="0"><offset units="lens"><x>0</x><y>0</y></offset>
    <depth_range units="virtual_depth"><min>1</min><max>3</max></depth_range></lens_type>
  <lens_type id="1"><offset units="lens"><x>1</x><y>0</y></offset>
    <depth_range units="virtual_depth">)" + type1_range + R"(</depth_range></lens_type>
  <lens_type id="2"><offset units="lens">)" + type2_offset + R"(</offset>
    <depth_range units="virtual_depth"><min>3.8</min><max>100</max></depth_range></lens_type>
)" + extra + "</RayCalibData>\n";
}

// Replace the first occurrence of `from` in the good file by `to`.
std::string edit(const std::string& from, const std::string& to) {
  std::string s = calib_xml();
  const auto p = s.find(from);
  REQUIRE_MESSAGE(p != std::string::npos, from);
  return s.replace(p, from.size(), to);
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("raytrix calib: a written file gives the geometry") {
  lbt::TempDir tmp("rxcalib");
  write(tmp.file("c.xml"), calib_xml());
  const MlaGeometry g = load_raytrix_calibration(tmp.file("c.xml"));
  CHECK(g.kind == MlaKind::Hexagonal);
  CHECK(g.diameter == doctest::Approx(34.8647));
  CHECK(g.offset.x == doctest::Approx(17.76));
  CHECK(g.offset.y == doctest::Approx(14.905));
  CHECK(g.lens_border == 1.0);
  CHECK(g.tcp == doctest::Approx(2.18));
  CHECK(g.base_y.y == doctest::Approx(-0.866025388241));
  REQUIRE(g.types.size() == 3);
  CHECK(g.types[1].offset.x == 1.0);
  CHECK(g.types[2].offset.x == -1.0);
  CHECK(g.types[2].depth_min == doctest::Approx(3.8));
  CHECK(g.types[2].depth_max == 100.0);
  const MlaLayout m(g);
  CHECK(m.type(4, 1) == 0);
  CHECK(m.type(2, 1) == 1);
  // Without lens types: one type, sharp everywhere, no sub-grid needed.
  std::string single = calib_xml();
  single = single.substr(0, single.find("  <lens_type")) + "</RayCalibData>";
  single.replace(single.find("<sub_grid_base"), single.find("</sub_grid_base>") + 16 - single.find("<sub_grid_base"), "");
  const MlaGeometry s = parse_raytrix_calibration(single, "single.xml");
  REQUIRE(s.types.size() == 1);
  CHECK(std::isinf(s.types[0].depth_max));
}

TEST_CASE("raytrix calib: the R42 crop's file lines up with its raw (when ../shared is present)") {
  const std::string dir = lb_shared_data_dir() + "/plenoptic/raytrix-r42";
  if (!std::filesystem::exists(dir + "/sc2_klein.xml")) {
    MESSAGE("SKIPPED: " << dir << " not present");
    return;
  }
  const MlaGeometry g = load_raytrix_calibration(dir + "/sc2_klein.xml");
  // lb::raytrix_r42_calibration, typed in for the tests and benchmarks, is this file's.
  const MlaGeometry typed = raytrix_r42_calibration();
  CHECK(typed.kind == g.kind);
  for (const auto& [a, b] : {std::pair{typed.offset, g.offset}, std::pair{typed.base_x, g.base_x},
                             std::pair{typed.base_y, g.base_y}, std::pair{typed.sub_grid_base, g.sub_grid_base}}) {
    CHECK(a.x == doctest::Approx(b.x).epsilon(1e-9));
    CHECK(a.y == doctest::Approx(b.y).epsilon(1e-9));
  }
  CHECK(typed.diameter == doctest::Approx(g.diameter).epsilon(1e-12));
  CHECK(typed.rotation == g.rotation);
  CHECK(typed.tcp == doctest::Approx(g.tcp).epsilon(1e-12));
  CHECK(typed.lens_border == g.lens_border);
  REQUIRE(typed.types.size() == g.types.size());
  for (std::size_t k = 0; k < typed.types.size(); ++k) {
    CHECK(typed.types[k].offset.x == g.types[k].offset.x);
    CHECK(typed.types[k].offset.y == g.types[k].offset.y);
    CHECK(typed.types[k].depth_min == doctest::Approx(g.types[k].depth_min));
    CHECK(typed.types[k].depth_max == doctest::Approx(g.types[k].depth_max));
  }
  CHECK(g.kind == MlaKind::Hexagonal);
  CHECK(g.diameter == doctest::Approx(34.864704132080).epsilon(1e-12));
  CHECK(g.tcp == doctest::Approx(2.180962562561));
  REQUIRE(g.types.size() == 3);
  CHECK(g.types[0].depth_min == 1.0);
  CHECK(g.types[0].depth_max == 3.0);
  CHECK(g.types[1].depth_min == doctest::Approx(2.8));
  CHECK(g.types[1].depth_max == 4.0);
  CHECK(g.types[2].depth_min == doctest::Approx(3.8));
  CHECK(g.types[2].depth_max == 100.0);
  const ImageU8 raw = load_image(dir + "/sc2_klein.png", 1);
  REQUIRE(raw.width == 964);
  REQUIRE(raw.height == 670);
  const MlaLayout m(g);
  const auto lenses = m.lenses_in(raw.width, raw.height);
  // 21 whole rows of 26 or 27 lenses (the top row, y = 14.9, sticks out).
  CHECK(lenses.size() > 21 * 26);
  CHECK(lenses.size() <= 21 * 27);
  // The calibrated diameter is the raw's micro-image period: micro-image borders are
  // discontinuities, so the image gradient is larger half-way between neighbouring lenses than
  // at their centres. Over every grid phase, that contrast peaks at the calibrated diameter
  // and falls off one pixel away. (The file's offset itself does not give the best phase of
  // this crop: see docs/DESIGN.md, "Micro-lens grid geometry".)
  auto grad = [&](double x, double y) {
    const int cx = static_cast<int>(std::floor(x + 0.5)), cy = static_cast<int>(std::floor(y + 0.5));
    double s = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int X = cx + dx, Y = cy + dy;
        s += std::abs(raw.at(X + 1, Y) - raw.at(X - 1, Y)) + std::abs(raw.at(X, Y + 1) - raw.at(X, Y - 1));
      }
    return s;
  };
  auto contrast = [&](double diameter, double ox, double oy) {
    MlaGeometry h = g;
    h.diameter = diameter;
    h.offset = {ox, oy};
    const MlaLayout mh(h);
    double sum = 0;
    int n = 0;
    auto ok = [&](double x, double y) { return x >= 3 && y >= 3 && x <= raw.width - 4 && y <= raw.height - 4; };
    for (const MlaLens& l : mh.lenses_in(raw.width, raw.height)) {
      for (const MlaVec nb : {mh.centre(l.i + 1, l.j), mh.centre(l.i, l.j + 1)}) {
        const double mx = (l.cx + nb.x) / 2, my = (l.cy + nb.y) / 2;
        if (!ok(mx, my) || !ok(l.cx, l.cy)) continue;
        sum += grad(mx, my) - grad(l.cx, l.cy);
        ++n;
      }
    }
    return sum / n;
  };
  auto best_over_phases = [&](double diameter) {
    double best = -1e9;
    for (double y = 0; y < 61; y += 1)
      for (double x = 0; x < 36; x += 1) best = std::max(best, contrast(diameter, x, y));
    return best;
  };
  const double at = best_over_phases(g.diameter);
  const double below = best_over_phases(g.diameter - 1), above = best_over_phases(g.diameter + 1);
  MESSAGE("R42 crop: " << lenses.size() << " lenses; border contrast " << at << " at D, " << below
                       << " at D-1, " << above << " at D+1");
  CHECK(at > 1.5 * below);
  CHECK(at > 1.5 * above);
  // The fitted phase: near the file's offset (within a few pixels), and better than it.
  const MlaGeometry fit = fit_mla_offset(g, raw);
  const double shift = std::hypot(fit.offset.x - g.offset.x, fit.offset.y - g.offset.y);
  const double c_file = contrast(g.diameter, g.offset.x, g.offset.y);
  const double c_fit = contrast(g.diameter, fit.offset.x, fit.offset.y);
  MESSAGE("R42 crop: fitted offset (" << fit.offset.x << "," << fit.offset.y << "), the file's ("
                                      << g.offset.x << "," << g.offset.y << "); contrast " << c_fit << " vs "
                                      << c_file);
  CHECK(shift < g.diameter / 2);
  CHECK(c_fit > 2 * c_file + 10);
  CHECK(c_fit > 0.95 * at);  // about the best of the 1 px phase grid above
  // The sub-grid rule on real data: the three types have different focal lengths, so their
  // micro-images differ in sharpness (mean gradient within 8 px of the centre). Grouped by
  // the rule's type = (i - j) mod 3 the groups differ clearly; grouped by the mirrored
  // (i + j) mod 3 or by i mod 3 (wrong rules: each group mixes the three types) they do not.
  double sharp[3][3] = {};
  int count[3][3] = {};
  for (const MlaLens& l : lenses) {
    double s = 0;
    int n = 0;
    for (int dy = -8; dy <= 8; ++dy)
      for (int dx = -8; dx <= 8; ++dx) {
        const int X = static_cast<int>(std::floor(l.cx + 0.5)) + dx, Y = static_cast<int>(std::floor(l.cy + 0.5)) + dy;
        if (dx * dx + dy * dy > 64 || X < 1 || Y < 1 || X >= raw.width - 1 || Y >= raw.height - 1) continue;
        s += std::abs(raw.at(X + 1, Y) - raw.at(X - 1, Y)) + std::abs(raw.at(X, Y + 1) - raw.at(X, Y - 1));
        ++n;
      }
    if (n == 0) continue;
    CHECK(l.type == ((l.i - l.j) % 3 + 3) % 3);
    const int group[3] = {l.type, ((l.i + l.j) % 3 + 3) % 3, (l.i % 3 + 3) % 3};
    for (int r = 0; r < 3; ++r) {
      sharp[r][group[r]] += s / n;
      ++count[r][group[r]];
    }
  }
  double spread[3];
  for (int r = 0; r < 3; ++r) {
    double lo = 1e9, hi = -1e9;
    for (int t = 0; t < 3; ++t) {
      REQUIRE(count[r][t] > 100);
      sharp[r][t] /= count[r][t];
      lo = std::min(lo, sharp[r][t]);
      hi = std::max(hi, sharp[r][t]);
    }
    spread[r] = hi - lo;
  }
  MESSAGE("R42 crop: mean gradient per lens type " << sharp[0][0] << ", " << sharp[0][1] << ", " << sharp[0][2]
                                                    << "; spread " << spread[0] << " (mirrored rule " << spread[1]
                                                    << ", i mod 3 " << spread[2] << ")");
  CHECK(sharp[0][0] > sharp[0][1] + 1.5);  // this near scene: type 0 (virtual depth 1..3) sharpest
  CHECK(sharp[0][1] > sharp[0][2] + 1.5);
  CHECK(spread[0] > 3 * spread[1]);
  CHECK(spread[0] > 3 * spread[2]);
  // Neighbours one diameter apart.
  const MlaVec c0 = m.centre(5, -5), c1 = m.centre(6, -5), c2 = m.centre(5, -4);
  CHECK(std::hypot(c1.x - c0.x, c1.y - c0.y) == doctest::Approx(g.diameter));
  CHECK(std::hypot(c2.x - c0.x, c2.y - c0.y) == doctest::Approx(g.diameter).epsilon(1e-6));
}

TEST_CASE("raytrix calib: broken files are refused in one line naming the file and element") {
  lbt::TempDir tmp("rxbad");
  const std::string path = tmp.file("bad.xml");
  auto refused = [&](const std::string& text, const std::string& part) {
    write(path, text);
    try {
      load_raytrix_calibration(path);
      FAIL_CHECK("accepted, expected: " << part);
    } catch (const Error& e) {
      const std::string msg = e.what();
      CHECK_MESSAGE(msg.rfind(path + ": ", 0) == 0, msg);
      CHECK_MESSAGE(msg.find(part) != std::string::npos, msg << "  (expected: " << part << ")");
      CHECK(msg.find('\n') == std::string::npos);
    }
  };
  refused("", "not XML");
  refused("hello, world", "not XML");
  refused(calib_xml().substr(0, 200), "not XML");
  refused(std::string("\x89PNG\r\n\x1a\n\0\0", 10), "not XML");
  refused("<Calib><diameter>3</diameter></Calib>", "root element is <Calib>, expected <RayCalibData>");
  refused(calib_xml() + "<RayCalibData/>", "more than one root element");
  refused(edit("<diameter units=\"pix\">34.8647</diameter>", ""), "missing element RayCalibData/diameter");
  refused(edit("<offset units=\"pix\"><x>17.76</x><y>14.905</y></offset>", ""),
          "missing element RayCalibData/offset");
  refused(edit("<y>14.905</y>", ""), "missing element RayCalibData/offset/y");
  refused(edit("<lens_base_x units=\"lens\"><x>1</x><y>0</y></lens_base_x>", ""),
          "missing element RayCalibData/lens_base_x");
  refused(edit("<lens_base_y units=\"lens\"><x>0.5</x><y>-0.866025388241</y></lens_base_y>", ""),
          "missing element RayCalibData/lens_base_y");
  refused(calib_xml("abc"), "element RayCalibData/diameter is not a number ('abc')");
  refused(calib_xml("34.8px"), "RayCalibData/diameter is not a number");
  refused(calib_xml(""), "RayCalibData/diameter is not a number");
  refused(calib_xml("nan"), "RayCalibData/diameter is not a number");
  refused(calib_xml("1e999"), "RayCalibData/diameter is not a number");
  refused(calib_xml("<v>3</v>"), "RayCalibData/diameter is not a number");
  refused(calib_xml("0"), "RayCalibData/diameter 0.000000 must be positive");
  refused(calib_xml("-34.8"), "RayCalibData/diameter -34.800000 must be positive");
  refused(calib_xml("1e7"), "diameter 10000000 out of range");
  refused(edit("<x>17.76</x>", "<x>17.76</x><x>3</x>"), "element RayCalibData/offset/x appears twice");
  refused(edit("<diameter units=\"pix\">", "<diameter units=\"mm\">"),
          "element RayCalibData/diameter has units 'mm', expected 'pix'");
  refused(edit("<x>0.5</x><y>-0.866025388241</y>", "<x>2</x><y>0</y>"), "collinear");
  refused(edit("<x>0.5</x><y>-0.866025388241</y>", "<x>-1</x><y>0</y>"), "collinear");
  refused(calib_xml("34.8647", "", "<x>-1</x><y>0</y>", "<min>5</min><max>4</max>"),
          "RayCalibData/lens_type[id=1]/depth_range: min 5.000000 > max 4.000000");
  refused(calib_xml("34.8647", "", "<x>-1</x><y>0</y>", "<min>2.8</min>"),
          "missing element RayCalibData/lens_type[id=1]/depth_range/max");
  refused(edit("<lens_type id=\"2\"><offset units=\"lens\"><x>-1</x><y>0</y></offset>",
               "<lens_type id=\"2\">"),
          "missing element RayCalibData/lens_type[id=2]/offset");
  refused(edit("<lens_type id=\"2\">", "<lens_type id=\"1\">"), "duplicate RayCalibData/lens_type id=1");
  refused(edit("<lens_type id=\"2\">", "<lens_type id=\"7\">"), "lens_type has id '7', expected 0..2");
  refused(edit("<lens_type id=\"2\">", "<lens_type>"), "lens_type has id '', expected 0..2");
  refused(edit("<lens_type id=\"2\">", "<lens_type id=\"2x\">"), "lens_type has id '2x'");
  refused(calib_xml("34.8647", "", "<x>0.5</x><y>0</y>"), "lens type 2 offset (0.5,0) is not a lens position");
  refused(calib_xml("34.8647", "", "<x>3</x><y>0</y>"), "lens types 0 and 2 fall on the same lenses");
  refused(edit("<x>3</x><y>-1.732050776482</y>", "<x>1</x><y>-1.732050776482</y>"),
          "a cell of 1 lenses but there are 3 lens types");
  refused(edit("<x>3</x><y>-1.732050776482</y>", "<x>2</x><y>-1.732050776482</y>"),
          "sub_grid_base (2,-1.7320508) does not repeat on lens positions of this hexagonal grid");
  refused(edit("<sub_grid_base units=\"lens\"><x>3</x><y>-1.732050776482</y></sub_grid_base>", ""),
          "3 lens types but no sub_grid_base");
  refused(edit("<function>constant</function><parameter count=\"0\">0</parameter>",
               "<function>polynomial</function><parameter count=\"2\">0.1 0.2</parameter>"),
          "RayCalibData/distortion: function 'polynomial' with 2 parameters is not supported");
  refused(edit("<offset units=\"pix\"><x>17.76</x>", "<offset units=\"pix\"><x>1e8</x>"),
          "offset (1e+08,14.905) out of range");
  refused(edit("<lens_border units=\"pix\">1</lens_border>", "<lens_border units=\"pix\">40</lens_border>"),
          "lens_border 40 out of range");
  std::string many = calib_xml();
  for (int k = 3; k < 20; ++k)
    many.insert(many.find("</RayCalibData>"), "<lens_type id=\"" + std::to_string(k) + "\"/>");
  refused(many, "more than 16 lens_type elements");
  // A file that cannot be opened, and one far too large (refused by lb::read_text_file:
  // "calibration file '<path>' ...").
  CHECK_THROWS_WITH_AS(load_raytrix_calibration(tmp.file("missing.xml")),
                       doctest::Contains("missing.xml': no such file"), Error);
  write(path, calib_xml("34.8647", std::string(5u << 20, ' ')));
  CHECK_THROWS_WITH_AS(load_raytrix_calibration(path),
                       doctest::Contains(("calibration file '" + path +
                                          "' is larger than 4 MiB (the limit for calibration XML files)")
                                             .c_str()),
                       Error);
}
