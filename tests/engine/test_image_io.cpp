#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "lightbench/image_io.hpp"
#include "test_util.hpp"

using namespace lb;

TEST_CASE("lossless formats round-trip exactly") {
  lbt::TempDir dir("io");
  for (const char* ext : {".png", ".bmp", ".ppm"}) {
    CAPTURE(ext);
    const ImageU8 img = lbt::random_image(37, 23, 3, 7);
    const std::string path = dir.file(std::string("rt") + ext);
    save_image(path, img);
    const ImageU8 back = load_image(path);
    CHECK(back.same_shape(img));
    CHECK(back.data == img.data);
  }
  // RGBA through PNG, gray through PGM and PNG.
  const ImageU8 rgba = lbt::random_image(5, 9, 4, 3);
  save_image(dir.file("a.png"), rgba);
  CHECK(load_image(dir.file("a.png")).data == rgba.data);
  const ImageU8 gray = lbt::random_image(11, 4, 1, 5);
  save_image(dir.file("g.pgm"), gray);
  CHECK(load_image(dir.file("g.pgm")).data == gray.data);
}

TEST_CASE("JPEG round trip is close, and channel conversion works") {
  lbt::TempDir dir("jpg");
  ImageU8 img(64, 48, 3);
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 64; ++x)
      for (int c = 0; c < 3; ++c) img.at(x, y, c) = static_cast<std::uint8_t>(x * 3 + y * 2 + c * 20);
  save_image(dir.file("j.jpg"), img, 98);
  const ImageU8 back = load_image(dir.file("j.jpg"));
  REQUIRE(back.same_shape(img));
  double err = 0;
  for (std::size_t i = 0; i < img.data.size(); ++i) err += std::abs(back.data[i] - img.data[i]);
  CHECK(err / img.data.size() < 3.0);
  const ImageU8 rgba = load_image(dir.file("j.jpg"), 4);
  CHECK(rgba.channels == 4);
  CHECK(rgba.at(10, 10, 3) == 255);
}

TEST_CASE("PFM round-trips gray and RGB, rows bottom-to-top in the file") {
  lbt::TempDir dir("pfm");
  ImageF g(7, 3, 1);
  for (std::size_t i = 0; i < g.data.size(); ++i) g.data[i] = static_cast<float>(i) * 0.25f - 2.0f;
  save_pfm(dir.file("g.pfm"), g);
  const ImageF gb = load_pfm(dir.file("g.pfm"));
  CHECK(gb.same_shape(g));
  CHECK(gb.data == g.data);
  // The first stored row is the image's bottom row.
  const auto bytes = lbt::read_bytes(dir.file("g.pfm"));
  const std::string header = "Pf\n7 3\n-1.0\n";
  REQUIRE(bytes.size() == header.size() + 7 * 3 * 4);
  float first;
  std::memcpy(&first, bytes.data() + header.size(), 4);
  CHECK(first == g.at(0, 2));

  ImageF rgb(4, 5, 3);
  for (std::size_t i = 0; i < rgb.data.size(); ++i) rgb.data[i] = std::sin(static_cast<float>(i));
  save_pfm(dir.file("c.pfm"), rgb);
  CHECK(load_pfm(dir.file("c.pfm")).data == rgb.data);
}

TEST_CASE("big-endian PFM is read") {
  lbt::TempDir dir("pfmbe");
  std::vector<char> b;
  const std::string header = "Pf\n2 1\n1.0\n";
  b.assign(header.begin(), header.end());
  for (float v : {1.5f, -3.0f}) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    for (int k = 3; k >= 0; --k) b.push_back(static_cast<char>((u >> (8 * k)) & 0xff));
  }
  lbt::write_bytes(dir.file("be.pfm"), b);
  const ImageF img = load_pfm(dir.file("be.pfm"));
  CHECK(img.at(0, 0) == 1.5f);
  CHECK(img.at(1, 0) == -3.0f);
}

TEST_CASE("missing, corrupt and truncated files are rejected with a message naming the file") {
  lbt::TempDir dir("bad");
  const std::string missing = dir.file("nope.png");
  CHECK_THROWS_WITH_AS(load_image(missing), doctest::Contains("nope.png"), Error);
  CHECK_THROWS_WITH_AS(load_image(missing), doctest::Contains("no such file"), Error);

  lbt::write_bytes(dir.file("junk.png"), std::vector<char>(200, 'x'));
  CHECK_THROWS_AS(load_image(dir.file("junk.png")), Error);
  lbt::write_bytes(dir.file("empty.png"), {});
  CHECK_THROWS_WITH_AS(load_image(dir.file("empty.png")), doctest::Contains("empty"), Error);

  const ImageU8 img = lbt::random_image(40, 30, 3, 9);
  for (const char* ext : {".png", ".bmp", ".ppm", ".jpg"}) {
    CAPTURE(ext);
    const std::string good = dir.file(std::string("t") + ext);
    save_image(good, img);
    auto bytes = lbt::read_bytes(good);
    bytes.resize(bytes.size() * 2 / 3);
    const std::string cut = dir.file(std::string("cut") + ext);
    lbt::write_bytes(cut, bytes);
    CHECK_THROWS_WITH_AS(load_image(cut), doctest::Contains("cut"), Error);
  }
  ImageF f(8, 8, 1, 1.0f);
  save_pfm(dir.file("f.pfm"), f);
  auto pb = lbt::read_bytes(dir.file("f.pfm"));
  pb.resize(pb.size() - 5);
  lbt::write_bytes(dir.file("fcut.pfm"), pb);
  CHECK_THROWS_WITH_AS(load_pfm(dir.file("fcut.pfm")), doctest::Contains("truncated"), Error);
  lbt::write_bytes(dir.file("hdr.pfm"), {'P', 'f', '\n', 'x', ' ', '2', '\n', '1', '\n'});
  CHECK_THROWS_WITH_AS(load_pfm(dir.file("hdr.pfm")), doctest::Contains("header"), Error);
  CHECK_THROWS_AS(load_pfm(dir.file("t.png")), Error);  // not a PFM at all
}

TEST_CASE("a failed write never clobbers an existing file") {
  lbt::TempDir dir("atomic");
  const ImageU8 img = lbt::random_image(6, 6, 3, 1);
  const std::string path = dir.file("keep.png");
  save_image(path, img);
  const auto before = lbt::read_bytes(path);
  CHECK_THROWS_AS(save_image(path, ImageU8()), Error);                   // empty image
  CHECK_THROWS_AS(save_image(dir.file("x.tiff"), img), Error);           // unknown format
  CHECK_THROWS_AS(save_image(dir.file("no/such/dir.png"), img), Error);  // missing folder
  CHECK(lbt::read_bytes(path) == before);
}
