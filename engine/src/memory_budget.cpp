#include "lightbench/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/input_file.hpp"
#include "image_io_internal.hpp"
#include "stb_image_impl.hpp"

namespace lb {

namespace {
std::atomic<std::uint64_t> g_host_limit{0};
std::atomic<std::uint64_t> g_device_limit{0};

std::uint64_t env_size(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return 0;
  return parse_memory_size(v, name);
}
}  // namespace

std::uint64_t parse_memory_size(const std::string& text, const std::string& what) {
  auto bad = [&] {
    return Error(what + " expects a size in bytes or with K, M, G, T (e.g. 512M, 8G), got '" + text + "'");
  };
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  const std::string num = text.substr(0, i);
  if (num.empty() || num.front() == '.' || std::count(num.begin(), num.end(), '.') > 1) throw bad();
  std::string unit = text.substr(i);
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  double mul = 1;
  if (!unit.empty() && std::string("KMGT").find(unit[0]) != std::string::npos) {
    mul = std::pow(1024.0, 1 + static_cast<int>(std::string("KMGT").find(unit[0])));
    unit = unit.substr(1);
    if (unit == "IB" || unit == "B") unit.clear();
  } else if (unit == "B") {
    unit.clear();
  }
  if (!unit.empty()) throw bad();
  if (mul == 1 && num.find('.') != std::string::npos) throw bad();  // fractional bytes
  const double v = std::strtod(num.c_str(), nullptr) * mul;
  if (!std::isfinite(v) || v < 1 || v >= 1.8e19) throw bad();
  return static_cast<std::uint64_t>(v);
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
}

void set_max_host_memory(std::uint64_t bytes) { g_host_limit = bytes; }

std::uint64_t max_host_memory() {
  if (const std::uint64_t v = g_host_limit.load()) return v;
  if (const std::uint64_t v = env_size("LB_MAX_MEMORY")) return v;
  const std::uint64_t phys = physical_memory_bytes();
  return phys ? phys / 2 : (std::uint64_t{4} << 30);
}

void check_host_memory(const std::string& command, std::uint64_t need) {
  const std::uint64_t limit = max_host_memory();
  if (need > limit)
    throw Error(command + ": needs " + format_bytes(need) + " of host memory, limit " + format_bytes(limit) +
                " (raise with --max-memory)");
}

void set_max_device_memory(std::uint64_t bytes) { g_device_limit = bytes; }

std::uint64_t max_device_memory() {
  if (const std::uint64_t v = g_device_limit.load()) return v;
  return env_size("LB_MAX_DEVICE_MEMORY");
}

void check_device_memory(const std::string& command, std::uint64_t need, std::uint64_t free_bytes) {
  const std::uint64_t limit = max_device_memory();
  if (limit && need > limit)
    throw Error(command + ": needs " + format_bytes(need) + " of device memory, limit " + format_bytes(limit) +
                " (raise with --max-device-memory)");
  if (free_bytes && need > free_bytes)
    throw Error(command + ": needs " + format_bytes(need) + " of device memory, the device has " +
                format_bytes(free_bytes) + " free");
}

std::string device_oom_message(std::uint64_t bytes, const std::string& what, std::uint64_t free_bytes,
                               std::uint64_t total_bytes) {
  return "out of device memory: allocating " + format_bytes(bytes) + " for " + what + " (free " +
         format_bytes(free_bytes) + " of " + format_bytes(total_bytes) + ")";
}

namespace {
// PNM / PFM header: magic, then width, height (and maxval), '#' comments skipped.
bool pnm_header(const std::vector<unsigned char>& d, int& w, int& h, int& c) {
  if (d.size() < 3 || d[0] != 'P') return false;
  const char m = static_cast<char>(d[1]);
  if (m == '5' || m == 'f') c = 1;
  else if (m == '6' || m == 'F') c = 3;
  else return false;
  std::size_t i = 2;
  long v[2] = {0, 0};
  for (long& x : v) {
    while (i < d.size() && (std::isspace(d[i]) || d[i] == '#')) {
      if (d[i] == '#') while (i < d.size() && d[i] != '\n') ++i;
      else ++i;
    }
    if (i >= d.size() || !std::isdigit(d[i])) return false;
    while (i < d.size() && std::isdigit(d[i]) && x < 1000000) x = x * 10 + (d[i++] - '0');
  }
  if (v[0] < 1 || v[1] < 1 || v[0] >= 1000000 || v[1] >= 1000000) return false;
  w = static_cast<int>(v[0]);
  h = static_cast<int>(v[1]);
  return true;
}

bool image_ext(const std::filesystem::path& p) {
  std::string e = p.extension().string();
  for (auto& ch : e) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return e == ".png" || e == ".jpg" || e == ".jpeg" || e == ".bmp" || e == ".ppm" || e == ".pgm";
}
}  // namespace

ImageHeader probe_image_header(const std::string& path) {
  ImageHeader h;
  // Not a regular file (a named pipe would block the open): unknown, the loader refuses it.
  if (!input_file_problem(path).empty()) return h;
  std::ifstream f(path, std::ios::binary);
  if (!f) return h;
  // The header: JPEG's frame header can follow large metadata segments, so read generously.
  std::vector<unsigned char> d(std::size_t{1} << 20);
  f.read(reinterpret_cast<char*>(d.data()), static_cast<std::streamsize>(d.size()));
  d.resize(static_cast<std::size_t>(f.gcount()));
  std::string why;
  if (pnm_header(d, h.width, h.height, h.channels) ||
      image_io_detail::png_jpeg_info(d.data(), d.size(), h.width, h.height, h.channels) ||
      (d.size() >= 2 && d[0] == 'B' && d[1] == 'M' &&
       detail::stb_info(d.data(), d.size(), h.width, h.height, h.channels, why)))
    h.known = h.width > 0 && h.height > 0 && h.channels > 0;
  // A header past the decoding limit is the loader's to refuse, with the file's name and the
  // limit (a 118-byte BMP claiming 16000 x 16000 must say so, not "needs 175 GiB").
  if (h.known && static_cast<std::uint64_t>(h.width) * static_cast<std::uint64_t>(h.height) > max_decode_pixels())
    h.known = false;
  return h;
}

LightFieldHeader probe_lightfield_header(const std::string& dir) {
  LightFieldHeader r;
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && image_ext(it->path())) files.push_back(it->path());
  if (files.empty()) return r;
  std::sort(files.begin(), files.end());
  const ImageHeader h = probe_image_header(files.front().string());
  if (!h.known) return r;
  r.views = static_cast<int>(files.size());
  r.width = h.width;
  r.height = h.height;
  r.known = true;
  return r;
}

}  // namespace lb
