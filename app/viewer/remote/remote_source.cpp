// Remote images in the viewer's panes (remote_source.hpp).
#include "remote_source.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "lightbench/colormap.hpp"
#include "lightbench/error.hpp"

namespace lb::viewer::remote {

namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// The RGBA slot a channel name names: 0..3, 4 for grey (Y / L), -1 for none.
int slot_of(const std::string& name) {
  const auto dot = name.rfind('.');
  std::string base = dot == std::string::npos ? name : name.substr(dot + 1);
  for (auto& c : base) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (base == "R") return 0;
  if (base == "G") return 1;
  if (base == "B") return 2;
  if (base == "A") return 3;
  if (base == "Y" || base == "L") return 4;
  return -1;
}

std::uint8_t to_u8(float v) {
  if (!(v > 0.f)) return 0;  // NaN too
  if (v >= 1.f) return 255;
  return static_cast<std::uint8_t>(std::lround(v * 255.f));
}

}  // namespace

bool is_remote_spec(const std::string& text) {
  const std::string t = trim(text);
  const std::string prefix = kSourcePrefix;
  if (t.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(t[i])) != prefix[i]) return false;
  }
  return true;
}

std::string remote_name_of(const std::string& text) {
  return is_remote_spec(text) ? trim(text).substr(std::string(kSourcePrefix).size()) : std::string();
}

bool parse_remote_spec(const std::string& spec, std::string* name) {
  if (!is_remote_spec(spec)) return false;
  *name = remote_name_of(spec);
  LB_REQUIRE(!name->empty(), "pane source: remote: needs an image name (remote:NAME)");
  return true;
}

std::string remote_spec(const std::string& name) { return kSourcePrefix + name; }

ForeignFile to_foreign_file(const RemoteImage& img) {
  ForeignFile f;
  f.path = remote_spec(img.name);
  const ImageF& src = img.image;
  if (src.channels == 1) {
    f.is_map = true;
    f.map = src;
    colormap::finite_range(f.map, &f.lo, &f.hi);
    if (!(f.hi > f.lo)) f.hi = f.lo + 1.0;
    return f;
  }
  // Where each channel goes: by name, else the free slots in order.
  std::vector<int> slot(static_cast<std::size_t>(src.channels), -1);
  bool taken[4] = {false, false, false, false};
  for (int c = 0; c < src.channels; ++c) {
    const int s = c < static_cast<int>(img.channel_names.size()) ? slot_of(img.channel_names[c]) : -1;
    if (s == 4 && !taken[0] && !taken[1] && !taken[2]) {
      slot[c] = 4;
      taken[0] = taken[1] = taken[2] = true;
    } else if (s >= 0 && s < 4 && !taken[s]) {
      slot[c] = s;
      taken[s] = true;
    }
  }
  for (int c = 0; c < src.channels; ++c) {
    if (slot[c] != -1) continue;
    for (int s = 0; s < 4; ++s) {
      if (!taken[s]) {
        slot[c] = s;
        taken[s] = true;
        break;
      }
    }
  }
  f.image.reset(src.width, src.height, 4);
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      std::uint8_t px[4] = {0, 0, 0, 255};
      for (int c = 0; c < src.channels; ++c) {
        const std::uint8_t v = to_u8(src.at(x, y, c));
        if (slot[c] == 4) px[0] = px[1] = px[2] = v;
        else if (slot[c] >= 0) px[slot[c]] = v;
      }
      std::copy(px, px + 4, &f.image.at(x, y, 0));
    }
  }
  return f;
}

nlohmann::json remote_json(const RemoteImage& img) {
  nlohmann::json j = {{"name", img.name},
                      {"channels", img.channel_names},
                      {"width", img.image.width},
                      {"height", img.image.height},
                      {"version", img.version},
                      {"complete", img.complete}};
  if (!img.path.empty()) j["path"] = img.path;
  j["kind"] = img.image.channels == 1 ? "map" : "image";
  return j;
}

UntilRemote until_remote(std::size_t wanted, std::size_t received, double elapsed_s, double timeout_s) {
  if (received >= wanted) return UntilRemote::Done;
  return elapsed_s >= timeout_s ? UntilRemote::TimedOut : UntilRemote::Waiting;
}

std::string until_remote_message(std::size_t wanted, std::size_t received, double timeout_s) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%g", timeout_s);
  return "--until-remote " + std::to_string(wanted) + ": " + std::to_string(received) + " of " +
         std::to_string(wanted) + " remote image" + (wanted == 1 ? "" : "s") + " arrived within " + secs + " s";
}

}  // namespace lb::viewer::remote
