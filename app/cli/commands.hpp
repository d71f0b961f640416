#pragma once
// Each command registers its options on a CLI11 subcommand and returns the action to run.
#include <functional>

#include <CLI/CLI.hpp>

namespace lb::cli {

using Action = std::function<void()>;

Action add_generate(CLI::App& app);
Action add_render(CLI::App& app);
Action add_bench(CLI::App& app);

}  // namespace lb::cli
