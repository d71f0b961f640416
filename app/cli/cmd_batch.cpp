// `batch ALGO --dataset DIR --out DIR ...` (one subcommand per registered algorithm, with its
// parameters as the compute commands take them) and `batch --merge A.csv B.csv ... --csv OUT`.
#include "batch.hpp"
#include "commands.hpp"
#include "driver.hpp"
#include "lightbench/error.hpp"
#include "option_checks.hpp"

namespace lb::cli {

namespace {

// The algorithm's documented command (stereo, lfdepth, mad: their primary output and
// aliases), else its generic one.
CommandDef command_of(const AlgorithmSpec& spec, const AlgorithmRegistry& registry) {
  for (const CommandDef& d : documented_commands(registry))
    for (const MethodChoice& m : d.methods)
      if (m.algorithm == spec.id) return d;
  return generic_command(spec);
}

}  // namespace

Action add_batch(CLI::App& app, const AlgorithmRegistry& registry) {
  auto merge = std::make_shared<std::vector<std::string>>();
  auto merge_csv = std::make_shared<std::string>(), merge_json = std::make_shared<std::string>();
  app.add_option("--merge", *merge, "join the CSV files of shards (--shard K/N) into one report")->expected(1, -1);
  app.add_option("--csv", *merge_csv, "--merge: the joined CSV");
  app.add_option("--json", *merge_json, "--merge: the JSON report of the joined rows");
  app.require_subcommand(0, 1);
  std::vector<std::pair<CLI::App*, std::shared_ptr<BatchOptions>>> subs;
  for (const AlgorithmSpec& spec : registry.all()) {
    auto o = std::make_shared<BatchOptions>();
    o->spec = &spec;
    o->def = command_of(spec, registry);
    CLI::App* sub = app.add_subcommand(spec.id, "run " + spec.id + " over every scene of a data set");
    sub->add_option("--dataset", o->dataset,
                    "a scene folder, a folder of scene folders, a KITTI training folder or an IQA database")
        ->required();
    sub->add_option("--out", o->out, "folder for the maps (<scene>.pfm; KITTI also <scene>.png, 16-bit)");
    sub->add_option("--layout", o->layout, "the data set's layout (default: detected)")->capture_default_str();
    sub->add_option("--gt-scale", o->gt_scale, "Middlebury 2001-2006: truth value per disparity")
        ->check(real_in(1e-6, 1e6));
    add_alias_options(*sub, o->def.aliases, {&spec}, o->given);
    add_param_options(*sub, {&spec}, o->given);
    sub->add_option("--variant", o->variant, "kernel variant (CUDA; the CPU runs the reference)");
    sub->add_option("--backend", o->backend, "auto | cpu | cuda")->capture_default_str();
    sub->add_option("--csv", o->csv, "CSV of the rows (appended per scene; resumed)");
    sub->add_option("--json", o->json, "JSON report (per scene metrics, per-mask means, throughput)");
    sub->add_option("--device", o->device, "the CUDA device to run on");
    sub->add_option("--devices", o->devices, "CUDA devices, one worker each (e.g. 0,1)");
    sub->add_option("--shard", o->shard, "K/N: only the scenes i with i % N == K (0-based, sorted by name)");
    sub->add_flag("--no-resume", o->no_resume, "start the CSV over instead of skipping the scenes it has");
    sub->footer(describe_algorithms(registry, {spec.id}));
    subs.emplace_back(sub, o);
  }
  const AlgorithmRegistry* reg = &registry;
  return [=] {
    for (const auto& [sub, o] : subs)
      if (sub->parsed()) {
        if (!merge->empty()) throw Error("batch: --merge takes no algorithm");
        return run_batch(*o, *reg);
      }
    if (merge->empty())
      throw Error("batch: name an algorithm (" + [&] {
        std::string s;
        for (const auto& [sub, o] : subs) s += (s.empty() ? "" : ", ") + sub->get_name();
        return s;
      }() + ") or give --merge");
    run_merge(*merge, *merge_csv, *merge_json);
  };
}

}  // namespace lb::cli
