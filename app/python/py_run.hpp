#pragma once
// One run of a registered algorithm from Python, by the CLI's rules (driver.cpp): the backend
// choice, variant_for, the parameters checked against the data's table with the CLI's
// messages, complete_params + validate, then Runner::run per output into host surfaces.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lightbench/algorithm.hpp"
#include "lightbench/surface.hpp"

namespace lb::py {

// A parameter as the user passed it: a number, or text (a value name: refine_mode="subpixel").
struct GivenValue {
  double number = 0;
  std::string text;  // non-empty: parse it (parse_param_text)
  bool is_bool = false;
};

struct RunRequest {
  std::string backend = "auto";
  std::string variant = "auto";
  int device = 0;
  std::vector<std::string> outputs;  // empty: every computed output the data has
};

struct RunResult {
  std::map<std::string, std::shared_ptr<HostSurface>> outputs;
  std::vector<std::string> order;  // outputs in the spec's order
  nlohmann::json scores = nlohmann::json::object();
  nlohmann::json timings = nlohmann::json::object();  // the CLI report's "timings"
  nlohmann::json params = nlohmann::json::object();   // the CLI report's "parameters" values
  std::string variant, backend, backend_reason, device;
  double compute_ms = 0, ms_total = 0;
};

// The parameter values of `given` for the spec on the data: unknown names, bad forms and values
// outside the data's range are refused in one line naming the keyword.
ParamValues checked_params(const AlgorithmSpec& spec, const AlgorithmData& data,
                           const std::map<std::string, GivenValue>& given);

// Runs it (no Python object is touched: callers release the GIL around it).
RunResult run(const AlgorithmRegistry& reg, const AlgorithmSpec& spec, std::shared_ptr<const AlgorithmData> data,
              const ParamValues& values, const RunRequest& req);

}  // namespace lb::py
