// Output of the bench commands (bench_output.hpp).
#include "bench_output.hpp"

#include <cstdio>

#include "cli_common.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/backend.hpp"

namespace lb::cli {

void emit_bench_report(const std::string& command, const bench::Report& rep, const std::string& json_path,
                       nlohmann::json parameters, const std::vector<std::string>& lifted) {
  std::printf("%s", bench::to_text(rep).c_str());
  if (json_path.empty()) return;
  Report r(command);
  r.root()["parameters"] = std::move(parameters);
  r.root()["backend"] = "cuda";
  r.root()["device"] = rep.device.describe();
  r.root()["bench"] = nlohmann::json::parse(bench::to_json(rep));
  for (const std::string& key : lifted)
    if (r.root()["bench"].contains(key)) r.root()[key] = r.root()["bench"][key];
  r.write(json_path);
}

void require_cuda_device(const std::string& command) {
  std::string why;
  if (!cuda_available(&why)) throw Error(command + " needs a CUDA device: " + why);
}

}  // namespace lb::cli
