#pragma once
// `batch`: one algorithm over every scene of a data set (batch_run.cpp), its CSV / JSON
// reports and `batch --merge` (batch_report.cpp). The CSV is the state of a batch: a row per
// scene and mask (or one error row, or one row of an IQA pair), keyed by the scene and the
// run's signature (algorithm, variant, params), appended as scenes finish and rewritten
// sorted at the end. The JSON report is built from those rows, so a merge of shards gives
// the report of a single run.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command_defs.hpp"
#include "csv_table.hpp"
#include "param_options.hpp"

namespace lb::cli {

struct BatchOptions {
  const AlgorithmSpec* spec = nullptr;
  CommandDef def;  // the algorithm's command (its primary output, aliases)
  std::shared_ptr<GivenParams> given = std::make_shared<GivenParams>();
  std::string dataset, out, variant, backend = "auto", layout = "auto", csv, json, device, devices, shard;
  double gt_scale = 0;
  bool no_resume = false;
};
void run_batch(const BatchOptions& o, const AlgorithmRegistry& reg);
void run_merge(const std::vector<std::string>& files, const std::string& csv, const std::string& json);

// ---- the CSV schema ---------------------------------------------------------------------
// scene, algorithm, variant, params, mask, <metric columns>, map, error, then the timing
// columns (the only ones that differ between runs of the same work).
extern const char* const kTimingColumns[4];  // open_ms, compute_ms, score_ms, write_ms
std::vector<std::string> batch_header(const std::vector<std::string>& metric_columns);
// The metric columns of a batch CSV's header (between "mask" and "map"); throws lb::Error
// naming `where` when the header is not a batch CSV's.
std::vector<std::string> batch_metric_columns(const std::vector<std::string>& header, const std::string& where);
// Sorts the rows by scene, signature and mask (the order of a single run's final CSV).
void sort_batch_rows(CsvTable& t);
bool is_timing_column(const std::string& name);

// The JSON report of the rows of one signature: "algorithm", "variant", "params", "scenes"
// ({"scene", "metrics": {mask: {key: value}}, "map", "timings"} | {"scene", "error"} |
// IQA {"scene", "score", "mos"}), "summary" (per-mask means), "failed", and for IQA
// "correlation" (eval::correlate of score vs MOS). The caller adds "run".
nlohmann::json batch_json(const CsvTable& t, const std::string& algorithm, const std::string& variant,
                          const std::string& params);

// Parsers of the options, one-line errors naming the option.
std::pair<int, int> parse_shard(const std::string& text);  // "K/N" -> (K, N)
std::vector<int> parse_devices(const std::string& text, const std::string& option);

}  // namespace lb::cli
