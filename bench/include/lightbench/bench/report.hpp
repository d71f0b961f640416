#pragma once
// The one report of every benchmark (`lightbench-cli bench <what>`): rows whose common
// fields (variant, kernel, reps, median / min / max ms, bytes, GB/s, exactness) are typed,
// plus per-bench extras as an ordered key / value list; one text writer and one JSON writer.
//
// Each bench keeps the JSON keys it has always written (tests, scripts and users read
// them): RowKeys names the common fields the way that bench spells them, the extras carry
// their own keys, and the report's top-level fields are listed in Report::fields.
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "lightbench/cuda_api.hpp"

namespace lb::bench {

// A JSON scalar: bool, integer, number or string.
using Value = std::variant<bool, std::int64_t, std::uint64_t, double, std::string>;

// One per-bench field of a row (or a top-level field of a report).
struct Field {
  std::string key;       // JSON key; empty: text table only
  Value value;
  std::string column;    // text table header; empty: JSON only
  int precision = -1;    // a double's digits after the point in the text table; -1: shortest
  bool leading = false;  // text column before the variant (what the row belongs to: a workload)
};
// Shown in both the JSON and the text table.
Field field(std::string key, Value v, std::string column, int precision = -1);
// JSON only.
Field json_field(std::string key, Value v);
// Text table only.
Field text_field(std::string column, Value v, int precision = -1);
// A leading text column (the workload, scene or window a row belongs to), also in the JSON
// under key when key is not empty.
Field lead_field(std::string key, Value v, std::string column);

// The text of a value as the text table prints it (bools: yes / no).
std::string value_text(const Value& v, int precision = -1);

struct Row {
  std::string label;             // the variant, as the bench names it
  std::string kernel;            // timing-registry name ("render/nosync"); may be empty
  int reps = 0;                  // timed runs
  double median_ms = 0, min_ms = 0, max_ms = 0;
  std::uint64_t bytes = 0;       // bytes one run must move at least (0: not counted)
  double gbps = 0;               // bytes / median time
  bool checked = false;          // output compared with the bench's reference
  bool exact = false;            // ... and identical to it
  std::uint64_t mismatches = 0;  // differing pixels (or labels) when not exact
  std::vector<Field> extras;     // in column order

  // reps, median / min / max from the run times (ms); gbps from bytes (set bytes first).
  void set_times(const std::vector<double>& ms);
  // checked; exact when nothing differs.
  void set_check(std::uint64_t differing);
  Row& add(Field f);
  // The extra named key (JSON key, else text column); nullptr when absent.
  const Field* extra(std::string_view key) const;
  // Its value as a number (bool 0/1); throws lb::Error when absent or a string.
  double number(std::string_view key) const;
};

// JSON spelling of Row's common fields in one bench's report. An empty key leaves the field
// out of the JSON and out of the text table (the bench never measured it).
struct RowKeys {
  std::string label = "label", kernel = "kernel", reps = "reps", median_ms = "median_ms", min_ms = "min_ms",
              max_ms = "max_ms", bytes = "bytes", gbps = "median_gbps", checked = "checked", exact = "exact",
              mismatches = "mismatches";
};

struct Table {
  std::string key = "entries";  // JSON key
  std::vector<Row> rows;
  bool single = false;          // JSON: its one row as an object, not an array (bench render's "copy")
};

struct Report {
  cuda::DeviceInfo device;
  // JSON "device": an object of DeviceInfo's fields (bench render's JSON has always had it)
  // instead of the one-line description.
  bool device_fields = false;
  std::string workload;                // JSON "workload" and the text's "workload:" line when not empty
  std::vector<std::string> preamble;   // text lines before the table (timing, parameters, reference)
  RowKeys keys;
  // The text table shows them one after the other. A deque: table() adds at the end and the
  // references it handed out before stay valid (a bench holds one table while adding the next).
  std::deque<Table> tables;
  double copy_gbps = 0;                // copy kernel of the same process: > 0 adds JSON "copy_gbps" and "% copy"
  std::optional<bool> all_exact;       // JSON "all_exact" when set
  std::vector<Field> fields;           // further top-level JSON fields; key "a.b" is b inside object a
  std::vector<std::string> notes;      // text lines after the table

  // The table with this JSON key (added at the end when absent; earlier references stay valid).
  Table& table(const std::string& key);
  // nullptr when absent.
  const Table* find_table(const std::string& key) const;
  // The top-level field with this key; nullptr when absent.
  const Field* find_field(std::string_view key) const;
};

// Device line, workload, preamble, one aligned table of every row (leading extras, variant,
// kernel, reps, median / min / max ms, MB, GB/s, % copy, the other extras, exact), notes.
std::string to_text(const Report& r);
// The JSON object (2-space indented text).
std::string to_json(const Report& r);

}  // namespace lb::bench
