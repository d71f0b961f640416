#include "py_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "lightbench/backend.hpp"
#include "lightbench/error.hpp"
#include "lightbench/param_text.hpp"

namespace lb::py {

ParamValues checked_params(const AlgorithmSpec& spec, const AlgorithmData& data,
                           const std::map<std::string, GivenValue>& given) {
  ParamValues v;
  const ParamTable table = spec.params ? spec.params(&data) : ParamTable{};
  for (const auto& [name, g] : given) {
    const ParamInfo* p = find_param(table.infos, name);
    if (!p) {
      std::string known;
      for (const ParamInfo& q : table.infos) known += (known.empty() ? "" : ", ") + q.name;
      throw Error(spec.id + ": unknown parameter or input '" + name + "' (parameters: " + known + ")");
    }
    double x = g.number;
    std::string shown = format_number(g.number);
    if (!g.text.empty()) {
      const std::string err = parse_param_text(spec, *p, g.text, &x);
      if (!err.empty()) throw Error(name + ": " + err);
      shown = g.text;
    } else if (g.is_bool && p->kind != ParamInfo::Kind::Bool) {
      throw Error(name + ": must be " + std::string(p->kind == ParamInfo::Kind::Int ? "an integer" : "a finite number") +
                  ", got a bool");
    } else if (p->kind == ParamInfo::Kind::Int && (!std::isfinite(x) || x != std::floor(x))) {
      throw Error(name + ": must be an integer in " + param_range_text(*p) + ", got " + quote_untrusted(shown));
    }
    if (const std::string problem = param_range_problem(*p, x, shown); !problem.empty()) throw Error(name + ": " + problem);
    v[name] = x;
  }
  return v;
}

namespace {

BackendKind choose_backend(const AlgorithmRegistry& reg, const AlgorithmSpec& spec, const std::string& text,
                           std::string* reason) {
  const BackendRequest req = parse_backend_request(text);
  BackendKind kind = reg.choose(req, reason);
  if (kind == BackendKind::Cuda && !spec.cuda) {
    if (req == BackendRequest::Cuda) throw Error("backend cuda: " + spec.id + " has no CUDA runner");
    kind = BackendKind::Cpu;
    *reason = "CPU: " + spec.id + " has no CUDA runner";
  }
  return kind;
}

}  // namespace

RunResult run(const AlgorithmRegistry& reg, const AlgorithmSpec& spec, std::shared_ptr<const AlgorithmData> data,
              const ParamValues& given, const RunRequest& req) {
  RunResult r;
  const BackendKind kind = choose_backend(reg, spec, req.backend, &r.backend_reason);
  // "auto": the default variant (the CPU: the reference), unless the algorithm names one "auto".
  const std::string requested = req.variant == "auto" && !spec.variant("auto") ? "" : req.variant;
  std::string variant;
  try {
    variant = spec.variant_for(kind, requested, req.backend == "cpu");
  } catch (const Error& e) {
    throw Error(std::string("variant: ") + e.what());
  }
  const ParamValues values = complete_params(spec, *data, given);
  if (spec.validate) spec.validate(values, *data);

  // The outputs: the asked ones, else every computed one the data has (inputs aside).
  std::vector<std::string> names = req.outputs;
  const std::vector<OutputInfo> available = spec.outputs_for(data.get());
  if (names.empty()) {
    for (const OutputInfo& o : available)
      if (!o.input) names.push_back(o.name);
  }
  for (const std::string& n : names) {
    const OutputInfo* o = spec.output(n);
    if (!o) {
      std::string known;
      for (const OutputInfo& a : spec.outputs) known += (known.empty() ? "" : ", ") + a.name;
      throw Error("outputs: " + spec.id + " has no output '" + n + "' (" + known + ")");
    }
    if (o->needs_truth && !data->has_truth()) throw Error("outputs: " + n + " needs ground truth (the data has none)");
  }

  std::unique_ptr<Runner> runner = reg.make_runner(spec.id, kind, req.device);
  runner->set_data(data);
  r.backend = to_string(runner->kind());
  r.device = runner->device_name();
  // The first output is the primary: timed as the CLI times its primary (compute: what the
  // runner's timing rows recorded; total: the wall clock with transfers).
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto s = std::make_shared<HostSurface>(spec.output(names[i])->format);
    const double recorded0 = runner->timings().total_recorded_ms();
    const auto t0 = std::chrono::steady_clock::now();
    runner->run(values, variant, names[i], *s);
    if (i == 0) {
      runner->synchronize();
      r.ms_total = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      r.compute_ms = runner->timings().total_recorded_ms() - recorded0;
    }
    r.outputs[names[i]] = std::move(s);
    r.order.push_back(names[i]);
  }
  runner->synchronize();
  r.scores = runner->scores().is_object() ? runner->scores() : nlohmann::json::object();
  r.variant = runner->last_variant().empty() ? "reference" : runner->last_variant();
  TimingRegistry& t = runner->timings();
  for (const auto& k : t.kernels()) {
    const TimingStats s = t.stats(k);
    r.timings[k] = {{"count", s.count},         {"last_ms", s.last_ms}, {"median_ms", s.median_ms},
                    {"min_ms", s.min_ms},       {"max_ms", s.max_ms},   {"median_gbps", s.median_gbps}};
  }
  const ParamTable table = spec.params ? spec.params(data.get()) : ParamTable{};
  for (const ParamInfo& p : table.infos)
    if (const auto it = values.find(p.name); it != values.end()) r.params[p.name] = param_value_json(spec, p, it->second);
  r.params["variant"] = requested.empty() ? (kind == BackendKind::Cuda ? variant : spec.default_variant)
                                          : (kind == BackendKind::Cuda ? variant : requested);
  return r;
}

}  // namespace lb::py
