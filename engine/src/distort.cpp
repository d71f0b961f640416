// Distortion generators (lightbench/distort.hpp).
#include "lightbench/distort.hpp"

#include <algorithm>
#include <cmath>

#include <stb_image.h>
#include <stb_image_write.h>

#include "lightbench/error.hpp"

namespace lb {

namespace {
std::uint8_t clamp8(double v) { return static_cast<std::uint8_t>(std::clamp(std::floor(v + 0.5), 0.0, 255.0)); }

// splitmix64: small, portable, deterministic.
struct SplitMix {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }
  double gauss() {  // Box-Muller
    const double u1 = uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
};

void jpeg_sink(void* ctx, void* data, int size) {
  auto* v = static_cast<std::vector<unsigned char>*>(ctx);
  const auto* p = static_cast<const unsigned char*>(data);
  v->insert(v->end(), p, p + size);
}
}  // namespace

const char* to_string(DistortKind k) {
  switch (k) {
    case DistortKind::Blur: return "blur";
    case DistortKind::Noise: return "noise";
    case DistortKind::Jpeg: return "jpeg";
    case DistortKind::Contrast: return "contrast";
  }
  return "?";
}

DistortKind parse_distort_kind(const std::string& s) {
  for (DistortKind k : all_distort_kinds())
    if (s == to_string(k)) return k;
  throw Error("distortion '" + s + "': use blur, noise, jpeg or contrast");
}

std::vector<DistortKind> all_distort_kinds() {
  return {DistortKind::Blur, DistortKind::Noise, DistortKind::Jpeg, DistortKind::Contrast};
}

ImageU8 distort_blur(const ImageU8& img, double sigma) {
  LB_REQUIRE(std::isfinite(sigma) && sigma >= 0 && sigma <= 100, "blur: sigma must be in 0..100");
  if (sigma == 0 || img.empty()) return img;
  const int r = static_cast<int>(std::ceil(3 * sigma));
  std::vector<double> k(2 * r + 1);
  double sum = 0;
  for (int i = -r; i <= r; ++i) sum += k[i + r] = std::exp(-0.5 * i * i / (sigma * sigma));
  for (double& v : k) v /= sum;
  const int w = img.width, h = img.height, c = img.channels;
  std::vector<double> tmp(img.data.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int ch = 0; ch < c; ++ch) {
        double s = 0;
        for (int i = -r; i <= r; ++i) s += k[i + r] * img.at(std::clamp(x + i, 0, w - 1), y, ch);
        tmp[img.index(x, y, ch)] = s;
      }
  ImageU8 out(w, h, c);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int ch = 0; ch < c; ++ch) {
        double s = 0;
        for (int i = -r; i <= r; ++i) s += k[i + r] * tmp[img.index(x, std::clamp(y + i, 0, h - 1), ch)];
        out.at(x, y, ch) = clamp8(s);
      }
  return out;
}

ImageU8 distort_noise(const ImageU8& img, double stddev, std::uint64_t seed) {
  LB_REQUIRE(std::isfinite(stddev) && stddev >= 0 && stddev <= 255, "noise: stddev must be in 0..255");
  if (stddev == 0) return img;
  SplitMix rng{seed};
  ImageU8 out = img;
  for (auto& v : out.data) v = clamp8(v + stddev * rng.gauss());
  return out;
}

ImageU8 distort_jpeg(const ImageU8& img, double strength) {
  LB_REQUIRE(std::isfinite(strength) && strength >= 0 && strength < 100, "jpeg: strength must be in 0..99");
  const int s = static_cast<int>(strength);
  if (s == 0 || img.empty()) return img;
  const int comp = img.channels == 4 ? 3 : img.channels == 2 ? 1 : img.channels;
  const ImageU8 src = img.channels == 4 ? to_rgb(img) : img;
  std::vector<unsigned char> buf;
  if (!stbi_write_jpg_to_func(jpeg_sink, &buf, src.width, src.height, comp, src.data.data(), 100 - s))
    throw Error("jpeg: encoding failed");
  int w = 0, h = 0, n = 0;
  unsigned char* p = stbi_load_from_memory(buf.data(), static_cast<int>(buf.size()), &w, &h, &n, comp);
  if (!p) throw Error("jpeg: decoding failed");
  ImageU8 out(w, h, comp);
  std::copy_n(p, out.data.size(), out.data.begin());
  stbi_image_free(p);
  return img.channels == 4 ? to_rgba(out) : out;
}

ImageU8 distort_contrast(const ImageU8& img, double strength) {
  LB_REQUIRE(std::isfinite(strength) && strength >= 0 && strength <= 1, "contrast: strength must be in 0..1");
  if (strength == 0 || img.empty()) return img;
  double m = 0;
  for (auto v : img.data) m += v;
  m /= static_cast<double>(img.data.size());
  ImageU8 out = img;
  for (auto& v : out.data) v = clamp8(m + (v - m) * (1 - strength));
  return out;
}

ImageU8 distort(const ImageU8& img, DistortKind k, double strength, std::uint64_t seed) {
  switch (k) {
    case DistortKind::Blur: return distort_blur(img, strength);
    case DistortKind::Noise: return distort_noise(img, strength, seed);
    case DistortKind::Jpeg: return distort_jpeg(img, strength);
    case DistortKind::Contrast: return distort_contrast(img, strength);
  }
  throw Error("distort: unknown kind");
}

std::vector<ParamInfo> describe(DistortParams& p) {
  using K = ParamInfo::Kind;
  static const double max_strength[] = {10.0, 64.0, 99.0, 1.0};
  const int k = std::clamp(p.kind, 0, 3);
  return {
      {"kind", "Distortion", "0 blur, 1 noise, 2 jpeg, 3 contrast", K::Int, &p.kind, 0.0, 3.0},
      {"strength", "Strength", "blur sigma (px), noise stddev (levels), jpeg 100-quality, contrast loss",
       K::Float, &p.strength, 0.0, max_strength[k]},
      {"seed", "Noise seed", "seed of the white noise", K::Int, &p.seed, 0.0, 1e6},
  };
}

ImageU8 distort(const ImageU8& img, const DistortParams& p) {
  const auto kinds = all_distort_kinds();
  LB_REQUIRE(p.kind >= 0 && p.kind < static_cast<int>(kinds.size()), "distortion kind must be 0..3");
  return distort(img, kinds[static_cast<std::size_t>(p.kind)], p.strength, static_cast<std::uint64_t>(p.seed));
}

// A smooth random gray texture with a few discs (benchmark and test images that every
// machine can make; value noise over octaves 128 .. 2 px, deterministic per seed).
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

}  // namespace lb
