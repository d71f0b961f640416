#pragma once
// The one driver behind every compute command (render, depth, lfdepth, stereo, mad and each
// registered algorithm's own command): options generated from the spec, data opened by the
// opener of its kind, a loop around Runner::run, outputs written from host surfaces, and a
// JSON report from the parameters, Runner::scores() and Runner::timings().
#include <CLI/CLI.hpp>

#include "command_defs.hpp"
#include "commands.hpp"
#include "lightbench/algorithm.hpp"

namespace lb::cli {

// Registers the command's options on `app` and returns its action.
Action add_compute_command(CLI::App& app, const CommandDef& def, const AlgorithmRegistry& registry);

// Backend: the registry's choice; an algorithm without a CUDA runner runs on the CPU under
// --backend auto and is refused under --backend cuda. *reason says which and why.
BackendKind choose_backend(const AlgorithmRegistry& reg, const AlgorithmSpec& spec, const std::string& text,
                           std::string* reason);

// The registry's algorithms, variants (with notes) and outputs, for --help.
std::string describe_algorithms(const AlgorithmRegistry& registry, const std::vector<std::string>& ids);

}  // namespace lb::cli
