// The text writer of the bench report: device, workload and preamble lines, one aligned
// table of every row (leading extras, variant, kernel, times, traffic, extras, exactness),
// then the notes.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "lightbench/bench/report.hpp"

namespace lb::bench {

namespace {

struct Column {
  std::string header;
  bool left = false;               // text columns align left, numbers right
  std::vector<std::string> cells;  // one per row, in table order
};

std::string fixed(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return buf;
}

std::string exact_cell(const Row& r) {
  if (!r.checked) return "-";
  if (r.exact) return "yes";
  return r.mismatches > 0 ? "NO (" + std::to_string(r.mismatches) + ")" : "NO";
}

// The extras' columns in order of first appearance (leading ones or the others).
std::vector<std::string> extra_columns(const std::vector<const Row*>& rows, bool leading) {
  std::vector<std::string> cols;
  for (const Row* r : rows)
    for (const Field& f : r->extras)
      if (!f.column.empty() && f.leading == leading && std::find(cols.begin(), cols.end(), f.column) == cols.end())
        cols.push_back(f.column);
  return cols;
}

Column extra_column(const std::vector<const Row*>& rows, const std::string& header) {
  Column c{header, false, {}};
  bool text = false;
  for (const Row* r : rows) {
    const Field* hit = nullptr;
    for (const Field& f : r->extras)
      if (f.column == header) hit = &f;
    c.cells.push_back(hit ? value_text(hit->value, hit->precision) : "-");
    text = text || (hit && std::holds_alternative<std::string>(hit->value));
  }
  c.left = text;
  return c;
}

}  // namespace

std::string to_text(const Report& rep) {
  std::ostringstream o;
  o << "device: " << rep.device.describe() << "\n";
  if (!rep.workload.empty()) o << "workload: " << rep.workload << "\n";
  for (const std::string& line : rep.preamble) o << line << "\n";

  std::vector<const Row*> rows;
  for (const Table& t : rep.tables)
    for (const Row& r : t.rows) rows.push_back(&r);
  const RowKeys& k = rep.keys;
  const bool any_kernel = std::any_of(rows.begin(), rows.end(), [](const Row* r) { return !r->kernel.empty(); });
  const bool any_bytes = std::any_of(rows.begin(), rows.end(), [](const Row* r) { return r->bytes > 0; });
  const bool any_checked = std::any_of(rows.begin(), rows.end(), [](const Row* r) { return r->checked; });

  std::vector<Column> cols;
  for (const std::string& h : extra_columns(rows, true)) cols.push_back(extra_column(rows, h));
  auto add = [&](const std::string& header, bool left, auto cell) {
    Column c{header, left, {}};
    for (const Row* r : rows) c.cells.push_back(cell(*r));
    cols.push_back(std::move(c));
  };
  if (!k.label.empty()) add("variant", true, [](const Row& r) { return r.label; });
  if (!k.kernel.empty() && any_kernel) add("kernel", true, [](const Row& r) { return r.kernel; });
  if (!k.reps.empty()) add("reps", false, [](const Row& r) { return std::to_string(r.reps); });
  if (!k.median_ms.empty()) add("median ms", false, [](const Row& r) { return fixed(r.median_ms, 4); });
  if (!k.min_ms.empty()) add("min ms", false, [](const Row& r) { return fixed(r.min_ms, 4); });
  if (!k.max_ms.empty()) add("max ms", false, [](const Row& r) { return fixed(r.max_ms, 4); });
  if (!k.bytes.empty() && any_bytes)
    add("MB", false, [](const Row& r) { return r.bytes ? fixed(static_cast<double>(r.bytes) / 1e6, 1) : "-"; });
  if (!k.gbps.empty() && any_bytes) {
    add("GB/s", false, [](const Row& r) { return r.bytes ? fixed(r.gbps, 1) : "-"; });
    if (rep.copy_gbps > 0)
      add("% copy", false, [&](const Row& r) { return r.bytes ? fixed(100.0 * r.gbps / rep.copy_gbps, 1) : "-"; });
  }
  for (const std::string& h : extra_columns(rows, false)) cols.push_back(extra_column(rows, h));
  if ((!k.checked.empty() || !k.exact.empty() || !k.mismatches.empty()) && any_checked)
    add("exact", true, [](const Row& r) { return exact_cell(r); });

  std::vector<std::size_t> width;
  for (const Column& c : cols) {
    std::size_t w = c.header.size();
    for (const std::string& s : c.cells) w = std::max(w, s.size());
    width.push_back(w);
  }
  auto line = [&](auto cell) {
    std::string s;
    for (std::size_t i = 0; i < cols.size(); ++i) {
      const std::string text = cell(i);
      const std::string pad(width[i] - text.size(), ' ');
      if (i) s += "  ";
      s += cols[i].left ? text + (i + 1 < cols.size() ? pad : "") : pad + text;
    }
    o << s << "\n";
  };
  o << "\n";
  line([&](std::size_t i) { return cols[i].header; });
  for (std::size_t r = 0; r < rows.size(); ++r) line([&](std::size_t i) { return cols[i].cells[r]; });
  if (!rep.notes.empty()) o << "\n";
  for (const std::string& n : rep.notes) o << n << "\n";
  return o.str();
}

}  // namespace lb::bench
