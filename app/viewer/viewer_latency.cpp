// ViewerApp, --latency-sweep (latency.hpp): one parameter changed at a time, as a slider
// would, each change once the previous one is on screen; each pane's result timed from the
// change to the end of the frame that shows it.
#include <epoxy/gl.h>

#include <cmath>
#include <cstdio>

#include "lightbench/error.hpp"
#include "param_widgets.hpp"
#include "viewer_app.hpp"

namespace lb::viewer {

namespace {

// The value next to v inside [min, max]: the next integer (or the previous at the top), or a
// 16th of the range for a float (the other way at the top).
double neighbour(const ParamInfo& p, double v) {
  const double step = p.kind == ParamInfo::Kind::Float ? (p.max - p.min) / 16.0 : 1.0;
  return v + step <= p.max ? v + step : v - step;
}

}  // namespace

void ViewerApp::latency_step() {
  if (sweep_.samples <= 0 || sweep_.waiting || sweep_.done()) return;
  const auto params = algorithm().live_params();
  if (sweep_.param.empty()) {
    // The named parameter, or the first whose change gives a pane a new run key.
    auto keys = [&] {
      return algorithm().run_key(panes_[0].source.run, panes_[0].source.output) + "\n" +
             algorithm().run_key(panes_[1].source.run, panes_[1].source.output);
    };
    const std::string key0 = keys();
    for (const ParamInfo& p : params) {
      if (!opt_.latency_param.empty() && p.name != opt_.latency_param) continue;
      const double v0 = p.get(), v1 = neighbour(p, v0);
      if (v1 < p.min || v1 > p.max) continue;
      p.set(v1);
      const bool changes = keys() != key0;
      p.set(v0);
      if (changes || !opt_.latency_param.empty()) {
        sweep_.param = p.name;
        sweep_.a = v0;
        sweep_.b = v1;
        break;
      }
    }
    if (sweep_.param.empty()) {
      report(opt_.latency_param.empty()
                 ? "--latency-sweep: no parameter of " + algorithm().name() + " changes what the panes show"
                 : "--latency-param: " + algorithm().name() + " has no parameter '" + opt_.latency_param +
                       "' with room to change");
      sweep_.samples = 0;
      return;
    }
  }
  const ParamInfo* p = find_param(params, sweep_.param);
  if (!p) return;
  // The warm-up's samples (first upload, first launches) are not kept.
  if (sweep_.changes == sweep_.warmup) latency_.clear();
  set_param_value(*p, sweep_.changes % 2 == 0 ? sweep_.b : sweep_.a);
  ++sweep_.changes;
  sweep_.waiting = true;
}

void ViewerApp::latency_frame_end() {
  // The sweep times the frame until the GPU has drawn it (a swap only queues the work).
  if (sweep_.samples > 0) glFinish();
  latency_.frame_presented(now_seconds());
  // Both panes' runs of the change are on screen (or it started none: a cached result, a
  // failed run).
  if (sweep_.waiting && !runs_pending()) sweep_.waiting = false;
}

nlohmann::json ViewerApp::latency_json() const {
  nlohmann::json j = latency_.report();
  j["param"] = sweep_.param;
  j["values"] = {sweep_.a, sweep_.b};
  j["changes"] = sweep_.changes;
  j["warmup"] = sweep_.warmup;
  j["samples"] = latency_.samples_json();
  return j;
}

}  // namespace lb::viewer
