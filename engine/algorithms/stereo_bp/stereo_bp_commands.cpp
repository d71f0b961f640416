// The BP module's documented CLI command: stereo (method bp, the default; stereo_local adds
// method local to the same row)
// (AlgorithmSpec::commands; the CLI generates the subcommands, docs/CLI.md documents them).
#include "lightbench/cli_commands.hpp"

namespace lb {

std::vector<CommandDef> stereo_bp_commands() {
  std::vector<CommandDef> v;
  {
    CommandDef c;
    c.name = "stereo";
    c.help = "disparity of a rectified stereo pair (belief propagation or local windows)";
    c.methods = {{"bp", "stereo-bp", ""}};
    c.default_method = "bp";
    c.method_help = "bp (hierarchical belief propagation) | local (center-biased windows)";
    c.primary = "disparity";
    c.outputs = {{{"--out"}, "disparity", "disparity map: .png (scaled for viewing) or .pfm (exact)", true, {}, ""},
                 {{"--error-map"}, "error", "with ground truth: wrong pixels in red (.png)", false, {}, ""}};
    c.png = {{"disparity", "", "ndisp", -1.0, false}};  // 0 black, ndisp - 1 white
    c.max_repeat = 10000;
    v.push_back(c);
  }
  return v;
}

}  // namespace lb
