#pragma once
// Typed storage for a spec's parameter table (AlgorithmSpec::params gives unbound ParamInfos
// and default values): each parameter gets a field of its own type (int, float, bool), so the
// generated sliders and checkboxes bind to it exactly as to a typed parameter struct, floats
// stay floats (run keys and reports see the value the runner gets), and ranges are the table's.
#include <deque>
#include <vector>

#include "lightbench/algorithm.hpp"
#include "lightbench/params.hpp"

namespace lb::viewer {

class ParamStore {
 public:
  ParamStore() = default;
  ParamStore(const ParamStore&) = delete;
  ParamStore& operator=(const ParamStore&) = delete;
  // Rebinds to `table` with its defaults; with `keep`, the kept values that the new ranges
  // allow stay (a new light field keeps the panel's window where it still fits).
  void reset(const ParamTable& table, const ParamValues* keep = nullptr);
  const std::vector<ParamInfo>& infos() const { return infos_; }
  ParamValues values() const { return read_values(infos_); }

 private:
  std::deque<int> ints_;
  std::deque<float> floats_;
  std::deque<bool> bools_;
  std::vector<ParamInfo> infos_;
};

}  // namespace lb::viewer
