// lightbench-cli bench's kernel-level benchmarks (CUDA builds; a build without CUDA has
// cmd_bench_unavailable.cpp instead): kernel variants timed with CUDA events (warm-up, many
// repetitions, median) next to a copy kernel measured in the same process. Each lives in
// cmd_bench_<what>.cpp and calls lb_bench (bench/). They predate the algorithm benches
// (cmd_bench.cpp: `bench <algorithm>` through the Runner) and go as the modules' workloads
// take over their rows of the budget table.
#include "commands.hpp"

namespace lb::cli {

void add_kernel_benches(CLI::App& app, std::vector<BenchSub>& subs) {
  auto add = [&](auto adder) {
    BenchSub s;
    s.run = adder(app, &s.app);
    subs.push_back(std::move(s));
  };
  add(add_bench_render);
  add(add_bench_depth);
  add(add_bench_lfdepth);
  add(add_bench_stereo);
  add(add_bench_local);
  add(add_bench_mad);
}

}  // namespace lb::cli
