#include "csv_table.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "lightbench/error.hpp"

namespace lb::cli {

int CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

namespace {
std::string field_text(const std::string& f) {
  if (f.find_first_of(",\"\r\n") == std::string::npos) return f;
  std::string q = "\"";
  for (char c : f) {
    if (c == '"') q += '"';
    q += c;
  }
  q += '"';
  return q;
}
}  // namespace

std::string csv_line(const std::vector<std::string>& fields) {
  std::string s;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) s += ',';
    s += field_text(fields[i]);
  }
  s += '\n';
  return s;
}

std::string csv_text(const CsvTable& t) {
  std::string s = csv_line(t.header);
  for (const auto& r : t.rows) s += csv_line(r);
  return s;
}

CsvTable parse_csv(const std::string& text, const std::string& where, bool drop_torn_tail) {
  std::vector<std::vector<std::string>> records;
  std::vector<bool> complete;  // ended by a line break
  std::vector<std::string> rec;
  std::string field;
  bool quoted = false, in_record = false;
  int line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    in_record = true;
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c, line += c == '\n';
      continue;
    }
    if (c == '"' && field.empty()) quoted = true;
    else if (c == ',') rec.push_back(std::move(field)), field.clear();
    else if (c == '\r') continue;
    else if (c == '\n') {
      rec.push_back(std::move(field));
      field.clear();
      records.push_back(std::move(rec));
      rec.clear();
      complete.push_back(true);
      in_record = false;
      ++line;
    } else field += c;
  }
  if (in_record) {  // no final line break: a row cut short
    rec.push_back(std::move(field));
    records.push_back(std::move(rec));
    complete.push_back(!quoted && !drop_torn_tail);
  }
  CsvTable t;
  if (records.empty()) throw Error(where + ": empty (no header line)");
  t.header = records[0];
  for (std::size_t i = 1; i < records.size(); ++i) {
    const bool last = i + 1 == records.size();
    if (records[i].size() == 1 && records[i][0].empty() && complete[i]) continue;  // blank line
    if (records[i].size() != t.header.size() || !complete[i]) {
      if (last && drop_torn_tail) break;
      throw Error(where + ": row " + std::to_string(i) + " has " + std::to_string(records[i].size()) +
                  " fields, the header " + std::to_string(t.header.size()));
    }
    t.rows.push_back(std::move(records[i]));
  }
  return t;
}

CsvTable read_csv(const std::string& path, const std::string& what, bool drop_torn_tail) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(what + " '" + path + "': cannot read (" + std::strerror(errno) + ")");
  std::ostringstream s;
  s << f.rdbuf();
  return parse_csv(s.str(), what + " '" + path + "'", drop_torn_tail);
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

CsvAppender::CsvAppender(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) throw Error("--csv '" + path + "': cannot open for appending (" + std::strerror(errno) + ")");
}

CsvAppender::~CsvAppender() { close(); }

void CsvAppender::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void CsvAppender::append(const std::vector<std::vector<std::string>>& rows) {
  std::string line;
  for (const auto& r : rows) line += csv_line(r);
  // O_APPEND and one write(): the row lands whole at the end or, on a kill, as a torn tail
  // that the next run drops.
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw Error("--csv '" + path_ + "': write failed (" + std::strerror(errno) + ")");
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace lb::cli
