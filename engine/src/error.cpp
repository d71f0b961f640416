#include "lightbench/error.hpp"

#include <cstring>

namespace lb {

void throw_at(const char* file, int line, const std::string& msg) {
  // Keep only the file name: full build paths are noise in a one-line message.
  const char* base = std::strrchr(file, '/');
  throw Error(std::string(base ? base + 1 : file) + ":" + std::to_string(line) + ": " + msg);
}

}  // namespace lb

namespace lb {
namespace {

// Length of the valid UTF-8 sequence at s[i] encoding a code point >= U+00A0 (0: none).
std::size_t printable_utf8(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned c = b(i);
  std::size_t n = 0;
  unsigned cp = 0;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1Fu;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0Fu;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07u;
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3Fu);
  }
  const unsigned min_cp = n == 2 ? 0x80u : n == 3 ? 0x800u : 0x10000u;
  if (cp < min_cp || cp > 0x10FFFFu || (cp >= 0xD800u && cp <= 0xDFFFu)) return 0;  // overlong, surrogate
  if (cp < 0xA0u) return 0;                                                           // C1 controls
  if (cp == 0x2028u || cp == 0x2029u || cp == 0x85u) return 0;                        // line breaks
  return n;
}

std::string escape_impl(std::string_view text, std::size_t max_chars, bool quotes, bool keep_backslash = false) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  bool cut = false;
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    std::string piece;
    std::size_t used = 1;
    if (c == '\\' && !keep_backslash) {
      piece = "\\\\";
    } else if (quotes && c == '\'') {
      piece = "\\x27";
    } else if (c >= 0x20 && c < 0x7F) {
      piece.assign(1, static_cast<char>(c));
    } else if (const std::size_t n = c >= 0x80 ? printable_utf8(text, i) : 0; n > 0) {
      piece.assign(text.substr(i, n));
      used = n;
    } else {
      piece = {'\\', 'x', hex[c >> 4], hex[c & 15]};
    }
    if (out.size() + piece.size() > max_chars) {
      cut = true;
      break;
    }
    out += piece;
    i += used;
  }
  if (cut) out += "...";
  return quotes ? "'" + out + "'" : out;
}

}  // namespace

std::string escape_untrusted(std::string_view text, std::size_t max_chars) {
  return escape_impl(text, max_chars, false);
}

std::string quote_untrusted(std::string_view text, std::size_t max_chars) {
  return escape_impl(text, max_chars, true);
}

std::string safe_line(std::string_view message, std::size_t max_chars) {
  return escape_impl(message, max_chars, false, true);
}

}  // namespace lb
