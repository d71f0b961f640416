// `lightbench-cli bench <what>` as a user meets it without a GPU: every subcommand exists,
// documents its options (CUDA builds) and fails with one line naming what it needs: a CUDA
// device, or (a build without CUDA) a CUDA build. The benches themselves run in the GPU
// suite (tests/gpu/test_bench_gpu.cpp) and in scripts/gpu-check.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/backend.hpp"

using lbt::run_cli;

namespace {
const std::vector<std::pair<std::string, std::string>> kBenches{
    {"render", ""},         {"depth", " --preset tiny"}, {"lfdepth", " --lf /nonexistent-lf"},
    {"stereo", ""},         {"local", ""},               {"mad", ""}};
}

TEST_CASE("bench without a usable CUDA device: one line naming the bench and what it needs") {
  if (lb::cuda_available()) {
    MESSAGE("CUDA device present: the benches run in the GPU suite and scripts/gpu-check");
    return;
  }
  for (const auto& [what, args] : kBenches) {
    const lbt::CliRun r = run_cli("bench " + what + args);
    INFO("bench " << what << args << " -> " << r.output);
    CHECK(r.status != 0);
    CHECK(lbt::count_lines(r.output) == 1);
    CHECK(r.output.rfind("lightbench-cli: error: bench " + what + " needs a CUDA ", 0) == 0);
#ifdef LB_HAVE_CUDA
    CHECK(r.output.find("needs a CUDA device") != std::string::npos);
#else
    CHECK(r.output.find("needs a CUDA build") != std::string::npos);
#endif
  }
}

TEST_CASE("bench subcommands document their options") {
  for (const auto& [what, args] : kBenches) {
    const lbt::CliRun r = run_cli("bench " + what + " --help");
    INFO("bench " << what << " --help -> " << r.output);
    CHECK(r.status == 0);
#ifdef LB_HAVE_CUDA
    CHECK(r.output.find("--json") != std::string::npos);
    CHECK(r.output.find("--reps") != std::string::npos);
#else
    CHECK(r.output.find("built without CUDA") != std::string::npos);
#endif
  }
}
