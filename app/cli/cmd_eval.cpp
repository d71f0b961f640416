// `eval`: scores maps made by any method against a data set's truth by the data set's own
// protocol (eval::evaluate, the one implementation), or an IQA method's scores against the
// database's human scores (eval::correlate). A table on stdout, --json and --csv reports.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>

#include "cli_common.hpp"
#include "commands.hpp"
#include "csv_table.hpp"
#include "lightbench/atomic_file.hpp"
#include "lightbench/error.hpp"
#include "lightbench/input_file.hpp"
#include "map_match.hpp"
#include "option_checks.hpp"
#include "score_rows.hpp"

namespace lb::cli {

namespace {

namespace fs = std::filesystem;

struct EvalOptions {
  std::string dataset, disp, scores, layout = "auto", method, json, csv;
  double gt_scale = 0;
};

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

std::string stem(const std::string& n) {
  const auto dot = n.rfind('.');
  return dot == std::string::npos ? n : n.substr(0, dot);
}

void write_text(const std::string& path, const std::string& text, const char* option) {
  try {
    write_file_atomic(path, text);
  } catch (const Error& e) {
    throw Error(std::string(option) + " " + e.what());
  }
}

nlohmann::json report_head(const EvalOptions& o, const dataset::Dataset& ds, const std::string& protocol) {
  nlohmann::json j;
  j["tool"] = "lightbench-cli";
  j["command"] = "eval";
  j["dataset"] = ds.root;
  j["layout"] = dataset::to_string(ds.layout);
  j["protocol"] = protocol;
  j["method"] = o.method;
  return j;
}

// Disparity maps against the scenes' truth.
void eval_maps(const EvalOptions& o, const dataset::Dataset& ds) {
  if (o.disp.empty()) throw Error("eval: give --disp FILE|DIR (a map, or a folder of maps named by scene)");
  std::error_code ec;
  const bool folder = fs::is_directory(o.disp, ec);
  if (!folder && !fs::is_regular_file(o.disp, ec)) throw Error("--disp '" + o.disp + "': no such file or folder");
  if (!folder && ds.scenes.size() != 1)
    throw Error("--disp '" + o.disp + "' is one map, the data set has " + std::to_string(ds.scenes.size()) +
                " scenes: give a folder of maps named by scene");
  struct Result {
    std::string scene, error;
    nlohmann::json metrics;
    std::string protocol;
  };
  std::vector<Result> results;
  std::vector<std::string> keys;
  std::string protocol;
  for (const dataset::SceneRef& ref : ds.scenes) {
    Result r{ref.name, "", nlohmann::json::object(), ""};
    try {
      std::string path = o.disp;
      if (folder) {
        const MapMatch m = find_map(o.disp, ref.name);
        if (m.path.empty()) throw Error(m.error);
        path = m.path;
      }
      const dataset::OpenedScene sc = dataset::open_scene(ref, o.gt_scale);
      if (!sc.has_truth) throw Error("no ground truth in '" + ref.path + "'");
      const ImageF map = dataset::load_disparity_map(path);
      const ImageF& g = sc.truth.stereo.disparity;
      if (map.width != g.width || map.height != g.height || map.channels != 1)
        throw Error("'" + path + "' is " + size_text(map.width, map.height) +
                    (map.channels != 1 ? " with " + std::to_string(map.channels) + " channels" : std::string()) +
                    ", the truth '" + sc.truth_path + "' is " + size_text(g.width, g.height));
      r.metrics = eval::evaluate(map, sc.truth);
      r.protocol = eval::to_string(sc.truth.protocol);
      for (const auto& k : keys_of(r.metrics)) keys.push_back(k);
    } catch (const Error& e) {
      r.error = e.what();
    }
    if (!r.protocol.empty()) protocol = protocol.empty() || protocol == r.protocol ? r.protocol : "mixed";
    results.push_back(std::move(r));
  }
  // One scene that cannot be scored is a plain error (one line, nothing written), like any
  // compute command's; over several scenes a failure is an error row and the rest are scored.
  if (results.size() == 1 && !results[0].error.empty()) throw Error("eval: " + results[0].error);
  CsvTable t;
  const std::vector<std::string> cols = ordered_keys(keys);
  t.header = {"scene", "method", "mask"};
  t.header.insert(t.header.end(), cols.begin(), cols.end());
  t.header.push_back("error");
  int failed = 0;
  for (const Result& r : results) {
    if (!r.error.empty()) {
      ++failed;
      std::vector<std::string> row(t.header.size());
      row[0] = r.scene, row[1] = o.method, row.back() = r.error;
      t.rows.push_back(row);
      continue;
    }
    for (const std::string& mask : masks_of(r.metrics)) {
      std::vector<std::string> row(t.header.size());
      row[0] = r.scene, row[1] = o.method, row[2] = mask;
      for (std::size_t c = 0; c < cols.size(); ++c)
        if (const auto& g = r.metrics[mask]; g.contains(cols[c])) row[3 + c] = metric_cell(g[cols[c]]);
      t.rows.push_back(row);
    }
  }
  const RowLayout l = row_layout(t, cols);
  nlohmann::json scenes = scenes_json(t, l);
  // The per-scene metrics exactly as eval::evaluate gave them (the CSV rows hold the same
  // numbers, written to round-trip).
  for (std::size_t i = 0; i < results.size(); ++i)
    if (results[i].error.empty()) scenes[i]["metrics"] = results[i].metrics, scenes[i]["protocol"] = results[i].protocol;
  const nlohmann::json summary = summary_json(scenes);
  std::printf("eval: %s (%s, %s) vs %s\n", o.method.c_str(), ds.root.c_str(), dataset::to_string(ds.layout),
              protocol.empty() ? "no truth scored" : protocol.c_str());
  print_table(t, l, summary);
  if (failed) std::printf("%d of %zu scenes not scored\n", failed, results.size());
  if (!o.csv.empty()) write_text(o.csv, csv_text(t), "--csv");
  if (!o.json.empty()) {
    nlohmann::json j = report_head(o, ds, protocol);
    j["scenes"] = scenes;
    j["summary"] = summary;
    j["failed"] = failed;
    write_text(o.json, j.dump(2) + "\n", "--json");
  }
  if (failed) set_exit_status(1);
}

// "name,score" rows (a header line is skipped when its score is not a number): a regular file
// of at most 64 MiB, read by the one CSV reader (lb::csv::parse_scores).
std::map<std::string, double> read_scores(const std::string& path) {
  return lb::csv::parse_scores(read_text_file(path, "--scores", kCsvFileLimit),
                               "--scores " + quote_untrusted(path, 4096));
}

// An IQA method's scores against the database's MOS / DMOS.
void eval_scores(const EvalOptions& o, const dataset::Dataset& ds) {
  if (o.scores.empty()) throw Error("eval: an IQA database (" + std::string(dataset::to_string(ds.layout)) +
                                    ") is scored with --scores FILE ('name,score' rows), not --disp");
  std::map<std::string, double> scores = read_scores(o.scores);
  CsvTable t;
  t.header = {"scene", "method", "score", "mos", "error"};
  std::vector<double> objective, mos;
  nlohmann::json scenes = nlohmann::json::array();
  int missing = 0;
  for (const dataset::SceneRef& ref : ds.scenes) {
    auto it = scores.find(lower(ref.name));
    if (it == scores.end()) it = scores.find(lower(stem(ref.name)));
    if (it == scores.end()) {
      ++missing;
      t.rows.push_back({ref.name, o.method, "", number_text(ref.mos), "no score in " + o.scores});
      scenes.push_back({{"scene", ref.name}, {"error", "no score in " + o.scores}});
      continue;
    }
    objective.push_back(it->second);
    mos.push_back(ref.mos);
    t.rows.push_back({ref.name, o.method, number_text(it->second), number_text(ref.mos), ""});
    scenes.push_back({{"scene", ref.name}, {"score", it->second}, {"mos", ref.mos}});
    scores.erase(it);
  }
  if (!scores.empty())
    throw Error("--scores '" + o.scores + "': '" + scores.begin()->first + "' is not an image of '" + ds.root + "'" +
                (scores.size() > 1 ? " (and " + std::to_string(scores.size() - 1) + " more)" : ""));
  const eval::IqaCorrelation c = eval::correlate(objective, mos);
  const char* against = ds.is_dmos ? "DMOS" : "MOS";
  std::printf("eval: %s (%s, %s) vs %s of %zu images\n", o.method.c_str(), ds.root.c_str(),
              dataset::to_string(ds.layout), against, c.n);
  std::printf("srocc %.4f  krocc %.4f  plcc %.4f\n", c.srocc, c.krocc, c.plcc);
  std::printf("logistic b1..b5 %.6g %.6g %.6g %.6g %.6g (%s)\n", c.fit.b[0], c.fit.b[1], c.fit.b[2], c.fit.b[3],
              c.fit.b[4], c.fit.converged ? "converged" : "did not converge");
  if (missing) std::printf("%d of %zu images have no score\n", missing, ds.scenes.size());
  if (!o.csv.empty()) write_text(o.csv, csv_text(t), "--csv");
  if (!o.json.empty()) {
    nlohmann::json j = report_head(o, ds, ds.is_dmos ? "iqa-dmos" : "iqa-mos");
    j["scenes"] = scenes;
    j["summary"] = eval::to_json(c);
    for (const char* k : {"srocc", "krocc", "plcc"}) j[k] = j["summary"][k];
    j["failed"] = missing;
    write_text(o.json, j.dump(2) + "\n", "--json");
  }
  if (missing) set_exit_status(1);
}

void run_eval(EvalOptions o) {
  if (!o.disp.empty() && !o.scores.empty()) throw Error("eval: --disp and --scores exclude each other");
  for (const auto* out : {&o.csv, &o.json})
    if (!out->empty()) check_output_path(*out, out == &o.csv ? "--csv" : "--json");
  if (!o.csv.empty() && !o.json.empty() && fs::absolute(o.csv).lexically_normal() == fs::absolute(o.json).lexically_normal())
    throw Error("--csv '" + o.csv + "': the same file as --json (each output needs its own path)");
  progress("eval: opening " + o.dataset + " ...");
  const dataset::Dataset ds = dataset::open_dataset(o.dataset, o.layout);
  progress_done();
  if (o.method.empty()) {
    const std::string src = !o.disp.empty() ? o.disp : o.scores;
    o.method = fs::path(src).lexically_normal().filename().string();
    if (o.method.empty() || o.method == ".") o.method = fs::path(src).lexically_normal().parent_path().filename().string();
    o.method = stem(o.method);
  }
  if (data_kind(ds.layout) == DataKind::ImagePair) eval_scores(o, ds);
  else {
    if (!o.scores.empty())
      throw Error("--scores: '" + o.dataset + "' is a " + dataset::to_string(ds.layout) + " data set; give --disp");
    eval_maps(o, ds);
  }
}

}  // namespace

Action add_eval(CLI::App& app) {
  auto o = std::make_shared<EvalOptions>();
  app.add_option("--dataset", o->dataset,
                 "a scene folder, a folder of scene folders, a KITTI training folder or an IQA database")
      ->required();
  app.add_option("--disp", o->disp,
                 "a disparity map (.pfm, or 16-bit .png in the KITTI convention) or a folder of maps named by scene "
                 "(<scene>.pfm, <scene>.png or <scene>/disp0*.pfm)");
  app.add_option("--scores", o->scores, "IQA: a CSV of 'name,score' rows (any method's scores)");
  app.add_option("--layout", o->layout, "the data set's layout: auto (from the files), middlebury2001, middlebury2014, "
                 "kitti, hci, tid2013, kadid10k")->capture_default_str();
  app.add_option("--gt-scale", o->gt_scale, "Middlebury 2001-2006: truth value per disparity (default: the published)")
      ->check(real_in(1e-6, 1e6));
  app.add_option("--method", o->method, "the method's name in the reports (default: --disp's or --scores' name)");
  app.add_option("--json", o->json, "JSON report: per scene metrics by mask, per-mask means");
  app.add_option("--csv", o->csv, "CSV report: one row per scene and mask (scene,method,mask,<metrics>,error)");
  return [o] { run_eval(*o); };
}

}  // namespace lb::cli
