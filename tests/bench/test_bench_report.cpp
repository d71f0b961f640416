// The bench report's writers without a device: the JSON spelling of the common fields per
// bench (RowKeys), extras, nested top-level fields, single-row tables, the device object;
// the text table's columns, alignment and cells.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "lightbench/bench/report.hpp"
#include "lightbench/error.hpp"

using namespace lb;
using nlohmann::json;

namespace {

bench::Row row(const std::string& label, double median, std::uint64_t bytes) {
  bench::Row r;
  r.label = label;
  r.kernel = "k/" + label;
  r.bytes = bytes;
  r.set_times({median * 2, median, median / 2});
  return r;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The table: the lines from the header (starting with `first`) to the next empty line.
std::vector<std::string> table_lines(const std::string& text, const std::string& first) {
  std::vector<std::string> out;
  bool in = false;
  for (const std::string& l : lines(text)) {
    if (!in && l.rfind(first, 0) == 0) in = true;
    if (in && l.empty()) break;
    if (in) out.push_back(l);
  }
  return out;
}

}  // namespace

TEST_CASE("bench row: times, throughput, checks and extras") {
  bench::Row r = row("a", 2.0, 4'000'000);
  CHECK(r.reps == 3);
  CHECK(r.median_ms == 2.0);
  CHECK(r.min_ms == 1.0);
  CHECK(r.max_ms == 4.0);
  CHECK(r.gbps == doctest::Approx(2.0));  // 4 MB in 2 ms
  CHECK_FALSE(r.checked);
  r.set_check(3);
  CHECK(r.checked);
  CHECK_FALSE(r.exact);
  CHECK(r.mismatches == 3);
  r.set_check(0);
  CHECK(r.exact);
  r.add(bench::field("speedup", 1.5, "speedup", 2)).add(bench::text_field("size", std::string("3x4")));
  r.add(bench::json_field("flag", true));
  CHECK(r.number("speedup") == 1.5);
  CHECK(r.number("flag") == 1.0);
  REQUIRE(r.extra("size") != nullptr);  // a text-only field is found by its column
  CHECK(std::get<std::string>(r.extra("size")->value) == "3x4");
  CHECK(r.extra("nothing") == nullptr);
  CHECK_THROWS_AS(r.number("nothing"), Error);
  CHECK_THROWS_AS(r.number("size"), Error);
}

TEST_CASE("bench value text: bools, integers, fixed and shortest doubles, strings") {
  CHECK(bench::value_text(true) == "yes");
  CHECK(bench::value_text(std::int64_t{-7}) == "-7");
  CHECK(bench::value_text(std::uint64_t{18446744073709551615ull}) == "18446744073709551615");
  CHECK(bench::value_text(2.0 / 3.0, 3) == "0.667");
  CHECK(bench::value_text(0.5) == "0.5");
  CHECK(bench::value_text(std::string("x y")) == "x y");
}

TEST_CASE("bench JSON: the bench's spelling of the common fields, extras, nesting, tables") {
  bench::Report rep;
  rep.workload = "w";
  rep.keys.label = "variant";
  rep.keys.kernel.clear();
  rep.keys.gbps = "gbps";
  rep.keys.checked.clear();
  rep.keys.exact = "bit_exact";
  rep.keys.mismatches = "label_mismatches";
  bench::Row a = row("a", 1.0, 1000);
  a.set_check(2);
  a.add(bench::field("views", std::int64_t{5}, "views"));
  a.add(bench::text_field("speedup", 1.0, 2));  // text only: not in the JSON
  a.add(bench::json_field("nested.value", 3.5));
  rep.table("entries").rows.push_back(a);
  bench::Table& copy = rep.table("copy");
  copy.single = true;
  copy.rows.push_back(row("copy", 0.5, 1000));
  rep.table("empty");
  rep.fields = {bench::json_field("options.reps", std::int64_t{50}), bench::json_field("options.flush_l2", true),
                bench::json_field("reference", std::string("r"))};
  rep.copy_gbps = 12.5;
  rep.all_exact = false;

  const json j = json::parse(bench::to_json(rep));
  CHECK(j["device"].is_string());  // the one-line description (no device here)
  CHECK(j["device"].get<std::string>().rfind("no CUDA device", 0) == 0);
  CHECK(j["workload"] == "w");
  CHECK(j["options"]["reps"] == 50);
  CHECK(j["options"]["flush_l2"] == true);
  CHECK(j["reference"] == "r");
  CHECK(j["copy_gbps"] == 12.5);
  CHECK(j["all_exact"] == false);
  REQUIRE(j["entries"].is_array());
  REQUIRE(j["entries"].size() == 1);
  const json& e = j["entries"][0];
  // Exactly the common keys this bench spells, plus its extras.
  std::vector<std::string> keys;
  for (auto it = e.begin(); it != e.end(); ++it) keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  CHECK(keys == std::vector<std::string>{"bit_exact", "bytes", "gbps", "label_mismatches", "max_ms", "median_ms",
                                         "min_ms", "nested", "reps", "variant", "views"});
  CHECK(e["variant"] == "a");
  CHECK(e["bit_exact"] == false);
  CHECK(e["label_mismatches"] == 2);
  CHECK(e["views"] == 5);
  CHECK(e["nested"]["value"] == 3.5);
  CHECK(j["copy"].is_object());
  CHECK(j["copy"]["variant"] == "copy");
  CHECK(j["empty"].is_array());
  CHECK(j["empty"].empty());
}

TEST_CASE("bench JSON: bench render's device object") {
  bench::Report rep;
  rep.device_fields = true;
  rep.device.name = "GPU";
  rep.device.cc_major = 9;
  rep.device.l2_bytes = 1 << 20;
  const json j = json::parse(bench::to_json(rep));
  REQUIRE(j["device"].is_object());
  CHECK(j["device"]["name"] == "GPU");
  CHECK(j["device"]["cc"] == "9.0");
  CHECK(j["device"]["l2_bytes"] == 1 << 20);
  for (const char* k : {"available", "sm_count", "memory_bytes", "peak_gbps", "driver", "runtime"})
    CHECK_MESSAGE(j["device"].contains(k), k);
  CHECK_FALSE(j.contains("workload"));  // empty: left out
  CHECK_FALSE(j.contains("all_exact"));
  CHECK_FALSE(j.contains("copy_gbps"));
}

TEST_CASE("bench text: leading columns, common columns, extras, exactness cells, alignment") {
  bench::Report rep;
  rep.workload = "the workload";
  rep.preamble = {"timing: how"};
  rep.notes = {"a note"};
  rep.copy_gbps = 4.0;
  bench::Row a = row("first", 1.0, 2'000'000);  // 2 GB/s: 50 % of copy
  a.set_check(0);
  a.add(bench::lead_field("scene", std::string("tsukuba"), "scene"));
  a.add(bench::field("score", 1.23456, "score", 2));
  bench::Row b = row("second-variant", 2.0, 0);  // no bytes: "-" in the traffic columns
  b.set_check(7);
  b.add(bench::lead_field("scene", std::string("venus"), "scene"));
  bench::Row c = row("third", 3.0, 0);  // unchecked
  c.add(bench::lead_field("scene", std::string("venus"), "scene"));
  rep.table("entries").rows = {a, b};
  rep.table("more").rows = {c};

  const std::string text = bench::to_text(rep);
  const std::vector<std::string> all = lines(text);
  REQUIRE(all.size() >= 3);
  CHECK(all[0].rfind("device: no CUDA device", 0) == 0);
  CHECK(all[1] == "workload: the workload");
  CHECK(all[2] == "timing: how");
  CHECK(all.back() == "a note");
  const std::vector<std::string> t = table_lines(text, "scene");
  REQUIRE(t.size() == 4);  // header and the rows of both tables
  // Aligned: numbers end under the end of their header, text starts under its start.
  for (const char* h : {"median ms", "GB/s", "score"}) {
    const std::size_t end = t[0].find(h) + std::string(h).size();
    for (std::size_t r = 1; r < t.size(); ++r) {
      CAPTURE(h);
      CAPTURE(t[r]);
      REQUIRE(t[r].size() > end);
      CHECK(t[r][end - 1] != ' ');
      CHECK(t[r][end] == ' ');
    }
  }
  const std::size_t variant = t[0].find("variant");
  CHECK(t[1].compare(variant, 5, "first") == 0);
  CHECK(t[2].compare(variant, 14, "second-variant") == 0);
  // Column order: leading extras, variant, kernel, times, traffic, extras, exactness.
  const std::vector<std::string> order{"scene", "variant", "kernel", "reps", "median ms", "min ms", "max ms",
                                       "MB",    "GB/s",    "% copy", "score", "exact"};
  std::size_t at = 0;
  for (const std::string& h : order) {
    const std::size_t p = t[0].find(h, at);
    CHECK_MESSAGE(p != std::string::npos, h << " in " << t[0]);
    if (p != std::string::npos) at = p + h.size();
  }
  CHECK(t[1].rfind("tsukuba  first", 0) == 0);
  CHECK(t[1].find("1.0000") != std::string::npos);
  CHECK(t[1].find("50.0") != std::string::npos);  // % copy
  CHECK(t[1].find("yes") != std::string::npos);
  CHECK(t[1].find("1.23") != std::string::npos);
  CHECK(t[2].find("NO (7)") != std::string::npos);
  CHECK(t[2].find("-  NO (7)") != std::string::npos);  // no score
  CHECK(t[3].find("third") != std::string::npos);
  CHECK(t[3].substr(t[3].size() - 1) == "-");  // unchecked
}

TEST_CASE("bench text: an empty key hides the common field's column") {
  bench::Report rep;
  rep.keys.kernel.clear();
  rep.keys.max_ms.clear();
  rep.keys.bytes.clear();
  rep.keys.gbps.clear();
  rep.keys.checked.clear();
  rep.keys.exact.clear();
  rep.keys.mismatches.clear();
  bench::Row a = row("a", 1.0, 100);
  a.set_check(1);
  rep.table("entries").rows = {a};
  const std::vector<std::string> t = table_lines(bench::to_text(rep), "variant");
  REQUIRE(t.size() == 2);
  for (const char* hidden : {"kernel", "max ms", "MB", "GB/s", "exact"})
    CHECK_MESSAGE(t[0].find(hidden) == std::string::npos, hidden);
  CHECK(t[0].find("median ms") != std::string::npos);
}
