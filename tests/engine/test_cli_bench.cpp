// `lightbench-cli bench <what>` as a user meets it without a GPU. The kernel-level benches:
// every subcommand exists, documents its options (CUDA builds) and fails with one line naming
// what it needs: a CUDA device, or (a build without CUDA) a CUDA build; they run in the GPU
// suite (tests/gpu/test_bench_gpu.cpp) and in scripts/gpu-check. `bench <algorithm>`: every
// registered algorithm's default workload through its CPU runner, its report and its errors.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/backend.hpp"
#include "test_util.hpp"

using lbt::run_cli;

namespace {
const std::vector<std::pair<std::string, std::string>> kBenches{
    {"render", ""},         {"depth", " --preset tiny"}, {"lfdepth", " --lf /nonexistent-lf"},
    {"stereo", ""},         {"local", ""},               {"mad-kernels", ""}};
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

TEST_CASE("bench <algorithm>: every registered algorithm's default workload through its CPU runner") {
  lbt::TempDir dir{"bench-algorithms"};
  const lb::AlgorithmRegistry& reg = lb::builtin_registry();
  for (const lb::AlgorithmSpec& spec : reg.all()) {
    INFO(spec.id);
    REQUIRE_MESSAGE(!spec.workloads.empty(), spec.id << " declares no benchmark workload");
    const std::string json = dir.file(spec.id + ".json");
    const lbt::CliRun r = run_cli("bench " + spec.id + " --backend cpu --reps 2 --warmup 1 --json " + json);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("workload " + spec.workloads.front().name) != std::string::npos);
    const auto j = lbt::read_json(json)["bench"];
    CHECK(j["algorithm"] == spec.id);
    CHECK(j["workload"] == spec.workloads.front().name);
    CHECK(j["backend"] == "cpu");
    CHECK(j["reps"] == 2);
    REQUIRE(j["entries"].size() == 1);
    const auto& e = j["entries"][0];
    CHECK(e["variant"] == "reference");
    CHECK(e["wall_median_ms"].get<double>() > 0.0);
    CHECK(e["compute_median_ms"].get<double>() > 0.0);
    REQUIRE(!e["timings"].empty());
    for (const auto& [row, t] : e["timings"].items()) {
      INFO(row);
      CHECK(t["count"].get<int>() >= 2);  // every timed run records each of its rows
      CHECK(t["median_ms"].get<double>() >= 0.0);
    }
  }
}

TEST_CASE("bench <algorithm>: workloads in --help; a bad workload or a kernel on the CPU is one line") {
  const lbt::CliRun h = run_cli("bench stereo-bp --help");
  CHECK(h.status == 0);
  CHECK(h.output.find("like-reference") != std::string::npos);
  CHECK(h.output.find("--workload") != std::string::npos);
  const lbt::CliRun w = run_cli("bench stereo-bp --backend cpu --workload huge");
  CHECK(w.status != 0);
  CHECK(lbt::count_lines(w.output) == 1);
  CHECK(w.output.find("no workload 'huge' (known: small, 450x375x64, like-reference)") != std::string::npos);
  const lbt::CliRun k = run_cli("bench mad --backend cpu --variant fused");
  CHECK(k.status != 0);
  CHECK(lbt::count_lines(k.output) == 1);
  CHECK(k.output.find("CUDA kernel of mad") != std::string::npos);
  const lbt::CliRun reps = run_cli("bench mad --backend cpu --reps 0");
  CHECK(reps.status != 0);
  CHECK(lbt::count_lines(reps.output) == 1);
}

TEST_CASE("bench <algorithm>: --variant all on the CPU times the reference and the CPU variants") {
  // The built-in algorithms have CUDA variants only: all = the reference.
  lbt::TempDir dir{"bench-all"};
  const lbt::CliRun r = run_cli("bench stereo-local --backend cpu --variant all --reps 1 --warmup 0 --json " +
                                dir.file("a.json"));
  INFO(r.output);
  REQUIRE(r.status == 0);
  const auto j = lbt::read_json(dir.file("a.json"))["bench"];
  REQUIRE(j["entries"].size() == 1);
  CHECK(j["entries"][0]["ran"] == "reference");
}
