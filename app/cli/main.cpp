// lightbench-cli: the engine headless — generate scenes, render, benchmark — with JSON
// reports. Errors print one line and exit non-zero.
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "cli_common.hpp"
#include "command_defs.hpp"
#include "commands.hpp"
#include "driver.hpp"
#include "lightbench/runners.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/error.hpp"
#include "lightbench/memory_budget.hpp"

namespace {

// Commands whose --out is a folder: generate, generate-stereo, render --views, and batch's
// (batch ALGO --out DIR).
bool folder_out(const CLI::App& sub) {
  // render --views only (lfdepth's --views is its angular window).
  const CLI::Option* views = sub.get_name() == "render" ? sub.get_option_no_throw("--views") : nullptr;
  return sub.get_name() == "generate" || sub.get_name() == "generate-stereo" || (views && views->count() > 0) ||
         (sub.get_parent() && sub.get_parent()->get_name() == "batch");
}

// Every file output of the chosen (sub)commands is checked before any work: its directory
// exists and accepts a new file, the path is not a directory. (generate's --out is a folder.)
void check_output_options(const CLI::App& app) {
  for (const CLI::App* sub : app.get_subcommands()) {
    // Each output file once: two options naming one file would leave only the later write.
    std::map<std::string, std::string> seen;  // normalised path -> the option that names it
    for (const char* name : {"--out", "--json", "--error-map", "--aif"}) {
      const CLI::Option* opt = sub->get_option_no_throw(name);
      if (!opt || opt->count() == 0) continue;
      if (std::string(name) == "--out" && folder_out(*sub)) continue;  // a folder
      const std::string path = opt->as<std::string>();
      lb::check_output_path(path, name);
      std::error_code ec;
      std::string key = std::filesystem::weakly_canonical(path, ec).string();
      if (ec) key = std::filesystem::absolute(path, ec).lexically_normal().string();
      const auto [it, fresh] = seen.emplace(key, name);
      if (!fresh)
        throw lb::Error(std::string(name) + " '" + path + "': the same file as " + it->second +
                        " (each output needs its own path)");
    }
    // Folder outputs (generate --out, mad --maps): created when missing, but never a file.
    for (const char* name : {"--out", "--maps"}) {
      const CLI::Option* opt = sub->get_option_no_throw(name);
      if (!opt || opt->count() == 0) continue;
      if (std::string(name) == "--out" && !folder_out(*sub)) continue;
      const std::string path = opt->as<std::string>();
      std::error_code ec;
      if (std::filesystem::exists(path, ec) && !std::filesystem::is_directory(path, ec))
        throw lb::Error(std::string(name) + " '" + path + "': exists and is not a folder");
    }
    check_output_options(*sub);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"lightbench-cli: GPU light-field, stereo and image-quality algorithms, headless"};
  app.footer("Algorithms (each command's --help lists its own; variants run on CUDA, the CPU runs the reference):\n" +
             lb::cli::describe_algorithms(lb::builtin_registry(), {}));
  app.require_subcommand(1);
  app.set_version_flag("--version", "lightbench 0.1.0");
  // Memory limits (memory_budget.hpp), accepted before or after the command.
  std::string max_memory, max_device_memory;
  auto add_memory_options = [&](CLI::App& a) {
    a.add_option("--max-memory", max_memory,
                 "host memory limit, e.g. 512M, 8G (default: LB_MAX_MEMORY, else half the RAM)");
    a.add_option("--max-device-memory", max_device_memory,
                 "CUDA device memory limit, e.g. 2G (default: LB_MAX_DEVICE_MEMORY, else none)");
  };
  add_memory_options(app);
  std::map<CLI::App*, lb::cli::Action> actions;
  auto add = [&](const char* name, const char* help, auto adder) {
    CLI::App* sub = app.add_subcommand(name, help);
    actions[sub] = adder(*sub);
    add_memory_options(*sub);
  };
  add("generate", "write a synthetic focused-plenoptic raw, its ground truth and scene file",
      lb::cli::add_generate);
  add("generate-stereo", "write a folder of synthetic stereo scenes with truth (Middlebury 2014 layout)",
      lb::cli::add_generate_stereo);
  // The compute commands: the documented ones, then one per registered algorithm that no
  // documented command is named after (plug-ins such as the test build's absdiff), all from
  // the one driver over the algorithm contract.
  const lb::AlgorithmRegistry& registry = lb::builtin_registry();
  std::vector<lb::cli::CommandDef> defs = lb::cli::documented_commands(registry);
  for (const lb::AlgorithmSpec& spec : registry.all()) {
    bool named = false;
    for (const auto& d : defs) named = named || d.name == spec.id;
    if (!named) defs.push_back(lb::cli::generic_command(spec));
  }
  for (const lb::cli::CommandDef& def : defs)
    add(def.name.c_str(), def.help.c_str(),
        [&](CLI::App& sub) { return lb::cli::add_compute_command(sub, def, registry); });
  add("eval", "score any method's disparity maps (or IQA scores) against a data set's truth by its protocol",
      lb::cli::add_eval);
  add("batch", "run an algorithm over every scene of a data set: maps, scores, timings (resumable, sharded)",
      [&](CLI::App& sub) { return lb::cli::add_batch(sub, registry); });
  add("bench", "time an algorithm's variants on its workloads (median), through its runner",
      [&](CLI::App& sub) { return lb::cli::add_bench(sub, registry); });
  // CLI11's messages, one line each, like every other error.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "lightbench-cli: error: " + lb::safe_line(e.what()) + "\n";  // option values echoed back
  });
  // A mistyped command is named as such (CLI11 would only say "A subcommand is required").
  std::string names;
  bool known = false;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    known = known || (argc >= 2 && sub->get_name() == argv[1]);
    names += (names.empty() ? "" : ", ") + sub->get_name();
  }
  if (argc < 2) {
    std::fprintf(stderr, "lightbench-cli: error: no command given (commands: %s; --help)\n", names.c_str());
    return 2;
  }
  if (argv[1][0] != '-') {
    if (!known) {
      std::fprintf(stderr, "lightbench-cli: error: unknown command %s (commands: %s)\n",
                   lb::quote_untrusted(argv[1]).c_str(), names.c_str());
      return 2;
    }
    // The same for a command's own commands (bench render | depth | ...).
    CLI::App* cmd = app.get_subcommand(argv[1]);
    const auto subs = cmd->get_subcommands([](CLI::App*) { return true; });
    if (!subs.empty() && argc >= 3 && argv[2][0] != '-') {
      std::string sub_names;
      bool sub_known = false;
      for (const CLI::App* sub : subs) {
        sub_known = sub_known || sub->get_name() == argv[2];
        sub_names += (sub_names.empty() ? "" : ", ") + sub->get_name();
      }
      if (!sub_known) {
        std::fprintf(stderr, "lightbench-cli: error: unknown command %s (%s commands: %s)\n",
                     lb::quote_untrusted(std::string(argv[1]) + " " + argv[2]).c_str(), argv[1], sub_names.c_str());
        return 2;
      }
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    // Every output of the run is staged (unique temp files, fully written and synced) and
    // renamed into place together only when the command succeeded: a failure touches nothing.
    if (!max_memory.empty()) lb::set_max_host_memory(lb::parse_memory_size(max_memory, "--max-memory"));
    if (!max_device_memory.empty())
      lb::set_max_device_memory(lb::parse_memory_size(max_device_memory, "--max-device-memory"));
    (void)lb::max_host_memory();  // a malformed LB_MAX_MEMORY / LB_MAX_DEVICE_MEMORY is refused first
    (void)lb::max_device_memory();
    lb::OutputTransaction outputs;
    check_output_options(app);
    for (auto* sub : app.get_subcommands()) actions.at(sub)();
    outputs.commit();
  } catch (const lb::Error& e) {
    // One clean line whatever the message quoted (lb::safe_line: no raw control byte, NUL or
    // newline reaches the terminal; the parts were quoted with lb::quote_untrusted already).
    std::fprintf(stderr, "lightbench-cli: error: %s\n", lb::safe_line(e.what()).c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lightbench-cli: error: %s\n", lb::safe_line(e.what()).c_str());
    return 1;
  }
  // A command that wrote its reports but had a failing part (eval: a scene without a map;
  // batch: a failed scene) exits 1 after its outputs are in place.
  return lb::cli::exit_status();
}
