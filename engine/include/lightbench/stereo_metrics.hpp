#pragma once
// Middlebury scoring of a disparity map (Scharstein & Szeliski; ../shared/data/README.md):
// bad pixels = % of the evaluated pixels with |d - d_gt| > threshold (1.0) or an invalid
// estimate d (NaN, infinite or negative: ../shared/specs/evaluation.md), where evaluated
// means: the ground truth is known (d_gt != 0) and the region's mask is 255. Regions:
// nonocc (mask_nonocc), all (mask_all), disc (mask_disc). An empty mask counts every pixel
// with known truth. A region with no evaluated pixel scores 0 with pixels = 0.
// (declared in stereo.hpp, next to the matchers that score their maps)
#include "lightbench/stereo.hpp"
