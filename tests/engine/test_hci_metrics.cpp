// HCI metrics against hand-computed values.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "lightbench/hci_metrics.hpp"

using namespace lb;

TEST_CASE("hci: BadPix and MSE x 100 by hand") {
  // 4x1 evaluated pixels (border 0): errors 0.00, 0.02, 0.05, 0.10.
  ImageF gt(4, 1, 1, 1.0f), d(4, 1, 1);
  d.data = {1.0f, 1.02f, 0.95f, 1.10f};
  const HciScore s = hci_score(d, gt, 0);
  CHECK(s.pixels == 4);
  CHECK(s.badpix_007 == doctest::Approx(25.0));   // 0.10
  CHECK(s.badpix_003 == doctest::Approx(50.0));   // 0.05, 0.10
  CHECK(s.badpix_001 == doctest::Approx(75.0));   // 0.02, 0.05, 0.10
  CHECK(s.mse_x100 == doctest::Approx(100.0 * (0.0004 + 0.0025 + 0.01) / 4).epsilon(1e-4));
  CHECK(hci_badpix(d, gt, 0.07, 0) == doctest::Approx(25.0));
}

TEST_CASE("hci: the 15-pixel border is not evaluated; non-finite ground truth is skipped") {
  ImageF gt(40, 36, 1, 0.5f), d(40, 36, 1, 0.5f);
  for (int y = 0; y < 36; ++y)
    for (int x = 0; x < 40; ++x)
      if (x < 15 || x >= 25 || y < 15 || y >= 21) d.at(x, y) = 9.0f;  // wrong only in the border
  d.at(20, 18) = 0.6f;                                                   // one bad pixel inside
  gt.at(21, 18) = std::numeric_limits<float>::quiet_NaN();
  const HciScore s = hci_score(d, gt, 15);
  CHECK(s.pixels == 10 * 6 - 1);
  CHECK(s.badpix_007 == doctest::Approx(100.0 / 59));
  CHECK(s.mse_x100 == doctest::Approx(100.0 * 0.01 / 59).epsilon(1e-4));
  // A region: only its pixels 15 px inside the full image count.
  const ImageF region = crop_image(d, 10, 10, 20, 20);
  const HciScore r = hci_score_region(region, gt, 10, 10, 15);
  CHECK(r.pixels == s.pixels);
  CHECK(r.badpix_007 == doctest::Approx(s.badpix_007));
  const ImageF e = hci_error_map(d, gt);
  CHECK(e.at(20, 18) == doctest::Approx(0.1f));
  CHECK(e.at(21, 18) == 0.0f);
  CHECK(e.at(0, 0) == doctest::Approx(8.5f));
  CHECK_THROWS_AS(hci_score(ImageF(3, 3, 1), gt, 15), Error);
  CHECK_THROWS_AS(hci_score(ImageF(20, 20, 1), ImageF(20, 20, 1), 10), Error);  // nothing left
}

TEST_CASE("hci_require_truth: refuses a truth with no finite pixel left to score (issue 10)") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_AS(hci_require_truth(ImageF(30, 30, 1, nan), 0, 0, 30, 30, 0), Error);
  ImageF gt(30, 30, 1, nan);
  gt.at(2, 2) = -1.5f;  // negative disparities are valid in the HCI data
  CHECK_NOTHROW(hci_require_truth(gt, 0, 0, 30, 30, 0));
  CHECK_THROWS_AS(hci_require_truth(gt, 0, 0, 30, 30, 15), Error);  // only in the border
  CHECK_THROWS_AS(hci_require_truth(gt, 10, 10, 5, 5, 0), Error);    // not in the region
  CHECK_NOTHROW(hci_require_truth(gt, 2, 2, 1, 1, 0));
}
