#include "lightbench/params.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "lightbench/error.hpp"

namespace lb {

double ParamInfo::get() const {
  if (auto* i = std::get_if<int*>(&value)) return **i;
  if (auto* f = std::get_if<float*>(&value)) return static_cast<double>(**f);
  if (auto* b = std::get_if<bool*>(&value)) return **b ? 1.0 : 0.0;
  return 0.0;
}

bool ParamInfo::set(double v) const {
  if (std::isnan(v)) return false;
  v = std::clamp(v, min, max);
  if (auto* i = std::get_if<int*>(&value)) {
    const int n = static_cast<int>(std::lround(v));
    const bool changed = **i != n;
    **i = n;
    return changed;
  }
  if (auto* f = std::get_if<float*>(&value)) {
    const float x = static_cast<float>(v);
    const bool changed = **f != x;
    **f = x;
    return changed;
  }
  if (auto* b = std::get_if<bool*>(&value)) {
    const bool x = v != 0.0;
    const bool changed = **b != x;
    **b = x;
    return changed;
  }
  return false;
}

const ParamInfo* find_param(const std::vector<ParamInfo>& params, const std::string& name) {
  for (const auto& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

ParamValues read_values(const std::vector<ParamInfo>& params) {
  ParamValues v;
  for (const auto& p : params) v[p.name] = p.get();
  return v;
}

namespace {
void require_in_range(const ParamInfo& p, double v) {
  if (v >= p.min && v <= p.max) return;
  std::ostringstream m;
  m << "parameter '" << p.name << "' = " << v << " is outside " << p.min << " .. " << p.max;
  throw Error(m.str());
}
}  // namespace

void apply_values(const std::vector<ParamInfo>& params, const ParamValues& values) {
  for (const auto& p : params) {
    const auto it = values.find(p.name);
    if (it == values.end()) continue;
    require_in_range(p, it->second);
    p.set(it->second);
  }
}

void check_ranges(const std::vector<ParamInfo>& params) {
  for (const auto& p : params) {
    if (!p.bound()) continue;
    const double v = p.get();
    // A float field holds the table's bounds rounded to float (0.005 is 0.0049999999): compare
    // with those, so the table's own min and max are accepted.
    const bool f = p.kind == ParamInfo::Kind::Float;
    const double lo = f ? static_cast<double>(static_cast<float>(p.min)) : p.min;
    const double hi = f ? static_cast<double>(static_cast<float>(p.max)) : p.max;
    if (v >= lo && v <= hi) continue;
    std::ostringstream m;
    m << p.name << ": must be in " << p.min << ".." << p.max << ", got " << v;
    throw Error(m.str());
  }
}

}  // namespace lb
