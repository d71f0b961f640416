#pragma once
// What a compute command is, declared as data: the algorithm(s) it runs, its primary output,
// and the legacy flags that stay as aliases onto the contract's parameters and outputs. The
// driver (driver.cpp) generates everything else from the algorithm's spec: one flag per
// parameter (kebab case of its name), --variant, one flag per output, --backend, --repeat,
// --json. Every registered algorithm gets a generic command named by its id
// (generic_command); the documented commands (render, depth, lfdepth, stereo, mad) are the
// rows the algorithms declare in their specs (AlgorithmSpec::commands, lightbench/cli_commands.hpp),
// collected by documented_commands().
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lightbench/algorithm.hpp"
#include "lightbench/cli_commands.hpp"

namespace lb::cli {

// A legacy flag onto one parameter (or two, for a pair "A,B").
using lb::CommandDef;
using lb::MethodChoice;
using lb::OutputAlias;
using lb::ParamAlias;
using lb::PngScale;

// The documented commands: every registered algorithm's AlgorithmSpec::commands in registry
// order, rows of the same name merged (their methods appended).
std::vector<CommandDef> documented_commands(const AlgorithmRegistry& registry);
CommandDef generic_command(const AlgorithmSpec& spec);
// The first output the algorithm computes without ground truth: a generic command's primary,
// a bench workload's default ("" for none).
std::string first_computed_output(const AlgorithmSpec& spec);

}  // namespace lb::cli
