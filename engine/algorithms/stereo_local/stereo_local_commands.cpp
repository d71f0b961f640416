// The local-window module's documented CLI command: method local of `stereo` (the row
// stereo_bp declares; the CLI merges rows of one name, so this row carries only the method)
// (AlgorithmSpec::commands; the CLI generates the subcommands, docs/CLI.md documents them).
#include "lightbench/cli_commands.hpp"

namespace lb {

std::vector<CommandDef> stereo_local_commands() {
  std::vector<CommandDef> v;
  {
    CommandDef c;
    c.name = "stereo";
    c.methods = {{"local", "stereo-local", ""}};
    v.push_back(c);
  }
  return v;
}

}  // namespace lb
