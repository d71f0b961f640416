#include "score_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace lb::cli {

std::vector<std::string> metric_keys(eval::Protocol p) {
  switch (p) {
    case eval::Protocol::Middlebury2003: return {"bad100", "pixels"};
    case eval::Protocol::MiddleburyV3:
      return {"bad050", "bad100", "bad200", "bad400", "invalid", "avgerr", "rms", "a50", "a90", "a95", "a99", "pixels"};
    case eval::Protocol::Kitti: return {"d1_all", "d1_bg", "d1_fg", "invalid", "pixels"};
    case eval::Protocol::Hci: return {"badpix_007", "badpix_003", "badpix_001", "mse_x100", "q25", "invalid", "pixels"};
  }
  return {};
}

std::vector<std::string> protocol_masks(eval::Protocol p) {
  switch (p) {
    case eval::Protocol::Middlebury2003: return {"all", "disc", "nonocc"};
    case eval::Protocol::MiddleburyV3: return {"all", "nonocc"};
    case eval::Protocol::Kitti: return {"noc", "occ"};
    case eval::Protocol::Hci: return {"all"};
  }
  return {};
}

bool protocol_of(dataset::Layout l, eval::Protocol* out) {
  switch (l) {
    case dataset::Layout::Middlebury2001: *out = eval::Protocol::Middlebury2003; return true;
    case dataset::Layout::Middlebury2014: *out = eval::Protocol::MiddleburyV3; return true;
    case dataset::Layout::Kitti: *out = eval::Protocol::Kitti; return true;
    case dataset::Layout::Hci: *out = eval::Protocol::Hci; return true;
    default: return false;
  }
}

std::vector<std::string> ordered_keys(const std::vector<std::string>& keys) {
  static const std::vector<std::string> canon = {
      "bad050", "bad100", "bad200", "bad400", "d1_all", "d1_bg", "d1_fg", "badpix_007", "badpix_003", "badpix_001",
      "mse_x100", "q25", "invalid", "avgerr", "rms", "a50", "a90", "a95", "a99", "pixels"};
  const std::set<std::string> have(keys.begin(), keys.end());
  std::vector<std::string> out;
  for (const auto& k : canon)
    if (have.count(k)) out.push_back(k);
  for (const auto& k : have)
    if (std::find(canon.begin(), canon.end(), k) == canon.end()) out.push_back(k);
  return out;
}

std::vector<std::string> keys_of(const nlohmann::json& metrics) {
  std::vector<std::string> keys;
  for (const auto& [mask, group] : metrics.items())
    if (group.is_object())
      for (const auto& [k, v] : group.items())
        if (v.is_number() || v.is_null()) keys.push_back(k);  // null: NaN, a value over no pixel
  return keys;
}

std::vector<std::string> masks_of(const nlohmann::json& metrics) {
  std::vector<std::string> m;
  for (const auto& [mask, group] : metrics.items())
    if (group.is_object()) m.push_back(mask);
  std::sort(m.begin(), m.end());
  return m;
}

RowLayout row_layout(const CsvTable& t, const std::vector<std::string>& metric_columns) {
  RowLayout l;
  l.scene = t.column("scene");
  l.mask = t.column("mask");
  l.error = t.column("error");
  for (const auto& c : metric_columns)
    if (const int i = t.column(c); i >= 0) l.metrics.push_back(i);
  return l;
}

nlohmann::json scenes_json(const CsvTable& t, const RowLayout& l) {
  nlohmann::json scenes = nlohmann::json::array();
  std::map<std::string, std::size_t> at;  // scene -> index in scenes
  for (const auto& r : t.rows) {
    const std::string& name = r[static_cast<std::size_t>(l.scene)];
    auto it = at.find(name);
    if (it == at.end()) {
      it = at.emplace(name, scenes.size()).first;
      scenes.push_back({{"scene", name}});
    }
    nlohmann::json& s = scenes[it->second];
    if (l.error >= 0 && !r[static_cast<std::size_t>(l.error)].empty()) {
      s["error"] = r[static_cast<std::size_t>(l.error)];
      continue;
    }
    const std::string mask = l.mask >= 0 ? r[static_cast<std::size_t>(l.mask)] : "";
    if (mask.empty()) continue;
    nlohmann::json& m = s["metrics"][mask];
    m = nlohmann::json::object();
    for (int c : l.metrics) {
      double v = 0;
      if (parse_number(r[static_cast<std::size_t>(c)], &v)) m[t.header[static_cast<std::size_t>(c)]] = v;
    }
  }
  return scenes;
}

std::string metric_cell(const nlohmann::json& v) {
  if (v.is_null()) return "nan";
  return v.is_number() ? number_text(v.get<double>()) : std::string();
}

nlohmann::json summary_json(const nlohmann::json& scenes) {
  std::map<std::string, std::map<std::string, std::pair<double, int>>> sums;  // mask -> key -> (sum, n)
  std::map<std::string, int> per_mask;
  for (const auto& s : scenes) {
    if (!s.contains("metrics")) continue;
    for (const auto& [mask, group] : s["metrics"].items()) {
      ++per_mask[mask];
      for (const auto& [k, v] : group.items())
        if (v.is_number() && std::isfinite(v.get<double>()) && k != "pixels") {
          auto& e = sums[mask][k];
          e.first += v.get<double>();
          ++e.second;
        }
    }
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [mask, keys] : sums) {
    nlohmann::json g = nlohmann::json::object();
    for (const auto& [k, e] : keys) g[k] = e.first / e.second;
    g["scenes"] = per_mask[mask];
    out[mask] = g;
  }
  return out;
}

void print_table(const CsvTable& t, const RowLayout& l, const nlohmann::json& summary) {
  // Only the metric columns with a value somewhere.
  std::vector<int> cols;
  for (int c : l.metrics) {
    bool any = false;
    for (const auto& r : t.rows) any = any || !r[static_cast<std::size_t>(c)].empty();
    if (any) cols.push_back(c);
  }
  std::size_t wscene = 5;
  for (const auto& r : t.rows) wscene = std::max(wscene, r[static_cast<std::size_t>(l.scene)].size());
  auto cell = [](const std::string& s) {
    double v = 0;
    char buf[32];
    if (!parse_number(s, &v)) return s;
    if (v == static_cast<double>(static_cast<long long>(v)) && std::fabs(v) < 1e15)
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    else std::snprintf(buf, sizeof buf, "%.4f", v);
    return std::string(buf);
  };
  std::printf("%-*s  %-7s", static_cast<int>(wscene), "scene", "mask");
  for (int c : cols) std::printf(" %10s", t.header[static_cast<std::size_t>(c)].c_str());
  std::printf("\n");
  for (const auto& r : t.rows) {
    const std::string& name = r[static_cast<std::size_t>(l.scene)];
    if (l.error >= 0 && !r[static_cast<std::size_t>(l.error)].empty()) {
      std::printf("%-*s  error: %s\n", static_cast<int>(wscene), name.c_str(), r[static_cast<std::size_t>(l.error)].c_str());
      continue;
    }
    std::printf("%-*s  %-7s", static_cast<int>(wscene), name.c_str(),
                l.mask >= 0 ? r[static_cast<std::size_t>(l.mask)].c_str() : "");
    for (int c : cols) std::printf(" %10s", cell(r[static_cast<std::size_t>(c)]).c_str());
    std::printf("\n");
  }
  for (const auto& [mask, g] : summary.items()) {
    std::printf("%-*s  %-7s", static_cast<int>(wscene), "mean", mask.c_str());
    for (int c : cols) {
      const std::string& k = t.header[static_cast<std::size_t>(c)];
      std::printf(" %10s", g.contains(k) ? cell(number_text(g[k].get<double>())).c_str() : "");
    }
    std::printf("  (%d scenes)\n", g.value("scenes", 0));
  }
}

}  // namespace lb::cli
