// The batch CSV's schema, the JSON report built from its rows, and `batch --merge`.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <tuple>

#include "batch.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/error.hpp"
#include "lightbench/evaluation.hpp"
#include "score_rows.hpp"

namespace lb::cli {

const char* const kTimingColumns[4] = {"open_ms", "compute_ms", "score_ms", "write_ms"};

namespace {
const std::vector<std::string> kLead = {"scene", "algorithm", "variant", "params", "mask"};
const std::vector<std::string> kTail = {"map", "error", "open_ms", "compute_ms", "score_ms", "write_ms"};

std::size_t col(const CsvTable& t, const char* name) { return static_cast<std::size_t>(t.column(name)); }
}  // namespace

bool is_timing_column(const std::string& name) {
  for (const char* c : kTimingColumns)
    if (name == c) return true;
  return false;
}

std::vector<std::string> batch_header(const std::vector<std::string>& metric_columns) {
  std::vector<std::string> h = kLead;
  h.insert(h.end(), metric_columns.begin(), metric_columns.end());
  h.insert(h.end(), kTail.begin(), kTail.end());
  return h;
}

std::vector<std::string> batch_metric_columns(const std::vector<std::string>& header, const std::string& where) {
  const bool ok = header.size() >= kLead.size() + kTail.size() &&
                  std::equal(kLead.begin(), kLead.end(), header.begin()) &&
                  std::equal(kTail.begin(), kTail.end(), header.end() - static_cast<long>(kTail.size()));
  if (!ok) throw Error(where + ": not a batch CSV (its header is not scene,algorithm,variant,params,mask,...,map,error,"
                               "open_ms,compute_ms,score_ms,write_ms)");
  return {header.begin() + static_cast<long>(kLead.size()), header.end() - static_cast<long>(kTail.size())};
}

void sort_batch_rows(CsvTable& t) {
  std::stable_sort(t.rows.begin(), t.rows.end(), [](const auto& a, const auto& b) {
    return std::tie(a[0], a[1], a[2], a[3], a[4]) < std::tie(b[0], b[1], b[2], b[3], b[4]);
  });
}

nlohmann::json batch_json(const CsvTable& all, const std::string& algorithm, const std::string& variant,
                          const std::string& params) {
  CsvTable t;
  t.header = all.header;
  for (const auto& r : all.rows)
    if (r[1] == algorithm && r[2] == variant && r[3] == params) t.rows.push_back(r);
  const std::vector<std::string> metrics = batch_metric_columns(t.header, "batch CSV");
  nlohmann::json j;
  j["tool"] = "lightbench-cli";
  j["command"] = "batch";
  j["algorithm"] = algorithm;
  j["variant"] = variant;
  j["params"] = params;
  const bool iqa = t.column("mos") >= 0;
  int failed = 0;
  nlohmann::json scenes = nlohmann::json::array();
  if (iqa) {
    std::vector<double> score, mos;
    for (const auto& r : t.rows) {
      if (!r[col(t, "error")].empty()) {
        ++failed;
        scenes.push_back({{"scene", r[0]}, {"error", r[col(t, "error")]}});
        continue;
      }
      double s = 0, m = 0;
      parse_number(r[col(t, "score")], &s);
      parse_number(r[col(t, "mos")], &m);
      score.push_back(s);
      mos.push_back(m);
      scenes.push_back({{"scene", r[0]}, {"score", s}, {"mos", m}});
    }
    j["scenes"] = scenes;
    try {
      j["correlation"] = eval::to_json(eval::correlate(score, mos));
    } catch (const Error& e) {
      j["correlation_error"] = e.what();
    }
    j["summary"] = j.contains("correlation") ? j["correlation"] : nlohmann::json::object();
  } else {
    const RowLayout l = row_layout(t, metrics);
    scenes = scenes_json(t, l);
    // The map and the timings of each scene (from its first row).
    std::map<std::string, const std::vector<std::string>*> first;
    for (const auto& r : t.rows) first.emplace(r[0], &r);
    for (auto& s : scenes) {
      const auto& r = *first.at(s["scene"].get<std::string>());
      if (s.contains("error")) {
        ++failed;
        continue;
      }
      if (!r[col(t, "map")].empty()) s["map"] = r[col(t, "map")];
      nlohmann::json tm = nlohmann::json::object();
      for (const char* c : kTimingColumns) {
        double v = 0;
        if (parse_number(r[col(t, c)], &v)) tm[c] = v;
      }
      s["timings"] = tm;
    }
    j["scenes"] = scenes;
    j["summary"] = summary_json(scenes);
  }
  j["failed"] = failed;
  return j;
}

void run_merge(const std::vector<std::string>& files, const std::string& csv, const std::string& json) {
  if (csv.empty() && json.empty()) throw Error("batch --merge: give --csv OUT and/or --json OUT");
  for (const auto& f : files)
    if (std::filesystem::path(f).extension() == ".json")
      throw Error("--merge '" + f + "': give the shards' CSV files (the JSON report is rebuilt from them)");
  CsvTable merged;
  std::map<std::vector<std::string>, std::pair<std::vector<std::string>, std::string>> seen;  // key -> (row, file)
  for (const auto& f : files) {
    const CsvTable t = read_csv(f, "--merge", false);
    (void)batch_metric_columns(t.header, "--merge '" + f + "'");
    if (merged.header.empty()) merged.header = t.header;
    else if (t.header != merged.header)
      throw Error("--merge '" + f + "': its columns differ from '" + files[0] + "' (another data set or algorithm?)");
    for (const auto& r : t.rows) {
      const std::vector<std::string> key(r.begin(), r.begin() + 5);
      const auto [it, fresh] = seen.emplace(key, std::make_pair(r, f));
      if (fresh) {
        merged.rows.push_back(r);
        continue;
      }
      for (std::size_t c = 0; c < r.size(); ++c)
        if (!is_timing_column(merged.header[c]) && r[c] != it->second.first[c])
          throw Error("--merge: scene '" + r[0] + "'" + (r[4].empty() ? "" : " (mask " + r[4] + ")") +
                      " differs between '" + it->second.second + "' and '" + f + "' (" + merged.header[c] + ")");
    }
  }
  sort_batch_rows(merged);
  if (!csv.empty()) {
    try {
      write_file_atomic(csv, csv_text(merged));
    } catch (const Error& e) {
      throw Error(std::string("--csv ") + e.what());
    }
  }
  std::vector<std::vector<std::string>> sigs;
  for (const auto& r : merged.rows) {
    std::vector<std::string> s(r.begin() + 1, r.begin() + 4);
    if (std::find(sigs.begin(), sigs.end(), s) == sigs.end()) sigs.push_back(s);
  }
  std::printf("batch --merge: %zu rows of %zu files%s%s\n", merged.rows.size(), files.size(),
              csv.empty() ? "" : " -> ", csv.c_str());
  if (json.empty()) return;
  if (sigs.size() != 1)
    throw Error("--json: the CSVs hold " + std::to_string(sigs.size()) +
                " algorithm/variant/params signatures; a JSON report is of one (merge into a CSV only)");
  nlohmann::json j = batch_json(merged, sigs[0][0], sigs[0][1], sigs[0][2]);
  j["run"] = {{"merged_from", files}};
  try {
    write_file_atomic(json, j.dump(2) + "\n");
  } catch (const Error& e) {
    throw Error(std::string("--json ") + e.what());
  }
}

std::pair<int, int> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 6 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  const std::string k = slash == std::string::npos ? "" : text.substr(0, slash);
  const std::string n = slash == std::string::npos ? "" : text.substr(slash + 1);
  if (!digits(k) || !digits(n)) throw Error("--shard '" + text + "': expected K/N (0-based shard K of N, e.g. 0/4)");
  const int ki = std::stoi(k), ni = std::stoi(n);
  if (ni < 1) throw Error("--shard '" + text + "': N must be at least 1");
  if (ki >= ni) throw Error("--shard '" + text + "': K must be in 0.." + std::to_string(ni - 1) + " (0-based)");
  return {ki, ni};
}

std::vector<int> parse_devices(const std::string& text, const std::string& option) {
  std::vector<int> out;
  std::size_t at = 0;
  while (true) {
    const auto comma = text.find(',', at);
    const std::string d = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (d.empty() || d.size() > 4 || d.find_first_not_of("0123456789") != std::string::npos)
      throw Error(option + " '" + text + "': expected CUDA device numbers (e.g. 0 or 0,1)");
    const int v = std::stoi(d);
    if (std::find(out.begin(), out.end(), v) != out.end())
      throw Error(option + " '" + text + "': device " + d + " listed twice");
    out.push_back(v);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

}  // namespace lb::cli
