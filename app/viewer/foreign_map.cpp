#include "foreign_map.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "lightbench/colormap.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/error.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/input_file.hpp"

namespace lb::viewer {
namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::string size_of(const ImageF& m) { return std::to_string(m.width) + "x" + std::to_string(m.height); }

// The headline figure of each group, in evaluate()'s key names.
const char* headline(eval::Protocol p) {
  switch (p) {
    case eval::Protocol::Middlebury2003: return "bad100";
    case eval::Protocol::MiddleburyV3: return "bad200";
    case eval::Protocol::Kitti: return "d1_all";
    case eval::Protocol::Hci: return "badpix_007";
  }
  return "bad100";
}

}  // namespace

bool parse_file_spec(const std::string& spec, std::string* path) {
  const std::string t = trim(spec);
  if (t.size() < 5) return false;
  std::string key = t.substr(0, 5);
  for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (key != "file=") {
    // "file = PATH" with spaces around '='.
    const auto eq = t.find('=');
    if (eq == std::string::npos) return false;
    std::string k = trim(t.substr(0, eq));
    for (auto& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (k != "file") return false;
    *path = trim(t.substr(eq + 1));
  } else {
    *path = trim(t.substr(5));
  }
  LB_REQUIRE(!path->empty(), "pane source: file= needs a path");
  return true;
}

ForeignFile load_foreign_file(const std::string& path) {
  lb::require_regular_file(path, "pane file");  // a named pipe is refused before opening
  ForeignFile f;
  f.path = path;
  const std::string ext = file_extension(path);
  bool map = ext == ".pfm";
  if (ext == ".png") {
    // A 16-bit grey PNG is a map in the KITTI convention; any other PNG is an image.
    int depth = 0;
    const ImageU16 probe = load_image16(path, 0, &depth);
    map = depth == 16 && probe.channels == 1;
  } else if (!map) {
    LB_REQUIRE(ext == ".jpg" || ext == ".jpeg" || ext == ".bmp" || ext == ".ppm" || ext == ".pgm",
               "pane file '" + path + "': use a map (.pfm, 16-bit .png) or an image (.png, .jpg, .bmp, .ppm, .pgm)");
  }
  if (map) {
    f.is_map = true;
    f.map = dataset::load_disparity_map(path);
    colormap::finite_range(f.map, &f.lo, &f.hi);
    if (!(f.hi > f.lo)) f.hi = f.lo + 1.0;
  } else {
    f.image = load_image(path, 4);
  }
  return f;
}

ForeignScore score_foreign(const ImageF& map, const eval::Truth* truth) {
  ForeignScore s;
  if (!truth || truth->stereo.disparity.empty()) {
    s.note = "not scored: the data has no ground truth";
    return s;
  }
  const ImageF& g = truth->stereo.disparity;
  s.protocol = eval::to_string(truth->protocol);
  if (map.width != g.width || map.height != g.height) {
    s.note = "not scored: size " + size_of(map) + " differs from the truth's " + size_of(g);
    return s;
  }
  try {
    s.scores = eval::evaluate(map, *truth);
  } catch (const std::exception& e) {
    s.note = std::string("not scored: ") + e.what();
    return s;
  }
  s.scored = true;
  s.summary = s.protocol;
  const char* key = headline(truth->protocol);
  for (const auto& [group, v] : s.scores.items()) {
    if (!v.is_object() || !v.contains(key) || !v[key].is_number()) continue;
    char buf[96];
    std::snprintf(buf, sizeof buf, "  %s %s %.3g%%", group.c_str(), key, v[key].get<double>());
    s.summary += buf;
  }
  return s;
}

}  // namespace lb::viewer
