#include "lightbench/csv.hpp"

#include <charconv>
#include <cmath>

#include "lightbench/error.hpp"
#include "lightbench/input_file.hpp"

namespace lb::csv {

int Table::column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

std::string field_text(const std::string& f, bool only_field) {
  // Quoted when it holds a separator, a quote or a line break; also an empty field that is a
  // whole record (else a blank line, skipped) and a leading byte-order mark (else dropped at
  // the start of a file).
  const bool quote = f.find_first_of(",\"\r\n") != std::string::npos || (only_field && f.empty()) ||
                     f.compare(0, kBom.size(), kBom) == 0;
  if (!quote) return f;
  std::string q = "\"";
  for (char c : f) {
    if (c == '"') q += '"';
    q += c;
  }
  q += '"';
  return q;
}

// One record as read: its fields, the line it starts on, whether a line break ended it, and
// whether the file ended inside a quoted field.
struct Record {
  std::vector<std::string> fields;
  int line = 0;
  bool complete = false;
  bool open_quote = false;
  bool first_quoted = false;
  bool blank() const { return fields.size() == 1 && fields[0].empty() && !first_quoted; }
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& where) : t_(text), where_(where) {
    if (t_.compare(0, kBom.size(), kBom) == 0) i_ = kBom.size();
  }

  std::vector<Record> records() {
    std::vector<Record> out;
    while (i_ < t_.size()) out.push_back(record());
    return out;
  }

  [[noreturn]] void fail(int line, const std::string& why) const {
    throw Error(where_ + ": line " + std::to_string(line) + ": " + why);
  }

 private:
  std::string_view t_;
  const std::string& where_;
  std::size_t i_ = 0;
  int line_ = 1;

  std::string field_no(const Record& r) const { return "field " + std::to_string(r.fields.size() + 1); }

  // After a field: a separator (true: another field follows), or the end of the record.
  // quoted_from: the line a quoted field opened on (0: unquoted).
  bool end_of_field(Record& r, std::string&& field, int quoted_from) {
    const std::size_t n = t_.size();
    if (i_ == n) {  // the file ends without a line break
      r.fields.push_back(std::move(field));
      return false;
    }
    const char c = t_[i_];
    if (c == ',') {
      r.fields.push_back(std::move(field));
      ++i_;
      return true;
    }
    if (c == '\n' || (c == '\r' && i_ + 1 < n && t_[i_ + 1] == '\n')) {
      r.fields.push_back(std::move(field));
      i_ += c == '\r' ? 2 : 1;
      ++line_;
      r.complete = true;
      return false;
    }
    if (c == '\r' && i_ + 1 == n) {  // a CRLF cut after its CR: as without a line break
      r.fields.push_back(std::move(field));
      ++i_;
      return false;
    }
    if (c == '\r') fail(line_, "a carriage return without a line feed after " + field_no(r));
    fail(line_, "text after the closing quote of " + field_no(r) +
                    (quoted_from != line_ ? " (its quote opened on line " + std::to_string(quoted_from) + ")" : "") +
                    ": " + quote_untrusted(t_.substr(i_, 20)) + " (a quote inside a quoted field is doubled)");
  }

  Record record() {
    Record r;
    r.line = line_;
    const std::size_t n = t_.size();
    for (;;) {
      std::string field;
      int open_line = 0;
      if (i_ < n && t_[i_] == '"') {
        if (r.fields.empty()) r.first_quoted = true;
        open_line = line_;
        ++i_;
        bool closed = false;
        int breaks = 0;
        while (i_ < n) {
          const char c = t_[i_];
          if (c == '"') {
            if (i_ + 1 < n && t_[i_ + 1] == '"') {
              field += '"';
              i_ += 2;
              continue;
            }
            ++i_;
            closed = true;
            break;
          }
          if (c == '\n') ++line_, ++breaks;
          field += c;
          ++i_;
        }
        if (!closed) {
          // The file ends inside the quotes. Without a line break since the quote this may
          // be a row cut by a kill; with one, the quote would swallow every line after it.
          if (breaks > 0)
            fail(open_line, "the quote that opens " + field_no(r) + " is never closed (it would take in the " +
                                std::to_string(breaks) + " line" + (breaks == 1 ? "" : "s") +
                                " after it to the end of the file)");
          r.fields.push_back(std::move(field));
          r.open_quote = true;
          return r;
        }
      } else {
        const std::size_t start = i_;
        while (i_ < n && t_[i_] != ',' && t_[i_] != '\n' && t_[i_] != '\r') {
          if (t_[i_] == '"')
            fail(line_, "a quote inside the unquoted " + field_no(r) + " " +
                            quote_untrusted(t_.substr(start, i_ + 1 - start)) +
                            " (a field holding quotes is quoted, its quotes doubled)");
          ++i_;
        }
        field.assign(t_.substr(start, i_ - start));
      }
      if (!end_of_field(r, std::move(field), open_line)) return r;
    }
  }
};

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

}  // namespace

std::string line(const std::vector<std::string>& fields) {
  std::string s;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) s += ',';
    s += field_text(fields[i], fields.size() == 1);
  }
  s += '\n';
  return s;
}

std::string text(const Table& t) {
  std::string s = line(t.header);
  for (const auto& r : t.rows) s += line(r);
  return s;
}

Table parse(std::string_view text, const std::string& where, Tail tail) {
  Reader reader(text, where);
  std::vector<Record> recs = reader.records();
  std::size_t k = 0;
  while (k < recs.size() && recs[k].blank()) ++k;
  if (k == recs.size()) throw Error(where + ": empty (no header line)");
  Table t;
  if (recs[k].open_quote) reader.fail(recs[k].line, "the header ends inside a quoted field (the file is cut short)");
  t.header = std::move(recs[k].fields);
  const std::size_t cols = t.header.size();
  for (++k; k < recs.size(); ++k) {
    Record& r = recs[k];
    if (r.blank()) continue;
    const bool last = k + 1 == recs.size();
    const std::string count = std::to_string(r.fields.size()) + " field" + (r.fields.size() == 1 ? "" : "s") +
                              ", the header has " + std::to_string(cols);
    if (!r.complete) {  // only the last record can lack its line break
      if (!last) reader.fail(r.line, "internal: a record without its line break before the end");
      if (tail == Tail::DropTorn) {
        if (r.fields.size() <= cols) break;  // a row cut short by a kill
        reader.fail(r.line, count + " (the last row, without its line break)");
      }
      if (r.open_quote) reader.fail(r.line, "the file ends inside the quoted field " + std::to_string(r.fields.size()) +
                                                " (a row cut short)");
      if (r.fields.size() != cols) reader.fail(r.line, count + " (the last row, without its line break: cut short?)");
    } else if (r.fields.size() != cols) {
      reader.fail(r.line, count);
    }
    t.rows.push_back(std::move(r.fields));
  }
  return t;
}

Table read(const std::string& path, const std::string& what, Tail tail) {
  const std::string text = read_text_file(path, what, kCsvFileLimit);
  return parse(text, what + " " + quote_untrusted(path, 4096), tail);
}

std::map<std::string, double> parse_scores(std::string_view text, const std::string& where) {
  const Table t = parse(text, where, Tail::Complete);
  if (t.header.size() < 2) throw Error(where + ": expected 'name,score' rows");
  std::vector<std::vector<std::string>> rows = t.rows;
  double v = 0;
  if (parse_number(t.header[1], &v)) rows.insert(rows.begin(), t.header);  // no header line
  std::map<std::string, double> out;
  for (const auto& r : rows) {
    if (!parse_number(r[1], &v) || !std::isfinite(v))
      throw Error(where + ": " + quote_untrusted(r[1]) + " (for " + quote_untrusted(r[0]) +
                  ") is not a finite number");
    if (!out.emplace(lower(r[0]), v).second) throw Error(where + ": " + quote_untrusted(r[0]) + " listed twice");
  }
  if (out.empty()) throw Error(where + ": no rows");
  return out;
}

std::string number_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

bool parse_number(const std::string& s, double* out) {
  if (s.empty()) return false;
  if (s == "nan" || s == "inf" || s == "-inf") {
    *out = s == "nan" ? std::nan("") : (s == "inf" ? HUGE_VAL : -HUGE_VAL);
    return true;
  }
  const auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

}  // namespace lb::csv
