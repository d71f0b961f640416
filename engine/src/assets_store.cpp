// Where the asset files come from: the table embedded at build time, overridden file by file
// by a directory on disk (set_assets_dir, else LB_ASSETS_DIR). See lightbench/assets.hpp.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string_view>

#include "lightbench/assets.hpp"
#include "lightbench/error.hpp"
#include "lightbench/input_file.hpp"

namespace lb {
namespace detail {
const std::map<std::string, std::string_view>& embedded_assets();  // generated
}  // namespace detail

namespace {

namespace fs = std::filesystem;

std::mutex g_dir_mutex;
std::string g_dir;  // set_assets_dir(); empty: none

void check_kind(const std::string& kind) {
  const auto kinds = asset_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw Error("unknown asset kind " + quote_untrusted(kind) + " (use plenoptic, lightfield, stereo, mad or plenoptic_hex)");
}

// Names become file names: keep them to [a-z0-9_-] so a name never leaves its folder.
bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Names of one kind, unordered: the embedded ones and the override directory's.
std::set<std::string> collect_names(const std::string& kind) {
  std::set<std::string> names;
  const std::string prefix = kind + "/";
  for (const auto& [path, text] : detail::embedded_assets())
    if (path.compare(0, prefix.size(), prefix) == 0 && path.size() > prefix.size() + 5 &&
        path.compare(path.size() - 5, 5, ".json") == 0)
      names.insert(path.substr(prefix.size(), path.size() - prefix.size() - 5));
  const std::string dir = assets_dir();
  if (!dir.empty()) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(dir) / kind, ec)) {
      if (!e.is_regular_file() || e.path().extension() != ".json") continue;
      const std::string stem = e.path().stem().string();
      if (valid_name(stem)) names.insert(stem);
    }
  }
  return names;
}

}  // namespace

void set_assets_dir(const std::string& dir) {
  std::lock_guard<std::mutex> lock(g_dir_mutex);
  g_dir = dir;
}

std::string assets_dir() {
  std::string dir;
  {
    std::lock_guard<std::mutex> lock(g_dir_mutex);
    dir = g_dir;
  }
  const char* origin = "--assets";
  if (dir.empty()) {
    const char* env = std::getenv("LB_ASSETS_DIR");
    if (!env || !*env) return "";
    dir = env;
    origin = "LB_ASSETS_DIR";
  }
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error(std::string(origin) + " '" + dir + "': not a directory");
  return dir;
}

std::vector<std::string> asset_kinds() { return {"plenoptic", "lightfield", "stereo", "mad", "plenoptic_hex"}; }

std::vector<std::string> asset_names(const std::string& kind) {
  check_kind(kind);
  const std::set<std::string> names = collect_names(kind);
  std::vector<std::string> out(names.begin(), names.end());
  if (kind == "plenoptic") {
    // Smallest micro-lens grid first (tiny, small, seed): the order menus show. A malformed
    // override file goes last; its error comes when it is used, not when menus list it.
    std::vector<std::pair<long long, std::string>> sized;
    for (const auto& n : out) {
      long long size = std::numeric_limits<long long>::max();
      try {
        const GeneratorParams p = generator_preset(n);
        size = static_cast<long long>(p.grid.nx) * p.grid.ny;
      } catch (const Error&) {
      }
      sized.emplace_back(size, n);
    }
    std::sort(sized.begin(), sized.end());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = sized[i].second;
  }
  return out;
}

AssetText read_asset(const std::string& kind, const std::string& name) {
  check_kind(kind);
  if (!valid_name(name))
    throw Error("asset name " + quote_untrusted(name) + ": use lower-case letters, digits, '_' and '-'");
  const std::string rel = kind + "/" + name + ".json";
  const std::string dir = assets_dir();
  if (!dir.empty()) {
    const fs::path path = fs::path(dir) / rel;
    std::error_code ec;
    if (fs::exists(path, ec)) {
      // An override: a regular file of at most 16 MiB (a named pipe is refused before opening).
      return {path.string(), read_text_file(path.string(), kind + " asset", kJsonFileLimit)};
    }
  }
  const auto& table = detail::embedded_assets();
  const auto it = table.find(rel);
  if (it == table.end()) {
    const std::set<std::string> names = collect_names(kind);
    throw Error("unknown " + kind + " asset " + quote_untrusted(name) + " (have: " +
                join({names.begin(), names.end()}) + ")");
  }
  return {"assets/" + rel, std::string(it->second)};
}

}  // namespace lb
