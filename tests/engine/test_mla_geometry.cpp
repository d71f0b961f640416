// Micro-lens grid geometry: centres, the sub-grid type rule, nearest lens, enumeration, the
// rectangular PlenopticGrid as a special case, and inconsistent geometries refused.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <set>

#include "lightbench/error.hpp"
#include "lightbench/mla_geometry.hpp"

using namespace lb;

namespace {

// The Raytrix R42 crop's calibration (lb::raytrix_r42_calibration), optionally rotated.
MlaGeometry raytrix_like(double rotation = 0.0) {
  MlaGeometry g = raytrix_r42_calibration();
  g.rotation = rotation;
  return g;
}

// The six lattice neighbours: (1, 0) and (0.5, -0.866) are 60 degrees apart, so the third
// direction is base_x - base_y = lattice (1, -1).
const int kHexNeighbours[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}};

}  // namespace

TEST_CASE("mla: lens centres are offset + R * diameter * (i base_x + j base_y)") {
  const MlaLayout m(raytrix_like());
  const MlaVec c00 = m.centre(0, 0);
  CHECK(c00.x == doctest::Approx(17.759811322506));
  CHECK(c00.y == doctest::Approx(14.905208990217));
  const MlaVec c10 = m.centre(1, 0), c01 = m.centre(0, 1), cm2 = m.centre(1, -2);
  CHECK(c10.x - c00.x == doctest::Approx(34.864704132080));
  CHECK(c10.y == doctest::Approx(c00.y));
  // Row j = 1 is half a lens right and sqrt(3)/2 lenses up (y down in the raw).
  CHECK(c01.x - c00.x == doctest::Approx(17.43235206604));
  CHECK(c01.y - c00.y == doctest::Approx(-30.1937).epsilon(1e-4));
  // (1, -2): x = 1 - 1 = 0 lenses, y = +1.732 lenses (down).
  CHECK(cm2.x == doctest::Approx(c00.x));
  CHECK(cm2.y - c00.y == doctest::Approx(2 * 0.866025388241 * 34.864704132080));
  // Every neighbour at one diameter.
  for (const auto& n : kHexNeighbours) {
    const MlaVec c = m.centre(n[0], n[1]);
    CHECK(std::hypot(c.x - c00.x, c.y - c00.y) == doctest::Approx(34.864704132080).epsilon(1e-6));
  }
  // Rotation by 90 degrees: base_x points down the raw (y), base_y's x part points up.
  const MlaLayout r(raytrix_like(M_PI / 2));
  const MlaVec r10 = r.centre(1, 0);
  CHECK(r10.x == doctest::Approx(c00.x));
  CHECK(r10.y - c00.y == doctest::Approx(34.864704132080));
}

TEST_CASE("mla: Raytrix sub-grid rule: type = (i - j) mod 3, six neighbours of the other types") {
  const MlaLayout m(raytrix_like());
  CHECK(m.type_count() == 3);
  CHECK(m.type(0, 0) == 0);
  CHECK(m.type(1, 0) == 1);   // type 1's offset (1, 0)
  CHECK(m.type(-1, 0) == 2);  // type 2's offset (-1, 0)
  CHECK(m.type(2, 0) == 2);
  CHECK(m.type(3, 0) == 0);   // the x period: 3 lenses
  CHECK(m.type(-1, 2) == 0);  // the y period: (0, -1.732) lens units = lattice (-1, 2)
  CHECK(m.type(1, 1) == 0);   // the cell's centre (1.5, -0.866)
  std::map<int, int> count;
  for (int j = -7; j <= 7; ++j)
    for (int i = -9; i <= 9; ++i) {
      const int t = m.type(i, j);
      CHECK(t == (((i - j) % 3) + 3) % 3);
      ++count[t];
      std::set<int> around;
      for (const auto& n : kHexNeighbours) {
        const int u = m.type(i + n[0], j + n[1]);
        CHECK(u != t);
        around.insert(u);
      }
      CHECK(around.size() == 2);
    }
  // The three types tile the grid evenly (15 rows: each residue 5 times per column).
  CHECK(count[0] == 95);
  CHECK(count[0] == count[1]);
  CHECK(count[1] == count[2]);
}

TEST_CASE("mla: nearest lens is the one at the smallest distance (brute force)") {
  for (double rot : {0.0, 0.3, -1.1}) {
    const MlaLayout m(raytrix_like(rot));
    for (int k = 0; k < 400; ++k) {
      // A deterministic scatter over a 300 x 250 area.
      const double x = std::fmod(k * 37.3, 300.0), y = std::fmod(k * 71.9, 250.0);
      const MlaLens n = m.nearest(x, y);
      const double d = std::hypot(n.cx - x, n.cy - y);
      CHECK(d <= 34.864704132080 / std::sqrt(3.0) + 1e-9);  // the hexagon's circumradius
      for (int j = -20; j <= 20; ++j)
        for (int i = -20; i <= 20; ++i) {
          const MlaVec c = m.centre(i, j);
          CHECK_MESSAGE(std::hypot(c.x - x, c.y - y) >= d - 1e-9, "rot " << rot << " at " << x << "," << y);
        }
      CHECK(n.type == m.type(n.i, n.j));
    }
  }
  CHECK_THROWS_AS(MlaLayout(raytrix_like()).nearest(NAN, 0), Error);
}

TEST_CASE("mla: enumeration over a raw returns the lenses whose circle is inside") {
  const MlaLayout m(raytrix_like());
  const auto lenses = m.lenses_in(964, 670);
  const double r = 34.864704132080 / 2;
  std::set<std::pair<int, int>> seen;
  for (const MlaLens& l : lenses) {
    CHECK(l.cx - r >= -0.5);
    CHECK(l.cx + r <= 964.5);
    CHECK(l.cy - r >= -0.5);
    CHECK(l.cy + r <= 670.5);
    seen.insert({l.i, l.j});
  }
  // Brute force over a wide lattice window.
  int expected = 0;
  for (int j = -60; j <= 60; ++j)
    for (int i = -60; i <= 60; ++i) {
      const MlaVec c = m.centre(i, j);
      const bool inside = c.x - r >= -0.5 && c.x + r <= 964.5 && c.y - r >= -0.5 && c.y + r <= 670.5;
      expected += inside;
      CHECK(inside == (seen.count({i, j}) == 1));
    }
  CHECK(static_cast<int>(lenses.size()) == expected);
  // Rows 30.19 px apart from y = 14.9 + 30.19 k: rows k = 1..21 fit (y <= 652.6); 27 or 26
  // lenses a row. Row 0 (y = 14.9) sticks out at the top.
  CHECK(lenses.size() > 21 * 26);
  CHECK(lenses.size() <= 21 * 27);
  CHECK_THROWS_AS(m.lenses_in(0, 10), Error);
  MlaGeometry tiny = raytrix_like();
  tiny.diameter = 2.0;
  tiny.lens_border = 0.0;
  CHECK_THROWS_WITH_AS(MlaLayout(tiny).lenses_in(2000000000, 2000000000),
                       doctest::Contains("too many lenses"), Error);
}

TEST_CASE("mla: a rectangular PlenopticGrid is a special case, exactly") {
  PlenopticGrid grid;
  grid.nx = 14;
  grid.ny = 10;
  grid.pitch = 34.5;
  grid.ox = 0.75;
  grid.oy = 1.25;
  const MlaGeometry g = to_mla_geometry(grid);
  CHECK(g.kind == MlaKind::Rectangular);
  const MlaLayout m(g);
  CHECK(m.type_count() == 1);
  for (int ny = 0; ny < grid.ny; ++ny)
    for (int nx = 0; nx < grid.nx; ++nx) {
      const MlaVec c = m.centre(nx, ny);
      // The renderer's weight-map centre: start + D/2.
      CHECK(c.x == grid.ox + nx * grid.pitch + grid.pitch / 2);
      CHECK(c.y == grid.oy + ny * grid.pitch + grid.pitch / 2);
      CHECK(m.type(nx, ny) == 0);
      const MlaLens n = m.nearest(c.x + 10.0, c.y - 10.0);
      CHECK(n.i == nx);
      CHECK(n.j == ny);
    }
  // The generator's raw for this grid is ceil(0.75 + 14 * 34.5) x ceil(1.25 + 10 * 34.5).
  const auto lenses = m.lenses_in(484, 347);
  CHECK(lenses.size() == 14 * 10);
  CHECK(lenses.front().i == 0);
  CHECK(lenses.front().j == 0);
  CHECK(lenses.back().i == 13);
  CHECK(lenses.back().j == 9);
}

TEST_CASE("mla: inconsistent geometries are refused in one line") {
  auto refused = [](MlaGeometry g, const char* part) {
    try {
      MlaLayout m(g, "calib.xml");
      FAIL_CHECK("accepted, expected: " << part);
    } catch (const Error& e) {
      const std::string msg = e.what();
      CHECK_MESSAGE(msg.find("calib.xml: ") == 0, msg);
      CHECK_MESSAGE(msg.find(part) != std::string::npos, msg);
      CHECK(msg.find('\n') == std::string::npos);
    }
  };
  MlaGeometry g = raytrix_like();
  g.diameter = 0.0;
  refused(g, "diameter 0 out of range");
  g = raytrix_like();
  g.diameter = NAN;
  refused(g, "diameter");
  g = raytrix_like();
  g.base_y = {2.0, 0.0};
  refused(g, "collinear");
  g = raytrix_like();
  g.base_y = {0.0, 1.0};  // orthogonal but declared hexagonal
  refused(g, "hexagonal grid with lens bases");
  g = raytrix_like();
  g.types[1].depth_min = 5.0;
  refused(g, "lens type 1 depth range min 5 > max 4");
  g = raytrix_like();
  g.types[2].offset = {3.0, 0.0};  // one x period from type 0's (0, 0)
  refused(g, "lens types 0 and 2 fall on the same lenses");
  g = raytrix_like();
  g.types[2].offset = {0.5, 0.3};
  refused(g, "lens type 2 offset (0.5,0.3) is not a lens position");
  g = raytrix_like();
  g.types.pop_back();
  refused(g, "a cell of 3 lenses but there are 2 lens types");
  g = raytrix_like();
  g.sub_grid_base = {2.5, -1.732050776482};
  refused(g, "does not repeat on lens positions");
  g = raytrix_like();
  g.sub_grid_base = {0.0, 0.0};
  refused(g, "3 lens types but no sub_grid_base");
  g = raytrix_like();
  g.sub_grid_base = {3.0, 0.0};  // the cell's centre (1.5, 0) is no lens
  refused(g, "does not repeat on lens positions");
  g = raytrix_like();
  g.sub_grid_base = {0.0, -3.464101552964};  // periods (0, 0) and lattice (-1, 2)
  refused(g, "spans no area");
  g = raytrix_like();
  g.lens_border = 20.0;
  refused(g, "lens_border 20 out of range");
  g = raytrix_like();
  g.offset = {1e9, 0.0};
  refused(g, "offset");
  g = raytrix_like();
  g.types.assign(17, g.types[0]);
  refused(g, "17 lens types");
}
