#pragma once
// The built-in algorithms (one engine file each under engine/src/algorithms/): their specs
// and their typed parameters as the runners read them from ParamValues. The runner factories
// over each algorithm's compute engine are internal (lightbench/engines/*.hpp).
#include <memory>

#include "lightbench/algorithm.hpp"
#include "lightbench/backend.hpp"
#include "lightfield/cae.hpp"
#include "plenoptic_hex/hex_tables.hpp"
#include "lightfield/lf_refine.hpp"
#include "mad/mad.hpp"
#include "plenoptic/plenoptic_depth.hpp"
#include "stereo_bp/stereo_bp.hpp"
#include "stereo_local/stereo_local.hpp"

namespace lb {

// ---- plenoptic: render, depth, all-in-focus (seed 000) -------------------------------
struct PlenopticRunParams {
  RenderParams render;
  OriginalSwitches switches;
  DepthParams depth;  // patch and lim are the render's
};
// The table bound to p; ranges from the grid (nullptr: without data).
std::vector<ParamInfo> describe(PlenopticRunParams& p, const PlenopticGrid* grid);
PlenopticRunParams plenoptic_params(const ParamValues& values, const PlenopticGrid& grid);
AlgorithmSpec plenoptic_spec();

// ---- plenoptic on any micro-lens grid (issue 22: hexagonal, rotated, multi-focus) -----
// Parameters on the scene's geometry (scene_geometry): depth's patch, rings and lens_types
// are the render's.
HexRunParams plenoptic_hex_params(const ParamValues& values, const MlaGeometry& geometry);
AlgorithmSpec plenoptic_hex_spec();
// "hexagonal", "rectangular, rotated by 11.5 degrees", "hexagonal, 3 lens types".
std::string mla_grid_summary(const MlaGeometry& g);

// ---- 4D light field: view, refocus, CAE depth (seed 003) ------------------------------
struct LightFieldRunParams {
  int u = 0, v = 0;        // the view shown by "view"
  float refocus = 0.0f;    // disparity brought into focus by "refocus"
  int aperture = 2;        // refocus aperture radius in views
  CaeParams cae;           // method from the variant
  int refine_mode = 2;     // the "refined" output's steps: 1 filter, 2 + sub-pixel, 3 + weighted median
  LfRefineParams refine;   // its parameters (mode set from refine_mode)
  int border = 15;         // scoring: pixels left out at each edge (HCI: 15; less for small fields)
};
std::vector<ParamInfo> describe(LightFieldRunParams& p, const LightField4D* lf);
LightFieldRunParams lightfield_params(const ParamValues& values, const LightField4D& lf);
AlgorithmSpec lightfield_spec();
// The method a CAE variant computes (from the spec's variant table).
CaeMethod cae_variant_method(const std::string& variant);
std::vector<std::string> cae_variant_names();

// ---- stereo (seeds 004, 002) -----------------------------------------------------------
AlgorithmSpec stereo_bp_spec();
AlgorithmSpec stereo_local_spec();
stereo::BpParams stereo_bp_params(const ParamValues& values);
stereo::LocalParams stereo_local_params(const ParamValues& values);

// ---- MAD (seed 001) ----------------------------------------------------------------------
AlgorithmSpec mad_spec();

// The unbound form of a bound table (names, kinds, ranges) and its values: a ParamTable.
ParamTable param_table(const std::vector<ParamInfo>& bound);

}  // namespace lb
