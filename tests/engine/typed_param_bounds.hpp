// A typed parameter struct's validate() against its describe() table (issue 40 item 2: the
// table is the only declaration of a range). For every bound parameter: its min and its max
// pass validate() (after `repair` keeps the cross-parameter rules, e.g. pmin <= pmax), and one
// step outside either (written into the field directly, past ParamInfo::set's clamp) is refused
// with an lb::Error whose message names the parameter. A validate() with its own narrower
// range fails the first check; one that misses the table's range fails the second.
#pragma once
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "lightbench/error.hpp"
#include "lightbench/params.hpp"

namespace lb::test {

// Writes v into the bound field as it is (no clamp, no rounding beyond the field's type).
inline void write_raw(const ParamInfo& p, double v) {
  if (auto* i = std::get_if<int*>(&p.value)) **i = static_cast<int>(v);
  else if (auto* f = std::get_if<float*>(&p.value)) **f = static_cast<float>(v);
  else if (auto* b = std::get_if<bool*>(&p.value)) **b = v != 0.0;
}

template <class P>
void check_typed_bounds(const P& base, const std::function<std::vector<ParamInfo>(P&)>& describe,
                        const std::function<void(const P&)>& validate,
                        const std::function<void(P&, const std::string&)>& repair) {
  P probe = base;
  const std::vector<ParamInfo> table = describe(probe);
  REQUIRE(!table.empty());
  for (std::size_t i = 0; i < table.size(); ++i) {
    const ParamInfo& info = table[i];
    if (info.kind == ParamInfo::Kind::Bool) continue;
    CAPTURE(info.name);
    for (const double v : {info.min, info.max}) {
      CAPTURE(v);
      P p = base;
      write_raw(describe(p)[i], v);
      repair(p, info.name);
      CHECK_NOTHROW(validate(p));
    }
    const double step = info.kind == ParamInfo::Kind::Int ? 1.0 : 1e-3 * std::max(1.0, info.max - info.min);
    for (const double v : {info.min - step, info.max + step}) {
      CAPTURE(v);
      P p = base;
      write_raw(describe(p)[i], v);  // no repair: the range check comes before any rule
      std::string msg;
      try {
        validate(p);
      } catch (const Error& e) {
        msg = e.what();
      }
      CHECK_MESSAGE(msg.find(info.name) != std::string::npos,
                    "validate() accepted or did not name the parameter: '" << msg << "'");
    }
  }
}

}  // namespace lb::test
