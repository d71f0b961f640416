#pragma once
// Each command registers its options on a CLI11 subcommand and returns the action to run.
#include <functional>

#include <CLI/CLI.hpp>

namespace lb::cli {

using Action = std::function<void()>;

Action add_generate(CLI::App& app);
Action add_render(CLI::App& app);
Action add_bench(CLI::App& app);
Action add_depth(CLI::App& app);
// `bench depth`, a subcommand of `bench` (registered by add_bench).
Action add_bench_depth(CLI::App& bench);
Action add_lfdepth(CLI::App& app);
// `bench lfdepth`, a subcommand of `bench` (registered by add_bench); *sub is set to it.
Action add_bench_lfdepth(CLI::App& bench, CLI::App** sub);
Action add_stereo(CLI::App& app);
// `bench stereo` (cmd_bench_stereo.cpp), a subcommand of `bench`; *sub is set to it.
Action add_bench_stereo(CLI::App& bench, CLI::App** sub);
// `bench local`, a subcommand of `bench` (registered by add_bench); *sub is set to it.
Action add_bench_local(CLI::App& bench, CLI::App** sub);
Action add_mad(CLI::App& app);
// `bench mad`, a subcommand of `bench` (registered by add_bench); *sub is set to it.
Action add_bench_mad(CLI::App& bench, CLI::App** sub);

}  // namespace lb::cli
