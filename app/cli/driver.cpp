#include "driver.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "cli_common.hpp"
#include "driver_state.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/error.hpp"
#include "option_checks.hpp"
#include "output_files.hpp"
#include "region.hpp"

namespace lb::cli {

namespace {

std::string method_names(const CommandDef& def) {
  std::string s;
  for (const auto& m : def.methods) s += (s.empty() ? "" : " | ") + m.name;
  return s;
}

void add_output_flags(CLI::App& app, CommandState& st) {
  for (const OutputAlias& a : st.def.outputs) {
    st.outputs.push_back({a.flags[0], a.output, a.role.empty() ? a.output : a.role, a.folder_outputs, ""});
    std::string names;
    for (const auto& f : a.flags) names += (names.empty() ? "" : ",") + f;
    CLI::Option* o = app.add_option(names, st.outputs.back().path, a.help);
    if (a.required) o->required();
  }
  // One flag per output of the spec(s): --<output>, or --<output>-out where the name is taken
  // (stereo's --left is the input).
  std::set<std::string> seen;
  std::vector<const AlgorithmSpec*> specs = st.specs;
  if (st.grid_spec) specs.push_back(st.grid_spec);
  for (const AlgorithmSpec* spec : specs)
    for (const OutputInfo& out : spec->outputs) {
      if (!seen.insert(out.name).second) continue;
      std::string flag = kebab(out.name);
      if (app.get_option_no_throw(flag) != nullptr) flag += "-out";
      if (app.get_option_no_throw(flag) != nullptr) continue;
      st.outputs.push_back({flag, out.name, out.name, {}, ""});
      const char* ext = out.format == SurfaceFormat::R32F ? " (.pfm exact, or .png for viewing)" : " (.png .jpg .bmp .ppm)";
      app.add_option(flag, st.outputs.back().path, out.label + ext);
    }
}

const MethodChoice& choose_method(const CommandState& st) {
  const CommandDef& def = st.def;
  if (def.methods.size() == 1) return def.methods[0];
  const std::string want = st.method.empty() ? def.default_method : lower(st.method);
  for (const auto& m : def.methods)
    if (m.name == want) return m;
  throw Error("--method " + quote_untrusted(st.method, 300) + ": use " + method_names(def));
}

// The folder of a folder output must take the files: an existing one each of them, a new
// one its parent.
void check_folder(const OutputFlag& o) {
  std::error_code ec;
  if (std::filesystem::exists(o.path, ec)) {
    if (!std::filesystem::is_directory(o.path, ec)) throw Error(o.flag + " '" + o.path + "': exists and is not a folder");
    for (const auto& name : o.folder_outputs)
      for (const char* ext : {".pfm", ".png"}) check_output_path(o.path + "/" + name + ext, o.flag);
  } else {
    check_output_path(o.path, o.flag);
  }
}

void print_summary(const CommandState& st, const RunRecord& rec, const AlgorithmData& data) {
  std::string files;
  for (const auto& w : rec.written) files += (files.empty() ? "" : ", ") + w.path;
  std::printf("%s: %s on %s [%s]: %.3f ms compute, %.3f ms wall%s%s\n", st.def.name.c_str(), rec.primary.c_str(),
              rec.device.c_str(), rec.last_variant.c_str(), median(rec.compute_ms), median(rec.wall_ms),
              files.empty() ? "" : " -> ", files.c_str());
  if (rec.scores.empty()) return;
  // One line per group of scores: the top level, then each nested group (the light field's
  // "refined" beside its raw WTA map's scores), named by its key.
  auto flat = [](const nlohmann::json& group) {
    std::string line;
    for (const auto& [k, v] : group.items())
      if (v.is_number() || v.is_string())
        line += (line.empty() ? "" : ", ") + k + " " + (v.is_string() ? v.get<std::string>() : v.dump());
    return line;
  };
  std::printf("%s %s\n", data.has_truth() ? "ground truth:" : "scores:", flat(rec.scores).c_str());
  for (const auto& [k, v] : rec.scores.items())
    if (v.is_object()) std::printf("  %s: %s\n", k.c_str(), flat(v).c_str());
  for (const auto& [mask, v] : rec.metrics.items())
    std::printf("%s %s: %s\n", rec.protocol.c_str(), mask.c_str(), flat(v).c_str());
}

}  // namespace

// A command with a general-grid algorithm has the flags of both; the one that runs refuses
// the other's (--lim on a hexagonal grid, --rings on a rectangular one) instead of ignoring them.
void check_foreign_params(const CommandState& st, const AlgorithmSpec& spec, const AlgorithmData& data) {
  if (!st.grid_spec || !spec.params) return;
  const ParamTable table = spec.params(&data);
  for (const auto& [name, g] : *st.given)
    if (!find_param(table.infos, name))
      throw Error(g.flag + " does not apply to " +
                  (&spec == st.grid_spec ? "a general micro-lens grid (--calib, a hexagonal preset)"
                                         : "a rectangular grid (it is for --calib or a hexagonal preset)"));
}

namespace {

void run_command(CommandState& st, const AlgorithmRegistry& reg) {
  const MethodChoice& method = choose_method(st);
  // A general micro-lens grid (a calibrated raw, a hexagonal preset) runs the command's
  // general-grid algorithm; its method's algorithm would refuse the data.
  const AlgorithmSpec& spec =
      st.grid_spec && st.opener->general_grid() ? *st.grid_spec : reg.get(method.algorithm);
  if (!st.views.empty()) return run_view_grid(st, spec);
  if (st.view_step != 0) throw Error("--view-step needs --views UxV");
  if (st.repeat < 1 || st.repeat > st.def.max_repeat)
    throw Error("--repeat must be in 1.." + std::to_string(st.def.max_repeat));
  // Every check that needs no data comes first, so a typo costs nothing.
  const std::string primary = primary_output(st.def, *st.given);
  std::set<std::string> paths;
  for (OutputFlag& o : st.outputs) {
    if (o.path.empty()) continue;
    if (!o.folder_outputs.empty()) {
      check_folder(o);
      continue;
    }
    if (o.output.empty()) o.output = primary;
    const OutputInfo* info = spec.output(o.output);
    if (!info) throw Error(o.flag + ": " + spec.id + " has no output '" + o.output + "'");
    check_output_extension(o.flag, o.path, info->format);
    check_output_path(o.path, o.flag);
    if (!paths.insert(std::filesystem::absolute(o.path).lexically_normal().string()).second)
      throw Error(o.flag + " '" + o.path + "': another output names the same file (each needs its own path)");
  }
  if (!st.json.empty() && paths.count(std::filesystem::absolute(st.json).lexically_normal().string()))
    throw Error("--json " + quote_untrusted(st.json, 300) + ": another output names the same file (each needs its own path)");
  const Region crop = parse_region("--crop", st.crop);
  RunRecord rec;
  rec.spec = &spec;
  rec.method = &method;
  rec.primary = primary;
  const BackendKind kind = choose_backend(reg, spec, st.backend, &rec.reason);
  std::string variant;
  try {
    variant = spec.variant_for(kind, st.variant, st.backend == "cpu");
  } catch (const Error& e) {
    throw Error(std::string("--variant: ") + e.what());
  }
  // A --method that names a family of variants (lfdepth): its default variant; on the CPU
  // it still tells the runner which reference method to compute.
  if (st.variant.empty() && !method.variant.empty()) variant = method.variant;
  rec.variant_requested = !st.variant.empty()        ? (kind == BackendKind::Cuda ? variant : st.variant)
                          : !method.variant.empty() ? method.variant
                                                    : spec.default_variant;

  ParamValues raw;
  for (const auto& [name, g] : *st.given)
    if (!g.none) raw[name] = g.value;
  const std::shared_ptr<const AlgorithmData> data = st.opener->open(raw);
  const ParamValues given = checked_values(*st.given, spec, *data);
  check_foreign_params(st, spec, *data);
  rec.values = complete_params(spec, *data, given);
  if (spec.validate) spec.validate(rec.values, *data);
  if (!data->has_truth())
    for (const OutputFlag& o : st.outputs)
      if (!o.path.empty() && o.folder_outputs.empty() && spec.output(o.output)->needs_truth)
        throw Error(o.flag + " needs ground truth (the data has none)");

  std::unique_ptr<Runner> runner = reg.make_runner(spec.id, kind);
  runner->set_data(data);
  rec.backend = to_string(runner->kind());
  rec.device = runner->device_name();
  // The primary output, --repeat times (its timings: the median), then each other output once.
  std::map<std::string, std::unique_ptr<HostSurface>> surfaces;
  auto run_output = [&](const std::string& name) -> HostSurface& {
    auto& s = surfaces[name];
    if (!s) {
      s = std::make_unique<HostSurface>(spec.output(name)->format);
      runner->run(rec.values, variant, name, *s);
    }
    return *s;
  };
  for (int k = 0; k < st.repeat; ++k) {
    if (st.repeat > 1) progress(st.def.name + " " + std::to_string(k + 1) + "/" + std::to_string(st.repeat));
    surfaces.erase(primary);
    runner->forget_results();  // each repeat computes (runners cache by parameters)
    const double recorded0 = runner->timings().total_recorded_ms();
    const auto t0 = std::chrono::steady_clock::now();
    run_output(primary);
    runner->synchronize();  // CUDA events are collected here
    rec.wall_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    rec.compute_ms.push_back(runner->timings().total_recorded_ms() - recorded0);
  }
  progress_done();
  for (const OutputFlag& o : st.outputs) {
    if (o.path.empty()) continue;
    for (const std::string& name : o.folder_outputs.empty() ? std::vector<std::string>{o.output} : o.folder_outputs)
      run_output(name);
  }
  runner->synchronize();
  rec.scores = runner->scores();
  // The benchmark protocol's metrics of the primary map (eval::evaluate: the numbers `eval`
  // gives for the same map), whole (--crop cuts the files only).
  if (const eval::Truth* truth = st.opener->truth(); truth && spec.output(primary)->format == SurfaceFormat::R32F) {
    eval::Truth t = *truth;
    if (t.protocol == eval::Protocol::Hci && rec.values.count("border"))
      t.border = static_cast<int>(rec.values.at("border"));  // the run's scoring border (HCI: 15)
    rec.metrics = eval::evaluate(surfaces.at(primary)->scalar(), t);
    rec.protocol = eval::to_string(t.protocol);
  }
  rec.last_variant = runner->last_variant().empty() ? "reference" : runner->last_variant();

  auto scale_of = [&](const std::string& name) -> const PngScale* {
    for (const auto& p : st.def.png)
      if (p.output == name) return &p;
    return nullptr;
  };
  for (const OutputFlag& o : st.outputs) {
    if (o.path.empty()) continue;
    if (!o.folder_outputs.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(o.path, ec);
      if (ec) throw Error(o.flag + " '" + o.path + "': cannot create the folder (" + ec.message() + ")");
      for (const auto& name : o.folder_outputs) {
        const HostSurface s = cropped(*surfaces.at(name), crop, "--crop");
        write_output(o.path + "/" + name + ".pfm", s, nullptr, rec.values);
        write_output(o.path + "/" + name + ".png", s, nullptr, rec.values);
        rec.written.push_back({name, o.path + "/" + name + ".pfm", s.width(), s.height()});
      }
      continue;
    }
    const HostSurface s = cropped(*surfaces.at(o.output), crop, "--crop");
    write_output(o.path, s, scale_of(o.output), rec.values);
    rec.written.push_back({o.role, o.path, s.width(), s.height()});
  }
  print_summary(st, rec, *data);
  if (!st.json.empty()) write_report(st, rec, *runner, *data);
}

}  // namespace

// Backend: the registry's choice; an algorithm without a CUDA runner runs on the CPU under
// --backend auto and is refused under --backend cuda.
BackendKind choose_backend(const AlgorithmRegistry& reg, const AlgorithmSpec& spec, const std::string& text,
                           std::string* reason) {
  const BackendRequest req = parse_backend_request(text);
  BackendKind kind = reg.choose(req, reason);
  if (kind == BackendKind::Cuda && !spec.cuda) {
    if (req == BackendRequest::Cuda) throw Error("--backend cuda: " + spec.id + " has no CUDA runner");
    kind = BackendKind::Cpu;
    *reason = "CPU: " + spec.id + " has no CUDA runner";
  }
  return kind;
}

Action add_compute_command(CLI::App& app, const CommandDef& def, const AlgorithmRegistry& registry) {
  auto st = std::make_shared<CommandState>();
  st->def = def;
  for (const auto& m : def.methods) st->specs.push_back(&registry.get(m.algorithm));
  const DataKind kind = st->specs.front()->data;
  for (const AlgorithmSpec* s : st->specs)
    LB_REQUIRE(s->data == kind, def.name + ": its methods run on different kinds of data");
  st->opener = make_opener(kind);
  st->opener->add_options(app);
  if (def.methods.size() > 1)
    app.add_option("--method", st->method, def.method_help)->default_str(def.default_method);
  // The general-grid algorithm's flags beside the method's (an id not registered: none).
  std::vector<const AlgorithmSpec*> flag_specs = st->specs;
  if (!def.general_grid_algorithm.empty()) st->grid_spec = registry.find(def.general_grid_algorithm);
  if (st->grid_spec) {
    LB_REQUIRE(st->grid_spec->data == kind, def.name + ": its general-grid algorithm runs on other data");
    flag_specs.push_back(st->grid_spec);
  }
  add_alias_options(app, def.aliases, flag_specs, st->given);
  add_param_options(app, flag_specs, st->given);
  add_output_flags(app, *st);
  std::string variants;
  std::vector<const AlgorithmSpec*> listed;  // lfdepth's methods share one spec: list it once
  for (const AlgorithmSpec* s : st->specs) {
    if (std::find(listed.begin(), listed.end(), s) != listed.end()) continue;
    listed.push_back(s);
    for (const auto& v : s->variants) variants += (variants.empty() ? "" : " | ") + v.name;
  }
  app.add_option("--variant", st->variant,
                 "kernel variant (CUDA; the CPU runs the reference): " + variants + "; see --help of the command");
  app.add_option("--backend", st->backend, "auto | cpu | cuda (auto: CUDA when usable)")->capture_default_str();
  app.add_option("--repeat", st->repeat, "run the primary output this many times (timings: median)")
      ->capture_default_str()
      ->check(int_in(1, def.max_repeat));
  if (!app.get_option_no_throw("--crop"))
    app.add_option("--crop", st->crop, "write only the region X,Y,W,H of each output (computed whole)");
  app.add_option("--json", st->json, "write a JSON report (parameters, backend, scores, timings)");
  if (def.view_grid) {
    app.add_option("--views", st->views,
                   "UxV: write a light field of U x V perspective views (view_U_V.png) into the --out folder");
    app.add_option("--view-step", st->view_step,
                   "with --views: raw pixels between neighbouring views, up to (D - M) / (max(U, V) - 1) (default: that or M / 4, the smaller)");
  }
  std::vector<std::string> ids;
  for (const AlgorithmSpec* s : st->specs) ids.push_back(s->id);
  if (st->grid_spec) ids.push_back(st->grid_spec->id);
  app.footer(describe_algorithms(registry, ids));
  const AlgorithmRegistry* reg = &registry;
  return [st, reg] {
    try {
      run_command(*st, *reg);
    } catch (const Error& e) {
      // A runner's memory refusal names its algorithm; the user typed a command.
      const std::string m = e.what();
      const auto at = m.find(": needs ");
      if (at != std::string::npos && m.find(" memory, limit ") != std::string::npos &&
          m.compare(0, at, st->def.name) != 0)
        throw Error(st->def.name + m.substr(at));
      throw;
    }
  };
}

std::string describe_algorithms(const AlgorithmRegistry& registry, const std::vector<std::string>& ids) {
  std::string s;
  for (const AlgorithmSpec& spec : registry.all()) {
    if (!ids.empty() && std::find(ids.begin(), ids.end(), spec.id) == ids.end()) continue;
    s += "\n" + spec.id + ": " + spec.name + " (" + to_string(spec.data) + ")\n  variants (CUDA):";
    for (const auto& v : spec.variants)
      s += "\n    " + v.name + (v.name == spec.default_variant ? " (default)" : "") + ": " + v.note;
    s += "\n  outputs:";
    for (const auto& o : spec.outputs)
      s += "\n    " + o.name + (o.format == SurfaceFormat::R32F ? " [R32F]" : " [RGBA8]") + ": " + o.label +
           (o.needs_truth ? " (with ground truth)" : "") + (o.input ? " (the data)" : "");
    s += "\n";
  }
  return s;
}

}  // namespace lb::cli
