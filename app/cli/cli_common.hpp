#pragma once
// Pieces shared by the CLI commands: option parsing helpers, the JSON report, progress.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "lightbench/backend.hpp"
#include "lightbench/lightfield.hpp"
#include "lightbench/plenoptic_params.hpp"
#include "lightbench/timing.hpp"

namespace lb::cli {

// "a,b" -> pair; throws lb::Error naming the option on bad input.
std::pair<double, double> parse_pair(const std::string& option, const std::string& text);
// --grid "UxV" of a numbered light-field folder ("" : inferred) -> load options; throws
// lb::Error on bad input.
LightFieldLoadOptions parse_lf_grid(const std::string& text);

// JSON report written with --json: every command records its parameters, backend, device,
// outputs and timings. Written atomically (temp file + rename).
class Report {
 public:
  explicit Report(std::string command);
  nlohmann::json& root() { return j_; }
  void add_output(const std::string& role, const std::string& path, int w, int h);
  void add_timings(const TimingRegistry& reg);
  void write(const std::string& path) const;

 private:
  nlohmann::json j_;
};

nlohmann::json to_json(const PlenopticGrid& g);
nlohmann::json to_json(const RenderParams& p);

// One-line progress on stderr when it is a terminal ("bench: original 3/5").
void progress(const std::string& line);
void progress_done();

// A command that finished its outputs but reports a partial failure (`eval` with a scene
// missing its map, `batch` with a failed scene) sets 1 here: main commits the outputs and
// then exits with it.
void set_exit_status(int status);
int exit_status();

// Small helpers more than one command uses.
std::string lower(std::string s);                 // ASCII lower case
double median(std::vector<double> v);             // the upper median; 0 for none
// The generator presets of general (hexagonal) micro-lens grids (assets/plenoptic_hex/): the
// one place the CLI reads that asset kind.
std::vector<std::string> general_grid_presets();
bool is_hex_preset(const std::string& name);      // one of general_grid_presets()

}  // namespace lb::cli
