// lightbench-cli bench in a build without CUDA: the command exists (scripts and users find
// it) and says in one line that it needs a CUDA build; there are no kernels to time.
#include "commands.hpp"
#include "lightbench/error.hpp"

namespace lb::cli {

Action add_bench(CLI::App& app) {
  app.footer("This lightbench was built without CUDA: every bench needs a CUDA build.");
  app.allow_extras();  // `bench render --preset seed ...`: the words reach the message below
  return [&app] {
    const std::vector<std::string> rest = app.remaining();
    const std::string what = !rest.empty() && rest.front().rfind('-', 0) != 0 ? "bench " + rest.front() : "bench";
    throw Error(what + " needs a CUDA build: this lightbench was built without CUDA (configure with a CUDA "
                       "toolkit and -DLB_WITH_CUDA=ON)");
  };
}

}  // namespace lb::cli
