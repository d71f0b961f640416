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

// `bench`: `bench <algorithm>` for every registered algorithm, its workloads through the
// Runner (cmd_bench.cpp), and the kernel-level benches (add_kernel_benches).
Action add_bench(CLI::App& app, const AlgorithmRegistry& registry);
struct BenchSub {
  CLI::App* app = nullptr;
  Action run;
};
// The kernel-level benches (cmd_bench_kernels.cpp, CUDA builds: render, depth, lfdepth, stereo,
// local, mad-kernels; without CUDA, cmd_bench_unavailable.cpp: the same names, each refused in
// one line).
void add_kernel_benches(CLI::App& bench, std::vector<BenchSub>& subs);
// Their subcommands (cmd_bench_<what>.cpp, CUDA builds): each registers itself under `bench`,
// sets *sub to its CLI11 subcommand and returns its action.
Action add_bench_render(CLI::App& bench, CLI::App** sub);
Action add_bench_depth(CLI::App& bench, CLI::App** sub);
Action add_bench_lfdepth(CLI::App& bench, CLI::App** sub);
Action add_bench_stereo(CLI::App& bench, CLI::App** sub);
Action add_bench_local(CLI::App& bench, CLI::App** sub);
Action add_bench_mad(CLI::App& bench, CLI::App** sub);

}  // namespace lb::cli
