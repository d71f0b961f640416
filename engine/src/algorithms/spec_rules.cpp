// Rules every algorithm shares, so the CLI, the viewer and the runners agree: which variant
// a backend runs, and the names of enumerated parameter values (algorithm.hpp).
#include <cmath>

#include "lightbench/algorithm.hpp"
#include "lightbench/error.hpp"

namespace lb {

std::string AlgorithmSpec::variant_for(BackendKind kind, const std::string& requested, bool user_named) const {
  // "name:options" (stereo BP's warp:G, hybrid:R,S): the name is the table's, the options the
  // kernel's own to parse.
  const auto colon = requested.find(':');
  if (kind == BackendKind::Cuda && colon != std::string::npos && colon > 0 && !variant(requested)) {
    const std::string base = requested.substr(0, colon);
    return resolve_variant(base) + requested.substr(colon);
  }
  if (kind == BackendKind::Cuda) return resolve_variant(requested);
  // The CPU computes the reference whatever the variant: a kernel's name there is a mistake
  // the user should hear about, not a silent substitution.
  // The default variant is accepted too: naming it asks for nothing beyond no variant (a
  // viewer's sidecar records it on the CPU, and a script can pass it on any machine).
  // A user who names a kernel (the CLI's --variant) hears that it does not run here, the
  // default's name included: `mad --variant fused --backend cpu` is not a run of fused.
  if (requested.empty() || requested == "reference" || requested == "auto") return "";
  // A CPU variant (the example's rows) runs on the CPU by its name.
  if (const VariantInfo* v = variant(requested); v && v->cpu) return v->name;
  if (!user_named && resolve_variant(requested) == default_variant) return "";
  const std::string known = resolve_variant(requested);
  throw Error("variant '" + known + "' is a CUDA kernel of " + id +
              "; the CPU backend runs the reference (use the CUDA backend, or no variant)");
}

std::string AlgorithmSpec::value_name(const std::string& param, double value) const {
  const auto it = value_names.find(param);
  if (it == value_names.end() || !params) return "";
  for (const ParamInfo& p : params(nullptr).infos) {
    if (p.name != param) continue;
    const double k = std::round(value - p.min);
    if (k >= 0 && k < static_cast<double>(it->second.size())) return it->second[static_cast<std::size_t>(k)];
  }
  return "";
}

}  // namespace lb
