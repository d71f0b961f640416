// Middlebury bad pixels against hand-computed values on tiny images; the error map.
#include <doctest/doctest.h>

#include "lightbench/stereo_metrics.hpp"

using namespace lb;
using namespace lb::stereo;

TEST_CASE("stereo metrics: bad pixels > 1 on nonocc / all / disc, unknown truth skipped") {
  // 4x2: truth 0 (unknown) at (0,0).
  StereoGroundTruth gt;
  gt.disparity = ImageF(4, 2, 1);
  gt.disparity.data = {0, 2, 3, 4, 5, 6, 7, 8};
  ImageF d(4, 2, 1);
  d.data = {9, 3, 1.5f, 4, 5, 4.9f, 7, 9.5f};
  // |d - gt| = -, 1 (ok: not > 1), 1.5 bad, 0, 0, 1.1 bad, 0, 1.5 bad
  gt.mask_all = ImageU8(4, 2, 1, 255);
  gt.mask_nonocc = ImageU8(4, 2, 1, 255);
  gt.mask_nonocc.data[2] = 128;  // (2,0) occluded
  gt.mask_disc = ImageU8(4, 2, 1, 0);
  gt.mask_disc.data[5] = 255;
  gt.mask_disc.data[6] = 255;
  const StereoScore s = score_stereo(d, gt);
  CHECK(s.all.pixels == 7);
  CHECK(s.all.bad == 3);
  CHECK(s.all.percent == doctest::Approx(300.0 / 7));
  CHECK(s.nonocc.pixels == 6);
  CHECK(s.nonocc.bad == 2);
  CHECK(s.disc.pixels == 2);
  CHECK(s.disc.bad == 1);
  CHECK(s.disc.percent == doctest::Approx(50.0));
  // Empty masks: every pixel with known truth.
  StereoGroundTruth bare;
  bare.disparity = gt.disparity;
  const StereoScore b = score_stereo(d, bare);
  CHECK(b.nonocc.bad == 3);
  CHECK(b.disc.pixels == 7);
  // Threshold 2: nothing bad.
  CHECK(score_stereo(d, gt, 2.0).all.bad == 0);
}

TEST_CASE("stereo metrics: size mismatch is an error; error map marks wrong pixels red") {
  StereoGroundTruth gt;
  gt.disparity = ImageF(3, 1, 1);
  gt.disparity.data = {0, 2, 4};
  CHECK_THROWS_AS(score_stereo(ImageF(2, 1, 1), gt), Error);
  ImageF d(3, 1, 1);
  d.data = {1, 2, 1};
  const ImageU8 m = stereo_error_map(d, gt, 1.0, 4.0f);
  CHECK(m.channels == 3);
  CHECK(m.at(2, 0, 0) == 255);  // wrong -> red
  CHECK(m.at(2, 0, 1) == 0);
  CHECK(m.at(1, 0, 0) == 128);  // correct -> gray 2 * 63.75
  CHECK(m.at(1, 0, 1) == 128);
  CHECK(m.at(0, 0, 2) > m.at(0, 0, 0));  // unknown -> bluish
}

TEST_CASE("require_scorable: a truth with no known pixel is refused, not 0 % (issue 10)") {
  StereoGroundTruth gt;
  gt.disparity = ImageF(4, 3, 1, 0.0f);  // all unknown (load_stereo_gt maps NaN and < 0 to 0)
  CHECK_THROWS_AS(require_scorable(gt), Error);
  gt.disparity = ImageF(4, 3, 1, -2.0f);
  CHECK_THROWS_AS(require_scorable(gt), Error);
  gt.disparity.at(1, 1) = 3.0f;
  CHECK_NOTHROW(require_scorable(gt));
  gt.mask_all = ImageU8(4, 3, 1);  // selects nothing
  CHECK_THROWS_AS(require_scorable(gt), Error);
  gt.mask_all.at(1, 1) = 255;
  CHECK_NOTHROW(require_scorable(gt));
  const StereoScore s = score_stereo(ImageF(4, 3, 1, 3.0f), gt);
  CHECK(s.all.pixels == 1);
  CHECK(s.all.percent == 0.0);
}
