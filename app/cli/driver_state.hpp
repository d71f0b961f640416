#pragma once
// What a compute command's options fill in (driver.cpp) and what a run hands the report
// (driver_report.cpp).
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command_defs.hpp"
#include "data_openers.hpp"
#include "param_options.hpp"

namespace lb::cli {

// An output flag: the file (or folder) it names and the output it gets.
struct OutputFlag {
  std::string flag;    // the first of its names, for messages
  std::string output;  // "" : the command's primary output
  std::string role;    // its name in the report
  std::vector<std::string> folder_outputs;
  std::string path;    // "" when not given
};

struct CommandState {
  CommandDef def;
  std::vector<const AlgorithmSpec*> specs;  // one per --method row
  const AlgorithmSpec* grid_spec = nullptr;  // def.general_grid_algorithm's, when registered
  std::unique_ptr<DataOpener> opener;
  std::shared_ptr<GivenParams> given = std::make_shared<GivenParams>();
  std::deque<OutputFlag> outputs;  // deque: the options hold references to the paths
  std::string backend = "auto", variant, method, json, crop;
  int repeat = 1;
  std::string views;     // render --views UxV ("": one image)
  double view_step = 0;  // render --view-step (0: the whole usable range)
};

// The parameters of a step the run left out (lfdepth --refine none: those only the refined
// map depends on, refine_mode included): the report names none of them.
std::set<std::string> left_out_params(const CommandDef& def, const AlgorithmSpec& spec, const std::string& primary);

// render --views: the U x V light field of perspective views into the --out folder
// (view_grid.cpp). Called by the driver instead of the runner when --views is given.
void run_view_grid(CommandState& st, const AlgorithmSpec& spec);
// Refuses a given parameter that `spec` (the algorithm that runs) lacks when the command has
// a general-grid algorithm beside its method's (driver.cpp).
void check_foreign_params(const CommandState& st, const AlgorithmSpec& spec, const AlgorithmData& data);

// One file written by a run.
struct Written {
  std::string role, path;
  int width = 0, height = 0;
};

// What the report needs of a finished run.
struct RunRecord {
  const AlgorithmSpec* spec = nullptr;
  const MethodChoice* method = nullptr;
  std::string backend, device, reason, variant_requested, last_variant, primary;
  ParamValues values;  // complete
  nlohmann::json scores;
  nlohmann::json metrics = nlohmann::json::object();  // eval::evaluate of the primary map (with truth)
  std::string protocol;                               // its protocol's name
  std::vector<double> wall_ms;     // per repeat of the primary output
  std::vector<double> compute_ms;  // per repeat: the runner's timing rows it recorded (kernels, CPU passes)
  std::vector<Written> written;
};

// The JSON report (written atomically with the run's other outputs).
void write_report(const CommandState& st, const RunRecord& rec, Runner& runner, const AlgorithmData& data);

}  // namespace lb::cli
