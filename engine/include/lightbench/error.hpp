#pragma once
// Errors: everything the engine rejects becomes an lb::Error whose what() is one line that
// names the problem (a file, a parameter, a CUDA call). Front ends print it and carry on
// (viewer) or exit non-zero (CLI); nothing is silently ignored.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lb {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Internal failures carry file:line so they can be traced; user-facing validation does not
// need it (the message names the parameter or file instead).
[[noreturn]] void throw_at(const char* file, int line, const std::string& msg);

// Untrusted text (a file's contents, a name read from a file, a user's argument) made safe
// for a one-line message: printable ASCII and valid UTF-8 (U+00A0 and up) are kept; every
// other byte (control bytes such as ESC and NUL, DEL, C1 controls, invalid UTF-8) becomes
// \xNN and a backslash becomes \\, so the text cannot move the cursor, clear the terminal,
// break the line or cut the message. Longer than max_chars (of output): cut, with "..."
// appended. THE one helper for quoting untrusted text in messages; tests/engine/test_error.cpp.
std::string escape_untrusted(std::string_view text, std::size_t max_chars = 80);
// The same in single quotes: 'text' (a quote inside is escaped as \x27).
std::string quote_untrusted(std::string_view text, std::size_t max_chars = 80);
// The last line of defence, where a front end prints a whole message (an lb::Error's what()
// to the terminal, the viewer's error line): escape_untrusted's escapes except that a
// backslash stays as it is, so a message whose parts were already quoted with the helper
// above keeps its escapes readable (\x1b, not \\x1b) and no raw control byte, NUL or
// embedded newline (\x0a) can reach the terminal whatever a message quoted. Cut, with
// "...", past max_chars.
std::string safe_line(std::string_view message, std::size_t max_chars = 1000);

}  // namespace lb

#define LB_THROW(msg) ::lb::throw_at(__FILE__, __LINE__, (msg))

// Validation of user input: throws lb::Error(msg) when cond is false.
#define LB_REQUIRE(cond, msg)                        \
  do {                                               \
    if (!(cond)) throw ::lb::Error(std::string(msg)); \
  } while (0)
