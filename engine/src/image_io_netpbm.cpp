// Netpbm-family image files, parsed here rather than by stb (which does not detect
// truncated PNM data): binary PNM (P5 / P6) decoding, PFM (Pf / PF) reading and writing.
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "image_io_internal.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/image_io.hpp"

namespace lb {
namespace image_io_detail {

// ---- PNM (P5 / P6), parsed here: stb does not detect truncated PNM data. ----
struct Cursor {
  const std::vector<unsigned char>& b;
  std::size_t i = 0;
  void skip_space_and_comments() {
    while (i < b.size()) {
      if (std::isspace(b[i])) {
        ++i;
      } else if (b[i] == '#') {
        while (i < b.size() && b[i] != '\n') ++i;
      } else {
        break;
      }
    }
  }
  bool read_uint(long& v) {
    skip_space_and_comments();
    if (i >= b.size() || !std::isdigit(b[i])) return false;
    v = 0;
    while (i < b.size() && std::isdigit(b[i])) {
      v = v * 10 + (b[i++] - '0');
      if (v > 1'000'000'000) return false;
    }
    return true;
  }
};

ImageU8 decode_pnm(const std::string& path, const std::vector<unsigned char>& bytes,
                   std::uint64_t limit, long* maxval_out) {
  const int channels = bytes[1] == '5' ? 1 : 3;
  Cursor c{bytes, 2};
  long w = 0, h = 0, maxval = 0;
  if (!c.read_uint(w) || !c.read_uint(h) || !c.read_uint(maxval))
    io_fail(path, "corrupt PNM header");
  if (w <= 0 || h <= 0 || w > 65535 || h > 65535) io_fail(path, "PNM size out of range");
  if (maxval <= 0 || maxval > 65535) io_fail(path, "PNM maxval out of range");
  if (maxval_out) *maxval_out = maxval;
  check_pixels(path, static_cast<std::uint64_t>(w), static_cast<std::uint64_t>(h), limit);
  if (c.i >= bytes.size() || !std::isspace(bytes[c.i])) io_fail(path, "corrupt PNM header");
  ++c.i;  // exactly one whitespace byte before the raster
  const int bps = maxval > 255 ? 2 : 1;
  const std::size_t need = static_cast<std::size_t>(w) * h * channels * bps;
  if (bytes.size() - c.i < need)
    io_fail(path, "truncated PNM: " + std::to_string(bytes.size() - c.i) + " of " +
                      std::to_string(need) + " raster bytes");
  ImageU8 img(static_cast<int>(w), static_cast<int>(h), channels);
  const unsigned char* p = bytes.data() + c.i;
  for (std::size_t k = 0; k < img.data.size(); ++k) {
    const long v = bps == 2 ? (p[2 * k] << 8 | p[2 * k + 1]) : p[k];
    if (v > maxval)  // scaling it would wrap past 255: garbage, not a pixel
      io_fail(path, "corrupt PNM: sample " + std::to_string(v) + " at pixel (" +
                        std::to_string(k / channels % w) + ", " +
                        std::to_string(k / channels / w) + ") exceeds maxval " +
                        std::to_string(maxval));
    img.data[k] = static_cast<std::uint8_t>((v * 255 + maxval / 2) / maxval);
  }
  return img;
}

}  // namespace image_io_detail

using namespace image_io_detail;

ImageF load_pfm(const std::string& path, std::uint64_t max_pixels) {
  const std::uint64_t limit = pixel_limit(max_pixels);
  return decode_pfm(read_file(path, limit), path, limit);
}

ImageF decode_pfm(const std::vector<unsigned char>& bytes, const std::string& path,
                  std::uint64_t max_pixels) {
  const std::uint64_t limit = pixel_limit(max_pixels);
  if (bytes.empty()) io_fail(path, "file is empty");
  if (bytes.size() < 3 || bytes[0] != 'P' || (bytes[1] != 'F' && bytes[1] != 'f'))
    io_fail(path, "not a PFM file (expected 'PF' or 'Pf')");
  const int channels = bytes[1] == 'F' ? 3 : 1;
  // Header: three whitespace-separated tokens after the magic, then one whitespace byte.
  std::size_t i = 2;
  auto token = [&]() -> std::string {
    while (i < bytes.size() && std::isspace(bytes[i])) ++i;
    std::string t;
    while (i < bytes.size() && !std::isspace(bytes[i]) && t.size() < 64) t += char(bytes[i++]);
    return t;
  };
  const std::string sw = token(), sh = token(), ss = token();
  if (i >= bytes.size()) io_fail(path, "truncated PFM header");
  ++i;
  long w = 0, h = 0;
  double scale = 0;
  try {
    std::size_t used = 0;
    w = std::stol(sw, &used);
    if (used != sw.size()) throw std::invalid_argument("w");
    h = std::stol(sh, &used);
    if (used != sh.size()) throw std::invalid_argument("h");
    scale = std::stod(ss, &used);
    if (used != ss.size()) throw std::invalid_argument("s");
  } catch (const std::exception&) {
    io_fail(path, "corrupt PFM header");
  }
  if (w <= 0 || h <= 0 || w > 65535 || h > 65535) io_fail(path, "PFM size out of range");
  check_pixels(path, static_cast<std::uint64_t>(w), static_cast<std::uint64_t>(h), limit);
  if (scale == 0.0 || !std::isfinite(scale)) io_fail(path, "PFM scale must be non-zero");
  const bool little = scale < 0;
  const std::size_t need = static_cast<std::size_t>(w) * h * channels * 4;
  if (bytes.size() - i < need)
    io_fail(path, "truncated PFM: " + std::to_string(bytes.size() - i) + " of " +
                      std::to_string(need) + " data bytes");
  ImageF img(static_cast<int>(w), static_cast<int>(h), channels);
  const unsigned char* p = bytes.data() + i;
  for (long y = 0; y < h; ++y) {
    float* dst = img.row(static_cast<int>(h - 1 - y));  // file rows run bottom to top
    for (long k = 0; k < w * channels; ++k, p += 4) {
      std::uint32_t u = little ? le32(p)
                               : (static_cast<std::uint32_t>(p[0]) << 24 | p[1] << 16 |
                                  p[2] << 8 | p[3]);
      std::memcpy(&dst[k], &u, 4);
    }
  }
  return img;
}

void save_pfm(const std::string& path, const ImageF& img) {
  if (img.empty()) io_fail(path, "refusing to write an empty image");
  if (img.channels != 1 && img.channels != 3)
    io_fail(path, "PFM holds 1 or 3 channels, not " + std::to_string(img.channels));
  std::string bytes = std::string(img.channels == 3 ? "PF" : "Pf") + "\n" +
                      std::to_string(img.width) + " " + std::to_string(img.height) + "\n-1.0\n";
  const std::size_t row_bytes = static_cast<std::size_t>(img.width) * img.channels * 4;
  const std::size_t head = bytes.size();
  bytes.resize(head + row_bytes * static_cast<std::size_t>(img.height));
  unsigned char* out = reinterpret_cast<unsigned char*>(bytes.data()) + head;
  for (int y = img.height - 1; y >= 0; --y, out += row_bytes) {
    const float* src = img.row(y);
    for (std::size_t k = 0; k < row_bytes / 4; ++k) {
      std::uint32_t u;
      std::memcpy(&u, &src[k], 4);
      for (int b = 0; b < 4; ++b) out[4 * k + b] = static_cast<unsigned char>(u >> (8 * b));
    }
  }
  write_file_atomic(path, bytes);
}

}  // namespace lb
