#include "region.hpp"

#include <cerrno>
#include <cstdlib>
#include <limits>

#include "lightbench/error.hpp"

namespace lb::cli {

Region parse_region(const std::string& option, const std::string& text) {
  if (text.empty()) return {};
  auto bad = [&] {
    return Error(option + " expects X,Y,W,H (X, Y >= 0, W, H >= 1, each at most 2147483647), got " + quote_untrusted(text));
  };
  long long v[4];
  const char* p = text.c_str();
  for (int i = 0; i < 4; ++i) {
    if (i > 0 && *p++ != ',') throw bad();
    if (*p < '0' || *p > '9') throw bad();  // digits only: no sign, space or exponent
    errno = 0;
    char* end = nullptr;
    v[i] = std::strtoll(p, &end, 10);
    if (errno == ERANGE || v[i] > std::numeric_limits<int>::max()) throw bad();
    p = end;
  }
  if (*p != '\0' || v[2] < 1 || v[3] < 1) throw bad();
  return {static_cast<int>(v[0]), static_cast<int>(v[1]), static_cast<int>(v[2]), static_cast<int>(v[3])};
}

HostSurface cropped(const HostSurface& s, const Region& r, const std::string& option) {
  if (r.empty()) return s;
  // 64-bit sums: x + w must not overflow.
  if (static_cast<long long>(r.x) + r.w > s.width() || static_cast<long long>(r.y) + r.h > s.height())
    throw Error(option + " " + std::to_string(r.x) + "," + std::to_string(r.y) + "," + std::to_string(r.w) + "," +
                std::to_string(r.h) + " is not inside the " + std::to_string(s.width()) + "x" +
                std::to_string(s.height()) + " output");
  HostSurface out(s.format());
  out.resize(r.w, r.h);
  if (s.format() == SurfaceFormat::R32F) {
    const ImageF& a = s.scalar();
    ImageF b(r.w, r.h, 1);
    for (int y = 0; y < r.h; ++y)
      for (int x = 0; x < r.w; ++x) b.at(x, y) = a.at(r.x + x, r.y + y);
    out.upload_host(b);
  } else {
    const ImageU8& a = s.rgba();
    ImageU8 b(r.w, r.h, 4);
    for (int y = 0; y < r.h; ++y)
      for (int x = 0; x < r.w; ++x)
        for (int c = 0; c < 4; ++c) b.at(x, y, c) = a.at(r.x + x, r.y + y, c);
    out.upload_host(b);
  }
  return out;
}

}  // namespace lb::cli
