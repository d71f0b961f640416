#include "lightbench/param_text.hpp"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "lightbench/error.hpp"

namespace lb {

namespace {
const std::vector<std::string>* names_of(const AlgorithmSpec& spec, const std::string& param) {
  const auto it = spec.value_names.find(param);
  return it == spec.value_names.end() ? nullptr : &it->second;
}

std::string join_names(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " | ") + x;
  return s;
}
}  // namespace

std::string format_number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

std::string param_range_text(const ParamInfo& p) { return format_number(p.min) + ".." + format_number(p.max); }

std::string parse_param_text(const AlgorithmSpec& spec, const ParamInfo& info, const std::string& text, double* out) {
  if (const auto* names = names_of(spec, info.name)) {
    for (std::size_t i = 0; i < names->size(); ++i)
      if ((*names)[i] == text) {
        *out = info.min + static_cast<double>(i);
        return {};
      }
  }
  const char* s = text.c_str();
  char* end = nullptr;
  switch (info.kind) {
    case ParamInfo::Kind::Bool:
      if (text == "1" || text == "on" || text == "true" || text == "yes") return *out = 1, std::string();
      if (text == "0" || text == "off" || text == "false" || text == "no") return *out = 0, std::string();
      break;
    case ParamInfo::Kind::Int: {
      errno = 0;
      const long long v = std::strtoll(s, &end, 10);
      if (!text.empty() && errno != ERANGE && end == s + text.size() && v >= INT_MIN && v <= INT_MAX)
        return *out = static_cast<double>(v), std::string();
      break;
    }
    case ParamInfo::Kind::Float: {
      const double v = std::strtod(s, &end);
      if (!text.empty() && end == s + text.size() && std::isfinite(v)) return *out = v, std::string();
      break;
    }
  }
  const auto* names = names_of(spec, info.name);
  const std::string kind = info.kind == ParamInfo::Kind::Bool  ? "0 | 1 (on | off)"
                           : info.kind == ParamInfo::Kind::Int ? "an integer"
                                                               : "a finite number";
  return "must be " + (names ? join_names(*names) + " or " : std::string()) + kind + ", got " + quote_untrusted(text);
}

std::string param_range_problem(const ParamInfo& p, double x, const std::string& shown) {
  if (x >= p.min && x <= p.max) return {};
  const std::string what = p.kind == ParamInfo::Kind::Int ? "an integer" : "a finite number";
  return "must be " + what + " in " + param_range_text(p) + ", got " + quote_untrusted(shown);
}

nlohmann::json param_value_json(const AlgorithmSpec& spec, const ParamInfo& info, double value) {
  const std::string name = spec.value_name(info.name, value);
  if (!name.empty()) return name;
  switch (info.kind) {
    case ParamInfo::Kind::Int: return static_cast<long long>(std::llround(value));
    case ParamInfo::Kind::Bool: return value != 0.0;
    case ParamInfo::Kind::Float: return static_cast<double>(static_cast<float>(value));
  }
  return value;
}

}  // namespace lb
