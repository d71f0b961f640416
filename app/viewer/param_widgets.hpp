#pragma once
// ImGui widgets generated from lb::ParamInfo tables (the engine declares each parameter once,
// with its range; the panel and the CLI are derived from that).
#include <string>
#include <vector>

#include "lightbench/plenoptic_params.hpp"

namespace lb::viewer {

// One slider per parameter (Int: SliderInt, Float: SliderFloat), help as a tooltip.
// Returns true when any value changed this frame.
bool param_sliders(const std::vector<ParamInfo>& params);

// Current value of a parameter as double.
double param_value(const ParamInfo& p);
// Sets a parameter, rounded for Int and clamped to its range.
void set_param_value(const ParamInfo& p, double v);
// The parameter called `name`, or nullptr.
const ParamInfo* find_param(const std::vector<ParamInfo>& params, const std::string& name);

}  // namespace lb::viewer
