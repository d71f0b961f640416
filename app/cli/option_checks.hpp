#pragma once
// CLI11 validators shared by every command's numeric options: a value is rejected (one line
// naming the option and the allowed range) when it is not a number, negative where that is not
// allowed, NaN, infinite, overflowing or out of range. Nothing is clamped or wrapped, and no
// sentinel ("-1: default") can be given explicitly.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <CLI/CLI.hpp>

namespace lb::cli {

namespace detail {
inline std::string fmt_num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}
}  // namespace detail

// An integer in [lo, hi] (decimal, no fraction or exponent).
inline CLI::Validator int_in(long long lo, long long hi) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& s) -> std::string {
        const std::string bad = "must be an integer in " + range + ", got " + quote_untrusted(s);
        if (s.empty()) return bad;
        errno = 0;
        char* end = nullptr;
        const long long v = std::strtoll(s.c_str(), &end, 10);
        if (errno == ERANGE || end != s.c_str() + s.size() || v < lo || v > hi) return bad;
        return {};
      },
      "INT in " + range);
}

// An unsigned 64-bit integer (digits only: "-1" does not wrap to 2^64-1).
inline CLI::Validator uint64_any() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const std::string bad = "must be an integer in 0..18446744073709551615, got " + quote_untrusted(s);
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return bad;
        errno = 0;
        (void)std::strtoull(s.c_str(), nullptr, 10);
        if (errno == ERANGE) return bad;
        return {};
      },
      "UINT64");
}

// A finite number in [lo, hi].
inline CLI::Validator real_in(double lo, double hi) {
  const std::string range = detail::fmt_num(lo) + ".." + detail::fmt_num(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& s) -> std::string {
        const std::string bad = "must be a finite number in " + range + ", got " + quote_untrusted(s);
        if (s.empty()) return bad;
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (end != s.c_str() + s.size() || !std::isfinite(v) || v < lo || v > hi) return bad;
        return {};
      },
      "NUM in " + range);
}

}  // namespace lb::cli
