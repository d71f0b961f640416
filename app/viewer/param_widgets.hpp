#pragma once
// ImGui widgets generated from lb::ParamInfo tables (the engine declares each parameter once,
// with its range; the panel and the CLI are derived from that).
#include <functional>
#include <string>
#include <vector>

#include "lightbench/plenoptic_params.hpp"

namespace lb::viewer {

// One slider per parameter (Int: SliderInt, Float: SliderFloat), help as a tooltip.
// Returns true when any value changed this frame.
bool param_sliders(const std::vector<ParamInfo>& params);

// A path field with an Open button (Enter also opens). Calls open(path) when asked; an
// lb::Error (or any exception) lands in *error and the caller's data stays as it was.
// Returns true when open() succeeded.
bool path_open_row(const char* id, const char* hint, std::string& path, std::string* error,
                   const std::function<void(const std::string&)>& open);
// The red one-line error under a control (nothing when empty).
void error_line(const std::string& error);

// Current value of a parameter as double.
double param_value(const ParamInfo& p);
// Sets a parameter, rounded for Int and clamped to its range.
void set_param_value(const ParamInfo& p, double v);
// The parameter called `name`, or nullptr.
const ParamInfo* find_param(const std::vector<ParamInfo>& params, const std::string& name);

}  // namespace lb::viewer
