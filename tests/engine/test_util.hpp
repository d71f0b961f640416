#pragma once
// Small helpers for the engine tests: temporary directories, random images, file bytes.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "lightbench/error.hpp"
#include "lightbench/image.hpp"

namespace lbt {

// What a call throws as lb::Error (its what()), or "" when it returns.
inline std::string msg(const std::function<void()>& f) {
  try {
    f();
  } catch (const lb::Error& e) {
    return e.what();
  }
  return "";
}

// Non-finite floats for the map and metric tests.
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// A fresh directory under the system temp dir, removed when the object goes away.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& tag) {
    path = std::filesystem::temp_directory_path() /
           ("lightbench-" + tag + "-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

inline lb::ImageU8 random_image(int w, int h, int c, std::uint32_t seed) {
  lb::ImageU8 img(w, h, c);
  std::mt19937 rng(seed);
  for (auto& v : img.data) v = static_cast<std::uint8_t>(rng() & 0xff);
  return img;
}

inline std::vector<char> read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::vector<char>& b) {
  std::ofstream f(path, std::ios::binary);
  f.write(b.data(), static_cast<std::streamsize>(b.size()));
}

// A whole file as a string, and a string as a whole file.
inline std::string slurp(const std::string& path) {
  const auto b = read_bytes(path);
  return {b.begin(), b.end()};
}
inline void spit(const std::string& path, const std::string& s) {
  std::ofstream f(path, std::ios::binary);
  f << s;
}

// Files under `dir` named like the atomic writer's temporaries (<target>.tmp-lightbench-...).
inline int temps_in(const std::filesystem::path& dir) {
  int n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    n += e.path().filename().string().find(".tmp-lightbench") != std::string::npos;
  return n;
}

}  // namespace lbt
