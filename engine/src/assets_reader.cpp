// Strict JSON field reading for the asset files (assets_reader.hpp).
#include "assets_reader.hpp"

#include <cmath>
#include <cstdio>

#include "lightbench/error.hpp"

namespace lb::assets_detail {

nlohmann::json parse_json(const std::string& text, const std::string& where) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's message is one line: "[json.exception.parse_error.101] parse error at line 3, ...";
    // a number too large for a double is out_of_range.406, not a parse_error (found by fuzz_assets).
    // It quotes the bytes it stopped at: escaped (lb::safe_line).
    throw Error(where + ": not valid JSON (" + safe_line(e.what(), 300) + ")");
  }
}

// A value in a message: its JSON (control characters escaped by the dump; invalid UTF-8
// replaced rather than thrown on), cut at 40 characters.
std::string brief(const nlohmann::json& v) {
  return safe_line(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), 37);
}

Fields::Fields(const nlohmann::json& obj, std::string where, std::string path)
    : obj_(obj), where_(std::move(where)), path_(std::move(path)) {
  if (!obj_.is_object()) {
    const std::string what = path_.empty() ? "the file" : quote_untrusted(path_) + ":";
    throw Error(where_ + ": " + what + " must be a JSON object, got " + brief(obj_));
  }
}

std::string Fields::key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

void Fields::fail(const std::string& key, const std::string& problem) const {
  throw Error(where_ + ": " + quote_untrusted(key_path(key)) + ": " + problem);  // a key from the file
}

bool Fields::has(const std::string& key) const { return obj_.contains(key); }

const nlohmann::json& Fields::require(const std::string& key) {
  known_.insert(key);
  if (!obj_.contains(key)) fail(key, "missing");
  return obj_.at(key);
}

const nlohmann::json& Fields::value(const std::string& key) { return require(key); }

int Fields::integer(const std::string& key, long long lo, long long hi) {
  const nlohmann::json& v = require(key);
  const std::string want = "expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
  if (!v.is_number_integer()) fail(key, want + ", got " + brief(v));
  // number_integer holds signed values; a huge unsigned one is out of range as well.
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
    fail(key, want + ", got " + brief(v));
  const long long x = v.get<long long>();
  if (x < lo || x > hi) fail(key, want + ", got " + brief(v));
  return static_cast<int>(x);
}

std::uint64_t Fields::unsigned_integer(const std::string& key, std::uint64_t hi) {
  const nlohmann::json& v = require(key);
  const std::string want = "expected an integer in 0.." + std::to_string(hi);
  if (!v.is_number_integer()) fail(key, want + ", got " + brief(v));
  if (!v.is_number_unsigned() && v.get<long long>() < 0) fail(key, want + ", got " + brief(v));
  const std::uint64_t x = v.get<std::uint64_t>();
  if (x > hi) fail(key, want + ", got " + brief(v));
  return x;
}

double Fields::number(const std::string& key, double lo, double hi) {
  const nlohmann::json& v = require(key);
  const auto num = [](double d) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", d);
    return std::string(b);
  };
  const std::string want = "expected a number in " + num(lo) + ".." + num(hi);
  if (!v.is_number()) fail(key, want + ", got " + brief(v));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi) fail(key, want + ", got " + brief(v));
  return x;
}

std::string Fields::text(const std::string& key) {
  const nlohmann::json& v = require(key);
  if (!v.is_string()) fail(key, "expected a string, got " + brief(v));
  return v.get<std::string>();
}

Fields Fields::object(const std::string& key) { return Fields(require(key), where_, key_path(key)); }

int Fields::integer(const std::string& key, long long lo, long long hi, int fallback) {
  known_.insert(key);
  return has(key) ? integer(key, lo, hi) : fallback;
}

std::uint64_t Fields::unsigned_integer(const std::string& key, std::uint64_t hi, std::uint64_t fallback) {
  known_.insert(key);
  return has(key) ? unsigned_integer(key, hi) : fallback;
}

double Fields::number(const std::string& key, double lo, double hi, double fallback) {
  known_.insert(key);
  return has(key) ? number(key, lo, hi) : fallback;
}

std::string Fields::text(const std::string& key, const std::string& fallback) {
  known_.insert(key);
  return has(key) ? text(key) : fallback;
}

void Fields::done() const {
  for (const auto& item : obj_.items()) {
    if (known_.count(item.key())) continue;
    std::string list;
    for (const auto& k : known_) list += (list.empty() ? "" : ", ") + k;
    fail(item.key(), "unknown key (known here: " + list + ")");
  }
}

}  // namespace lb::assets_detail
