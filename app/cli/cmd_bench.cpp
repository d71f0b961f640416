// lightbench-cli bench: kernel variants timed with CUDA events (warm-up, many repetitions,
// median) next to a copy kernel measured in the same process (CUDA builds; a build without
// CUDA has cmd_bench_unavailable.cpp instead). Each subcommand lives in cmd_bench_<what>.cpp
// and calls lb_bench (bench/).
#include "commands.hpp"

namespace lb::cli {

Action add_bench(CLI::App& app) {
  app.require_subcommand(1);
  struct Sub {
    CLI::App* app = nullptr;
    Action run;
  };
  std::vector<Sub> subs;
  auto add = [&](auto adder) {
    Sub s;
    s.run = adder(app, &s.app);
    subs.push_back(std::move(s));
  };
  add(add_bench_render);
  add(add_bench_depth);
  add(add_bench_lfdepth);
  add(add_bench_stereo);
  add(add_bench_local);
  add(add_bench_mad);
  return [subs] {
    for (const Sub& s : subs)
      if (s.app->parsed()) return s.run();
  };
}

}  // namespace lb::cli
