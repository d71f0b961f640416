#pragma once
// A parameter's value as text and back, one form for every front end: the CLI's flags, the
// Python module's keywords (app/python) and the JSON reports. Value names come from the spec
// (AlgorithmSpec::value_names: --refine-mode subpixel, refine_mode="subpixel").
#include <string>

#include <nlohmann/json.hpp>

#include "lightbench/algorithm.hpp"

namespace lb {

// "%.15g": 0.005, 256, 1e-06.
std::string format_number(double v);
// "1..20" (the table's range).
std::string param_range_text(const ParamInfo& p);
// Parses `text` for the parameter (its form: a value name, on/off for a Bool, an integer, a
// finite number); "" on success with *out set, else the message ("must be an integer, got 'x'").
std::string parse_param_text(const AlgorithmSpec& spec, const ParamInfo& p, const std::string& text, double* out);
// "" when x is inside the table's range, else the message the CLI and Python give:
// "must be an integer in 1..20, got '21'" (`shown`: the value as the user wrote it).
std::string param_range_problem(const ParamInfo& p, double x, const std::string& shown);
// The report's form of a value: its value name, an integer, a bool or the float it is stored as.
nlohmann::json param_value_json(const AlgorithmSpec& spec, const ParamInfo& p, double value);

}  // namespace lb
