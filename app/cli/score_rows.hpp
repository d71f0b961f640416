#pragma once
// Scores as rows: eval::evaluate's {mask: {key: value}} becomes one CSV row per scene and
// mask, the metric keys as columns in one documented order; the rows become the JSON report's
// "scenes" and its per-mask means ("summary"), and the table printed on stdout. `eval` and
// `batch` (and `batch --merge`) share it, so their reports agree key for key.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "csv_table.hpp"
#include "lightbench/dataset.hpp"
#include "lightbench/evaluation.hpp"

namespace lb::cli {

// The metric keys of a protocol, in column order (evaluation.hpp's names).
std::vector<std::string> metric_keys(eval::Protocol p);
// The masks eval::evaluate reports for a protocol (sorted): a scene's rows are whole when
// they have each (batch's resume).
std::vector<std::string> protocol_masks(eval::Protocol p);
// The protocol a layout's truth is scored by (IQA layouts: none, returns false).
bool protocol_of(dataset::Layout l, eval::Protocol* out);
// Every key of the given metric objects (or key lists) in the canonical order; keys that no
// protocol lists come last, sorted.
std::vector<std::string> ordered_keys(const std::vector<std::string>& keys);
std::vector<std::string> keys_of(const nlohmann::json& metrics);  // all keys under every mask

// The masks of a metrics object in row order (sorted by name).
std::vector<std::string> masks_of(const nlohmann::json& metrics);

// Rows -> {"scene", "metrics": {mask: {key: value}}} | {"scene", "error"} per scene, in the
// rows' order. key_cols: the metric columns; scene_col, mask_col, error_col: their indices.
struct RowLayout {
  int scene = 0, mask = -1, error = -1;
  std::vector<int> metrics;  // columns whose non-empty cells are numbers under metrics.<mask>
};
RowLayout row_layout(const CsvTable& t, const std::vector<std::string>& metric_columns);
nlohmann::json scenes_json(const CsvTable& t, const RowLayout& l);
// Mean of each key per mask over the scenes that have it finite ("scenes" counted per mask).
// A metric cell: the number's shortest round-trip text, "nan" for null (a value over no pixel).
std::string metric_cell(const nlohmann::json& v);
nlohmann::json summary_json(const nlohmann::json& scenes);

// The readable table: one line per row (scene, mask, the metric columns that have a value
// anywhere), errors as "scene  error: ..." lines, then the per-mask means.
void print_table(const CsvTable& t, const RowLayout& l, const nlohmann::json& summary);

}  // namespace lb::cli
