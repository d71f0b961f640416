// validate(DepthParams) refuses exactly what describe(DepthParams) refuses (issue 40 item 2: the
// table is the only declaration of a range; the cross-parameter rules — pmin <= pmax, at most
// kMaxDepthCandidates candidates, an odd window — are kept by the repair below).
#include <doctest/doctest.h>

#include <algorithm>

#include "plenoptic/depth_math.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "typed_param_bounds.hpp"

using namespace lb;

TEST_CASE("validate(DepthParams) accepts the table's bounds and refuses one step past them") {
  for (const PlenopticGrid g : {PlenopticGrid{9, 6, 17.3, 1.0, 2.5}, PlenopticGrid{4, 3, 41.0, 0.0, 0.0}}) {
    CAPTURE(g.pitch);
    test::check_typed_bounds<DepthParams>(
        default_depth_params(g), [&](DepthParams& p) { return describe(p, g); },
        [&](const DepthParams& p) { validate(p, g); },
        [](DepthParams& p, const std::string& name) {
          if (p.pmin > p.pmax) (name == "pmin" ? p.pmax : p.pmin) = name == "pmin" ? p.pmin : p.pmax;
          if (p.pmax - p.pmin + 1 > kMaxDepthCandidates) {
            if (name == "pmin") p.pmax = p.pmin + kMaxDepthCandidates - 1;
            else p.pmin = p.pmax - kMaxDepthCandidates + 1;
          }
          if (name != "window" && p.window % 2 == 0) p.window += 1;
        });
  }
}

TEST_CASE("validate(DepthParams): the rules no range can state, one line each") {
  const PlenopticGrid g{9, 6, 17.3, 1.0, 2.5};
  DepthParams p = default_depth_params(g);
  p.pmin = p.pmax + 1;
  CHECK_THROWS_WITH_AS(validate(p, g), doctest::Contains("larger than pmax"), Error);
  p = default_depth_params(g);
  p.window = 4;
  CHECK_THROWS_WITH_AS(validate(p, g), doctest::Contains("window: must be odd"), Error);
}
