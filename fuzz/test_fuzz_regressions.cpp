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
