// The images of `bench mad` (mad_workloads.hpp).
#include "mad_workloads.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "lightbench/distort.hpp"
#include "lightbench/image_io.hpp"
#include "mad/mad.hpp"

namespace lb::bench::detail {

ImageU8 synthetic_gray(int w, int h, std::uint64_t seed) {
  std::vector<double> acc(static_cast<std::size_t>(w) * h, 0.0);
  std::uint64_t st = seed * 0x9E3779B97F4A7C15ull + 1;
  auto rnd = [&] {
    st ^= st << 13;
    st ^= st >> 7;
    st ^= st << 17;
    return static_cast<double>(st >> 11) / 9007199254740992.0;
  };
  double amp = 60;
  for (int cell = 128; cell >= 2; cell /= 2, amp *= 0.6) {
    const int gw = w / cell + 2, gh = h / cell + 2;
    std::vector<double> g(static_cast<std::size_t>(gw) * gh);
    for (double& v : g) v = rnd() * 2 - 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double fx = double(x) / cell, fy = double(y) / cell;
        const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
        const double tx = fx - ix, ty = fy - iy;
        const double sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
        auto G = [&](int a, int b) { return g[static_cast<std::size_t>(b) * gw + a]; };
        const double v = (G(ix, iy) * (1 - sx) + G(ix + 1, iy) * sx) * (1 - sy) +
                         (G(ix, iy + 1) * (1 - sx) + G(ix + 1, iy + 1) * sx) * sy;
        acc[static_cast<std::size_t>(y) * w + x] += amp * v;
      }
  }
  for (int k = 0; k < 12; ++k) {
    const double cx = rnd() * w, cy = rnd() * h, r = (0.03 + 0.12 * rnd()) * std::min(w, h), d = rnd() * 80 - 40;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) < r * r) acc[static_cast<std::size_t>(y) * w + x] += d;
  }
  ImageU8 out(w, h, 1);
  for (std::size_t i = 0; i < acc.size(); ++i)
    out.data[i] = static_cast<std::uint8_t>(std::clamp(std::lround(128 + acc[i]), 0l, 255l));
  return out;
}

std::vector<MadWorkload> mad_workloads(const std::string& iqa_dir) {
  std::vector<MadWorkload> ws;
  if (!iqa_dir.empty() && std::filesystem::exists(iqa_dir + "/I03_ref.bmp")) {
    for (const char* id : {"I03", "I04", "I06"})
      ws.push_back({std::string(id) + " 512x384", mad_gray(load_image(iqa_dir + "/" + id + "_ref.bmp")),
                    mad_gray(load_image(iqa_dir + "/" + id + "_dist.bmp"))});
  } else {
    const ImageU8 r = synthetic_gray(512, 384, 3);
    ws.push_back({"synthetic 512x384", mad_gray(r), mad_gray(distort_blur(distort_noise(r, 5, 1), 0.8))});
  }
  for (auto [w, h] : {std::pair{512, 512}, std::pair{1920, 1080}}) {
    const ImageU8 r = synthetic_gray(w, h, static_cast<std::uint64_t>(w));
    ws.push_back({"synthetic " + std::to_string(w) + "x" + std::to_string(h), mad_gray(r),
                  mad_gray(distort_blur(distort_noise(r, 5, 1), 0.8))});
  }
  return ws;
}

}  // namespace lb::bench::detail
