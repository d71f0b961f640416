#pragma once
// The CSV reports of `eval` and `batch`: the engine's one RFC 4180 reader and writer
// (lightbench/csv.hpp) under the CLI's names. `batch` appends a row at a time to the file (one
// write() each, so a kill loses at most the row being written) and rewrites it sorted at the
// end; reading tolerates a last row cut short by a kill and nothing else.
#include <string>
#include <vector>

#include "lightbench/csv.hpp"

namespace lb::cli {

using CsvTable = lb::csv::Table;

inline std::string csv_line(const std::vector<std::string>& fields) { return lb::csv::line(fields); }
inline std::string csv_text(const CsvTable& t) { return lb::csv::text(t); }
// Parses a whole file's text (lb::csv::parse). With drop_torn_tail, a last record without its
// line break is a row cut by a kill and dropped; otherwise a whole last row without its line
// break is kept and a cut one refused. Any other malformed record throws lb::Error naming
// `where` and the line (never dropped).
inline CsvTable parse_csv(const std::string& text, const std::string& where, bool drop_torn_tail) {
  return lb::csv::parse(text, where, drop_torn_tail ? lb::csv::Tail::DropTorn : lb::csv::Tail::Complete);
}
// A regular file of at most 64 MiB (lb::read_text_file), then parse_csv.
inline CsvTable read_csv(const std::string& path, const std::string& what, bool drop_torn_tail) {
  return lb::csv::read(path, what, drop_torn_tail ? lb::csv::Tail::DropTorn : lb::csv::Tail::Complete);
}

using lb::csv::number_text;
using lb::csv::parse_number;

// A file that takes one row at a time (O_APPEND, one write() per row, no buffering).
class CsvAppender {
 public:
  CsvAppender() = default;
  explicit CsvAppender(const std::string& path);
  ~CsvAppender();
  CsvAppender(const CsvAppender&) = delete;
  CsvAppender& operator=(const CsvAppender&) = delete;
  // The rows in one write(): a scene's rows land together (or as a torn tail on a kill).
  void append(const std::vector<std::vector<std::string>>& rows);
  bool open() const { return fd_ >= 0; }
  void close();

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace lb::cli
