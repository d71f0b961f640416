#pragma once
// What every `bench <what>` command does with its report (CUDA builds only): the text table
// on stdout and, with --json, the command's JSON report.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lightbench/bench/report.hpp"

namespace lb::cli {

// Prints bench::to_text(rep). With a json_path, writes the command's report: "parameters",
// "backend" ("cuda"), "device" (one line) and the bench's own JSON under "bench"; the keys
// in `lifted` are copied from the bench's JSON to the root as well (when present).
void emit_bench_report(const std::string& command, const bench::Report& rep, const std::string& json_path,
                       nlohmann::json parameters, const std::vector<std::string>& lifted = {});

// Throws "<command> needs a CUDA device: <why>" unless a CUDA device is usable.
void require_cuda_device(const std::string& command);

}  // namespace lb::cli
