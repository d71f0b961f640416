// lb_bench_eval: the time of eval::evaluate() for one full-size Middlebury 2014 map
// (2964x1988, every v3 metric over nonocc and all) on one CPU core. Issue 21's budget is
// 100 ms. CPU only: it builds without CUDA. Prints the median of 9 runs after a warm-up.
//   lb_bench_eval [WIDTH HEIGHT]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lightbench/evaluation.hpp"

namespace {

// A synthetic 2014-style scene: smooth truth with unknown (inf) pixels, mask0nocc's
// 255 / 128 / 0, and an estimate with small errors, outliers and 1 % invalid pixels.
lb::eval::Truth make_truth(int w, int h, std::mt19937& rng) {
  lb::eval::Truth t;
  t.protocol = lb::eval::Protocol::MiddleburyV3;
  lb::stereo::StereoGroundTruth& s = t.stereo;
  s.disparity = lb::ImageF(w, h, 1);
  s.mask_nonocc = lb::ImageU8(w, h, 1);
  s.mask_all = lb::ImageU8(w, h, 1);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float g = 40.0f + 200.0f * static_cast<float>(x) / static_cast<float>(w) +
                      20.0f * std::sin(0.01f * static_cast<float>(y));
      const float r = u(rng);
      const bool unknown = r < 0.03f, occluded = !unknown && r < 0.15f;
      s.disparity.at(x, y) = unknown ? std::numeric_limits<float>::infinity() : g;
      s.mask_nonocc.at(x, y) = unknown || occluded ? 0 : 255;
      s.mask_all.at(x, y) = unknown ? 0 : 255;
    }
  return t;
}

lb::ImageF make_estimate(const lb::ImageF& g, std::mt19937& rng) {
  lb::ImageF d(g.width, g.height, 1);
  std::normal_distribution<float> small(0.0f, 0.7f);
  std::uniform_real_distribution<float> u(0.0f, 1.0f), far(0.0f, 250.0f);
  for (std::size_t i = 0; i < d.data.size(); ++i) {
    const float r = u(rng);
    const float base = std::isfinite(g.data[i]) ? g.data[i] : 100.0f;
    d.data[i] = r < 0.01f ? std::numeric_limits<float>::quiet_NaN() : r < 0.1f ? far(rng) : base + small(rng);
  }
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  int w = 2964, h = 1988;
  if (argc == 3) {
    w = std::atoi(argv[1]);
    h = std::atoi(argv[2]);
  }
  if ((argc != 1 && argc != 3) || w < 1 || h < 1 || w > 20000 || h > 20000) {
    std::fprintf(stderr, "usage: lb_bench_eval [WIDTH HEIGHT] (1..20000 each)\n");
    return 2;
  }
  try {
    std::mt19937 rng(21);
    const lb::eval::Truth t = make_truth(w, h, rng);
    const lb::ImageF d = make_estimate(t.stereo.disparity, rng);
    nlohmann::json j = lb::eval::evaluate(d, t);  // warm-up (page faults, caches)
    std::vector<double> ms;
    for (int i = 0; i < 9; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      j = lb::eval::evaluate(d, t);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("evaluate middlebury-v3 %dx%d (nonocc + all, 12 metrics each), one thread: median %.2f ms "
                "(min %.2f, max %.2f, 9 runs)\n",
                w, h, ms[4], ms.front(), ms.back());
    std::printf("%s\n", j.dump().c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lb_bench_eval: %s\n", e.what());
    return 1;
  }
}
