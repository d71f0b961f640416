#pragma once
// Strict reading of one JSON object of an asset file: every key is asked for by name with
// its type and range, and done() rejects the keys nobody asked for (a typo must not fall
// back silently to a default). Errors are one line: "<file>: '<key path>': <problem>".
#include <cstdint>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace lb::assets_detail {

// Parses the text as JSON; throws lb::Error "<where>: not valid JSON (...)".
nlohmann::json parse_json(const std::string& text, const std::string& where);

class Fields {
 public:
  // `obj` must be a JSON object (else an error naming `path`; "" is the file's top level).
  Fields(const nlohmann::json& obj, std::string where, std::string path = "");

  bool has(const std::string& key) const;
  // Required keys.
  int integer(const std::string& key, long long lo, long long hi);
  std::uint64_t unsigned_integer(const std::string& key, std::uint64_t hi);
  double number(const std::string& key, double lo, double hi);
  std::string text(const std::string& key);
  const nlohmann::json& value(const std::string& key);  // any type; the caller checks
  Fields object(const std::string& key);
  // Optional keys: the fallback when absent (a present key is checked like a required one).
  int integer(const std::string& key, long long lo, long long hi, int fallback);
  std::uint64_t unsigned_integer(const std::string& key, std::uint64_t hi, std::uint64_t fallback);
  double number(const std::string& key, double lo, double hi, double fallback);
  std::string text(const std::string& key, const std::string& fallback);

  // Throws for the first key that no call above asked for.
  void done() const;

  // "grid.pitch", "planes[2].patch": the key's path for messages.
  std::string key_path(const std::string& key) const;
  // Throws lb::Error "<where>: '<key path>': <problem>".
  [[noreturn]] void fail(const std::string& key, const std::string& problem) const;
  const std::string& where() const { return where_; }

 private:
  const nlohmann::json& require(const std::string& key);
  const nlohmann::json& obj_;
  std::string where_, path_;
  std::set<std::string> known_;
};

// A value's text for messages, shortened to one short line.
std::string brief(const nlohmann::json& v);

}  // namespace lb::assets_detail
