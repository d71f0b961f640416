// Distortion generators: identity at strength 0, determinism, direction of change.
#include <doctest/doctest.h>

#include <cmath>

#include "lightbench/distort.hpp"

using namespace lb;

namespace {
ImageU8 pattern(int w, int h, int c) {
  ImageU8 im(w, h, c);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int ch = 0; ch < c; ++ch) im.at(x, y, ch) = static_cast<std::uint8_t>((x * 9 + y * 5 + ch * 60 + (x / 8 + y / 8) % 2 * 90) % 256);
  return im;
}
double diff(const ImageU8& a, const ImageU8& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.data.size(); ++i) s += std::fabs(double(a.data[i]) - b.data[i]);
  return s / static_cast<double>(a.data.size());
}
}  // namespace

TEST_CASE("distort: strength 0 is the identity for every kind") {
  for (int c : {1, 3, 4}) {
    const ImageU8 im = pattern(37, 29, c);
    for (DistortKind k : all_distort_kinds()) {
      CAPTURE(to_string(k));
      const ImageU8 o = distort(im, k, 0.0, 3);
      CHECK(o.same_shape(im));
      CHECK(o.data == im.data);
    }
  }
}

TEST_CASE("distort: noise is deterministic by seed") {
  const ImageU8 im = pattern(40, 30, 3);
  CHECK(distort_noise(im, 10, 5).data == distort_noise(im, 10, 5).data);
  CHECK(distort_noise(im, 10, 5).data != distort_noise(im, 10, 6).data);
}

TEST_CASE("distort: more strength, more change") {
  const ImageU8 im = pattern(64, 48, 3);
  for (DistortKind k : all_distort_kinds()) {
    CAPTURE(to_string(k));
    const std::vector<double> s = k == DistortKind::Blur       ? std::vector<double>{0.5, 2, 6}
                                  : k == DistortKind::Noise    ? std::vector<double>{2, 10, 40}
                                  : k == DistortKind::Jpeg     ? std::vector<double>{10, 60, 95}
                                                               : std::vector<double>{0.1, 0.4, 0.9};
    double prev = 0;
    for (double st : s) {
      const ImageU8 o = distort(im, k, st, 1);
      CHECK(o.same_shape(im));
      const double d = diff(o, im);
      CHECK(d > prev);
      prev = d;
    }
  }
}

TEST_CASE("distort: bad strengths and names are rejected") {
  const ImageU8 im = pattern(16, 16, 1);
  CHECK_THROWS_AS(distort_blur(im, -1), Error);
  CHECK_THROWS_AS(distort_jpeg(im, 100), Error);
  CHECK_THROWS_AS(distort_contrast(im, 2), Error);
  CHECK_THROWS_AS(distort_noise(im, NAN), Error);
  CHECK_THROWS_WITH_AS(parse_distort_kind("sharpen"), doctest::Contains("blur, noise, jpeg or contrast"), Error);
  CHECK(parse_distort_kind("jpeg") == DistortKind::Jpeg);
}

TEST_CASE("distort: viewer parameters") {
  DistortParams p;
  auto info = describe(p);
  REQUIRE(info.size() == 3);
  CHECK(std::get<int*>(info[0].value) == &p.kind);
  CHECK(info[1].max == 10.0);
  p.kind = 2;
  CHECK(describe(p)[1].max == 99.0);
  p.strength = 30;
  const ImageU8 im = pattern(24, 20, 3);
  CHECK(distort(im, p).data == distort_jpeg(im, 30).data);
  p.kind = 7;
  CHECK_THROWS_AS(distort(im, p), Error);
}
