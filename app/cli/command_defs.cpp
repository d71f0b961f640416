// The documented commands, collected from the algorithms' specs (each module declares its rows,
// engine/algorithms/<id>/<id>_commands.cpp), and the generic command of an algorithm that
// declares none. Nothing here computes or parses.
#include "command_defs.hpp"

namespace lb::cli {

std::vector<CommandDef> documented_commands(const AlgorithmRegistry& registry) {
  std::vector<CommandDef> v;
  for (const AlgorithmSpec& spec : registry.all())
    for (const CommandDef& row : spec.commands) {
      CommandDef* same = nullptr;
      for (CommandDef& d : v)
        if (d.name == row.name) same = &d;
      if (!same) {
        v.push_back(row);
        continue;
      }
      // A second algorithm's method of the same command (stereo: local after bp).
      same->methods.insert(same->methods.end(), row.methods.begin(), row.methods.end());
      if (same->default_method.empty()) same->default_method = row.default_method;
    }
  return v;
}

CommandDef generic_command(const AlgorithmSpec& spec) {
  CommandDef c;
  c.name = spec.id;
  c.help = spec.name + " (generated from its spec)";
  c.methods = {{"", spec.id, ""}};
  c.primary = first_computed_output(spec);
  c.generic = true;
  return c;
}

std::string first_computed_output(const AlgorithmSpec& spec) {
  for (const auto& o : spec.outputs)
    if (!o.input && !o.needs_truth) return o.name;
  return "";
}

}  // namespace lb::cli
