// The MAD module's documented CLI command: mad, its --maps folder of the HI and LO maps
// (AlgorithmSpec::commands; the CLI generates the subcommands, docs/CLI.md documents them).
#include "lightbench/cli_commands.hpp"

namespace lb {

std::vector<CommandDef> mad_commands() {
  std::vector<CommandDef> v;
  {
    CommandDef c;
    c.name = "mad";
    c.help = "MAD image quality (Most Apparent Distortion) of a distorted image vs its reference";
    c.methods = {{"", "mad", ""}};
    c.primary = "hi";
    c.outputs = {{{"--maps"}, "", "folder for the HI and LO maps (PFM raw values + colour-mapped PNG)", false,
                  {"hi", "lo"}, ""}};
    c.max_repeat = 10000;
    v.push_back(c);
  }
  return v;
}

}  // namespace lb
