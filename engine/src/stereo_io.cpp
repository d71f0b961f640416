// Stereo files (stereo_io.hpp): pairs, Middlebury ground truth and masks, disparity output,
// synthetic pairs.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "lightbench/image_io.hpp"
#include "lightbench/input_file.hpp"
#include "lightbench/stereo_io.hpp"

namespace lb::stereo {

namespace fs = std::filesystem;

namespace {

std::string size_text(const ImageU8& i) { return std::to_string(i.width) + "x" + std::to_string(i.height); }

// 8-bit values: a 16-bit PNG is converted (v/257) and *origin says so.
ImageU8 load_stereo_image(const std::string& path, const char* role, ImageOrigin* origin) {
  LB_REQUIRE(!path.empty(), std::string(role) + " image: no file given");
  LB_REQUIRE(fs::exists(path), std::string(role) + " image '" + path + "': no such file");
  ImageU8 img = load_image_8bit(path, origin);
  if (img.channels == 4) img = to_rgb(img);
  if (img.channels == 2) {  // gray + alpha
    ImageU8 g(img.width, img.height, 1);
    for (std::size_t i = 0; i < g.pixels(); ++i) g.data[i] = img.data[2 * i];
    img = std::move(g);
  }
  LB_REQUIRE(!img.empty(), std::string(role) + " image '" + path + "': empty image");
  return img;
}

}  // namespace

void validate(const StereoPair& p) {
  LB_REQUIRE(!p.left.empty() && !p.right.empty(), "stereo pair: an image is empty");
  LB_REQUIRE(p.left.width == p.right.width && p.left.height == p.right.height,
             "stereo pair: left is " + size_text(p.left) + " but right is " + size_text(p.right) +
                 " (the images must have the same size)");
  LB_REQUIRE((p.left.channels == 1 || p.left.channels == 3) && (p.right.channels == 1 || p.right.channels == 3),
             "stereo pair: images must be gray or RGB");
  LB_REQUIRE(p.left.width >= 2 && p.left.height >= 2, "stereo pair: images must be at least 2x2");
}

StereoPair load_stereo_pair(const std::string& left, const std::string& right, const std::string& name) {
  StereoPair p;
  p.left = load_stereo_image(left, "left", &p.left_origin);
  p.right = load_stereo_image(right, "right", &p.right_origin);
  if (p.left.width != p.right.width || p.left.height != p.right.height)
    throw Error("stereo pair: left '" + left + "' is " + size_text(p.left) + " but right '" + right + "' is " +
                size_text(p.right) + " (the images must have the same size)");
  p.name = name.empty() ? fs::path(left).stem().string() : name;
  validate(p);
  return p;
}

namespace {
// The file starts with the PNG signature (the format is decided by the bytes, as load_image does).
bool is_png_file(const std::string& path) {
  if (!input_file_problem(path).empty()) return false;  // load_image refuses it, before opening
  std::ifstream in(path, std::ios::binary);
  unsigned char sig[8] = {0};
  in.read(reinterpret_cast<char*>(sig), 8);
  static const unsigned char png[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  return in.gcount() == 8 && std::equal(sig, sig + 8, png);
}
}  // namespace

ImageF load_stereo_gt(const std::string& path, double scale) {
  LB_REQUIRE(fs::exists(path), "ground truth '" + path + "': no such file");
  if (file_extension(path) == ".pfm") {
    ImageF f = load_pfm(path);
    LB_REQUIRE(f.channels == 1, "ground truth '" + path + "': expected a single-channel PFM");
    for (float& v : f.data)
      if (!std::isfinite(v) || v < 0.0f) v = 0.0f;
    return f;
  }
  LB_REQUIRE(std::isfinite(scale) && scale > 0.0 && scale <= 1e6,
             "ground truth '" + path + "': --gt-scale must be > 0 (Middlebury: tsukuba 16, venus 8), got " +
                 std::to_string(scale));
  // A PNG is read at full depth (an 8-bit one gives the same values as load_image; a 16-bit
  // one, e.g. KITTI's value = 256 d, keeps all its bits instead of being refused or cut).
  if (is_png_file(path)) {
    const ImageU16 img = load_image16(path);
    ImageF f(img.width, img.height, 1);
    for (std::size_t i = 0; i < f.pixels(); ++i)
      f.data[i] = static_cast<float>(img.data[i * static_cast<std::size_t>(img.channels)] / scale);
    return f;
  }
  const ImageU8 img = load_image(path);
  ImageF f(img.width, img.height, 1);
  for (std::size_t i = 0; i < f.pixels(); ++i)
    f.data[i] = static_cast<float>(img.data[i * static_cast<std::size_t>(img.channels)] / scale);
  return f;
}

ImageU8 load_stereo_mask(const std::string& path, int ew, int eh) {
  LB_REQUIRE(fs::exists(path), "mask '" + path + "': no such file");
  const ImageU8 img = load_image(path);
  ImageU8 m(img.width, img.height, 1);
  for (std::size_t i = 0; i < m.pixels(); ++i) m.data[i] = img.data[i * static_cast<std::size_t>(img.channels)];
  if (ew > 0 && eh > 0)
    LB_REQUIRE(m.width == ew && m.height == eh, "mask '" + path + "' is " + size_text(m) + ", expected " +
                                                    std::to_string(ew) + "x" + std::to_string(eh));
  return m;
}

ImageU8 disparity_to_gray(const ImageF& disp, float max_disp) {
  float m = max_disp;
  if (m <= 0.0f)
    for (float v : disp.data)
      if (std::isfinite(v)) m = std::max(m, v);
  ImageU8 g(disp.width, disp.height, 1);
  const float k = m > 0.0f ? 255.0f / m : 0.0f;
  for (std::size_t i = 0; i < g.pixels(); ++i) {
    const float v = disp.data[i * static_cast<std::size_t>(disp.channels)];
    g.data[i] = static_cast<std::uint8_t>(std::isfinite(v) ? std::clamp(std::lround(v * k), 0L, 255L) : 0L);
  }
  return g;
}

void save_disparity(const std::string& path, const ImageF& disp, float max_disp) {
  const std::string ext = file_extension(path);
  if (ext == ".pfm") return save_pfm(path, disp);
  LB_REQUIRE(ext == ".png" || ext == ".pgm" || ext == ".bmp",
             "--out '" + path + "': use .png (scaled for viewing), .pgm, .bmp or .pfm (exact)");
  save_image(path, disparity_to_gray(disp, max_disp));
}

namespace {
ImageU8 noise(int w, int h, int c, std::mt19937& rng) {
  ImageU8 img(w, h, c);
  for (auto& v : img.data) v = static_cast<std::uint8_t>(rng() & 0xff);
  return img;
}
}  // namespace

StereoPair synthetic_two_plane_pair(int w, int h, int d_back, int d_front, std::uint32_t seed, ImageF* gt,
                                    int channels) {
  LB_REQUIRE(w >= 2 && h >= 2 && d_back >= 0 && d_front >= 0 && (channels == 1 || channels == 3),
             "synthetic pair: bad size, disparity or channel count");
  std::mt19937 rng(seed);
  StereoPair p;
  p.name = "synthetic";
  p.left = noise(w, h, channels, rng);
  p.right = noise(w, h, channels, rng);  // unmatched right pixels keep fresh texture
  ImageF truth(w, h, 1);
  const int x0 = w / 4, x1 = w - w / 4, y0 = h / 4, y1 = h - h / 4;
  auto front = [&](int x, int y) { return x >= x0 && x < x1 && y >= y0 && y < y1; };
  // Background first, then the front plane on top (it occludes the background in the right view).
  for (int pass = 0; pass < 2; ++pass)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const bool f = front(x, y);
        if (f != (pass == 1)) continue;
        const int d = f ? d_front : d_back;
        truth.at(x, y) = static_cast<float>(d);
        if (x - d < 0) continue;
        for (int c = 0; c < channels; ++c) p.right.at(x - d, y, c) = p.left.at(x, y, c);
      }
  if (gt) *gt = truth;
  return p;
}

StereoPair synthetic_plane_pair(int w, int h, int d, std::uint32_t seed, int channels) {
  return synthetic_two_plane_pair(w, h, d, d, seed, nullptr, channels);
}

}  // namespace lb::stereo
