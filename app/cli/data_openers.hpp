#pragma once
// One opener per kind of data (DataKind), shared by every algorithm on that kind: its
// options, and the AlgorithmData it opens. Plenoptic scene: --scene | --raw --pitch
// [--offset --grid] | --preset [--seed]; light field: --lf DIR [--grid UxV --gt FILE];
// stereo pair: --scene DIR | --left --right [--gt --gt-scale --mask-* ]; image pair:
// --ref --dist. Dataset layout detection belongs here too, once per kind.
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "lightbench/algorithm.hpp"
#include "lightbench/evaluation.hpp"

namespace lb::cli {

class DataOpener {
 public:
  virtual ~DataOpener() = default;
  virtual void add_options(CLI::App& app) = 0;
  // `given`: the parameter values from the command line (a generated preset's ground truth is
  // made at the requested patch size). Throws lb::Error naming the file or option.
  virtual std::shared_ptr<const AlgorithmData> open(const ParamValues& given) = 0;
  // What the report records about the data: parameters.source, size, grid, ...; and
  // report.ground_truth (its source, or "none").
  virtual void describe(nlohmann::json& parameters, nlohmann::json& report) const = 0;
  // The opened data's truth for eval::evaluate (the report's "metrics": the numbers `eval`
  // gives for the same map), nullptr when the data has none or its kind has no protocol.
  virtual const eval::Truth* truth() const { return nullptr; }
  // Whether the data its options name has a general micro-lens grid (a plenoptic --calib or
  // hexagonal preset), known before anything is read: the command then runs its
  // general_grid_algorithm (command_defs.hpp).
  virtual bool general_grid() const { return false; }
};

std::unique_ptr<DataOpener> make_opener(DataKind kind);

}  // namespace lb::cli
