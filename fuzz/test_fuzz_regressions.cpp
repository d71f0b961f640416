// Replays every fuzzer finding kept under fuzz/regressions/<harness>/*.hex (xxd -p text: hex
// digits, whitespace ignored) through the harness that found it (harnesses.cpp, the code the
// libFuzzer binaries run). Each must end in success or a clean lb::Error: no crash, no other
// exception. Runs in the normal build; no clang, no libFuzzer needed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harnesses.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"

namespace fs = std::filesystem;

namespace {
std::vector<std::uint8_t> unhex(const std::string& text) {
  std::string digits;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) digits += ch;
  REQUIRE_MESSAGE(digits.size() % 2 == 0, "odd number of hex digits");
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < digits.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoi(digits.substr(i, 2), nullptr, 16)));
  return out;
}
}  // namespace

TEST_CASE("fuzz regressions: every saved finding replays to success or a clean lb::Error") {
  const fs::path root = fs::path(LB_SOURCE_DIR) / "fuzz" / "regressions";
  int replayed = 0;
  for (const auto& name : lb::fuzz::harness_names()) {
    const fs::path dir = root / name;
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".hex") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      CAPTURE(f.string());
      std::ifstream in(f);
      const auto bytes = unhex(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
      CHECK_NOTHROW(lb::fuzz::run_harness(name, bytes.data(), bytes.size()));
      ++replayed;
    }
  }
  MESSAGE("replayed " << replayed << " fuzz findings");
}

TEST_CASE("fuzz harnesses accept empty and tiny inputs") {
  const std::uint8_t junk[4] = {0x50, 0x36, 0x0a, 0xff};
  for (const auto& name : lb::fuzz::harness_names()) {
    CAPTURE(name);
    CHECK_NOTHROW(lb::fuzz::run_harness(name, junk, 0));
    CHECK_NOTHROW(lb::fuzz::run_harness(name, junk, sizeof junk));
  }
}

// Found while writing the PNM harness (review, not a sanitizer report): a sample above maxval
// was scaled past 255 and wrapped (P5, maxval 1, sample 200 became 56).
TEST_CASE("PNM: a sample above maxval is refused, not wrapped") {
  const std::string head = "P5\n2 1\n1\n";
  std::vector<unsigned char> bytes(head.begin(), head.end());
  bytes.push_back(1);
  bytes.push_back(200);
  CHECK_THROWS_WITH_AS(lb::decode_image(bytes, "over.pgm"),
                       doctest::Contains("sample 200 at pixel (1, 0) exceeds maxval 1"), lb::Error);
  bytes.back() = 0;  // in range: 0 and 1 of maxval 1 are 0 and 255
  const lb::ImageU8 img = lb::decode_image(bytes, "ok.pgm");
  CHECK(img.data == std::vector<std::uint8_t>{255, 0});
  const std::string head16 = "P6\n1 1\n300\n";
  std::vector<unsigned char> rgb16(head16.begin(), head16.end());
  for (int c = 0; c < 3; ++c) {  // 301 > 300
    rgb16.push_back(0x01);
    rgb16.push_back(0x2d);
  }
  CHECK_THROWS_WITH_AS(lb::decode_image(rgb16, "over16.ppm"), doctest::Contains("exceeds maxval 300"),
                       lb::Error);
}

namespace {
std::vector<std::uint8_t> fixture(const std::string& harness, const std::string& name) {
  std::ifstream in(fs::path(LB_SOURCE_DIR) / "fuzz" / "regressions" / harness / name);
  REQUIRE_MESSAGE(in.good(), "missing fixture " << harness << "/" << name);
  return unhex(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}
}  // namespace

// fuzz_image: a JPEG DHT table whose 16 code counts sum past 256 made stb 2.27 write past its
// Huffman arrays (UBSan: index 257 out of bounds for stbi_uc[257]). JPEG is now libjpeg-turbo's,
// which refuses the table itself.
TEST_CASE("JPEG: a Huffman table of more than 256 codes is refused") {
  const auto bytes = fixture("image", "crash-75eb319ca56a26d19752314e8fae92eda3098261.hex");
  CHECK_THROWS_WITH_AS(lb::decode_image(bytes, "dht.jpg"), doctest::Contains("Bogus Huffman table"),
                       lb::Error);
  // A valid JPEG (the project's own writer, 4 Huffman tables) still decodes.
  const fs::path tmp = fs::temp_directory_path() / "lb_fuzz_regression_ok.jpg";
  lb::ImageU8 img(8, 8, 3);
  for (std::size_t i = 0; i < img.data.size(); ++i) img.data[i] = static_cast<std::uint8_t>(i * 7);
  lb::save_image(tmp.string(), img);
  CHECK(lb::load_image(tmp.string()).width == 8);
  fs::remove(tmp);
}

// fuzz_assets: a number too large for a double ("1e999", or 300 digits) made nlohmann throw
// out_of_range.406, which parse_json did not catch (only parse_error): std::terminate.
TEST_CASE("assets: a JSON number overflowing a double is a clean 'not valid JSON' error") {
  const auto bytes = fixture("assets", "crash-c1a1d08f0bfd829e6d4e857cea178ebedf5b31ab.hex");
  CHECK_NOTHROW(lb::fuzz::run_harness("assets", bytes.data(), bytes.size()));
  for (const char* text : {"1e999", R"({"width": -1e400})"})
    for (int kind = 0; kind < 4; ++kind) {
      CAPTURE(text);
      CAPTURE(kind);
      const std::string t(text);
      const auto parse = [&] {
        if (kind == 0) lb::parse_plenoptic_asset(t, "big.json");
        if (kind == 1) lb::parse_lightfield_asset(t, "big.json");
        if (kind == 2) lb::parse_stereo_asset(t, "big.json");
        if (kind == 3) lb::parse_mad_asset(t, "big.json");
      };
      CHECK_THROWS_WITH_AS(parse(), doctest::Contains("big.json: not valid JSON (") , lb::Error);
    }
}

// fuzz_image: 751 bytes declaring a 64007x2048 baseline JPEG; stb decoded the missing data as
// zeros for seconds (libFuzzer timeout > 2 s).
TEST_CASE("JPEG: a header declaring more blocks than the file has bits is refused") {
  const auto bytes = fixture("image", "timeout-53320424604834fe54079e175539f77760bc6b11.hex");
  CHECK_THROWS_WITH_AS(lb::decode_image(bytes, "bomb.jpg"),
                       doctest::Contains("truncated JPEG: 751 bytes cannot hold the 64007x2048 image"), lb::Error);
}
