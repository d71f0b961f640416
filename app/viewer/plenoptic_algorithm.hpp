#pragma once
// Focused-plenoptic rendering (../shared/specs/plenoptic.md) as a viewer algorithm:
// variants Original / Sync / NoSync (the Original with the seed's four switches), live
// parameters from lb::describe(RenderParams&, grid), output "view" (RGBA8).
#include "algorithm.hpp"

namespace lb::viewer {

class PlenopticAlgorithm final : public Algorithm {
 public:
  explicit PlenopticAlgorithm(const PlenopticGrid& grid);
  std::string name() const override { return "plenoptic render"; }
  std::vector<std::string> variants() const override;
  int current_variant() const override;
  void set_variant(int index) override;
  std::vector<AlgorithmOutput> outputs() const override;
  std::vector<ParamInfo> live_params(const PlenopticGrid& grid) override;
  bool draw_controls(const PlenopticGrid& grid) override;
  void fit_to_grid(const PlenopticGrid& grid) override;
  void reset_params(const PlenopticGrid& grid) override;
  std::string run_key(const PlenopticGrid& grid, const PaneRun& run,
                      const std::string& output) override;
  void run(ComputeBackend& backend, const PlenopticGrid& grid, const PaneRun& run,
           const std::string& output, Surface& out) override;
  nlohmann::json run_json(const PlenopticGrid& grid, const PaneRun& run) override;

 private:
  // The panel's parameters with a pane's variant / parameter override applied.
  void effective(const PlenopticGrid& grid, const PaneRun& run, RenderParams* p,
                 RenderConfig* c) const;
  RenderParams params_;
  RenderConfig config_;
};

}  // namespace lb::viewer
