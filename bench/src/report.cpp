// Rows, fields and tables of the bench report (lightbench/bench/report.hpp).
#include <cstdio>
#include <sstream>

#include "lightbench/bench/report.hpp"
#include "lightbench/error.hpp"
#include "lightbench/timing.hpp"

namespace lb::bench {

Field field(std::string key, Value v, std::string column, int precision) {
  return Field{std::move(key), std::move(v), std::move(column), precision, false};
}
Field json_field(std::string key, Value v) { return Field{std::move(key), std::move(v), {}, -1, false}; }
Field text_field(std::string column, Value v, int precision) {
  return Field{{}, std::move(v), std::move(column), precision, false};
}
Field lead_field(std::string key, Value v, std::string column) {
  return Field{std::move(key), std::move(v), std::move(column), -1, true};
}

std::string value_text(const Value& v, int precision) {
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "yes" : "no";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* u = std::get_if<std::uint64_t>(&v)) return std::to_string(*u);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  const double d = std::get<double>(v);
  if (precision >= 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", precision, d);
    return buf;
  }
  std::ostringstream o;
  o << d;
  return o.str();
}

void Row::set_times(const std::vector<double>& ms) {
  const TimingStats st = compute_stats(ms, bytes);
  reps = static_cast<int>(st.count);
  median_ms = st.median_ms;
  min_ms = st.min_ms;
  max_ms = st.max_ms;
  gbps = st.median_gbps;
}

void Row::set_check(std::uint64_t differing) {
  checked = true;
  mismatches = differing;
  exact = differing == 0;
}

Row& Row::add(Field f) {
  extras.push_back(std::move(f));
  return *this;
}

const Field* Row::extra(std::string_view key) const {
  for (const Field& f : extras)
    if ((!f.key.empty() && f.key == key) || (f.key.empty() && f.column == key)) return &f;
  return nullptr;
}

double Row::number(std::string_view key) const {
  const Field* f = extra(key);
  LB_REQUIRE(f != nullptr, "bench row '" + label + "': no field '" + std::string(key) + "'");
  if (const auto* b = std::get_if<bool>(&f->value)) return *b ? 1.0 : 0.0;
  if (const auto* i = std::get_if<std::int64_t>(&f->value)) return static_cast<double>(*i);
  if (const auto* u = std::get_if<std::uint64_t>(&f->value)) return static_cast<double>(*u);
  if (const auto* d = std::get_if<double>(&f->value)) return *d;
  throw Error("bench row '" + label + "': field '" + std::string(key) + "' is text, not a number");
}

Table& Report::table(const std::string& key) {
  for (Table& t : tables)
    if (t.key == key) return t;
  tables.push_back(Table{key, {}, false});
  return tables.back();
}

const Table* Report::find_table(const std::string& key) const {
  for (const Table& t : tables)
    if (t.key == key) return &t;
  return nullptr;
}

const Field* Report::find_field(std::string_view key) const {
  for (const Field& f : fields)
    if (f.key == key) return &f;
  return nullptr;
}

}  // namespace lb::bench
