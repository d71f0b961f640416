#pragma once
// Data sets for the eval / batch CLI tests, beside dataset_fixtures.hpp's: a Middlebury 2014
// collection with masks and a truth that varies (so the metrics have something to measure),
// and a TID2013-like database with 6 distorted images large enough for MAD (>= 34 px).
#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>

#include "dataset_fixtures.hpp"

namespace lbt::cli {

namespace fs = std::filesystem;
using namespace lbt::ds;

// A Middlebury 2014 scene (24x16, plane at disparity 2): truth 2 everywhere but a column
// block at 3 (x >= 18) and inf (unknown) at row 0; mask0nocc: 255, 128 at x < 2, 0 at (5, 5).
inline void mb2014_scene(const fs::path& d) {
  mb2014(d, false);
  lb::ImageF gt(kW, kH, 1, 2.0f);
  for (int y = 0; y < kH; ++y)
    for (int x = 18; x < kW; ++x) gt.at(x, y) = 3.0f;
  for (int x = 0; x < kW; ++x) gt.at(x, 0) = std::numeric_limits<float>::infinity();
  lb::save_pfm((d / "disp0GT.pfm").string(), gt);
  lb::ImageU8 m(kW, kH, 1, 255);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < 2; ++x) m.at(x, y) = 128;
  m.at(5, 5) = 0;
  lb::save_image((d / "mask0nocc.png").string(), m);
}

// A map with known errors: 2 everywhere, 2.7 on row 3, NaN (invalid) at (7, 7), 9 at (10, 10).
inline lb::ImageF crafted_map(int w = kW, int h = kH) {
  lb::ImageF m(w, h, 1, 2.0f);
  for (int x = 0; x < w; ++x) m.at(x, 3 % h) = 2.7f;
  m.at(7 % w, 7 % h) = std::numeric_limits<float>::quiet_NaN();
  m.at(10 % w, 10 % h) = 9.0f;
  return m;
}

// TID2013-like: two references (40x40 noise), 6 distorted images (noise of growing strength)
// and MOS falling with it.
inline void tid6(const fs::path& d) {
  fs::create_directories(d / "reference_images");
  fs::create_directories(d / "distorted_images");
  std::string mos;
  for (int r = 1; r <= 2; ++r) {
    lb::ImageU8 ref(40, 40, 3);
    std::mt19937 rng(static_cast<unsigned>(r));
    for (auto& v : ref.data) v = static_cast<std::uint8_t>(64 + rng() % 128);
    char rn[32];
    std::snprintf(rn, sizeof rn, "I%02d.bmp", r);
    lb::save_image((d / "reference_images" / rn).string(), ref);
    for (int k = 1; k <= 3; ++k) {
      lb::ImageU8 dist = ref;
      const int n = 50 + 20 * k;  // strong enough for MAD's detection stage at 40x40 (weaker: MAD 0)
      for (auto& v : dist.data)
        v = static_cast<std::uint8_t>(std::clamp<int>(v + static_cast<int>(rng() % (2 * n + 1)) - n, 0, 255));
      char dn[32];
      std::snprintf(dn, sizeof dn, "i%02d_01_%d.bmp", r, k);
      lb::save_image((d / "distorted_images" / dn).string(), dist);
      mos += std::to_string(7.0 - 1.5 * k + 0.1 * r) + " " + dn + "\n";
    }
  }
  text(d / "mos_with_names.txt", mos);
}

inline std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream f(path);
  std::vector<std::string> out;
  for (std::string l; std::getline(f, l);) out.push_back(l);
  return out;
}

}  // namespace lbt::cli
