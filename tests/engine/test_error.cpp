// lb::escape_untrusted / lb::quote_untrusted (error.hpp): the one helper that makes text read
// from files, folder names and the command line safe inside a one-line message (issue 39,
// item 6). Whatever goes in, what comes out holds no byte below 0x20, no DEL, no C1 control
// and no invalid UTF-8, is at most max_chars long (plus "..." when cut) and loses nothing
// (every byte is there as itself or as \xNN) when it is not cut.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "lightbench/error.hpp"

using lb::escape_untrusted;
using lb::quote_untrusted;
using namespace std::string_literals;

namespace {

// No control byte (C0, DEL), no C1 control as UTF-8 (C2 80..C2 9F), no NUL.
bool clean(const std::string& s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) return false;
    if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xa0) return false;
  }
  return true;
}

// Decodes escape_untrusted's output back to bytes (\xNN, \\; everything else as it is).
std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
    } else if (s[i + 1] == '\\') {
      out += '\\';
      ++i;
    } else {
      REQUIRE(s[i + 1] == 'x');
      out += static_cast<char>(std::stoi(s.substr(i + 2, 2), nullptr, 16));
      i += 3;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("escape_untrusted: printable ASCII stays as it is") {
  CHECK(escape_untrusted("calib.txt: ndisp=290") == "calib.txt: ndisp=290");
  CHECK(escape_untrusted("") == "");
  CHECK(escape_untrusted(" !\"#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~") == " !\"#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~");
}

TEST_CASE("escape_untrusted: ESC, NUL, DEL, CR, LF and TAB become \\xNN") {
  // The terminal-clearing sequence from the issue.
  CHECK(escape_untrusted("\x1b[2J") == "\\x1b[2J");
  CHECK(escape_untrusted("\x1b]0;title\x07") == "\\x1b]0;title\\x07");
  // NUL in the middle: the text after it is kept (a C string would have been cut there).
  const std::string nul = "ndisp\0=290 is the reason"s;
  CHECK(nul.size() == 24);
  CHECK(escape_untrusted(nul) == "ndisp\\x00=290 is the reason");
  CHECK(escape_untrusted("a\x7f" "b") == "a\\x7fb");
  CHECK(escape_untrusted("line one\nline two\r\n") == "line one\\x0aline two\\x0d\\x0a");
  CHECK(escape_untrusted("a\tb") == "a\\x09b");
  CHECK(escape_untrusted("\x01\x1f") == "\\x01\\x1f");
}

TEST_CASE("escape_untrusted: C1 controls as UTF-8 are escaped, byte by byte") {
  // U+009B (CSI) is C2 9B in UTF-8: a terminal may take it as ESC [.
  CHECK(escape_untrusted("a\xc2\x9b" "2Jb") == "a\\xc2\\x9b2Jb");
  CHECK(escape_untrusted("\xc2\x80") == "\\xc2\\x80");
  CHECK(escape_untrusted("\xc2\x85") == "\\xc2\\x85");  // NEL: a line break
  CHECK(escape_untrusted("\xc2\x9f") == "\\xc2\\x9f");
  // The raw C1 bytes (not UTF-8) too.
  CHECK(escape_untrusted("\x9b\x85") == "\\x9b\\x85");
  // U+2028 / U+2029 (line / paragraph separator) break the line too.
  CHECK(escape_untrusted("a\xe2\x80\xa8" "b") == "a\\xe2\\x80\\xa8b");
  CHECK(escape_untrusted("a\xe2\x80\xa9" "b") == "a\\xe2\\x80\\xa9b");
}

TEST_CASE("escape_untrusted: valid UTF-8 is kept") {
  CHECK(escape_untrusted("\xc2\xa0") == "\xc2\xa0");                                // U+00A0, the first kept
  CHECK(escape_untrusted("Z\xc3\xbcrich") == "Z\xc3\xbcrich");                      // ü
  CHECK(escape_untrusted("\xe6\x97\xa5\xe6\x9c\xac") == "\xe6\x97\xa5\xe6\x9c\xac");  // 日本
  CHECK(escape_untrusted("\xf0\x9f\x93\xb7") == "\xf0\x9f\x93\xb7");                // U+1F4F7
  CHECK(escape_untrusted("\xf4\x8f\xbf\xbf") == "\xf4\x8f\xbf\xbf");                // U+10FFFF
}

TEST_CASE("escape_untrusted: invalid UTF-8 is escaped") {
  CHECK(escape_untrusted("\xff\xfe") == "\\xff\\xfe");
  CHECK(escape_untrusted("a\xc3") == "a\\xc3");                        // cut sequence at the end
  CHECK(escape_untrusted("\xc3(") == "\\xc3(");                        // bad continuation
  CHECK(escape_untrusted("\x80") == "\\x80");                          // lone continuation
  CHECK(escape_untrusted("\xc0\xaf") == "\\xc0\\xaf");                 // overlong '/'
  CHECK(escape_untrusted("\xe0\x80\xaf") == "\\xe0\\x80\\xaf");        // overlong, 3 bytes
  CHECK(escape_untrusted("\xed\xa0\x80") == "\\xed\\xa0\\x80");        // surrogate U+D800
  CHECK(escape_untrusted("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // past U+10FFFF
  CHECK(escape_untrusted("\xf8\x88\x80\x80\x80") == "\\xf8\\x88\\x80\\x80\\x80");
}

TEST_CASE("escape_untrusted: a backslash is doubled, so an escape in the text is told apart") {
  CHECK(escape_untrusted("C:\\data") == "C:\\\\data");
  CHECK(escape_untrusted("\\x1b") == "\\\\x1b");  // the four characters, not ESC
  CHECK(escape_untrusted("\x1b") == "\\x1b");
  CHECK(escape_untrusted("\\x1b") != escape_untrusted("\x1b"));
}

TEST_CASE("escape_untrusted: cut at max_chars of output, with \"...\"") {
  const std::string long_text(200, 'a');
  CHECK(escape_untrusted(long_text) == std::string(80, 'a') + "...");  // the default, 80
  CHECK(escape_untrusted(long_text, 10) == std::string(10, 'a') + "...");
  CHECK(escape_untrusted(std::string(10, 'a'), 10) == std::string(10, 'a'));  // exactly max: not cut
  CHECK(escape_untrusted(std::string(11, 'a'), 10) == std::string(10, 'a') + "...");
  // An escape is never cut in half: the whole \xNN fits, or the text stops before it.
  CHECK(escape_untrusted("abcdefgh\x1b" "z", 10) == "abcdefgh...");
  CHECK(escape_untrusted("abcdef\x1b" "z", 10) == "abcdef\\x1b...");
  // Nor a UTF-8 character.
  CHECK(escape_untrusted("abcdefghi\xc3\xbc", 10) == "abcdefghi...");
  CHECK(escape_untrusted("abcdefgh\xc3\xbc", 10) == "abcdefgh\xc3\xbc");
  CHECK(escape_untrusted("ab", 0) == "...");
}

TEST_CASE("quote_untrusted: single quotes around, a quote inside escaped") {
  CHECK(quote_untrusted("im0.png") == "'im0.png'");
  CHECK(quote_untrusted("it's") == "'it\\x27s'");
  CHECK(quote_untrusted("a\x1b[2Jb") == "'a\\x1b[2Jb'");
  CHECK(quote_untrusted(std::string(100, 'x'), 5) == "'xxxxx...'");
  CHECK(quote_untrusted("") == "''");
  // escape_untrusted keeps a quote as it is.
  CHECK(escape_untrusted("it's") == "it's");
}

TEST_CASE("escape_untrusted: any bytes come out clean, and uncut they decode back exactly") {
  std::mt19937 rng(39);
  for (int round = 0; round < 2000; ++round) {
    std::string s(rng() % 64, '\0');
    for (char& c : s) c = static_cast<char>(rng() & 0xff);
    const std::string e = escape_untrusted(s, 100000);
    CAPTURE(e);
    CHECK(clean(e));
    CHECK(unescape(e) == s);
    const std::string cut = escape_untrusted(s, 20);
    CHECK(clean(cut));
    CHECK(cut.size() <= 23);
    const std::string q = quote_untrusted(s, 100000);
    CHECK(clean(q));
    CHECK(q.find('\'', 1) == q.size() - 1);  // the closing quote is the only one inside
  }
}

TEST_CASE("safe_line: the last line of defence escapes what is left and keeps what was escaped") {
  using lb::safe_line;
  CHECK(safe_line("lightbench-cli: error: 'calib.txt': key '\x1b[2J'") ==
        "lightbench-cli: error: 'calib.txt': key '\\x1b[2J'");
  CHECK(safe_line("reason one\nreason two") == "reason one\\x0areason two");
  CHECK(safe_line("cut\0here, the reason"s) == "cut\\x00here, the reason");
  CHECK(safe_line("C:\\data\\x1b") == "C:\\data\\x1b");  // a backslash stays as it is
  CHECK(safe_line("Z\xc3\xbcrich \xc2\x9b") == "Z\xc3\xbcrich \\xc2\\x9b");
  CHECK(safe_line(std::string(2000, 'm')) == std::string(1000, 'm') + "...");  // default: 1000
  CHECK(safe_line(std::string(50, 'm'), 40) == std::string(40, 'm') + "...");
  // Idempotent on text the helper already escaped: no \\x1b from \x1b.
  std::mt19937 rng(7);
  for (int round = 0; round < 1000; ++round) {
    std::string s(rng() % 48, '\0');
    for (char& c : s) c = static_cast<char>(rng() & 0xff);
    const std::string once = escape_untrusted(s, 100000);
    CHECK(safe_line(once, 100000) == once);
    CHECK(safe_line(quote_untrusted(s, 100000), 100000) == quote_untrusted(s, 100000));
    CHECK(clean(safe_line(s, 100000)));
  }
}
