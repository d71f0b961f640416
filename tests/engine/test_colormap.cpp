// Colour maps (lightbench/colormap.hpp): the host tables equal shaders/colormaps.glsl's
// constants (parsed from the file: one table, two languages), hand-checked values, NaN as
// black, colourise's shape. tests/viewer/gl_surface_test.cpp renders the shader against
// colourise() on a GL context.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "lightbench/colormap.hpp"

using namespace lb;

namespace {

std::string glsl() {
  std::ifstream in(std::string(LB_SHADERS_DIR) + "/colormaps.glsl");
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The `const vecN name = vecN(a, b, ...)` constants of one GLSL function, in order.
std::vector<std::vector<double>> constants(const std::string& src, const std::string& function) {
  const auto start = src.find("vec3 " + function + "(float t)");
  REQUIRE(start != std::string::npos);
  const auto end = src.find("\n}", start);
  const std::string body = src.substr(start, end - start);
  std::vector<std::vector<double>> out;
  const std::regex decl(R"(const vec[234] \w+ = vec[234]\(([^)]*)\))");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), decl); it != std::sregex_iterator(); ++it) {
    std::vector<double> v;
    std::stringstream items((*it)[1].str());
    std::string item;
    while (std::getline(items, item, ',')) v.push_back(std::stod(item));
    out.push_back(v);
  }
  return out;
}

void check_row(const std::vector<double>& glsl_row, const float* host, std::size_t n) {
  REQUIRE(glsl_row.size() == n);
  for (std::size_t i = 0; i < n; ++i) CHECK(static_cast<float>(glsl_row[i]) == host[i]);
}

}  // namespace

TEST_CASE("colormaps.glsl and the host tables hold the same numbers") {
  const std::string src = glsl();
  const auto turbo = constants(src, "turbo");
  REQUIRE(turbo.size() == 6);  // kR4 kG4 kB4 kR2 kG2 kB2
  for (int c = 0; c < 3; ++c) {
    check_row(turbo[static_cast<std::size_t>(c)], colormap::kTurbo4[c], 4);
    check_row(turbo[static_cast<std::size_t>(3 + c)], colormap::kTurbo2[c], 2);
  }
  const auto viridis = constants(src, "viridis");
  REQUIRE(viridis.size() == 7);
  for (int k = 0; k < 7; ++k) check_row(viridis[static_cast<std::size_t>(k)], colormap::kViridis[k], 3);
  const auto div = constants(src, "diverging");
  REQUIRE(div.size() == 5);
  for (int k = 0; k < 5; ++k) check_row(div[static_cast<std::size_t>(k)], colormap::kDiverging[k], 3);
  // The selector's numbering is lb::ColorMap's.
  CHECK(src.find("if (which == 1) return turbo(t);") != std::string::npos);
  CHECK(src.find("if (which == 2) return viridis(t);") != std::string::npos);
  CHECK(src.find("if (which == 3) return diverging(t);") != std::string::npos);
  CHECK(static_cast<int>(ColorMap::Turbo) == 1);
  CHECK(static_cast<int>(ColorMap::Viridis) == 2);
  CHECK(static_cast<int>(ColorMap::Diverging) == 3);
}

TEST_CASE("colour maps: hand-checked values, range mapping, NaN black") {
  using C = std::array<std::uint8_t, 3>;
  CHECK(colormap::apply(ColorMap::Gray, 5.0, 0.0, 10.0) == C{128, 128, 128});  // 0.5 * 255 = 127.5
  CHECK(colormap::apply(ColorMap::Gray, -3.0, 0.0, 10.0) == C{0, 0, 0});       // clamped
  CHECK(colormap::apply(ColorMap::Gray, 30.0, 0.0, 10.0) == C{255, 255, 255});
  // Diverging: the ends and the middle are its stops (0.8654 * 255 = 220.7).
  CHECK(colormap::apply(ColorMap::Diverging, 0.0, -2.0, 2.0) == C{221, 221, 221});
  CHECK(colormap::apply(ColorMap::Diverging, -2.0, -2.0, 2.0) == C{59, 76, 192});
  CHECK(colormap::apply(ColorMap::Diverging, 2.0, -2.0, 2.0) == C{180, 4, 38});
  // Turbo at 0: dot((1, 0, 0, 0), kR4) = 0.1357 -> 35; viridis at 0: c0.
  CHECK(colormap::apply(ColorMap::Turbo, 0.0, 0.0, 1.0) == C{35, 23, 27});
  CHECK(colormap::apply(ColorMap::Viridis, 0.0, 0.0, 1.0) == C{71, 1, 85});
  CHECK(colormap::apply(ColorMap::Turbo, std::nan(""), 0.0, 1.0) == C{0, 0, 0});
  CHECK(colormap::apply(ColorMap::Viridis, INFINITY, 0.0, 1.0) == C{0, 0, 0});

  ImageF m(3, 2, 1);
  for (std::size_t i = 0; i < m.data.size(); ++i) m.data[i] = static_cast<float>(i);
  m.data[4] = std::nanf("");
  const ImageU8 c = colormap::colourise(m, ColorMap::Gray, 0.0, 5.0);
  REQUIRE(c.channels == 3);
  CHECK(c.width == 3);
  CHECK(c.at(1, 0, 0) == 51);  // 1/5 * 255
  CHECK(c.at(1, 1, 2) == 0);   // NaN
  CHECK(c.at(2, 1, 1) == 255);
  double lo = 0, hi = 0;
  colormap::finite_range(m, &lo, &hi);
  CHECK(lo == 0.0);
  CHECK(hi == 5.0);

  ColorMap parsed = ColorMap::Gray;
  for (ColorMap x : {ColorMap::Gray, ColorMap::Turbo, ColorMap::Viridis, ColorMap::Diverging}) {
    REQUIRE(parse_colormap(to_string(x), &parsed));
    CHECK(parsed == x);
  }
  CHECK_FALSE(parse_colormap("jet", &parsed));
}
