#pragma once
// Each command registers its options on a CLI11 subcommand and returns the action to run.
#include <functional>

#include <CLI/CLI.hpp>

#include "lightbench/algorithm.hpp"

namespace lb::cli {

using Action = std::function<void()>;

Action add_generate(CLI::App& app);
// generate-stereo: a folder of synthetic stereo scenes (Middlebury 2014 layout).
Action add_generate_stereo(CLI::App& app);
// `eval` (cmd_eval.cpp) and `batch` (cmd_batch.cpp, batch_run.cpp, batch_report.cpp).
Action add_eval(CLI::App& app);
Action add_batch(CLI::App& app, const AlgorithmRegistry& registry);
// The compute commands: driver.hpp (add_compute_command).

// `bench <algorithm>` for every registered algorithm: its workloads through the Runner
// (cmd_bench.cpp), timed by the runner's timing registry.
Action add_bench(CLI::App& app, const AlgorithmRegistry& registry);

}  // namespace lb::cli
