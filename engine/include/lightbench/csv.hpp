#pragma once
// CSV tables (issue 39): THE one RFC 4180 reader and writer, used by `batch` (its CSV report,
// resume and --merge) and `eval` (its report and --scores). Fields are quoted when they hold
// a comma, a quote, a line break (or would otherwise not read back: a one-field empty row, a
// leading byte-order mark); a quote inside is doubled. Records end with LF or CRLF.
//
// Reading is strict: nothing is dropped silently. A malformed record (a quote inside an
// unquoted field, text after a closing quote, a lone CR, a record of another field count than
// the header, a quoted field that is never closed) is refused in one line naming the line,
// except for the one thing a kill can leave: with Tail::DropTorn, a LAST record without its
// line break (the end of a row cut short by a kill while it was appended) is dropped; a quote
// left open there is treated as torn only when no line break follows it (otherwise it would
// swallow whole rows, which is refused). Blank lines are skipped; a UTF-8 byte-order mark at
// the start is ignored. tests/engine/test_csv.cpp, fuzz harness `csv`.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lb::csv {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string& name) const;  // -1 when absent
};

// What to do with a last record that has no line break.
enum class Tail {
  Complete,  // a whole row without the final line break is a row; a cut one is refused
  DropTorn,  // it is a row torn by a kill: dropped (a file appended to row by row)
};

std::string line(const std::vector<std::string>& fields);  // one record, with its '\n'
std::string text(const Table& t);                           // header and rows

// Parses a whole file's text; `where` names it in the messages ("--merge 'a.csv'").
Table parse(std::string_view text, const std::string& where, Tail tail);
// read_text_file (a regular file, at most kCsvFileLimit), then parse. `what` names the option
// ("--csv", "--merge", "--scores").
Table read(const std::string& path, const std::string& what, Tail tail);

// An IQA method's scores: "name,score" rows (a first line whose second field is not a number
// is a header), at least two fields a row (the rest ignored); every score finite, every name
// once (ignoring case). Keyed by the lower-case name. `where` names the file.
std::map<std::string, double> parse_scores(std::string_view text, const std::string& where);

// Numbers as the reports write them: the shortest text that reads back to the same double
// ("nan", "inf", "-inf" for those).
std::string number_text(double v);
// The number in a field; false when it is empty or not a number.
bool parse_number(const std::string& s, double* out);

}  // namespace lb::csv
