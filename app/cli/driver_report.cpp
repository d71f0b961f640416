// The JSON report of a compute command: what ran (backend, device, variant), the complete
// parameters (plus the documented nesting of each command), the runner's scores (also at the
// top level, where the documented keys have always been) and its timings.
#include <algorithm>
#include <set>

#include "cli_common.hpp"
#include "driver_state.hpp"
#include "output_files.hpp"

namespace lb::cli {

std::set<std::string> left_out_params(const CommandDef& def, const AlgorithmSpec& spec, const std::string& primary) {
  std::set<std::string> out;
  if (def.primary_if_param.empty() || primary == def.primary_if_output) return out;
  const OutputInfo* skipped = spec.output(def.primary_if_output);
  const OutputInfo* ran = spec.output(primary);
  if (!skipped || !ran) return out;
  for (const auto& p : skipped->params)
    if (std::find(ran->params.begin(), ran->params.end(), p) == ran->params.end()) out.insert(p);
  out.insert(def.primary_if_param);
  return out;
}

void write_report(const CommandState& st, const RunRecord& rec, Runner& runner, const AlgorithmData& data) {
  const AlgorithmSpec& spec = *rec.spec;
  Report rep(st.def.name);
  nlohmann::json& j = rep.root();
  j["algorithm"] = spec.id;
  j["backend"] = rec.backend;
  j["device"] = rec.device;
  j["backend_reason"] = rec.reason;
  j["variant"] = rec.last_variant;
  if (const VariantInfo* v = spec.variant(rec.variant_requested); v && !v->method.empty()) j["method"] = v->method;
  else if (!rec.method->name.empty()) j["method"] = rec.method->name;
  j["primary_output"] = rec.primary;
  // Every image file the data was read from: its depth, and how a 16-bit one became 8 bits.
  j["inputs"] = nlohmann::json::array();
  for (const DataInput& in : data_inputs(data)) {
    nlohmann::json i = {{"role", in.role}, {"path", in.origin.path}, {"bit_depth", in.origin.bit_depth}};
    if (in.origin.was_converted()) i["converted"] = in.origin.converted;
    j["inputs"].push_back(i);
  }

  nlohmann::json params = nlohmann::json::object();
  st.opener->describe(params, j);
  const ParamTable table = spec.params ? spec.params(&data) : ParamTable{};
  // A step left out (lfdepth --refine none): its parameters are not reported, nor the groups
  // that name them (a report describes what ran).
  const std::set<std::string> left_out = left_out_params(st.def, spec, rec.primary);
  for (const ParamInfo& p : table.infos)
    if (const auto it = rec.values.find(p.name); it != rec.values.end() && !left_out.count(p.name))
      params[p.name] = value_json(spec, p, it->second);
  TimingRegistry& timings = runner.timings();
  const auto rows = timings.kernels();
  for (const auto& [group, entries] : st.def.json_groups) {
    const bool names_left_out = std::any_of(entries.begin(), entries.end(), [&](const std::string& e) {
      const auto eq = e.find('=');
      return left_out.count(eq == std::string::npos ? e : e.substr(eq + 1)) > 0;
    });
    if (names_left_out) continue;
    nlohmann::json g = nlohmann::json::object();
    for (const auto& e : entries) {
      const auto eq = e.find('=');
      const std::string key = e.substr(0, eq), src = eq == std::string::npos ? e : e.substr(eq + 1);
      if (src[0] == '@')
        g[key] = std::find(rows.begin(), rows.end(), src.substr(1)) != rows.end() ? timings.stats(src.substr(1)).last_ms
                                                                                  : 0.0;
      else if (src == "$backend")
        g[key] = rec.backend;
      else if (params.contains(src))
        g[key] = params[src];
    }
    // "/name": a top-level group (lfdepth's documented "refine"); others under parameters.
    if (group[0] == '/') j[group.substr(1)] = g;
    else params[group] = g;
  }
  params["variant"] = rec.variant_requested;
  params["repeat"] = st.repeat;
  if (!st.crop.empty()) params["crop"] = st.crop;
  j["parameters"] = params;

  for (const Written& w : rec.written) {
    rep.add_output(w.role, w.path, w.width, w.height);
    // A map written as an image: its colour map, range and unit, so the figure can be read.
    // (A folder output's .pfm has its .png beside it.)
    std::string output = w.role, png = w.path;
    for (const OutputFlag& o : st.outputs)
      if (o.path == w.path && !o.output.empty()) output = o.output;
    if (png.size() > 4 && png.compare(png.size() - 4, 4, ".pfm") == 0) png.replace(png.size() - 4, 4, ".png");
    if (const ColourRecord* c = colour_record(png)) {
      const OutputInfo* info = spec.output(output);
      j["outputs"].back()["colour"] = {{"path", png}, {"map", c->map}, {"min", c->min}, {"max", c->max},
                                       {"unit", info ? info->unit : ""}};
    }
  }

  // Scores: under "scores" as the runner gives them, and at the top level. Scores nested
  // under the primary output's name (lightfield's "refined") are the primary's: they take
  // the top level, and the runner's top-level ones move under displaced_scores_key.
  nlohmann::json scores = rec.scores.is_object() ? rec.scores : nlohmann::json::object();
  j["scores"] = scores;
  if (!rec.metrics.empty()) {
    j["metrics"] = rec.metrics;  // {mask: {key: value}}: what `eval` reports for this map
    j["protocol"] = rec.protocol;
  }
  nlohmann::json top = scores;
  if (scores.contains(rec.primary) && scores[rec.primary].is_object()) {
    top = scores[rec.primary];
    if (!st.def.displaced_scores_key.empty()) {
      nlohmann::json displaced = scores;
      displaced.erase(rec.primary);
      if (!displaced.empty()) j[st.def.displaced_scores_key] = displaced;
    }
  }
  for (const auto& [k, v] : top.items())
    if (!j.contains(k)) j[k] = v;
  if (!j.contains("evaluated_pixels") && top.contains("scored_pixels")) j["evaluated_pixels"] = top["scored_pixels"];
  j["ms_total"] = median(rec.wall_ms);  // wall clock of the primary run, with its transfers
  // compute_ms: what the runner's timing rows recorded for the primary run (CUDA events, CPU
  // pass timers), median over --repeat; `ms` is the runner's own figure where it gives one.
  j["compute_ms"] = median(rec.compute_ms);
  if (!j.contains("ms")) j["ms"] = median(rec.compute_ms) > 0.0 ? j["compute_ms"] : j["ms_total"];
  j["last_ms"] = rec.scores.contains("ms") ? rec.scores["ms"] : nlohmann::json(rec.wall_ms.empty() ? 0.0 : rec.wall_ms.back());
  if (!j.contains("tuning")) j["tuning"] = "";
  rep.add_timings(runner.timings());
  rep.write(st.json);
}

}  // namespace lb::cli
