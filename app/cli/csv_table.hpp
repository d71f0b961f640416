#pragma once
// The CSV reports of `eval` and `batch`: RFC 4180 fields (quoted when they hold a comma, a
// quote or a line break), one header line, then rows. `batch` appends a row at a time to the
// file (one write() each, so a kill loses at most the row being written) and rewrites it
// sorted at the end; reading tolerates a last row cut short by a kill.
#include <string>
#include <vector>

namespace lb::cli {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name) const;  // -1 when absent
};

std::string csv_line(const std::vector<std::string>& fields);  // with the trailing '\n'
std::string csv_text(const CsvTable& t);
// Parses a whole file's text. A last record without its line break, or with fewer fields than
// the header, is dropped when drop_torn_tail (a row cut by a kill); any other malformed record
// throws lb::Error naming `where` and the line.
CsvTable parse_csv(const std::string& text, const std::string& where, bool drop_torn_tail);
CsvTable read_csv(const std::string& path, const std::string& what, bool drop_torn_tail);

// Numbers as the reports write them: the shortest text that reads back to the same double.
std::string number_text(double v);
// The number in a field; false when it is empty or not a number.
bool parse_number(const std::string& s, double* out);

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
