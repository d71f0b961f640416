#pragma once
// ImGui widgets generated from lb::ParamInfo tables (the engine declares each parameter once,
// with its range; the panel and the CLI are derived from that).
#include <functional>
#include <string>
#include <vector>

#include "lightbench/params.hpp"

namespace lb::viewer {

// One slider per parameter (Int: SliderInt, Float: SliderFloat; a 0/1 Int a checkbox), help
// as a tooltip. Returns true when any value changed this frame.
bool param_sliders(const std::vector<ParamInfo>& params);
// While on, a dragged slider applies its value when released instead of every frame (the
// app turns it on while runs are slow: a CPU refinement of a large light field takes seconds).
void set_apply_on_release(bool on);
bool apply_on_release();

// A path field with an Open button (Enter also opens). Calls open(path) when asked; an
// lb::Error (or any exception) lands in *error and the caller's data stays as it was.
// Returns true when open() succeeded.
bool path_open_row(const char* id, const char* hint, std::string& path, std::string* error,
                   const std::function<void(const std::string&)>& open);
// The red one-line error under a control (nothing when empty).
void error_line(const std::string& error);

// How a Float parameter's slider shows and moves: a range spanning two decades or more above
// zero (an eps of 1e-6 .. 1e-1) is logarithmic, where a linear slider jumps a decade per
// pixel; one starting below 0.01 is labelled %.2e (a "%.2f" label would read 0.00).
struct FloatSliderStyle {
  const char* format;
  int flags;  // ImGuiSliderFlags
};
FloatSliderStyle float_slider_style(const ParamInfo& p);

// Current value of a parameter as double (ParamInfo::get).
inline double param_value(const ParamInfo& p) { return p.get(); }
// Sets a parameter, rounded for Int and clamped to its range (ParamInfo::set).
inline void set_param_value(const ParamInfo& p, double v) { p.set(v); }

}  // namespace lb::viewer
