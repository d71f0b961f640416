// `lightbench-cli bench <algorithm>` as a user meets it without a GPU: every registered
// algorithm's default workload through its CPU runner, its report and its errors; the CUDA
// options (--cold-l2, --floor) refused on the CPU in one line; the kernel-level benches of old
// (bench render, depth, lfdepth, stereo, local, mad-kernels) are gone. On the GPU: scripts/gpu-check.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/backend.hpp"
#include "test_util.hpp"

using lbt::run_cli;

TEST_CASE("bench: the kernel-level benches are gone; bench names the algorithms") {
  for (const char* gone : {"render", "depth", "lfdepth", "stereo", "local", "mad-kernels"}) {
    const lbt::CliRun r = run_cli(std::string("bench ") + gone + " --reps 1");
    INFO(gone << " -> " << r.output);
    CHECK(r.status != 0);
    CHECK(lbt::count_lines(r.output) == 1);
  }
  const lbt::CliRun h = run_cli("bench --help");
  CHECK(h.status == 0);
  for (const lb::AlgorithmSpec& spec : lb::builtin_registry().all()) CHECK(h.output.find(spec.id) != std::string::npos);
  const lbt::CliRun p = run_cli("bench plenoptic --help");
  CHECK(p.output.find("--cold-l2") != std::string::npos);
  CHECK(p.output.find("--floor") != std::string::npos);
}

TEST_CASE("bench <algorithm>: --cold-l2 and --floor on the CPU are one line each, nothing written") {
  lbt::TempDir dir{"bench-cpu-options"};
  const lbt::CliRun c = run_cli("bench plenoptic --backend cpu --cold-l2 --reps 1 --json " + dir.file("c.json"));
  INFO(c.output);
  CHECK(c.status != 0);
  CHECK(lbt::count_lines(c.output) == 1);
  CHECK(c.output.find("--cold-l2: the L2 is a CUDA device's") != std::string::npos);
  const lbt::CliRun f = run_cli("bench plenoptic --backend cpu --floor --reps 1 --warmup 0 --json " + dir.file("f.json"));
  INFO(f.output);
  CHECK(f.status != 0);
  CHECK(lbt::count_lines(f.output) == 1);
  CHECK(f.output.find("--floor: the cpu runner has no floor for output 'view'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.file("c.json")));
  CHECK_FALSE(std::filesystem::exists(dir.file("f.json")));
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
    CHECK(e["bit_identical"] == true);  // the reference is
    REQUIRE(e["output_size"].size() == 2);
    CHECK(e["output_size"][0].get<int>() > 0);
    CHECK(e["output_size"][1].get<int>() > 0);
    CHECK(j["cold_l2"] == false);
    CHECK_FALSE(j.contains("floor"));
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
