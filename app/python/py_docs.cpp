#include "py_docs.hpp"

#include <cmath>

#include "lightbench/param_text.hpp"
#include "py_data.hpp"

namespace lb::py {

namespace {
const char* kind_name(ParamInfo::Kind k) {
  switch (k) {
    case ParamInfo::Kind::Int: return "int";
    case ParamInfo::Kind::Float: return "float";
    case ParamInfo::Kind::Bool: return "bool";
  }
  return "";
}
}  // namespace

nlohmann::json describe_json(const AlgorithmSpec& spec) {
  nlohmann::json j;
  j["id"] = spec.id;
  j["name"] = spec.name;
  j["spec"] = spec.spec;
  j["data"] = to_string(spec.data);
  j["inputs"] = input_names(spec.data);
  nlohmann::json params = nlohmann::json::object();
  const ParamTable t = spec.params ? spec.params(nullptr) : ParamTable{};
  for (const ParamInfo& p : t.infos) {
    nlohmann::json e = {{"min", p.min}, {"max", p.max}, {"kind", kind_name(p.kind)}, {"label", p.label},
                        {"doc", p.help}, {"outputs", p.outputs}};
    e["default"] = std::isfinite(p.default_value) ? nlohmann::json(p.default_value) : nlohmann::json(nullptr);
    if (const auto it = spec.value_names.find(p.name); it != spec.value_names.end()) e["values"] = it->second;
    params[p.name] = e;
  }
  j["params"] = params;
  j["variants"] = nlohmann::json::array();
  for (const VariantInfo& v : spec.variants)
    j["variants"].push_back({{"name", v.name}, {"method", v.method}, {"bit_identical", v.bit_identical},
                             {"cpu", v.cpu}, {"note", v.note}});
  j["default_variant"] = spec.default_variant;
  j["outputs"] = nlohmann::json::object();
  for (const OutputInfo& o : spec.outputs)
    j["outputs"][o.name] = {{"label", o.label},
                            {"format", o.format == SurfaceFormat::R32F ? "float32" : "uint8 rgba"},
                            {"unit", o.unit},
                            {"needs_truth", o.needs_truth},
                            {"input", o.input}};
  return j;
}

std::string run_doc(const AlgorithmRegistry& registry) {
  std::string s =
      "run(id, *, backend='auto', variant='auto', device=0, outputs=None, **inputs_and_params) -> Result\n\n"
      "Runs a registered algorithm as `lightbench-cli` does (same ranges, errors and results). Inputs are\n"
      "NumPy arrays or file paths; parameters are keywords (numbers, or value names). outputs: a list of\n"
      "output names (default: every computed output the data has; the first is timed as the CLI's primary).\n"
      "Raises lightbench.Error with the CLI's one-line message.\n";
  for (const AlgorithmSpec& spec : registry.all()) {
    s += "\n" + spec.id + ": " + spec.name + " (" + to_string(spec.data) + ")\n  inputs:";
    for (const auto& n : input_names(spec.data)) s += " " + n;
    s += "\n  parameters (range without data; default):\n";
    const ParamTable t = spec.params ? spec.params(nullptr) : ParamTable{};
    for (const ParamInfo& p : t.infos) {
      s += "    " + p.name + " [" + param_range_text(p) + "]";
      if (std::isfinite(p.default_value)) s += " = " + format_number(p.default_value);
      if (const auto it = spec.value_names.find(p.name); it != spec.value_names.end()) {
        s += " (";
        for (std::size_t i = 0; i < it->second.size(); ++i) s += (i ? " | " : "") + it->second[i];
        s += ")";
      }
      s += ": " + p.help + "\n";
    }
    s += "  variants:";
    for (const VariantInfo& v : spec.variants) s += " " + v.name;
    s += "\n  outputs:";
    for (const OutputInfo& o : spec.outputs) s += " " + o.name;
    s += "\n";
  }
  return s;
}

}  // namespace lb::py
