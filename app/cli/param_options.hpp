#pragma once
// Command-line options generated from an algorithm's parameter table (ParamInfo): one flag
// per parameter, named by the parameter in kebab case (semi_global -> --semi-global), plus
// the legacy aliases of a command (command_defs.hpp). Parsing checks the form (an integer, a
// finite number, 0/1/on/off or a value name); the range is checked once the data is open,
// against the table for that data (ranges such as the patch size depend on it).
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "command_defs.hpp"
#include "lightbench/algorithm.hpp"

namespace lb::cli {

struct GivenParam {
  std::string flag;  // as typed ("--sgm" or "--semi-global"), for messages
  std::string text;  // as typed
  double value = 0;  // parsed (a value name resolved)
  bool none = false;  // the alias's none word ("--refine none"): the step is left out, no value
};
using GivenParams = std::map<std::string, GivenParam>;  // by parameter name

std::string kebab(const std::string& name);

// The aliases of a command (registered first: a legacy flag keeps its legacy form).
void add_alias_options(CLI::App& app, const std::vector<ParamAlias>& aliases,
                       const std::vector<const AlgorithmSpec*>& specs, std::shared_ptr<GivenParams> given);
// A flag per parameter of the specs' tables (the union: stereo's --method picks one of two
// algorithms), skipping flags the command already has.
void add_param_options(CLI::App& app, const std::vector<const AlgorithmSpec*>& specs,
                       std::shared_ptr<GivenParams> given);

// The command's primary output for what was given: primary_if_output unless the
// primary_if_param's none word was given (lfdepth: the refined map unless --refine none).
std::string primary_output(const CommandDef& def, const GivenParams& given);

// The given values that the spec has, range-checked against its table for the data; throws
// lb::Error naming the flag ("--patch: must be an integer in 1..34, got '0'").
ParamValues checked_values(const GivenParams& given, const AlgorithmSpec& spec, const AlgorithmData& data);

// A value as the report shows it: an int, a bool, a float, or its value name.
nlohmann::json value_json(const AlgorithmSpec& spec, const ParamInfo& info, double value);

}  // namespace lb::cli
