#include "lightbench/image_io.hpp"

#include "lightbench/atomic_file.hpp"
#include "lightbench/input_file.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <stb_image_write.h>

#include "image_io_internal.hpp"
#include "stb_image_impl.hpp"

namespace lb {
namespace image_io_detail {

using detail::kStbMaxDimension;
using detail::stb_decode;

bool known_magic(const std::vector<unsigned char>& b);

// Reads the whole file. A regular file larger than any image of `max_pixels` pixels can be
// (16 bytes a pixel plus 64 MiB of metadata) is refused before it is read.
std::vector<unsigned char> read_file(const std::string& path, std::uint64_t max_pixels) {
  // A regular file only, checked before opening (a named pipe would block the open, a device
  // never ends): lb::input_file_problem, the one rule for every input file.
  if (const std::string why = input_file_problem(path); !why.empty())
    io_fail(path, why == "is a directory, not a file" ? "is a directory, not an image" : why);
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  const std::uint64_t cap = max_pixels > (std::uint64_t{1} << 58) ? UINT64_MAX
                                                                 : max_pixels * 16 + (64u << 20);
  if (!ec && size > cap)
    io_fail(path, "file of " + std::to_string(size) + " bytes is larger than any image within "
                  "the decoding limit of " + std::to_string(max_pixels) +
                  " pixels (raise it with LB_MAX_PIXELS)");
  std::ifstream f(path, std::ios::binary);
  if (!f) io_fail(path, "cannot open for reading");
  // Read in chunks up to the cap: a file without a size (/dev/zero, a pipe) is bounded too.
  std::vector<unsigned char> bytes;
  std::vector<char> chunk(1u << 16);
  while (f.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || f.gcount() > 0) {
    bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + f.gcount());
    if (!known_magic(bytes)) break;  // refused by its first bytes: no need for the rest
    if (bytes.size() > cap)
      io_fail(path, "more than " + std::to_string(cap) + " bytes, larger than any image within the "
                    "decoding limit of " + std::to_string(max_pixels) + " pixels (raise it with LB_MAX_PIXELS)");
  }
  if (f.bad()) io_fail(path, "read failed");
  if (bytes.empty()) io_fail(path, "file is empty");
  return bytes;
}

// Encoders write into memory (stb's file writers ignore fwrite/fclose errors); the bytes
// then go through write_file_atomic, which checks every write and never leaves a half file.
void append_to_string(void* ctx, void* data, int size) {
  static_cast<std::string*>(ctx)->append(static_cast<const char*>(data),
                                         static_cast<std::size_t>(size));
}

std::uint32_t le32(const unsigned char* p) {
  return p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

std::uint32_t le16(const unsigned char* p) { return p[0] | (p[1] << 8); }
std::uint32_t be32(const unsigned char* p) {
  return (static_cast<std::uint32_t>(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
}

// ---- The format, decided by the file's first bytes (never by its name). ----
enum class Format { Png, Jpeg, Bmp, Pnm, Pfm, Other };

bool starts_with(const std::vector<unsigned char>& b, const char* magic, std::size_t n,
                 std::size_t at = 0) {
  return b.size() >= at + n && std::memcmp(b.data() + at, magic, n) == 0;
}

Format sniff(const std::vector<unsigned char>& b) {
  if (starts_with(b, "\x89PNG\r\n\x1a\n", 8)) return Format::Png;
  if (starts_with(b, "\xff\xd8\xff", 3)) return Format::Jpeg;
  if (starts_with(b, "BM", 2)) return Format::Bmp;
  if (b.size() >= 2 && b[0] == 'P' && (b[1] == '5' || b[1] == '6')) return Format::Pnm;
  if (b.size() >= 2 && b[0] == 'P' && (b[1] == 'F' || b[1] == 'f')) return Format::Pfm;
  return Format::Other;
}

bool known_magic(const std::vector<unsigned char>& b) { return sniff(b) != Format::Other; }

// What the first bytes of an unsupported file say it is, for the error message.
std::string describe_other(const std::vector<unsigned char>& b) {
  if (starts_with(b, "#?RADIANCE", 10) || starts_with(b, "#?RGBE", 6)) return "a Radiance HDR image";
  if (starts_with(b, "GIF8", 4)) return "a GIF image";
  if (starts_with(b, "8BPS", 4)) return "a Photoshop PSD image";
  if (starts_with(b, "II*\0", 4) || starts_with(b, "MM\0*", 4)) return "a TIFF image";
  if (starts_with(b, "RIFF", 4) && starts_with(b, "WEBP", 4, 8)) return "a WebP image";
  if (starts_with(b, "\x53\x80\xf6\x34", 4)) return "a Softimage PIC image";
  if (starts_with(b, "v/1\x01", 4)) return "an OpenEXR image";
  if (starts_with(b, "qoif", 4)) return "a QOI image";
  if (starts_with(b, "\0\0\0\x0cjP  ", 8) || starts_with(b, "\xff\x4f\xff\x51", 4))
    return "a JPEG 2000 image";
  if (starts_with(b, "%PDF", 4)) return "a PDF document";
  if (starts_with(b, "\x1f\x8b", 2)) return "gzip data";
  if (starts_with(b, "PK\x03\x04", 4)) return "a ZIP archive";
  if (b.size() >= 2 && b[0] == 'P' && b[1] >= '1' && b[1] <= '4')
    return std::string("a PNM of type P") + char(b[1]) + " (ASCII or 1-bit)";
  if (starts_with(b, "P7", 2)) return "a PAM (P7) image";
  return "";  // unknown
}

std::string first_bytes_hex(const std::vector<unsigned char>& b) {
  std::string hex;
  static const char* digits = "0123456789abcdef";
  for (std::size_t k = 0; k < std::min<std::size_t>(8, b.size()); ++k) {
    if (k) hex += ' ';
    hex += digits[b[k] >> 4];
    hex += digits[b[k] & 15];
  }
  return hex;
}

[[noreturn]] void unsupported(const std::string& path, const std::vector<unsigned char>& b) {
  const std::string kind = describe_other(b);
  io_fail(path, "not a supported image: " +
                    (kind.empty() ? "unknown format, first bytes " + first_bytes_hex(b)
                                  : "its first bytes say it is " + kind) +
                    " (images are read as PNG, JPEG, BMP, binary PNM P5/P6 or PFM)");
}

// ---- Pixel budget: checked on the header's size, before anything is allocated. ----
std::uint64_t pixel_limit(std::uint64_t max_pixels) {
  return max_pixels ? max_pixels : max_decode_pixels();
}

void check_pixels(const std::string& path, std::uint64_t w, std::uint64_t h,
                  std::uint64_t limit) {
  if (w * h > limit)
    io_fail(path, "image of " + std::to_string(w) + "x" + std::to_string(h) + " = " +
                      std::to_string(w * h) + " pixels exceeds the decoding limit of " +
                      std::to_string(limit) + " pixels (raise it with LB_MAX_PIXELS)");
}

// ---- BMP: every header field checked before stb sees the file. stb fills missing data with
// zeros and reads palette entries it never loaded, so truncation, bad offsets and palette
// indices past the palette are rejected here. ----
void check_bmp(const std::string& path, const std::vector<unsigned char>& b,
               std::uint64_t limit) {
  if (b.size() < 26) io_fail(path, "truncated BMP header (" + std::to_string(b.size()) + " bytes)");
  const std::uint64_t offset = le32(&b[10]);
  const std::uint32_t hsz = le32(&b[14]);
  if (hsz != 12 && hsz != 40 && hsz != 56 && hsz != 108 && hsz != 124)
    io_fail(path, "unsupported BMP header size " + std::to_string(hsz));
  if (b.size() < 14 + hsz)
    io_fail(path, "truncated BMP header: " + std::to_string(b.size()) + " of " +
                      std::to_string(14 + hsz) + " bytes");
  std::int64_t w = 0, h = 0;
  std::uint32_t planes = 0, bpp = 0, compression = 0;
  if (hsz == 12) {
    w = le16(&b[18]);
    h = le16(&b[20]);
    planes = le16(&b[22]);
    bpp = le16(&b[24]);
  } else {
    w = static_cast<std::int32_t>(le32(&b[18]));
    h = static_cast<std::int32_t>(le32(&b[22]));
    planes = le16(&b[26]);
    bpp = le16(&b[28]);
    compression = le32(&b[30]);
  }
  if (planes != 1) io_fail(path, "corrupt BMP: " + std::to_string(planes) + " planes (must be 1)");
  if (compression == 1 || compression == 2)
    io_fail(path, "RLE-compressed BMP is not supported");
  if (compression > 3 || (compression == 3 && bpp != 16 && bpp != 32))
    io_fail(path, "unsupported BMP compression " + std::to_string(compression) + " at " +
                      std::to_string(bpp) + " bits per pixel");
  if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
    io_fail(path, "unsupported BMP bit depth " + std::to_string(bpp));
  const std::int64_t rows = h < 0 ? -h : h;  // 64-bit: no overflow for INT32_MIN
  if (w <= 0 || h == 0)
    io_fail(path, "bad BMP size " + std::to_string(w) + "x" + std::to_string(h));
  if (w > kStbMaxDimension || rows > kStbMaxDimension)
    io_fail(path, "BMP size " + std::to_string(w) + "x" + std::to_string(rows) +
                      " exceeds the largest side of " + std::to_string(kStbMaxDimension));
  check_pixels(path, static_cast<std::uint64_t>(w), static_cast<std::uint64_t>(rows), limit);
  const std::uint64_t header_end =
      14 + hsz + (compression == 3 && (hsz == 40 || hsz == 56) ? 12 : 0);
  if (offset < header_end || offset > b.size())
    io_fail(path, "corrupt BMP: pixel data offset " + std::to_string(offset) + " outside " +
                      std::to_string(header_end) + ".." + std::to_string(b.size()));
  const std::uint64_t stride = ((static_cast<std::uint64_t>(w) * bpp + 31) / 32) * 4;
  const std::uint64_t need = offset + stride * static_cast<std::uint64_t>(rows);
  if (b.size() < need)
    io_fail(path, "truncated BMP: " + std::to_string(b.size()) + " of " + std::to_string(need) +
                      " bytes");
  if (bpp > 8) return;
  // stb's palette size (its formula, including its OS/2 quirk); every index must be below it.
  const std::int64_t off = static_cast<std::int64_t>(offset);
  const std::int64_t entries = hsz == 12 ? (off - 38) / 3 : (off - 14 - hsz) / 4;
  if (entries < 1 || entries > 256)
    io_fail(path, "corrupt BMP: palette of " + std::to_string(entries) + " entries (1..256)");
  for (std::int64_t y = 0; y < rows; ++y) {
    const unsigned char* row = b.data() + offset + static_cast<std::uint64_t>(y) * stride;
    for (std::int64_t x = 0; x < w; ++x) {
      int idx = 0;
      if (bpp == 8) idx = row[x];
      else if (bpp == 4) idx = (row[x / 2] >> (x % 2 ? 0 : 4)) & 15;
      else idx = (row[x / 8] >> (7 - x % 8)) & 1;
      if (idx >= entries)
        io_fail(path, "corrupt BMP: palette index " + std::to_string(idx) + " at pixel (" +
                          std::to_string(x) + ", " + std::to_string(h > 0 ? rows - 1 - y : y) +
                          ") but the palette has " + std::to_string(entries) + " entries");
    }
  }
}

// ---- PNG: IHDR and the chunk layout checked before libpng sees the file (its size against
// the budget, and a file cut anywhere up to IEND refused with the place it was cut). ----
void check_png(const std::string& path, const std::vector<unsigned char>& b,
                     std::uint64_t limit) {
  if (b.size() < 33) io_fail(path, "truncated PNG header (" + std::to_string(b.size()) + " bytes)");
  if (be32(&b[8]) != 13 || !starts_with(b, "IHDR", 4, 12))
    io_fail(path, "corrupt PNG: the first chunk is not a 13-byte IHDR");
  const std::uint32_t w = be32(&b[16]), h = be32(&b[20]);
  if (w == 0 || h == 0 || w > static_cast<std::uint32_t>(kStbMaxDimension) ||
      h > static_cast<std::uint32_t>(kStbMaxDimension))
    io_fail(path, "PNG size " + std::to_string(w) + "x" + std::to_string(h) +
                      " out of range (1.." + std::to_string(kStbMaxDimension) + " per side)");
  check_pixels(path, w, h, limit);
  // Every chunk must lie inside the file, up to IEND: stb accepts a file cut after its
  // image data, and a cut file is refused here whatever part is missing.
  bool iend = false;
  for (std::size_t pos = 8; !iend;) {
    if (b.size() - pos < 12)
      io_fail(path, "truncated PNG: " + std::to_string(b.size()) + " bytes, no IEND chunk");
    const std::uint64_t len = be32(&b[pos]);
    const std::string type(reinterpret_cast<const char*>(&b[pos + 4]), 4);
    if (len > b.size() - pos - 12)
      io_fail(path, "truncated PNG: chunk at byte " + std::to_string(pos) + " needs " +
                        std::to_string(len + 12) + " bytes, " + std::to_string(b.size() - pos) +
                        " left");
    iend = type == "IEND";
    pos += 12 + static_cast<std::size_t>(len);
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

}  // namespace image_io_detail

using namespace image_io_detail;

std::string file_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return ext;
}

std::uint64_t max_decode_pixels() {
  const char* env = std::getenv("LB_MAX_PIXELS");
  if (!env || !*env) return kDefaultMaxDecodePixels;
  const std::string v(env);
  std::uint64_t n = 0;
  bool ok = v.size() <= 19;
  for (char ch : v) ok = ok && std::isdigit(static_cast<unsigned char>(ch));
  if (ok) n = std::stoull(v);
  if (!ok || n == 0)
    throw Error("LB_MAX_PIXELS=" + quote_untrusted(v) + " is not a positive whole number of pixels");
  return n;
}

namespace {

// Bits needed for a PNM's maxval (255: 8, 65535: 16, 1023: 10).
int maxval_bits(long maxval) {
  int bits = 1;
  while ((1L << bits) - 1 < maxval) ++bits;
  return bits;
}

// load_image's decoding; convert16: a 16-bit PNG becomes 8 bits by to_8bit instead of being
// refused. *origin (when given) records the file's depth and the conversion.
ImageU8 decode_any(const std::vector<unsigned char>& bytes, const std::string& path, int want_channels,
                   std::uint64_t max_pixels, bool convert16, ImageOrigin* origin) {
  LB_REQUIRE(want_channels >= 0 && want_channels <= 4 && want_channels != 2,
             "load_image: channels must be 0, 1, 3 or 4");
  const std::uint64_t limit = pixel_limit(max_pixels);
  if (bytes.empty()) io_fail(path, "file is empty");
  if (bytes.size() < 8) io_fail(path, "file too short to be an image");
  ImageOrigin o;
  o.path = path;
  ImageU8 img;
  const Format format = sniff(bytes);
  if (format == Format::Other) unsupported(path, bytes);
  if (format == Format::Pfm)
    io_fail(path, "is a PFM (floating-point) image; an 8-bit image (PNG, JPEG, BMP, PNM) is "
                  "expected here");
  if (format == Format::Pnm) {
    long maxval = 255;
    img = decode_pnm(path, bytes, limit, &maxval);
    if (maxval != 255) {
      o.bit_depth = maxval_bits(maxval);
      // (v * 255 + M / 2) / M; for M = 65535 it is exactly round(v / 257).
      o.converted = maxval == 65535 ? "v/257" : "v*255/" + std::to_string(maxval);
    }
  } else if (format == Format::Png) {
    check_png(path, bytes, limit);
    // IHDR (checked above): the bit depth is its byte 24.
    if (convert16 && bytes[24] == 16) {
      const ImageU16 wide = decode_png16(path, bytes, limit, nullptr);
      img = ImageU8(wide.width, wide.height, wide.channels);
      for (std::size_t i = 0; i < wide.data.size(); ++i) img.data[i] = to_8bit(wide.data[i]);
      o.bit_depth = 16;
      o.converted = "v/257";
    } else {
      img = decode_png(path, bytes, limit);
    }
  } else if (format == Format::Jpeg) {
    img = decode_jpeg(path, bytes, limit);
  } else {  // BMP: stb, after check_bmp
    check_bmp(path, bytes, limit);
    std::string why;
    if (!stb_decode(bytes.data(), bytes.size(), img, why))
      io_fail(path, "not a readable image (" + why + ")");
  }
  if (origin) *origin = o;
  if (want_channels == 0 || want_channels == img.channels) return img;
  if (want_channels == 4) return to_rgba(img);
  if (want_channels == 3) return to_rgb(img);
  return to_gray(img);
}

}  // namespace

ImageU8 load_image(const std::string& path, int want_channels, std::uint64_t max_pixels) {
  LB_REQUIRE(want_channels >= 0 && want_channels <= 4 && want_channels != 2,
             "load_image: channels must be 0, 1, 3 or 4");
  const std::uint64_t limit = pixel_limit(max_pixels);
  return decode_image(read_file(path, limit), path, want_channels, limit);
}

ImageU8 decode_image(const std::vector<unsigned char>& bytes, const std::string& path,
                     int want_channels, std::uint64_t max_pixels) {
  return decode_any(bytes, path, want_channels, max_pixels, false, nullptr);
}

ImageU8 load_image_8bit(const std::string& path, ImageOrigin* origin, int want_channels,
                        std::uint64_t max_pixels) {
  LB_REQUIRE(want_channels >= 0 && want_channels <= 4 && want_channels != 2,
             "load_image: channels must be 0, 1, 3 or 4");
  const std::uint64_t limit = pixel_limit(max_pixels);
  return decode_image_8bit(read_file(path, limit), path, origin, want_channels, limit);
}

ImageU8 decode_image_8bit(const std::vector<unsigned char>& bytes, const std::string& path,
                          ImageOrigin* origin, int want_channels, std::uint64_t max_pixels) {
  return decode_any(bytes, path, want_channels, max_pixels, true, origin);
}

std::string conversion_note(const ImageOrigin& origin) {
  if (!origin.was_converted()) return "";
  return std::to_string(origin.bit_depth) + "-bit input converted to 8 bits (" + origin.converted + ")";
}

ImageOrigin deepest_origin(const std::vector<ImageOrigin>& files, const std::string& path) {
  ImageOrigin out;
  for (const ImageOrigin& f : files)
    if (f.bit_depth > out.bit_depth || (f.was_converted() && !out.was_converted())) out = f;
  out.path = path;
  return out;
}

ImageU16 load_image16(const std::string& path, std::uint64_t max_pixels, int* bit_depth) {
  const std::uint64_t limit = pixel_limit(max_pixels);
  return decode_image16(read_file(path, limit), path, max_pixels, bit_depth);
}

ImageU16 decode_image16(const std::vector<unsigned char>& bytes, const std::string& path,
                        std::uint64_t max_pixels, int* bit_depth) {
  const std::uint64_t limit = pixel_limit(max_pixels);
  if (bytes.empty()) io_fail(path, "file is empty");
  if (bytes.size() < 8) io_fail(path, "file too short to be an image");
  const Format format = sniff(bytes);
  if (format == Format::Other) unsupported(path, bytes);
  if (format != Format::Png)
    io_fail(path, "full-depth (16-bit) images are read from PNG only; this file is not a PNG");
  check_png(path, bytes, limit);
  return decode_png16(path, bytes, limit, bit_depth);
}

void save_png16(const std::string& path, const ImageU16& img) {
  if (img.empty()) io_fail(path, "refusing to write an empty image");
  if (file_extension(path) != ".png") io_fail(path, "a 16-bit image is written as .png only");
  write_file_atomic(path, encode_png16(path, img));
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
    io_fail(path, "unknown image extension " + quote_untrusted(ext) + " (use .png .jpg .bmp .ppm .pgm or .pfm)");
  }
  if (!ok || bytes.empty()) io_fail(path, "image encoding failed");
  write_file_atomic(path, bytes);
}

}  // namespace lb
