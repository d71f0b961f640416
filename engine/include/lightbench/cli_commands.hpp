// The documented CLI commands an algorithm declares in its spec (AlgorithmSpec::commands):
// `lightbench-cli render`, `depth`, `lfdepth`, `stereo`, `mad` with their legacy flags kept as
// aliases (docs/CLI.md, "aliases"), the report's JSON groups and PNG scales. Pure data: the
// CLI (app/cli) generates its subcommands from these rows and every algorithm's parameter
// table; nothing here computes or parses. Several algorithms may declare a command of the same
// name (stereo: bp and local); the CLI merges their methods in registry order.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lb {

struct ParamAlias {
  std::string flag;                 // "--sgm"
  std::vector<std::string> params;  // {"semi_global"}, or {"view_x", "view_y"} for "--view SX,SY"
  std::string help;
  std::optional<double> flag_value;  // a flag without a value: sets params[0] ("--divide" -> 0)
  std::string none_word;             // a value that leaves the parameter unset ("--refine none")
};

// A legacy output flag onto one of the spec's outputs.
struct OutputAlias {
  std::vector<std::string> flags;  // {"--aif", "--all-in-focus"}
  std::string output;              // "aif"
  std::string help;
  bool required = false;
  // A folder flag (mad --maps DIR): DIR/<name>.pfm and DIR/<name>.png for each of these.
  std::vector<std::string> folder_outputs;
  std::string role;  // its name in the report's outputs ("" : the output's name)
};

// One choice of --method: the algorithm it runs and, where the method is a family of one
// algorithm's variants (lfdepth: cae | binned | exact), the variant that stands for it.
struct MethodChoice {
  std::string name;       // "bp"
  std::string algorithm;  // "stereo-bp"
  std::string variant;    // "" or the family's default variant ("coalesced")
};

// How an R32F output is mapped to 8 bits for an image file (a .pfm is always exact).
struct PngScale {
  std::string output;
  // The range's ends from parameters; no hi_param: the map's min .. max; no lo_param: 0.
  std::string lo_param, hi_param;
  double hi_offset = 0.0;          // added to hi (stereo: ndisp - 1 is white)
  bool colour = false;             // plenoptic depth colour map, else gray
};

struct CommandDef {
  std::string name, help;
  std::vector<MethodChoice> methods;  // one row: no --method
  std::string default_method;
  std::string method_help;
  std::string primary;  // the output --out names and --repeat repeats
  // The primary output is primary_if_output unless primary_if_param's alias is given its none
  // word (lfdepth: the refined map, the best the product makes, unless --refine none, which
  // writes the raw WTA map and reports no refinement parameter). primary_output() decides.
  std::string primary_if_param, primary_if_output;
  std::vector<ParamAlias> aliases;
  std::vector<OutputAlias> outputs;
  // parameters.<group> = {name: value} in the JSON report (the documented nesting). An entry
  // is a parameter's name, or "key=param" (renamed), "key=@timing row" (its last ms, 0 when it
  // did not run) or "key=$backend". A group named "/name" sits at the top level instead.
  std::vector<std::pair<std::string, std::vector<std::string>>> json_groups;
  std::vector<PngScale> png;
  // Scores nested under the primary output's name become the top-level keys; the runner's
  // top-level ones move under this key (lfdepth: "unrefined").
  std::string displaced_scores_key;
  int max_repeat = 100000;
  bool generic = false;  // a registry algorithm's own command
  // render: --views UxV [--view-step S] writes a light field of perspective views into the
  // folder --out names instead of one image (view_grid.cpp).
  bool view_grid = false;
  // The algorithm that runs instead of the method's when the data has a general micro-lens
  // grid (DataOpener::general_grid: render / depth of a --calib raw or a hexagonal preset run
  // "plenoptic-hex"); its parameters get flags too. "" : none.
  std::string general_grid_algorithm;
};

// The documented commands (docs/CLI.md), in the order --help lists them.

}  // namespace lb
