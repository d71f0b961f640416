// lightbench-cli bench's kernel-level benchmarks in a build without CUDA: the commands exist
// (scripts and users find them) and each says in one line that it needs a CUDA build; there are
// no kernels to time. `bench <algorithm>` (cmd_bench.cpp) runs on the CPU here.
#include "commands.hpp"
#include "lightbench/error.hpp"

namespace lb::cli {

void add_kernel_benches(CLI::App& app, std::vector<BenchSub>& subs) {
  for (const char* name : {"render", "depth", "lfdepth", "stereo", "local", "mad-kernels"}) {
    BenchSub s;
    s.app = app.add_subcommand(name, std::string("kernel benchmark: ") + name + " (built without CUDA: unavailable)");
    s.app->footer("This lightbench was built without CUDA: the kernel benchmarks need a CUDA build.");
    s.app->allow_extras();  // `bench render --preset seed ...`: the words reach the message below
    const std::string what = name;
    s.run = [what] {
      throw Error("bench " + what + " needs a CUDA build: this lightbench was built without CUDA (configure with a "
                  "CUDA toolkit and -DLB_WITH_CUDA=ON)");
    };
    subs.push_back(std::move(s));
  }
}

}  // namespace lb::cli
