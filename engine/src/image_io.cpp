#include "lightbench/image_io.hpp"

#include "lightbench/atomic_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <stb_image.h>
#include <stb_image_write.h>

namespace lb {
namespace {

[[noreturn]] void io_fail(const std::string& path, const std::string& why) {
  throw Error("'" + path + "': " + why);
}

std::vector<unsigned char> read_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) io_fail(path, "no such file");
  if (std::filesystem::is_directory(path, ec)) io_fail(path, "is a directory, not an image");
  std::ifstream f(path, std::ios::binary);
  if (!f) io_fail(path, "cannot open for reading");
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(f)),
                                   std::istreambuf_iterator<char>());
  if (bytes.empty()) io_fail(path, "file is empty");
  return bytes;
}

// Encoders write into memory (stb's file writers ignore fwrite/fclose errors); the bytes
// then go through write_file_atomic, which checks every write and never leaves a half file.
void append_to_string(void* ctx, void* data, int size) {
  static_cast<std::string*>(ctx)->append(static_cast<const char*>(data),
                                         static_cast<std::size_t>(size));
}

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

ImageU8 decode_pnm(const std::string& path, const std::vector<unsigned char>& bytes) {
  const int channels = bytes[1] == '5' ? 1 : 3;
  Cursor c{bytes, 2};
  long w = 0, h = 0, maxval = 0;
  if (!c.read_uint(w) || !c.read_uint(h) || !c.read_uint(maxval))
    io_fail(path, "corrupt PNM header");
  if (w <= 0 || h <= 0 || w > 65535 || h > 65535) io_fail(path, "PNM size out of range");
  if (maxval <= 0 || maxval > 65535) io_fail(path, "PNM maxval out of range");
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
    img.data[k] = static_cast<std::uint8_t>((v * 255 + maxval / 2) / maxval);
  }
  return img;
}

std::uint32_t le32(const unsigned char* p) {
  return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

// stb fills missing BMP/JPEG data silently; reject truncation here.
void check_not_truncated(const std::string& path, const std::vector<unsigned char>& b) {
  if (b[0] == 'B' && b[1] == 'M') {
    if (b.size() < 54) io_fail(path, "truncated BMP header");
    const std::uint32_t offset = le32(&b[10]);
    const std::int32_t w = static_cast<std::int32_t>(le32(&b[18]));
    const std::int32_t h = static_cast<std::int32_t>(le32(&b[22]));
    const int bpp = b[28] | (b[29] << 8);
    const std::uint32_t compression = le32(&b[30]);
    if (compression == 0 && w > 0 && bpp >= 8) {  // uncompressed: size is known
      const std::uint64_t stride = ((static_cast<std::uint64_t>(w) * bpp + 31) / 32) * 4;
      const std::uint64_t need = offset + stride * static_cast<std::uint64_t>(std::abs(h));
      if (b.size() < need) io_fail(path, "truncated BMP: " + std::to_string(b.size()) + " of " +
                                             std::to_string(need) + " bytes");
    }
  } else if (b[0] == 0xFF && b[1] == 0xD8) {
    // A complete JPEG ends with the EOI marker (allow a little trailing padding).
    const std::size_t from = b.size() > 64 ? b.size() - 64 : 0;
    bool eoi = false;
    for (std::size_t k = from; k + 1 < b.size(); ++k) eoi |= (b[k] == 0xFF && b[k + 1] == 0xD9);
    if (!eoi) io_fail(path, "truncated JPEG (no end-of-image marker)");
  }
}

// Gray: Rec. 601 luma, rounded.
ImageU8 to_gray(const ImageU8& img) {
  ImageU8 g(img.width, img.height, 1);
  for (std::size_t i = 0; i < img.pixels(); ++i) {
    const auto* p = &img.data[i * img.channels];
    g.data[i] = img.channels >= 3
                    ? static_cast<std::uint8_t>((299 * p[0] + 587 * p[1] + 114 * p[2] + 500) / 1000)
                    : p[0];
  }
  return g;
}

}  // namespace

std::string file_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return ext;
}

ImageU8 load_image(const std::string& path, int want_channels) {
  LB_REQUIRE(want_channels >= 0 && want_channels <= 4 && want_channels != 2,
             "load_image: channels must be 0, 1, 3 or 4");
  const auto bytes = read_file(path);
  if (bytes.size() < 8) io_fail(path, "file too short to be an image");
  ImageU8 img;
  if (bytes[0] == 'P' && (bytes[1] == '5' || bytes[1] == '6')) {
    img = decode_pnm(path, bytes);
  } else {
    check_not_truncated(path, bytes);
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w,
                                              &h, &n, 0);
    if (!px) io_fail(path, std::string("not a readable image (") + stbi_failure_reason() + ")");
    img.reset(w, h, n);
    std::memcpy(img.data.data(), px, img.data.size());
    stbi_image_free(px);
  }
  if (want_channels == 0 || want_channels == img.channels) return img;
  if (want_channels == 4) return to_rgba(img);
  if (want_channels == 3) return to_rgb(img);
  return to_gray(img);
}

void save_image(const std::string& path, const ImageU8& img, int jpeg_quality) {
  if (img.empty()) io_fail(path, "refusing to write an empty image");
  const std::string ext = file_extension(path);
  const int w = img.width, h = img.height, n = img.channels;
  const void* px = img.data.data();
  std::string bytes;
  bool ok = true;
  if (ext == ".png") {
    ok = stbi_write_png_to_func(append_to_string, &bytes, w, h, n, px, w * n) != 0;
  } else if (ext == ".jpg" || ext == ".jpeg") {
    LB_REQUIRE(jpeg_quality >= 1 && jpeg_quality <= 100, "JPEG quality must be in 1..100");
    ok = stbi_write_jpg_to_func(append_to_string, &bytes, w, h, n, px, jpeg_quality) != 0;
  } else if (ext == ".bmp") {
    ok = stbi_write_bmp_to_func(append_to_string, &bytes, w, h, n, px) != 0;
  } else if (ext == ".ppm" || ext == ".pgm") {
    const ImageU8 conv = ext == ".pgm" ? (n == 1 ? img : to_gray(img)) : to_rgb(img);
    bytes = std::string(ext == ".pgm" ? "P5" : "P6") + "\n" + std::to_string(w) + " " +
            std::to_string(h) + "\n255\n";
    bytes.append(reinterpret_cast<const char*>(conv.data.data()), conv.data.size());
  } else {
    io_fail(path, "unknown image extension '" + ext + "' (use .png .jpg .bmp .ppm .pgm or .pfm)");
  }
  if (!ok || bytes.empty()) io_fail(path, "image encoding failed");
  write_file_atomic(path, bytes);
}

ImageF load_pfm(const std::string& path) {
  const auto bytes = read_file(path);
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
