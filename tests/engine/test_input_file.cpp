// Input files and CSV tables (issue 39, items 4 and 5): lb::require_regular_file /
// lb::read_text_file refuse a named pipe, a device, a folder and a missing file before
// opening, and a file over its limit however it reports its size; lb::csv is an RFC 4180
// reader that round-trips quotes, commas, line breaks and CRLF, drops only a torn last record
// (and only when asked) and refuses every other malformed record in one line.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <future>
#include <random>

#include "lightbench/csv.hpp"
#include "lightbench/error.hpp"
#include "lightbench/input_file.hpp"
#include "test_util.hpp"

namespace fs = std::filesystem;
using lbt::msg;

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == std::string::npos; }

// The message of f(), which must return within a few seconds: should it block on the FIFO,
// a writer is opened to release it and the case fails instead of hanging the suite.
std::string quick_msg(const std::string& fifo, const std::function<void()>& f) {
  auto fut = std::async(std::launch::async, [&] { return msg(f); });
  if (fut.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    FAIL_CHECK("blocked on the named pipe " << fifo);
    const int w = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (w >= 0) ::close(w);
  }
  return fut.get();
}

lb::csv::Table table(std::vector<std::string> header, std::vector<std::vector<std::string>> rows) {
  lb::csv::Table t;
  t.header = std::move(header);
  t.rows = std::move(rows);
  return t;
}

}  // namespace

TEST_CASE("input files: a named pipe, a device, a folder, a missing file are refused before opening") {
  lbt::TempDir dir("inputfile");
  const std::string fifo = dir.file("pipe.csv");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  lbt::spit(dir.file("ok.txt"), "hello\n");
  fs::create_directories(dir.path / "folder.csv");
  fs::create_symlink(dir.path / "nowhere", dir.path / "dangling.csv");

  CHECK(lb::input_file_problem(dir.file("ok.txt")).empty());
  CHECK(lb::input_file_problem(fifo) == "is a named pipe (FIFO), not a regular file");
  CHECK(lb::input_file_problem("/dev/zero") == "is a character device, not a regular file");
  CHECK(lb::input_file_problem(dir.file("folder.csv")) == "is a directory, not a file");
  CHECK(lb::input_file_problem(dir.file("missing.csv")) == "no such file");
  CHECK(has(lb::input_file_problem(dir.file("dangling.csv")), "broken symbolic link"));
  CHECK(has(lb::input_file_problem(dir.file("ok.txt/x")), "no such file"));

  const std::string e = quick_msg(fifo, [&] { lb::read_text_file(fifo, "--scores", lb::kCsvFileLimit); });
  CHECK(one_line(e));
  CHECK(has(e, "--scores '" + fifo + "': is a named pipe (FIFO)"));
  CHECK(has(quick_msg(fifo, [&] { lb::require_regular_file(fifo, ""); }), "'" + fifo + "': is a named pipe"));
  CHECK(has(msg([] { lb::read_text_file("/dev/zero", "--merge", lb::kCsvFileLimit); }),
            "--merge '/dev/zero': is a character device"));
  CHECK(has(msg([&] { lb::read_text_file(dir.file("folder.csv"), "--merge", lb::kCsvFileLimit); }),
            "is a directory"));
  CHECK(has(msg([&] { lb::read_text_file(dir.file("missing.csv"), "--merge", lb::kCsvFileLimit); }),
            "missing.csv': no such file"));
  CHECK(lb::read_text_file(dir.file("ok.txt"), "x", lb::kConfigFileLimit) == "hello\n");
  // A symbolic link to a regular file is read.
  fs::create_symlink(dir.path / "ok.txt", dir.path / "link.txt");
  CHECK(lb::read_text_file(dir.file("link.txt"), "x", lb::kConfigFileLimit) == "hello\n");
  // Control bytes in the path are escaped in the message.
  const std::string odd = dir.file("a\x1b[2Jb.csv");
  const std::string eo = msg([&] { lb::read_text_file(odd, "--scores", lb::kCsvFileLimit); });
  CHECK(one_line(eo));
  CHECK(!has(eo, "\x1b"));
  CHECK(has(eo, "a\\x1b[2Jb.csv"));
}

TEST_CASE("input files: a text file over its limit is refused by its size and by the bounded read") {
  lbt::TempDir dir("inputfile");
  // A sparse file of 65 MiB: refused by st_size, nothing read.
  const std::string big = dir.file("big.csv");
  { std::ofstream(big, std::ios::binary) << "name,score\n"; }
  fs::resize_file(big, (65ull << 20));
  const std::string e = msg([&] { lb::read_text_file(big, "--scores", lb::kCsvFileLimit); });
  CHECK(one_line(e));
  CHECK(has(e, "--scores '" + big + "' is larger than 64 MiB (the limit for CSV and score files)"));
  // Exactly at the limit is fine; one byte over is not.
  const std::string at = dir.file("at.txt");
  lbt::spit(at, std::string(1024, 'x'));
  CHECK(lb::read_text_file(at, "x", lb::TextLimit{1024, "tests"}).size() == 1024);
  CHECK(has(msg([&] { lb::read_text_file(at, "x", lb::TextLimit{1023, "tests"}); }),
            "is larger than 1023 bytes (the limit for tests)"));
  // A file whose size lies (/proc files say 0 bytes): the read loop stops at the limit.
  struct stat st {};
  REQUIRE(::stat("/proc/self/maps", &st) == 0);
  CHECK(st.st_size == 0);
  CHECK(has(msg([] { lb::read_text_file("/proc/self/maps", "maps", lb::TextLimit{16, "tests"}); }),
            "is larger than 16 bytes"));
  CHECK(lb::limit_text(1ull << 20) == "1 MiB");
  CHECK(lb::limit_text(512ull << 10) == "512 KiB");
}

TEST_CASE("csv: RFC 4180 round trips: quotes, doubled quotes, commas, line breaks, CRLF, empty fields") {
  const lb::csv::Table t = table({"scene", "error", "x"}, {{"a", "plain", ""},
                                                           {"b,c", "'x.png': bad \"magic\", line 2\nnext", "1"},
                                                           {"", "", ""},
                                                           {"\"", "\r\n", "a\rb"},
                                                           {" lead", "trail ", "\xEF\xBB\xBFx"}});
  const std::string text = lb::csv::text(t);
  CHECK(has(text, "\"b,c\""));
  CHECK(has(text, "\"'x.png': bad \"\"magic\"\", line 2\nnext\""));
  const lb::csv::Table back = lb::csv::parse(text, "t", lb::csv::Tail::Complete);
  CHECK(back.header == t.header);
  CHECK(back.rows == t.rows);
  CHECK(lb::csv::parse(text, "t", lb::csv::Tail::DropTorn).rows == t.rows);
  // CRLF line ends read as LF ones; a byte-order mark at the start is ignored.
  const lb::csv::Table crlf = lb::csv::parse("\xEF\xBB\xBFname,score\r\na,1\r\n\"b\r\nc\",2\r\n", "t",
                                             lb::csv::Tail::Complete);
  CHECK(crlf.header == std::vector<std::string>{"name", "score"});
  REQUIRE(crlf.rows.size() == 2);
  CHECK(crlf.rows[1] == std::vector<std::string>{"b\r\nc", "2"});
  // A one-column table with an empty value round-trips (written "", not as a blank line).
  const lb::csv::Table one = table({"only"}, {{""}, {"x"}, {""}});
  CHECK(lb::csv::parse(lb::csv::text(one), "t", lb::csv::Tail::Complete).rows == one.rows);
  // Blank lines are skipped.
  CHECK(lb::csv::parse("a,b\n\n1,2\n\r\n", "t", lb::csv::Tail::Complete).rows.size() == 1);
  // Random tables of awkward fields round-trip.
  std::mt19937 rng(7);
  const std::string alphabet = "ab,\"\r\n \xEF\xBB\xBF\t\x01";
  for (int k = 0; k < 300; ++k) {
    const std::size_t cols = 1 + rng() % 4;
    lb::csv::Table r;
    auto field = [&] {
      std::string f;
      for (std::size_t n = rng() % 6; n > 0; --n) f += alphabet[rng() % alphabet.size()];
      return f;
    };
    for (std::size_t c = 0; c < cols; ++c) r.header.push_back(field());
    for (std::size_t n = rng() % 5; n > 0; --n) {
      r.rows.emplace_back();
      for (std::size_t c = 0; c < cols; ++c) r.rows.back().push_back(field());
    }
    const std::string s = lb::csv::text(r);
    CAPTURE(s);
    const lb::csv::Table b = lb::csv::parse(s, "t", lb::csv::Tail::Complete);
    CHECK(b.header == r.header);
    CHECK(b.rows == r.rows);
  }
}

TEST_CASE("csv: a torn last record is dropped only when asked; nothing else is ever dropped") {
  using lb::csv::Tail;
  const std::string text = "scene,error\na,x\nb,y\n";
  // A kill mid-row: the tail is dropped with DropTorn, refused otherwise.
  CHECK(lb::csv::parse(text + "c,ha", "t", Tail::DropTorn).rows.size() == 2);
  CHECK(lb::csv::parse(text + "c", "t", Tail::DropTorn).rows.size() == 2);
  CHECK(lb::csv::parse(text + "c,\"half a quoted", "t", Tail::DropTorn).rows.size() == 2);
  CHECK(lb::csv::parse(text + "c,whole", "t", Tail::Complete).rows.size() == 3);  // without its line break
  CHECK(has(msg([&] { lb::csv::parse(text + "c", "t", Tail::Complete); }), "line 4: 1 field, the header has 2"));
  CHECK(has(msg([&] { lb::csv::parse(text + "c,\"half", "t", Tail::Complete); }), "line 4: the file ends inside"));
  // An unclosed quote in the middle would swallow the rows after it: refused with either tail.
  const std::string unclosed = "scene,error\na,\"never closed\nb,y\nc,z\n";
  for (Tail tail : {Tail::DropTorn, Tail::Complete}) {
    const std::string e = msg([&] { lb::csv::parse(unclosed, "f.csv", tail); });
    CHECK(one_line(e));
    CHECK(has(e, "f.csv: line 2: the quote that opens field 2 is never closed"));
  }
  // A garbage line (a row of another field count) anywhere but torn at the end: refused.
  CHECK(has(msg([] { lb::csv::parse("scene,error\nd\na,b\n", "t", Tail::DropTorn); }), "line 2: 1 field"));
  CHECK(has(msg([] { lb::csv::parse("scene,error\na,b\nd\n", "t", Tail::DropTorn); }), "line 3: 1 field"));
  CHECK(has(msg([] { lb::csv::parse("scene,error\na,b,c,d", "t", Tail::DropTorn); }), "line 2: 4 fields"));
  // Quotes where RFC 4180 has none, and a lone CR.
  CHECK(has(msg([] { lb::csv::parse("a,b\nx\"y,1\n", "t", Tail::Complete); }), "a quote inside the unquoted field 1"));
  CHECK(has(msg([] { lb::csv::parse("a,b\n\"x\"y,1\n", "t", Tail::Complete); }), "text after the closing quote"));
  CHECK(has(msg([] { lb::csv::parse("a,b\nx\ry,1\n", "t", Tail::Complete); }), "carriage return"));
  CHECK(has(msg([] { lb::csv::parse("", "t", Tail::DropTorn); }), "empty (no header line)"));
  CHECK(has(msg([] { lb::csv::parse("\n\n", "t", Tail::DropTorn); }), "empty (no header line)"));
  // Control bytes of the file are escaped in the message.
  const std::string e = msg([] { lb::csv::parse("a,b\nx\x1b[2J\"y,1\n", "t", Tail::Complete); });
  CHECK(one_line(e));
  CHECK(!has(e, "\x1b"));
}

TEST_CASE("csv: score lists ('name,score' rows, an optional header)") {
  auto s = lb::csv::parse_scores("name,score\nI01_01_1.bmp,1.5\ni02.bmp,-2\n", "s.csv");
  CHECK(s.size() == 2);
  CHECK(s.at("i01_01_1.bmp") == 1.5);
  s = lb::csv::parse_scores("a.bmp,1\n\"b,c.bmp\",2\n", "s.csv");  // no header; a quoted name
  CHECK(s.at("b,c.bmp") == 2.0);
  CHECK(has(msg([] { lb::csv::parse_scores("name,score\na,nan\n", "s.csv"); }), "'nan' (for 'a') is not a finite"));
  CHECK(has(msg([] { lb::csv::parse_scores("name,score\na,1\nA,2\n", "s.csv"); }), "'A' listed twice"));
  CHECK(has(msg([] { lb::csv::parse_scores("name\na\n", "s.csv"); }), "expected 'name,score' rows"));
  CHECK(has(msg([] { lb::csv::parse_scores("name,score\n", "s.csv"); }), "no rows"));
  CHECK(has(msg([] { lb::csv::parse_scores("name,score\na,1\n\"b,2\nc,3\n", "s.csv"); }), "never closed"));
  double v = 0;
  for (double x : {0.1, 1.0 / 3.0, 1e-300, 168750.0, -2.5}) {
    REQUIRE(lb::csv::parse_number(lb::csv::number_text(x), &v));
    CHECK(v == x);
  }
  CHECK((lb::csv::parse_number("nan", &v) && std::isnan(v)));
  CHECK_FALSE(lb::csv::parse_number("1.5x", &v));
}
