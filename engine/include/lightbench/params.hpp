#pragma once
// Parameters described once, for generated UIs (the viewer's sliders), the CLI, JSON reports
// and the algorithm contract (algorithm.hpp). A ParamInfo is bound to a field of a typed
// parameter struct (int, float or bool); get() and set() go through that typed binding, so a
// table can never write a float into an int or past its declared range.
#include <limits>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace lb {

// Where a described parameter lives: a field of a typed parameter struct (or nothing, for a
// table used only for its names and ranges).
using ParamTarget = std::variant<std::monostate, int*, float*, bool*>;

struct ParamInfo {
  enum class Kind { Int, Float, Bool };
  std::string name;   // CLI/JSON name, e.g. "patch"
  std::string label;  // panel label
  std::string help;
  Kind kind = Kind::Int;
  ParamTarget value;  // the bound field; its type must match kind
  double min = 0.0;
  double max = 0.0;
  // Filled where the table is made, from what the spec declares once (the Python module, the
  // bench and the CLI's --help read them here): the default for the data (param_table(), from
  // the bound struct's value) and the outputs it invalidates (AlgorithmRegistry::add, from
  // OutputInfo::params). NaN / empty in a table that was not made that way.
  double default_value = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::string> outputs = {};

  bool bound() const { return !std::holds_alternative<std::monostate>(value); }
  // The bound field's value (0 when unbound).
  double get() const;
  // Clamps v to [min, max] (NaN: left unchanged), rounds to the nearest integer for Int,
  // v != 0 for Bool, and stores it in the bound field. Returns whether the field changed.
  bool set(double v) const;
};

// The parameter of that name, or nullptr.
const ParamInfo* find_param(const std::vector<ParamInfo>& params, const std::string& name);

// Named parameter values: the generic form of an algorithm's typed parameter struct (the
// viewer keeps one per algorithm, the CLI builds one from its flags, run keys hash it).
using ParamValues = std::map<std::string, double>;

// The current values of a bound table.
ParamValues read_values(const std::vector<ParamInfo>& params);
// Stores the values whose names the table has (others are ignored). A value outside its
// parameter's range (or NaN) throws lb::Error naming the parameter and the range: runners
// never clamp a request silently.
void apply_values(const std::vector<ParamInfo>& params, const ParamValues& values);
// The range check of a bound table's current values: the ONE place a parameter's range is
// enforced (validate() of every parameter struct calls it with its describe() table, so the
// table's range is the only declaration). Throws lb::Error naming the first value outside its
// parameter's range (or NaN): "radius: must be in 0..32, got -1".
void check_ranges(const std::vector<ParamInfo>& params);

}  // namespace lb
