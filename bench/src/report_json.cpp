// The JSON writer of the bench report: device, workload, the top-level fields, each table
// (an array of rows, or one row), copy_gbps and all_exact. A row is its common fields under
// the bench's RowKeys spelling, then its extras.
#include <nlohmann/json.hpp>

#include "lightbench/bench/report.hpp"

namespace lb::bench {

namespace {

using nlohmann::json;

json to_json_value(const Value& v) {
  return std::visit([](const auto& x) { return json(x); }, v);
}

// Sets key in object j; "a.b" sets b in the object a (created when absent).
void put(json& j, const std::string& key, json v) {
  json* at = &j;
  std::size_t from = 0;
  for (std::size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', from)) {
    at = &(*at)[key.substr(from, dot - from)];
    from = dot + 1;
  }
  (*at)[key.substr(from)] = std::move(v);
}

json row_json(const Row& r, const RowKeys& k) {
  json j = json::object();
  auto common = [&](const std::string& key, json v) {
    if (!key.empty()) j[key] = std::move(v);
  };
  common(k.label, r.label);
  common(k.kernel, r.kernel);
  common(k.reps, r.reps);
  common(k.median_ms, r.median_ms);
  common(k.min_ms, r.min_ms);
  common(k.max_ms, r.max_ms);
  common(k.bytes, r.bytes);
  common(k.gbps, r.gbps);
  common(k.checked, r.checked);
  common(k.exact, r.exact);
  common(k.mismatches, r.mismatches);
  for (const Field& f : r.extras)
    if (!f.key.empty()) put(j, f.key, to_json_value(f.value));
  return j;
}

json device_json(const cuda::DeviceInfo& d) {
  return json{{"available", d.available},
              {"name", d.name},
              {"cc", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
              {"sm_count", d.sm_count},
              {"memory_bytes", d.total_memory},
              {"l2_bytes", d.l2_bytes},
              {"peak_gbps", d.peak_gbps},
              {"driver", d.driver},
              {"runtime", d.runtime}};
}

}  // namespace

std::string to_json(const Report& rep) {
  json j = json::object();
  j["device"] = rep.device_fields ? device_json(rep.device) : json(rep.device.describe());
  if (!rep.workload.empty()) j["workload"] = rep.workload;
  for (const Field& f : rep.fields)
    if (!f.key.empty()) put(j, f.key, to_json_value(f.value));
  for (const Table& t : rep.tables) {
    if (t.single) {
      j[t.key] = t.rows.empty() ? json::object() : row_json(t.rows.front(), rep.keys);
      continue;
    }
    json a = json::array();
    for (const Row& r : t.rows) a.push_back(row_json(r, rep.keys));
    j[t.key] = std::move(a);
  }
  if (rep.copy_gbps > 0) j["copy_gbps"] = rep.copy_gbps;
  if (rep.all_exact) j["all_exact"] = *rep.all_exact;
  return j.dump(2);
}

}  // namespace lb::bench
