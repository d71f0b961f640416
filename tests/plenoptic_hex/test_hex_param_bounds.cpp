// validate(HexRenderParams) and validate(HexDepthParams) refuse exactly what describe(HexRunParams)
// refuses (issue 40 item 2: the table is the only declaration of a range). The table binds one
// patch, rings and lens_types for render and depth (the runner copies them into depth's); depth
// is validated where its rules allow (rings >= 1: it compares neighbours; pmin <= pmax).
#include <doctest/doctest.h>

#include "hex_test_geometry.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "typed_param_bounds.hpp"

using namespace lb;

namespace hex_param_bounds_test {
HexDepthParams depth_of(const HexRunParams& q) {
  HexDepthParams d = q.depth;
  d.patch = q.render.patch;
  d.rings = q.render.rings;
  d.lens_types = q.render.lens_types;
  return d;
}
}  // namespace hex_param_bounds_test
using hex_param_bounds_test::depth_of;

TEST_CASE("hex validate() accepts the table's bounds and refuses one step past them") {
  for (const double D : {24.0, 9.0}) {
    CAPTURE(D);
    const MlaGeometry g = test::three_type_hex(D, D / 2 + 0.3, D / 2 + 0.7);
    test::check_typed_bounds<HexRunParams>(
        default_hex_params(g), [&](HexRunParams& p) { return describe(p, g); },
        [&](const HexRunParams& q) {
          validate(q.render, g);
          if (q.render.rings >= 1) validate(depth_of(q), g);
        },
        [](HexRunParams& q, const std::string& name) {
          if (q.depth.pmin > q.depth.pmax) (name == "pmin" ? q.depth.pmax : q.depth.pmin) = name == "pmin" ? q.depth.pmin : q.depth.pmax;
          if (name != "window" && q.depth.window % 2 == 0) q.depth.window += 1;
        });
  }
}

TEST_CASE("hex validate(): the rules no range can state, one line each") {
  const MlaGeometry g = test::three_type_hex(24.0, 12.3, 12.7);
  HexRunParams q = default_hex_params(g);
  HexDepthParams d = depth_of(q);
  d.rings = 0;
  CHECK_THROWS_WITH_AS(validate(d, g), doctest::Contains("rings: depth compares neighbours"), Error);
  d = depth_of(q);
  d.pmin = d.pmax + 1;
  CHECK_THROWS_WITH_AS(validate(d, g), doctest::Contains("larger than pmax"), Error);
  d = depth_of(q);
  d.window = 2;
  CHECK_THROWS_WITH_AS(validate(d, g), doctest::Contains("window: must be odd"), Error);
}
