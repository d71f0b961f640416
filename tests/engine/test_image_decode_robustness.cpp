// Decoder robustness: crafted inputs generated here (no binary blobs). Every bad file must give
// one lb::Error line naming the file, without crash, hang or large allocation; odd but valid
// files must still load with the right pixels.
#include <doctest/doctest.h>
#include <sys/resource.h>

#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <future>
#include <random>
#include <string>
#include <vector>

#include "lightbench/image_io.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {

using Bytes = std::vector<char>;

void put_be32(Bytes& v, std::uint32_t x) {
  for (int s = 24; s >= 0; s -= 8) v.push_back(static_cast<char>((x >> s) & 0xff));
}
void put_le32(Bytes& v, std::uint32_t x) {
  for (int s = 0; s < 32; s += 8) v.push_back(static_cast<char>((x >> s) & 0xff));
}
void put_le16(Bytes& v, std::uint32_t x) {
  v.push_back(static_cast<char>(x & 0xff));
  v.push_back(static_cast<char>((x >> 8) & 0xff));
}
void append(Bytes& v, const std::string& s) { v.insert(v.end(), s.begin(), s.end()); }

std::uint32_t crc32(const Bytes& d, std::size_t from) {
  std::uint32_t c = 0xffffffffu;
  for (std::size_t i = from; i < d.size(); ++i) {
    c ^= static_cast<unsigned char>(d[i]);
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return ~c;
}

void png_chunk(Bytes& out, const char* type, const Bytes& data) {
  put_be32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t start = out.size();
  append(out, type);
  out.insert(out.end(), data.begin(), data.end());
  put_be32(out, crc32(out, start));
}

// zlib stream of stored (uncompressed) deflate blocks.
Bytes zlib_stored(const Bytes& raw) {
  Bytes z = {0x78, 0x01};
  std::size_t pos = 0;
  do {
    const std::size_t n = std::min<std::size_t>(65535, raw.size() - pos);
    z.push_back(pos + n == raw.size() ? 1 : 0);
    put_le16(z, static_cast<std::uint32_t>(n));
    put_le16(z, static_cast<std::uint32_t>(~n & 0xffff));
    z.insert(z.end(), raw.begin() + static_cast<std::ptrdiff_t>(pos),
             raw.begin() + static_cast<std::ptrdiff_t>(pos + n));
    pos += n;
  } while (pos < raw.size());
  std::uint32_t a = 1, b = 0;
  for (char ch : raw) {
    a = (a + static_cast<unsigned char>(ch)) % 65521;
    b = (b + a) % 65521;
  }
  put_be32(z, b << 16 | a);
  return z;
}

// A PNG from packed rows (without filter bytes); palette as RGB triples, trns as alphas.
Bytes make_png(std::uint32_t w, std::uint32_t h, int depth, int color, const Bytes& rows,
               const Bytes& plte = {}, const Bytes& trns = {}) {
  Bytes out;
  append(out, std::string("\x89PNG\r\n\x1a\n", 8));
  Bytes ihdr;
  put_be32(ihdr, w);
  put_be32(ihdr, h);
  ihdr.push_back(static_cast<char>(depth));
  ihdr.push_back(static_cast<char>(color));
  ihdr.push_back(0);
  ihdr.push_back(0);
  ihdr.push_back(0);
  png_chunk(out, "IHDR", ihdr);
  if (!plte.empty()) png_chunk(out, "PLTE", plte);
  if (!trns.empty()) png_chunk(out, "tRNS", trns);
  const int ch = color == 0 ? 1 : color == 2 ? 3 : color == 3 ? 1 : color == 4 ? 2 : 4;
  const std::size_t row_bytes = (static_cast<std::size_t>(w) * ch * depth + 7) / 8;
  Bytes raw;
  for (std::uint32_t y = 0; y < h && !rows.empty(); ++y) {
    raw.push_back(0);  // filter: none
    raw.insert(raw.end(), rows.begin() + static_cast<std::ptrdiff_t>(y * row_bytes),
               rows.begin() + static_cast<std::ptrdiff_t>((y + 1) * row_bytes));
  }
  if (raw.empty()) raw.push_back(0);
  png_chunk(out, "IDAT", zlib_stored(raw));
  png_chunk(out, "IEND", {});
  return out;
}

struct Bmp {
  std::int32_t w = 1, h = 1;
  std::uint32_t bpp = 24, compression = 0, hsz = 40, planes = 1;
  std::vector<std::uint32_t> palette;  // 0x00RRGGBB
  std::vector<std::uint32_t> masks;    // after a 40-byte header (bitfields)
  Bytes pixels;                        // rows as stored, padded
  std::int64_t offset = -1;            // -1: right after the palette
};

Bytes make_bmp(const Bmp& s) {
  Bytes info;
  put_le32(info, s.hsz);
  put_le32(info, static_cast<std::uint32_t>(s.w));
  put_le32(info, static_cast<std::uint32_t>(s.h));
  put_le16(info, s.planes);
  put_le16(info, s.bpp);
  put_le32(info, s.compression);
  put_le32(info, static_cast<std::uint32_t>(s.pixels.size()));
  for (int k = 0; k < 4; ++k) put_le32(info, k < 2 ? 2835 : 0);
  while (info.size() < s.hsz) info.push_back(0);
  for (auto m : s.masks) put_le32(info, m);
  for (auto p : s.palette) put_le32(info, p);
  const std::uint32_t offset =
      s.offset >= 0 ? static_cast<std::uint32_t>(s.offset) : 14 + static_cast<std::uint32_t>(info.size());
  Bytes out = {'B', 'M'};
  put_le32(out, static_cast<std::uint32_t>(14 + info.size() + s.pixels.size()));
  put_le32(out, 0);
  put_le32(out, offset);
  out.insert(out.end(), info.begin(), info.end());
  out.insert(out.end(), s.pixels.begin(), s.pixels.end());
  return out;
}

long peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

// Loads under a time limit; a hang fails the suite instead of blocking it.
template <class F>
std::string expect_error(const std::string& path, F load) {
  auto fut = std::async(std::launch::async, [&]() -> std::string {
    try {
      load();
    } catch (const Error& e) {
      return std::string("E:") + e.what();
    } catch (const std::exception& e) {
      return std::string("X:") + e.what();
    }
    return "OK";
  });
  if (fut.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
    MESSAGE("decoder hangs on " << path);
    std::_Exit(3);
  }
  const std::string r = fut.get();
  CAPTURE(path);
  CAPTURE(r);
  REQUIRE(r.rfind("E:", 0) == 0);  // an lb::Error, not success nor another exception
  const std::string msg = r.substr(2);
  CHECK(msg.find('\n') == std::string::npos);
  CHECK(msg.find("()") == std::string::npos);  // never an empty reason
  CHECK(msg.find(std::filesystem::path(path).filename().string()) != std::string::npos);
  return msg;
}

std::string rejected(const lbt::TempDir& dir, const std::string& name, const Bytes& b,
                     std::uint64_t max_pixels = 0) {
  const std::string path = dir.file(name);
  lbt::write_bytes(path, b);
  return expect_error(path, [&] { (void)load_image(path, 0, max_pixels); });
}

ImageU8 loaded(const lbt::TempDir& dir, const std::string& name, const Bytes& b) {
  const std::string path = dir.file(name);
  lbt::write_bytes(path, b);
  return load_image(path);
}

Bytes encoded(const std::string& ext, const ImageU8& img, const lbt::TempDir& dir) {
  const std::string path = dir.file("src" + ext);
  save_image(path, img);
  return lbt::read_bytes(path);
}

}  // namespace

TEST_CASE("formats are decided by magic bytes; unsupported kinds are named, never decoded") {
  lbt::TempDir dir("magic");
  const long rss0 = peak_rss_mib();
  Bytes hdr;
  append(hdr, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 8 +X 8\n");
  while (hdr.size() < 60) hdr.push_back(2);
  CHECK(rejected(dir, "hdr.png", hdr).find("Radiance HDR") != std::string::npos);
  Bytes rgbe;
  append(rgbe, "#?RGBE\n\n-Y 100000 +X 100000\n");
  rgbe.resize(60, '\x7f');
  CHECK(rejected(dir, "rgbe.jpg", rgbe).find("Radiance HDR") != std::string::npos);
  Bytes gif;
  append(gif, "GIF89a\x10\x00\x10\x00");
  gif.resize(40, 0);
  CHECK(rejected(dir, "anim.png", gif).find("GIF") != std::string::npos);
  Bytes psd;
  append(psd, "8BPS");
  psd.resize(40, 0);
  CHECK(rejected(dir, "layers.bmp", psd).find("PSD") != std::string::npos);
  CHECK(rejected(dir, "t1.png", Bytes{'I', 'I', '*', 0, 8, 0, 0, 0, 0, 0}).find("TIFF") !=
        std::string::npos);
  CHECK(rejected(dir, "t2.png", Bytes{'M', 'M', 0, '*', 0, 0, 0, 8, 0, 0}).find("TIFF") !=
        std::string::npos);
  Bytes webp;
  append(webp, std::string("RIFF\x10\0\0\0WEBPVP8 ", 16));
  CHECK(rejected(dir, "w.png", webp).find("WebP") != std::string::npos);
  Bytes pic = {'\x53', '\x80', '\xf6', '\x34', 0, 0, 0, 0, 0, 0};
  CHECK(rejected(dir, "p.png", pic).find("PIC") != std::string::npos);
  Bytes tga = {0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 16, 0, 24, 0};
  CHECK(rejected(dir, "image.tga.png", tga).find("unknown format, first bytes 00 00 02") !=
        std::string::npos);
  for (char t : {'1', '2', '3', '4'}) {
    Bytes pnm = {'P', t, '\n', '2', ' ', '2', '\n', '1', '\n', '0', ' ', '1', ' ', '0', ' ', '1', '\n'};
    CHECK(rejected(dir, std::string("ascii") + t + ".pgm", pnm).find(std::string("P") + t) !=
          std::string::npos);
  }
  Bytes pfm;
  append(pfm, "Pf\n1 1\n-1.0\n");
  pfm.resize(pfm.size() + 4, 0);
  CHECK(rejected(dir, "float.png", pfm).find("PFM") != std::string::npos);
  CHECK(rejected(dir, "empty.png", {}).find("empty") != std::string::npos);
  CHECK(rejected(dir, "short.png", Bytes{'\x89', 'P', 'N'}).find("too short") != std::string::npos);
  // A PNG named .jpg is still a PNG: the name never decides.
  const ImageU8 img = lbt::random_image(5, 3, 3, 11);
  CHECK(loaded(dir, "really_png.jpg", encoded(".png", img, dir)).data == img.data);
  CHECK(loaded(dir, "really_bmp.pgm", encoded(".bmp", img, dir)).data == img.data);
  CHECK(peak_rss_mib() - rss0 < 256);
}

TEST_CASE("truncated files of every format are rejected at every length") {
  lbt::TempDir dir("trunc");
  const long rss0 = peak_rss_mib();
  const ImageU8 img = lbt::random_image(31, 17, 3, 5);
  for (const char* ext : {".png", ".jpg", ".bmp", ".ppm", ".pgm"}) {
    const Bytes full = encoded(ext, img, dir);
    for (std::size_t len : {std::size_t{8}, std::size_t{20}, std::size_t{40}, std::size_t{60},
                            full.size() / 2, full.size() - 3}) {
      CAPTURE(ext);
      CAPTURE(len);
      rejected(dir, std::string("cut") + ext, Bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(len)));
    }
  }
  ImageF f(9, 4, 3, 0.5f);
  save_pfm(dir.file("f.pfm"), f);
  const Bytes pf = lbt::read_bytes(dir.file("f.pfm"));
  for (std::size_t len : {std::size_t{2}, std::size_t{8}, std::size_t{12}, pf.size() - 1}) {
    CAPTURE(len);
    const std::string path = dir.file("cut.pfm");
    lbt::write_bytes(path, Bytes(pf.begin(), pf.begin() + static_cast<std::ptrdiff_t>(len)));
    expect_error(path, [&] { (void)load_pfm(path); });
  }
  CHECK(peak_rss_mib() - rss0 < 256);
}

TEST_CASE("BMP headers that lie are rejected before anything is allocated") {
  lbt::TempDir dir("bmp");
  const long rss0 = peak_rss_mib();
  // 1000x1000 with bitfields (32 bpp) and with 1 bpp, truncated to 118 bytes: they used to
  // decode as zeros with exit 0.
  Bmp bf;
  bf.w = bf.h = 1000;
  bf.bpp = 32;
  bf.compression = 3;
  bf.masks = {0xff0000, 0xff00, 0xff};
  Bytes b = make_bmp(bf);
  b.resize(118, 0);
  CHECK(rejected(dir, "bitfields.bmp", b).find("truncated BMP: 118 of 4000066 bytes") != std::string::npos);
  Bmp one;
  one.w = one.h = 1000;
  one.bpp = 1;
  one.palette = {0, 0xffffff};
  b = make_bmp(one);
  b.resize(118, 0);
  CHECK(rejected(dir, "onebit.bmp", b).find("truncated BMP") != std::string::npos);
  Bmp four = one;
  four.bpp = 4;
  b = make_bmp(four);
  b.resize(118, 0);
  CHECK(rejected(dir, "fourbit.bmp", b).find("truncated BMP") != std::string::npos);
  // A negative (top-down) height: the message holds the real size, not a wrapped one.
  Bmp neg;
  neg.w = 100;
  neg.h = -100;
  b = make_bmp(neg);
  const std::string m = rejected(dir, "topdown.bmp", b);
  CHECK(m.find("of 30054 bytes") != std::string::npos);
  CHECK(m.find("1844674") == std::string::npos);
  // INT_MIN height (its negation used to be UB), zero and negative sizes.
  for (std::int32_t h : {INT_MIN, 0}) {
    Bmp s;
    s.h = h;
    CHECK(rejected(dir, "h.bmp", make_bmp(s)).find("BMP size") != std::string::npos);
  }
  Bmp nw;
  nw.w = -5;
  CHECK(rejected(dir, "w.bmp", make_bmp(nw)).find("bad BMP size -5x1") != std::string::npos);
  // 16k x 16k claimed by a 118-byte file: refused by size, not by a failed allocation.
  Bmp huge;
  huge.w = huge.h = 16384;
  b = make_bmp(huge);
  b.resize(118, 0);
  CHECK(rejected(dir, "huge.bmp", b).find("exceeds the decoding limit") != std::string::npos);
  Bmp wide;
  wide.w = 100000;
  CHECK(rejected(dir, "wide.bmp", make_bmp(wide)).find("largest side") != std::string::npos);
  // RLE, unknown compression, bitfields at 24 bpp, bad bit depth, planes, header size.
  Bmp rle = one;
  rle.bpp = 8;
  rle.compression = 1;
  rle.w = rle.h = 4;
  rle.pixels = Bytes(16, 0);
  CHECK(rejected(dir, "rle8.bmp", make_bmp(rle)).find("RLE") != std::string::npos);
  rle.bpp = 4;
  rle.compression = 2;
  b = make_bmp(rle);
  b.resize(70);
  CHECK(rejected(dir, "rle4.bmp", b).find("RLE") != std::string::npos);
  Bmp odd;
  odd.compression = 4;
  CHECK(rejected(dir, "jpegbmp.bmp", make_bmp(odd)).find("compression 4") != std::string::npos);
  odd.compression = 3;
  CHECK(rejected(dir, "bf24.bmp", make_bmp(odd)).find("compression 3") != std::string::npos);
  odd.compression = 0;
  odd.bpp = 7;
  CHECK(rejected(dir, "bpp7.bmp", make_bmp(odd)).find("bit depth 7") != std::string::npos);
  odd.bpp = 24;
  odd.planes = 3;
  CHECK(rejected(dir, "planes.bmp", make_bmp(odd)).find("planes") != std::string::npos);
  odd.planes = 1;
  odd.hsz = 64;
  CHECK(rejected(dir, "hsz.bmp", make_bmp(odd)).find("header size 64") != std::string::npos);
  // Pixel data offset past the end, or inside the header.
  Bmp off;
  off.pixels = Bytes(4, 0);
  off.offset = 5000;
  CHECK(rejected(dir, "offend.bmp", make_bmp(off)).find("offset") != std::string::npos);
  off.offset = 20;
  CHECK(rejected(dir, "offhdr.bmp", make_bmp(off)).find("offset") != std::string::npos);
  // Palette indices past the palette used to read uninitialised memory.
  Bmp pal;
  pal.w = pal.h = 2;
  pal.bpp = 8;
  pal.palette = {0x102030, 0x405060};
  pal.pixels = {0, 1, 0, 0, 1, (char)200, 0, 0};
  CHECK(rejected(dir, "palidx.bmp", make_bmp(pal)).find("palette index 200") != std::string::npos);
  Bmp pal1;
  pal1.w = 3;
  pal1.bpp = 1;
  pal1.palette = {0xffffff};
  pal1.pixels = {(char)0x20, 0, 0, 0};
  CHECK(rejected(dir, "pal1.bmp", make_bmp(pal1)).find("palette index 1") != std::string::npos);
  Bmp nopal;
  nopal.bpp = 8;
  nopal.pixels = Bytes(4, 0);
  CHECK(rejected(dir, "nopal.bmp", make_bmp(nopal)).find("palette of 0 entries") != std::string::npos);
  Bytes tiny = {'B', 'M', 0, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0};
  CHECK(rejected(dir, "tinyhdr.bmp", tiny).find("truncated BMP header") != std::string::npos);
  CHECK(peak_rss_mib() - rss0 < 256);
}

TEST_CASE("PNG, JPEG, PNM and PFM headers that lie are rejected; the pixel budget holds") {
  lbt::TempDir dir("lies");
  const long rss0 = peak_rss_mib();
  // 16000 x 16000 (all zero) and 2^31 wide.
  CHECK(rejected(dir, "big.png", make_png(16000, 16000, 8, 0, {}))
            .find("16000x16000 = 256000000 pixels exceeds the decoding limit of 134217728") !=
        std::string::npos);
  CHECK(rejected(dir, "wide.png", make_png(0x80000000u, 1, 8, 0, {})).find("out of range") !=
        std::string::npos);
  CHECK(rejected(dir, "zero.png", make_png(0, 4, 8, 0, {})).find("out of range") != std::string::npos);
  Bytes noihdr = make_png(1, 1, 8, 0, Bytes(1, 0));
  std::memcpy(&noihdr[12], "IHDX", 4);
  CHECK(rejected(dir, "noihdr.png", noihdr).find("IHDR") != std::string::npos);
  // Wrong bit depth / colour type: stb's reason, never empty.
  CHECK(!rejected(dir, "depth.png", make_png(1, 1, 5, 0, Bytes(1, 0))).empty());
  CHECK(!rejected(dir, "nopal.png", make_png(1, 1, 8, 3, Bytes(1, 0))).empty());
  // Palette PNG whose indices run past its 2-entry palette: rejected.
  const Bytes plte = {10, 20, 30, 40, 50, 60};
  CHECK(rejected(dir, "palidx.png", make_png(2, 2, 8, 3, Bytes{0, 1, 1, 7}, plte))
            .find("past the palette's 2 entries") != std::string::npos);
  CHECK(rejected(dir, "palidx4.png", make_png(3, 1, 4, 3, Bytes{0x01, (char)0xf0}, plte))
            .find("palette") != std::string::npos);
  // The budget is a parameter and an environment variable.
  const Bytes small = make_png(20, 20, 8, 0, Bytes(400, 9));
  CHECK(rejected(dir, "budget.png", small, 100).find("20x20 = 400 pixels exceeds the decoding limit of 100") !=
        std::string::npos);
  setenv("LB_MAX_PIXELS", "399", 1);
  CHECK(rejected(dir, "envbudget.png", small).find("limit of 399 pixels") != std::string::npos);
  setenv("LB_MAX_PIXELS", "lots", 1);
  CHECK_THROWS_WITH_AS(max_decode_pixels(), doctest::Contains("LB_MAX_PIXELS='lots'"), Error);
  setenv("LB_MAX_PIXELS", "400", 1);
  CHECK(loaded(dir, "fits.png", small).width == 20);
  unsetenv("LB_MAX_PIXELS");
  CHECK(max_decode_pixels() == kDefaultMaxDecodePixels);
  // A JPEG whose SOF claims 65000 x 65000.
  Bytes jpg = encoded(".jpg", lbt::random_image(8, 8, 3, 2), dir);
  for (std::size_t i = 2; i + 9 < jpg.size(); ++i)
    if (static_cast<unsigned char>(jpg[i]) == 0xff && static_cast<unsigned char>(jpg[i + 1]) == 0xc0) {
      jpg[i + 5] = jpg[i + 7] = static_cast<char>(0xfd);
      jpg[i + 6] = jpg[i + 8] = static_cast<char>(0xe8);
      break;
    }
  CHECK(rejected(dir, "huge.jpg", jpg).find("65000x65000") != std::string::npos);
  Bytes nojpeg = {'\xff', '\xd8', '\xff', '\xe0', 0, 2, '\xff', '\xd9', 0, 0};
  CHECK(!rejected(dir, "hollow.jpg", nojpeg).empty());
  // PNM: a huge claim with no data, maxval 0 and too big, a broken header.
  Bytes pnm;
  append(pnm, "P6\n65535 65535\n255\n\x01\x02\x03");
  CHECK(rejected(dir, "huge.ppm", pnm).find("exceeds the decoding limit") != std::string::npos);
  Bytes pnm2;
  append(pnm2, "P5\n300 200\n255\n\x01\x02\x03");
  CHECK(rejected(dir, "cut.pgm", pnm2).find("truncated PNM") != std::string::npos);
  Bytes mv0;
  append(mv0, "P5\n1 1\n0\n\x01");
  CHECK(rejected(dir, "maxval0.pgm", mv0).find("maxval") != std::string::npos);
  Bytes mvbig;
  append(mvbig, "P5\n1 1\n70000\n\x01\x01");
  CHECK(rejected(dir, "maxvalbig.pgm", mvbig).find("maxval") != std::string::npos);
  Bytes pnmneg;
  append(pnmneg, "P5\n-1 1\n255\n\x01\x01");
  CHECK(rejected(dir, "neg.pgm", pnmneg).find("header") != std::string::npos);
  // PFM under the budget parameter.
  ImageF f(30, 30, 1, 1.0f);
  save_pfm(dir.file("f.pfm"), f);
  expect_error(dir.file("f.pfm"), [&] { (void)load_pfm(dir.file("f.pfm"), 899); });
  CHECK(load_pfm(dir.file("f.pfm"), 900).width == 30);
  CHECK(peak_rss_mib() - rss0 < 256);
}

TEST_CASE("random bytes, alone or behind each magic, never crash or hang") {
  lbt::TempDir dir("random");
  const long rss0 = peak_rss_mib();
  std::mt19937 rng(1234);
  const std::vector<std::string> magics = {"", "\x89PNG\r\n\x1a\n", "\xff\xd8\xff", "BM", "P5\n",
                                           "P6 ", "Pf\n"};
  int n = 0;
  for (const auto& magic : magics)
    for (std::size_t len : {std::size_t{9}, std::size_t{54}, std::size_t{300}}) {
      Bytes b(magic.begin(), magic.end());
      while (b.size() < len) b.push_back(static_cast<char>(rng() & 0xff));
      std::string name = "r";
      name += std::to_string(n++);
      name += ".png";
      const std::string path = dir.file(name);
      lbt::write_bytes(path, b);
      expect_error(path, [&] { (void)load_image(path); });
    }
  CHECK(peak_rss_mib() - rss0 < 256);
}

TEST_CASE("odd but valid images load with the right pixels") {
  lbt::TempDir dir("valid");
  // 1x1 and 2x2 through the writers.
  for (const char* ext : {".png", ".bmp", ".ppm", ".pgm"}) {
    CAPTURE(ext);
    const ImageU8 a = lbt::random_image(1, 1, std::string(ext) == ".pgm" ? 1 : 3, 3);
    CHECK(loaded(dir, std::string("one") + ext, encoded(ext, a, dir)).data == a.data);
    const ImageU8 b = lbt::random_image(2, 2, std::string(ext) == ".pgm" ? 1 : 3, 4);
    CHECK(loaded(dir, std::string("two") + ext, encoded(ext, b, dir)).data == b.data);
  }
  const ImageU8 j = loaded(dir, "one.jpg", encoded(".jpg", ImageU8(1, 1, 1, 200), dir));
  CHECK(j.width == 1);
  CHECK(std::abs(int(j.data[0]) - 200) <= 2);
  // 16-bit grey and RGB PNG: refused by the 8-bit reader, read exactly by load_image16.
  const Bytes g16b = make_png(2, 1, 16, 0, Bytes{0x12, 0x34, (char)0xff, 0x00});
  CHECK(rejected(dir, "g16.png", g16b).find("16-bit PNG (grey, 2x1): this input takes 8-bit images") !=
        std::string::npos);
  lbt::write_bytes(dir.file("g16.png"), g16b);
  int depth = 0;
  const ImageU16 g16 = load_image16(dir.file("g16.png"), 0, &depth);
  CHECK(depth == 16);
  CHECK(g16.channels == 1);
  CHECK(g16.data == std::vector<std::uint16_t>{0x1234, 0xff00});
  lbt::write_bytes(dir.file("c16.png"), make_png(1, 1, 16, 2, Bytes{1, 0, 2, 0, 3, 0}));
  CHECK(load_image16(dir.file("c16.png")).data == std::vector<std::uint16_t>{0x100, 0x200, 0x300});
  // Grey + alpha (2 channels), odd size 3x3.
  Bytes ga;
  for (int k = 0; k < 9; ++k) {
    ga.push_back(static_cast<char>(k * 20));
    ga.push_back(static_cast<char>(255 - k));
  }
  ImageU8 gai = loaded(dir, "ga.png", make_png(3, 3, 8, 4, ga));
  CHECK(gai.channels == 2);
  CHECK(gai.at(2, 2, 0) == 160);
  CHECK(gai.at(2, 2, 1) == 247);
  // Palette PNGs: 1-bit with 2 entries, a full 256-entry palette, and tRNS (4 channels).
  const Bytes plte = {10, 20, 30, 40, 50, 60};
  ImageU8 p1 = loaded(dir, "p1.png", make_png(3, 1, 1, 3, Bytes{(char)0x40}, plte));
  CHECK(p1.channels == 3);
  CHECK(p1.data == std::vector<std::uint8_t>{10, 20, 30, 40, 50, 60, 10, 20, 30});
  Bytes full;
  for (int k = 0; k < 256; ++k) full.insert(full.end(), {(char)k, (char)(255 - k), 7});
  ImageU8 p8 = loaded(dir, "p8.png", make_png(2, 1, 8, 3, Bytes{0, (char)255}, full));
  CHECK(p8.data == std::vector<std::uint8_t>{0, 255, 7, 255, 0, 7});
  // A palette whose colours include the first candidate markers still decodes.
  const Bytes reds = {0, 0, 0, 1, 0, 0};
  CHECK(loaded(dir, "reds.png", make_png(2, 1, 8, 3, Bytes{1, 0}, reds)).data ==
        std::vector<std::uint8_t>{1, 0, 0, 0, 0, 0});
  ImageU8 pt = loaded(dir, "pt.png", make_png(2, 1, 8, 3, Bytes{0, 1}, plte, Bytes{(char)0x80}));
  CHECK(pt.channels == 4);
  CHECK(pt.data == std::vector<std::uint8_t>{10, 20, 30, 0x80, 40, 50, 60, 255});
  // BMP: 1 bpp, 4 bpp and 8 bpp with palettes, odd widths (row padding), top-down, bitfields.
  Bmp b1;
  b1.w = 3;
  b1.h = 2;
  b1.bpp = 1;
  b1.palette = {0x000000, 0xffffff};
  b1.pixels = {(char)0xa0, 0, 0, 0, (char)0x40, 0, 0, 0};  // bottom row first
  ImageU8 i1 = loaded(dir, "b1.bmp", make_bmp(b1));
  CHECK(i1.data == std::vector<std::uint8_t>{0, 0, 0, 255, 255, 255, 0, 0, 0,
                                             255, 255, 255, 0, 0, 0, 255, 255, 255});
  Bmp b4 = b1;
  b4.bpp = 4;
  b4.palette = {0x010203, 0x040506, 0x070809};
  b4.h = -1;  // top-down
  b4.pixels = {0x12, 0x00, 0, 0};
  CHECK(loaded(dir, "b4.bmp", make_bmp(b4)).data ==
        std::vector<std::uint8_t>{4, 5, 6, 7, 8, 9, 1, 2, 3});
  Bmp b8 = b4;
  b8.bpp = 8;
  b8.pixels = {2, 0, 1, 0};
  CHECK(loaded(dir, "b8.bmp", make_bmp(b8)).data ==
        std::vector<std::uint8_t>{7, 8, 9, 1, 2, 3, 4, 5, 6});
  Bmp b32;
  b32.w = 1;
  b32.bpp = 32;
  b32.compression = 3;
  b32.masks = {0x00ff0000, 0x0000ff00, 0x000000ff};
  b32.pixels = {0x33, 0x22, 0x11, 0};
  CHECK(loaded(dir, "b32.bmp", make_bmp(b32)).data == std::vector<std::uint8_t>{0x11, 0x22, 0x33});
  // Every PNM kind read today: P5/P6 at 8 and 16 bits, and a small maxval scaled to 255.
  Bytes p5;
  append(p5, "P5\n# comment\n3 1\n255\n");
  p5.insert(p5.end(), {1, 2, 3});
  CHECK(loaded(dir, "a.pgm", p5).data == std::vector<std::uint8_t>{1, 2, 3});
  Bytes p6;
  append(p6, "P6 1 1 65535\n");
  p6.insert(p6.end(), {(char)0xff, (char)0xff, 0, 0, (char)0x80, 0});
  CHECK(loaded(dir, "a.ppm", p6).data == std::vector<std::uint8_t>{255, 0, 128});
  Bytes p5s;
  append(p5s, "P5 2 1 15\n");
  p5s.insert(p5s.end(), {15, 5});
  CHECK(loaded(dir, "s.pgm", p5s).data == std::vector<std::uint8_t>{255, 85});
}
