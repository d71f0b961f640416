#include "gpu_test_util.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <sstream>

#include "lightbench/runners.hpp"
#include "lightbench/backend.hpp"

#include <unistd.h>

namespace lb::test {

bool gpu_present(std::string* why) { return lb::cuda_available(why); }

std::string process_temp_path(const std::string& stem, const std::string& ext) {
  return (std::filesystem::temp_directory_path() / (stem + "." + std::to_string(::getpid()) + ext)).string();
}

std::string skip_message(const std::string& why) {
  // cuda_available() already words most reasons as "no CUDA device (...)".
  if (why.rfind("no CUDA device", 0) == 0) return "SKIPPED: " + why;
  return "SKIPPED: no CUDA device (" + why + ")";
}

bool gpu_required() {
  const char* v = std::getenv("LB_REQUIRE_GPU");
  return v && std::string(v) == "1";
}

ImageU8 random_raw(int width, int height, int channels, std::uint64_t seed) {
  ImageU8 img(width, height, channels);
  std::mt19937_64 rng(seed);
  std::size_t i = 0;
  const std::size_t n = img.data.size();
  while (i < n) {
    std::uint64_t v = rng();
    for (int b = 0; b < 8 && i < n; ++b, ++i, v >>= 8) img.data[i] = static_cast<std::uint8_t>(v);
  }
  return img;
}

int raw_extent(int n, double pitch, double origin, int extra) {
  return static_cast<int>(std::ceil(origin + n * pitch)) + extra;
}

std::uint64_t count_mismatches(const ImageU8& got, const ImageU8& want, std::string* first) {
  if (!got.same_shape(want)) {
    if (first) {
      std::ostringstream s;
      s << "shape " << got.width << "x" << got.height << "x" << got.channels << " vs "
        << want.width << "x" << want.height << "x" << want.channels;
      *first = s.str();
    }
    return want.pixels() + 1;
  }
  std::uint64_t n = 0;
  for (int y = 0; y < want.height; ++y)
    for (int x = 0; x < want.width; ++x) {
      const std::uint8_t* a = &got.at(x, y);
      const std::uint8_t* b = &want.at(x, y);
      if (std::memcmp(a, b, static_cast<std::size_t>(want.channels)) == 0) continue;
      if (n == 0 && first) {
        std::ostringstream s;
        s << x << "," << y << ": got (" << int(a[0]) << "," << int(a[1]) << "," << int(a[2])
          << "," << int(a[3]) << ") want (" << int(b[0]) << "," << int(b[1]) << ","
          << int(b[2]) << "," << int(b[3]) << ")";
        *first = s.str();
      }
      ++n;
    }
  return n;
}

std::string describe_case(const PlenopticGrid& g, const RenderParams& p) {
  std::ostringstream s;
  s << "grid " << g.nx << "x" << g.ny << " D=" << g.pitch << " o=(" << g.ox << "," << g.oy
    << ") M=" << p.patch << " lim=" << p.lim << " view=(" << p.view_x << "," << p.view_y
    << ") sigma=" << p.sigma;
  return s.str();
}

}  // namespace lb::test
