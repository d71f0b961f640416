// The viewer's entries, from the registry and the specs' display declarations
// (lightbench/display_decl.hpp, AlgorithmSpec::display): one entry per spec, except specs that
// declare the same group (one entry, a part each, in registry order). Nothing here names an
// algorithm: an LB_REGISTER_ALGORITHM'ed one that declares nothing gets an entry of its own.
#include <set>

#include "lightbench/runners.hpp"
#include "spec_algorithm.hpp"

namespace lb::viewer {

std::vector<AlgorithmLayout> algorithm_layouts() {
  const AlgorithmRegistry& registry = builtin_registry();
  // The general-grid algorithms: those a command runs on data with a micro-lens geometry.
  std::set<std::string> general;
  for (const AlgorithmSpec& spec : registry.all())
    for (const CommandDef& c : spec.commands)
      if (!c.general_grid_algorithm.empty()) general.insert(c.general_grid_algorithm);

  std::vector<AlgorithmLayout> out;
  for (const AlgorithmSpec& spec : registry.all()) {
    const DisplayDecl& d = spec.display;
    AlgorithmLayout* entry = nullptr;
    if (!d.group.empty())
      for (auto& l : out)
        if (l.id == d.group) entry = &l;
    if (!entry) {
      out.emplace_back();
      entry = &out.back();
      entry->id = d.group;  // "" : the spec's id
      entry->name = d.group.empty() ? "" : d.group_name;
      entry->general_grid = general.count(spec.id) > 0;
    }
    SpecPart part;
    part.spec_id = spec.id;
    if (!d.group.empty()) {
      part.prefix = d.prefix;
      part.rename = d.rename;
      part.label = d.label;
    }
    entry->parts.push_back(part);
    for (const std::string& a : d.aliases) entry->aliases.push_back(a);
  }
  return out;
}

}  // namespace lb::viewer
