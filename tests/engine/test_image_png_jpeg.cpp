// PNG through libpng and JPEG through libjpeg-turbo: 8- and 16-bit round trips, 16-bit refused
// by the 8-bit reader, corrupt / cut / bomb files refused in one line naming the file.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <png.h>

#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "test_util.hpp"

using namespace lb;

namespace {
ImageU16 random_image16(int w, int h, int c, std::uint32_t seed) {
  ImageU16 img(w, h, c);
  std::uint32_t s = seed;
  for (auto& v : img.data) {
    s = s * 1664525u + 1013904223u;
    v = static_cast<std::uint16_t>(s >> 13);
  }
  img.data[0] = 0;
  img.data[img.data.size() - 1] = 65535;
  return img;
}

// An Adam7-interlaced 16-bit RGB PNG written by libpng (big-endian samples, as in the file).
std::string interlaced16(const ImageU16& img) {
  std::string out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  png_set_write_fn(
      png, &out,
      [](png_structp p, png_bytep d, png_size_t n) {
        static_cast<std::string*>(png_get_io_ptr(p))->append(reinterpret_cast<const char*>(d), n);
      },
      [](png_structp) {});
  png_set_IHDR(png, info, img.width, img.height, 16, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_ADAM7,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  std::vector<std::vector<png_byte>> rows(img.height);
  std::vector<png_bytep> ptrs;
  for (int y = 0; y < img.height; ++y) {
    for (int k = 0; k < img.width * 3; ++k) {
      const std::uint16_t v = img.row(y)[k];
      rows[y].push_back(static_cast<png_byte>(v >> 8));
      rows[y].push_back(static_cast<png_byte>(v & 0xff));
    }
    ptrs.push_back(rows[y].data());
  }
  png_write_image(png, ptrs.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return out;
}

// The error of loading `path` with `load` (empty when it loaded): one line naming the file.
template <class F>
std::string error_of(const std::string& path, F load) {
  try {
    load();
  } catch (const Error& e) {
    const std::string m = e.what();
    CHECK(m.find('\n') == std::string::npos);
    CHECK(m.find(path) != std::string::npos);
    return m;
  }
  return "";
}
}  // namespace

TEST_CASE("PNG round trips: 8-bit and 16-bit grey, grey+alpha, RGB, RGBA, odd sizes") {
  lbt::TempDir dir("pngrt");
  const int sizes[][2] = {{1, 1}, {3, 5}, {17, 9}, {64, 33}};
  for (int c = 1; c <= 4; ++c)
    for (const auto& wh : sizes) {
      CAPTURE(c);
      CAPTURE(wh[0]);
      CAPTURE(wh[1]);
      const std::string p16 = dir.file("i16_" + std::to_string(c) + ".png");
      const ImageU16 a = random_image16(wh[0], wh[1], c, static_cast<std::uint32_t>(c * 100 + wh[0]));
      save_png16(p16, a);
      int depth = 0;
      const ImageU16 b = load_image16(p16, 0, &depth);
      CHECK(depth == 16);
      CHECK(b.same_shape(a));
      CHECK(b.data == a.data);
      // 16 bits are never cut to 8 by the 8-bit reader.
      CHECK(error_of(p16, [&] { (void)load_image(p16); }).find("16-bit PNG") != std::string::npos);
      if (c == 2) continue;  // the 8-bit writer takes 1, 3 or 4 channels
      const std::string p8 = dir.file("i8_" + std::to_string(c) + ".png");
      const ImageU8 e = lbt::random_image(wh[0], wh[1], c, static_cast<std::uint32_t>(c + wh[1]));
      save_image(p8, e);
      const ImageU8 f = load_image(p8);
      CHECK(f.same_shape(e));
      CHECK(f.data == e.data);
      // Full depth of an 8-bit file: the values widened, unscaled.
      const ImageU16 g = load_image16(p8, 0, &depth);
      CHECK(depth == 8);
      REQUIRE((g.width == e.width && g.height == e.height && g.channels == c));
      for (std::size_t i = 0; i < e.data.size(); ++i) REQUIRE(g.data[i] == e.data[i]);
    }
}

TEST_CASE("16-bit PNG: the 8-bit API refuses it in one line; load_image16 reads it exactly") {
  lbt::TempDir dir("png16");
  ImageU16 grey(5, 3, 1);
  for (std::size_t i = 0; i < grey.data.size(); ++i) grey.data[i] = static_cast<std::uint16_t>(i * 4097 + 1);
  const std::string p = dir.file("grey16.png");
  save_png16(p, grey);
  const std::string m = error_of(p, [&] { (void)load_image(p, 1); });
  CHECK(m.find("16-bit PNG (grey, 5x3): this input takes 8-bit images") != std::string::npos);
  CHECK(m.find("load_image16") != std::string::npos);
  CHECK(load_image16(p).data == grey.data);
  // Not a PNG: load_image16 says so.
  save_image(dir.file("x.bmp"), ImageU8(2, 2, 3, 7));
  CHECK(error_of(dir.file("x.bmp"), [&] { (void)load_image16(dir.file("x.bmp")); }).find("PNG only") !=
        std::string::npos);
  CHECK_THROWS_AS(save_png16(dir.file("x.pfm"), grey), Error);
}

TEST_CASE("an interlaced 16-bit RGB PNG reads exactly") {
  lbt::TempDir dir("pngil");
  const ImageU16 a = random_image16(13, 7, 3, 99);
  const std::string bytes = interlaced16(a);
  lbt::write_bytes(dir.file("il.png"), std::vector<char>(bytes.begin(), bytes.end()));
  CHECK(load_image16(dir.file("il.png")).data == a.data);
}

TEST_CASE("cut and corrupt PNG and JPEG files are refused in one line") {
  lbt::TempDir dir("pngjpgbad");
  const ImageU8 img = lbt::random_image(64, 48, 3, 11);
  for (const char* ext : {".png", ".jpg"}) {
    CAPTURE(ext);
    const std::string good = dir.file(std::string("good") + ext);
    save_image(good, img);
    const std::vector<char> bytes = lbt::read_bytes(good);
    for (std::size_t keep : {bytes.size() / 3, bytes.size() / 2, bytes.size() - 3}) {
      CAPTURE(keep);
      const std::string cut = dir.file("cut" + std::to_string(keep) + ext);
      lbt::write_bytes(cut, std::vector<char>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(keep)));
      CHECK(!error_of(cut, [&] { (void)load_image(cut); }).empty());
    }
  }
  // A PNG whose image data is flipped fails its CRC (and zlib's check).
  std::vector<char> png = lbt::read_bytes(dir.file("good.png"));
  png[png.size() / 2] = static_cast<char>(png[png.size() / 2] ^ 0x5a);
  lbt::write_bytes(dir.file("flip.png"), png);
  CHECK(error_of(dir.file("flip.png"), [&] { (void)load_image(dir.file("flip.png")); }).find("corrupt PNG") !=
        std::string::npos);
  // A JPEG header without a frame: libjpeg's reason, one line.
  const std::vector<char> hollow = {'\xff', '\xd8', '\xff', '\xe0', 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, '\xff', '\xd9'};
  lbt::write_bytes(dir.file("hollow.jpg"), hollow);
  CHECK(error_of(dir.file("hollow.jpg"), [&] { (void)load_image(dir.file("hollow.jpg")); }).find("JPEG") !=
        std::string::npos);
}

TEST_CASE("a JPEG decode bomb (a small file declaring a large frame) is refused before decoding") {
  lbt::TempDir dir("jpgbomb");
  save_image(dir.file("small.jpg"), lbt::random_image(16, 16, 3, 5));
  std::vector<char> jpg = lbt::read_bytes(dir.file("small.jpg"));
  bool patched = false;
  for (std::size_t i = 2; i + 9 < jpg.size() && !patched; ++i)
    if (static_cast<unsigned char>(jpg[i]) == 0xff && static_cast<unsigned char>(jpg[i + 1]) == 0xc0) {
      jpg[i + 5] = jpg[i + 7] = static_cast<char>(0x27);  // 10000 x 10000 (0x2710), within the pixel limit
      jpg[i + 6] = jpg[i + 8] = static_cast<char>(0x10);
      patched = true;
    }
  REQUIRE(patched);
  const std::string p = dir.file("bomb.jpg");
  lbt::write_bytes(p, jpg);
  CHECK(error_of(p, [&] { (void)load_image(p); }).find("cannot hold the 10000x10000 image") != std::string::npos);
}
